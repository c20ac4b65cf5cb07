/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: the friction of pair_style gran/coulomb (internal fix
   DEMC/COULOMB_FRICTION, made and placed by the pair style).

   Exact Coulomb friction needs every other force of the step: its static
   part cancels the relative tangential acceleration that they give. So the
   pair style computes only the normal forces and hands each contact here
   (add_contact()); this fix's post_force() runs after every other force
   contribution (the pair style puts it last in the fix list at every init,
   and init() stops if a fix that could still change forces follows it or
   overrides forces before it), brings the ghost atoms' forces and torques up
   to date, decides each contact's friction (kernels/coulomb_friction.h) and
   adds it, ghosts' shares summed to their owners.

   Many contacts: by default every contact is decided at once from the
   forces without friction (the paper's direct treatment); with the pair
   style's iterate keyword, projected Gauss-Seidel sweeps over the contacts
   of a rank, the friction forces exchanged between ranks after each sweep,
   until no contact's force would change by more than tol times the
   largest mu F_N.
------------------------------------------------------------------------- */

#ifdef FIX_CLASS
// clang-format off
FixStyle(DEMC/COULOMB_FRICTION,FixCoulombFriction);
// clang-format on
#else

#ifndef DEMC_FIX_COULOMB_FRICTION_H
#define DEMC_FIX_COULOMB_FRICTION_H

#include "fix.h"

#include "coulomb_friction.h"

#include <vector>

namespace LAMMPS_NS {

class PairGranCoulomb;

class FixCoulombFriction : public Fix {
 public:
  // a contact of particle p with particle q, or with a wall (q < 0)
  struct Contact {
    int p, q;
    int q_sum;                    // where q's friction is summed in the sweeps (see prepare())
    demc::Vec3 n;                 // unit normal from p to q
    demc::Vec3 r_p, r_q;          // contact point from p's centre and from q's centre (wall: axis)
    demc::Vec3 wall_v, wall_w;    // a wall's velocity and spin (q < 0)
    demc::Vec3 wall_move;         // the wall's movement at the contact point over the step
    class FixWallGranCoulomb *wall;    // the wall fix of a wall contact
    double limit;                      // mu F_N
    double weight;      // share of this rank in the energy sums (1/2: newton off, ghost q)
    double *history;    // friction force on p (3), state, work
    // the solver's
    double inv_mass;        // 1 / m_t (Eq. 24)
    demc::Vec3 force;       // friction on p
    demc::Vec3 u_before;    // relative tangential velocity before the kick
    demc::Vec3 u_after;     // and after it
    bool sticks;
  };

  FixCoulombFriction(class LAMMPS *, int, char **);
  int setmask() override;
  void init() override;
  void setup(int) override;
  void post_force(int) override;
  void reset_dt() override;
  int pack_forward_comm(int, int *, double *, int, int *) override;
  void unpack_forward_comm(int, int, double *) override;
  int pack_reverse_comm(int, int, double *) override;
  void unpack_reverse_comm(int, int *, double *) override;
  double memory_usage() override;

  PairGranCoulomb *pair;
  void clear_contacts() { contacts.clear(); }
  void add_contact(const Contact &c) { contacts.push_back(c); }

 private:
  std::vector<Contact> contacts;
  // this rank's friction forces and torques per atom (6 a row, local and ghost), and the totals
  // over all ranks (owned atoms; ghosts: their owner's)
  std::vector<double> mine, total;
  enum CommMode { OTHER_FORCES, FRICTION_TOTALS };
  CommMode comm_mode;
  double dt;
  int frozen_groupbit, norotate_groupbit;

  void check_fix_order();
  void check_not_rotating() const;
  demc::coulomb::Body body(int k, bool with_friction) const;
  demc::coulomb::Body wall_body(const Contact &c) const;
  void prepare(double h);
  int solve(double h, double &residual);
  int repeat_last_step();
  void exchange();
  void add_to_totals(const Contact &c, const demc::Vec3 &df, std::vector<double> &a) const;
  double sweep_residual(double h);
  void apply(double h, bool advance, int sweeps, double residual);
};

}    // namespace LAMMPS_NS

#endif
#endif
