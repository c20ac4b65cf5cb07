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

namespace LAMMPS_NS {

class DemcAtomEnergyShares {
 protected:
  class FixDemcAtomEnergy *atom_energy = nullptr;
  void add_atom_energy_placeholder();    // constructor
  void attach_atom_energy_fix();         // init_style(): the fix in the placeholder's place
  void delete_atom_energy_fix();         // destructor

  void begin_atom_energy_tally(int eflag);
  void end_atom_energy_tally();
  void tally_atom_shares(int p, int q, double stored_n, double stored_t, double work_t,
                         double damp);

 private:
  class PairGranDemc &owner();
};

}    // namespace LAMMPS_NS

#endif
