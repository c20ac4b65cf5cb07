/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: what the package's granular pair styles share.

   PairGranDemc does the LAMMPS side that does not depend on the contact law:
   input checks, neighbor requests, cutoffs from particle radii, the
   geometry and movements of a contact over one step (the input of every
   kernel), applying a contact force with its torques, energy and virial
   tallies, the energy vector read by compute pair, and the unique ID of a
   style's history fix. Derived styles add the law's coefficients, history
   and the kernel call.
------------------------------------------------------------------------- */

#ifndef DEMC_PAIR_GRAN_DEMC_H
#define DEMC_PAIR_GRAN_DEMC_H

#include "pair.h"

#include "kernel_common.h"

#include <string>

namespace LAMMPS_NS {

class PairGranDemc : public Pair {
 public:
  PairGranDemc(class LAMMPS *, const char *style_name);
  ~PairGranDemc() override;
  void init_style() override;
  void reset_dt() override;
  double memory_usage() override;

  // layout of pvector (compute pair <style>): stored normal and tangential elastic energy,
  // cumulative friction and damping dissipation, contacts, sliding contacts
  enum EnergyIndex { E_NORMAL, E_TANGENTIAL, E_FRICTION, E_DAMPING, E_CONTACTS, E_SLIDING, E_SIZE };

  // one contact over one step, as the kernels take it; p and q as in the papers:
  // n points from p to q, du is the movement of q relative to p at the contact (Eq. 5)
  struct Contact {
    int p, q;                       // atom indices
    double r, overlap;              // centre distance and overlap at t+dt
    demc::Vec3 n, n_old;            // normals at t+dt and t
    demc::Vec3 r_p, r_q;            // centre to contact point (middle of the overlap)
    demc::Vec3 du_p, du_q, dth_p, dth_q;    // translations and rotations over the step
    demc::Vec3 du;                  // Eq. 5
  };

 protected:
  std::string style_name;
  double dt;
  int history_index;    // makes the history fix ID unique within this LAMMPS instance
  double dissipated_damping;    // this rank's cumulative sum
  double *onerad_dynamic, *maxrad_dynamic;
  int neighprev;

  void allocate_base();
  void set_max_radii();
  double contact_cutoff(int i, int j) const;
  std::string history_fix_id() const;
  void choose_history_index();
  int find_neighbor_index(int i, int j);

  // the contact of atoms p and q at centre distance r
  Contact make_contact(int p, int q, double r, bool advance) const;
  // add force on p (and -force on q) with torques; tally energy and virial for list pair (i, j)
  void apply_force(const Contact &c, const demc::Vec3 &force_on_p, int i, int j, double energy);
  demc::Vec3 damping_force(const Contact &c, double nu_n, double nu_t) const;
  double pair_weight(int j) const;    // 1, or 1/2 for a pair computed on two ranks (newton off)

  void write_double(FILE *fp, double value) const;
  double read_double(FILE *fp);
};

}    // namespace LAMMPS_NS

#endif
