/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: per-atom energy bookkeeping of the package's contact laws.

   Each contact gives half of its energies to each of its two atoms:
     column 1: stored normal elastic energy        (current; steps that tally energy)
     column 2: stored tangential elastic energy    (current; steps that tally energy)
     column 3: cumulative tangential work          (every step)
     column 4: cumulative damping dissipation      (every step)
   The friction dissipation of an atom is column 3 - column 2. The cumulative
   columns migrate with the atoms and are kept in restart files. With newton on,
   the shares of ghost atoms are sent to their owners (reverse communication).
   Output: f_ID[1..4] in dump custom, compute reduce, atom-style variables.
   It also carries the pair style's system-wide cumulative sums through restart
   files: Pair::write_restart() runs on rank 0 alone and cannot sum over ranks,
   Fix::write_restart() runs on all ranks.
------------------------------------------------------------------------- */

#ifdef FIX_CLASS
// clang-format off
FixStyle(DEMC/ATOM_ENERGY,FixDemcAtomEnergy);
// clang-format on
#else

#ifndef DEMC_FIX_DEMC_ATOM_ENERGY_H
#define DEMC_FIX_DEMC_ATOM_ENERGY_H

#include "demc_restart_records.h"
#include "fix.h"

namespace LAMMPS_NS {

class FixDemcAtomEnergy : public Fix {
 public:
  enum Column { STORED_NORMAL, STORED_TANGENTIAL, WORK_TANGENTIAL, DISSIPATED_DAMPING, NCOLS };

  FixDemcAtomEnergy(class LAMMPS *, int, char **);
  ~FixDemcAtomEnergy() override;
  int setmask() override { return 0; }
  double memory_usage() override;
  void grow_arrays(int) override;
  void copy_arrays(int, int, int) override;
  void set_arrays(int) override;
  int pack_exchange(int, double *) override;
  int unpack_exchange(int, double *) override;
  int pack_reverse_comm(int, int, double *) override;
  void unpack_reverse_comm(int, int *, double *) override;
  int pack_restart(int, double *) override;
  void unpack_restart(int, int) override;
  int size_restart(int) override { return demc_restart::peratom_record_size(NCOLS); }
  int maxsize_restart() override { return demc_restart::peratom_record_size(NCOLS); }

  // the pair style's step: begin, add each contact's shares, end
  void begin_step(bool stored_is_tallied);
  void add(int i, double stored_n, double stored_t, double work_t, double damp)
  {
    double *s = step_share[i];
    s[STORED_NORMAL] += stored_n;
    s[STORED_TANGENTIAL] += stored_t;
    s[WORK_TANGENTIAL] += work_t;
    s[DISSIPATED_DAMPING] += damp;
  }
  void end_step();
  // the pair style's system-wide cumulative sums (tangential, damping; this rank's shares),
  // which this fix keeps in restart files
  void attach(double *tangential_sum, double *dissipated_damping);
  void write_restart(FILE *) override;
  void restart(char *) override;

 private:
  double **values;        // per owned atom, the NCOLS columns (array_atom)
  double **step_share;    // this step's shares, owned and ghost atoms

  int nmax_share;
  bool tally_stored;
  double *pair_sums[2];    // the pair style's tangential and damping sums (null: none yet)
  double restored_sums[2];
  bool have_restored_sums;
};

}    // namespace LAMMPS_NS

#endif
#endif
