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
   style's iterate keyword, the friction-only problem of the step (a convex
   quadratic over a product of discs, kernels/coulomb_friction.h) is solved
   by accelerated projected gradient sweeps (every contact's force updated
   from the friction totals of the previous iterate, exchanged between
   ranks) and one local relaxation (each rank's contacts one by one, in the
   order of their particles' IDs, so that neither the atoms' order nor the
   neighbour list's changes its path).
------------------------------------------------------------------------- */

#ifdef FIX_CLASS
// clang-format off
FixStyle(DEMC/COULOMB_FRICTION,FixCoulombFriction);
// clang-format on
#else

#ifndef DEMC_FIX_COULOMB_FRICTION_H
#define DEMC_FIX_COULOMB_FRICTION_H

#include "fix.h"

#include "coulomb_step.h"

#include <vector>

namespace LAMMPS_NS {

class PairGranCoulomb;

class FixCoulombFriction : public Fix {
 public:
  // a contact of particle p with particle q, or with a wall (q < 0): what the styles hand over
  // (104 bytes: a run's direct pass reads these alone)
  struct Contact {
    Contact() {}    // (no zeroing: the styles set what they use)
    int p, q;
    int wall;        // a wall contact's part in walls
    demc::Vec3 n;    // unit normal from p to q
    // the contact point at arm_p n from p's centre and (particle q) at -arm_q n from q's
    double arm_p, arm_q;
    double limit;       // mu F_N
    double weight;      // share of this rank in the energy sums (1/2: newton off, ghost q)
    double *history;    // friction force on p (3), state (PairGranCoulomb::HistoryIndex)
    // the tangential velocity of q relative to p at the contact point before the kick, as the
    // CPU pair loop found it at a run's step (the run's direct pass books the work with it; the
    // general path computes its own, velocity_now())
    demc::Vec3 u_now;
  };
  // the general path's solution of contact k (solved[k]: setup, iterate, wall contacts)
  struct Solution {
    double inv_mass;        // 1 / m_t (Eq. 24)
    demc::Vec3 v_free;      // relative tangential velocity after the kick without this friction
    demc::Vec3 u_before;    // relative tangential velocity before the kick
    demc::Vec3 force;       // friction on p
    demc::Vec3 u_after;     // relative tangential velocity after the kick with the friction
    bool sticks;
  };
  // the wall of a wall contact: its velocity and spin, the contact point from its axis, its
  // movement at the contact point over the step, its fix
  struct WallPart {
    demc::Vec3 v, w, r_q, move;
    class FixWallGranCoulomb *fix;
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
  void clear_contacts()
  {
    contacts.clear();
    walls.clear();
  }
  // a contact of two spheres (row: demc::coulomb::contact_step()'s; u_now: see Contact)
  void add_contact(int p, int q, const demc::coulomb::FrictionRow &row, double weight,
                   double *history, const demc::Vec3 &u_now)
  {
    Contact &c = contacts.emplace_back();
    fill(c, p, row, weight, history);
    c.q = q;
    c.u_now = u_now;
  }
  // a contact of particle p with a wall (row: as for add_contact()); returns its handle
  int add_wall_contact(int p, const demc::coulomb::FrictionRow &row, double *history,
                       const WallPart &w)
  {
    Contact &c = contacts.emplace_back();
    fill(c, p, row, 1.0, history);
    c.q = -1;
    c.wall = (int) walls.size();
    walls.push_back(w);
    return (int) contacts.size() - 1;
  }
  // the history of contact `handle` (add_wall_contact()) now lies at `history` (a region
  // wall's list of its particle's records)
  void move_history(int handle, double *history) { contacts[handle].history = history; }

  /* for a pair style that makes the direct decision itself (PairGranCoulomb::decide_friction()):
     the groups of frozen and of non-rotating particles, and the friction totals per atom (6 a
     row, local and ghost, zero at the start of the pass): it puts this rank's contributions in,
     exchange_totals() makes them the totals over all ranks (ghosts: their owner's) */
  int frozen_groups() const { return frozen_groupbit; }
  int norotate_groups() const { return norotate_groupbit; }
  std::vector<double> &friction_totals() { return total; }
  void exchange_totals() { exchange(true); }

 private:
  std::vector<Contact> contacts;
  std::vector<Solution> solved;
  std::vector<WallPart> walls;
  // per atom (local and ghost), one cache line (a contact's partner costs one miss, not two):
  // the velocity and spin after the kick of every other force, 1/m and 1/I (0 frozen, 1/I 0 not
  // rotating)
  struct alignas(64) AtomRow {
    double free[6];
    double inv_m, inv_I;
  };
  std::vector<AtomRow> atom_rows;
  // the friction forces and torques per atom (6 a row, local and ghost): this rank's
  // contributions, then (exchange()) the totals over all ranks (ghosts: their owner's)
  std::vector<double> total;
  // per atom (local and ghost), the iterated solver's friction totals as velocity changes per
  // unit time (1/m f, 1/I t) beside 1/m and 1/I: a contact's scatter and gather touch its two
  // atoms' rows here alone
  struct alignas(64) KickRow {
    double rate[6];
    double inv_m, inv_I;
  };
  std::vector<KickRow> kicks;
  // the iterates of the Jacobi-type methods (per contact): forces and the velocities after
  // the kick they give, in the contact's tangent basis (demc::tangent_basis() of its normal)
  std::vector<demc::Vec2> gamma, u_gamma, y, u_y, trial, u_trial;
  // the solver's data of contact k in one 96-byte row, made once a step: a sweep's two passes
  // read these rows alone (not the contact's and its solution's 216 bytes)
  struct SolverRow {
    int p, q;
    demc::Vec3 n;
    double arm_p, arm_q;
    double inv_mass, mass_h, limit, weight;    // 1/m_t, m_t/h (cf::mass_over_h())
    demc::Vec2 v_free;
  };
  std::vector<SolverRow> rows;
  // per atom (local and ghost), the kick row its contacts use: its own, or for a ghost that is an
  // image of an atom this rank owns, that atom's (the solver's rows name these)
  std::vector<int> kick_row;
  // the local relaxation (relax_locally()): the contacts at each kick row (CSR: those of row i
  // are touching[touching_start[i]] up to touching_start[i + 1]), and each contact's turn
  std::vector<int> touching_start, touching;
  enum Turn : char { IDLE, DUE, LEFT };    // LEFT: listed on two ranks, left to the sweeps
  std::vector<Turn> due;
  // a due contact's place in the relaxation's order, which the neighbour list's order and the
  // atoms' order do not change: its particles' IDs, the lower first (a wall contact: its
  // particle's and its wall fix's place), then its index (which orders only one particle's
  // contacts with one wall fix, added in the same order in every run)
  struct RelaxKey {
    tagint low, high;
    int k;
    bool operator>(const RelaxKey &o) const
    {
      return low != o.low ? low > o.low : high != o.high ? high > o.high : k > o.k;
    }
  };
  // the contacts due in this wave (a heap: the first in the order on top) and in the next one
  std::vector<RelaxKey> wave, next_wave;
  enum CommMode { OTHER_FORCES, FRICTION_TOTALS, FRICTION_KICKS };
  CommMode comm_mode;
  double dt;
  double largest_limit;    // over all ranks, this step
  int frozen_groupbit, norotate_groupbit;

  static void fill(Contact &c, int p, const demc::coulomb::FrictionRow &row, double weight,
                   double *history)
  {
    c.p = p;
    c.n = row.n;
    c.arm_p = row.arm_p;
    c.arm_q = row.arm_q;
    c.limit = row.limit;
    c.weight = weight;
    c.history = history;
  }
  void check_fix_order();
  void check_not_rotating() const;
  void prepare_atoms(double h);
  void prepare(bool decide, double h);
  double inverse_mass(const Contact &c) const;
  void decide_run_step(double h);
  double report_run_step(double h);
  static void write_decision(double *hist, const demc::Vec3 &force, bool sticks);
  double add_totals(double h);
  demc::Vec3 wall_velocity(const Contact &c) const;
  demc::Vec3 velocity_now(const Contact &c) const;
  demc::Vec3 velocity_free(const Contact &c) const;
  demc::Vec3 friction_kick(const Contact &c, double h) const;
  demc::Vec2 warm_start(const Contact &c, const Solution &s, const demc::TangentBasis &t) const;
  int solve_iterated(double h, double &residual);
  void clear_kicks(bool with_masses);
  void add_to_kicks(const SolverRow &c, const demc::Vec3 &df);
  void exchange_kicks();
  double *exchanged_row(int i);
  void start_solution(const Contact &c, Solution &s) const;
  void reduce_largest_limit(double local);
  void prepare_solver(double h);
  void fold_ghosts();
  void list_contacts_by_atom();
  void relax_locally(double h);
  bool relax_contact(int k, double h, double change2);
  RelaxKey relax_key(int k) const;
  void make_neighbours_due(const RelaxKey &at);
  void kicks_from_iterates();
  demc::Vec2 rates_kick(const SolverRow &c, const demc::TangentBasis &t, double h) const;
  double start_iterates(double h);
  double global_residual(double local2) const;
  void step_to_trials(double step, double h, bool extrapolate, double beta);
  double measure_trials(double h, double *sums);
  void sum_over_ranks(double *values, int n) const;
  void take_iterate(int k, double h);
  int repeat_last_step(double h);
  void exchange(bool to_ghosts);
  void exchange_to_ghosts();
  template <class Row> void add_to_totals(const Row &c, const demc::Vec3 &df);
  demc::Vec3 velocity_after(int k, double h) const
  {
    return solved[k].v_free + friction_kick(contacts[k], h);
  }
  void out_of_sweeps(int sweeps, double residual) const;
  // how a step's friction forces were found
  enum Outcome { DECIDED, REPEATED, ITERATED };
  void apply(double h, bool advance, Outcome outcome, int sweeps, double residual);
};

}    // namespace LAMMPS_NS

#endif
#endif
