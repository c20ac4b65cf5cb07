/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: a part of PairGranDemc (pair_gran_demc.h). Per-atom
   energies (keyword energy/atom yes) through the internal fix
   DEMC/ATOM_ENERGY, which also keeps the style's cumulative sums in
   restart files: made at init in the place of a placeholder (so that it
   receives its per-atom restart data after a read_restart), begun and
   ended with each compute(), each contact giving half of its energies to
   each of its two atoms.
------------------------------------------------------------------------- */

#ifndef DEMC_PAIR_GRAN_DEMC_ENERGY_H
#define DEMC_PAIR_GRAN_DEMC_ENERGY_H

#include <string>

namespace LAMMPS_NS {

class DemcAtomEnergyShares {
 public:
  // fix_id: the fix's ID (DemcHistoryFixes::atom_energy_fix_id())
  DemcAtomEnergyShares(class LAMMPS *lmp, const std::string &fix_id) : lmp(lmp), fix_id(fix_id) {}
  void add_placeholder();    // constructor
  /* init_style(): the fix in the placeholder's place, given the style's cumulative sums
     (tangential, damping), which it keeps in restart files */
  void attach(double *tangential_sum, double *dissipated_damping);
  void remove();    // destructor

  void begin(int eflag);
  void end();
  void tally(int p, int q, double stored_n, double stored_t, double work_t, double damp);

 private:
  class LAMMPS *lmp;
  std::string fix_id;
  class FixDemcAtomEnergy *fix = nullptr;
};

}    // namespace LAMMPS_NS

#endif
