/* ----------------------------------------------------------------------
   dem-contact: per-atom energies of the package's pair styles (see header).
------------------------------------------------------------------------- */

#include "pair_gran_demc_energy.h"

#include "fix_demc_atom_energy.h"
#include "pair_gran_demc.h"

#include "modify.h"

using namespace LAMMPS_NS;

PairGranDemc &DemcAtomEnergyShares::owner()
{
  return static_cast<PairGranDemc &>(*this);
}

/* ---------------------------------------------------------------------- */

void DemcAtomEnergyShares::add_atom_energy_placeholder()
{
  PairGranDemc &pair = owner();
  pair.modify->add_fix(pair.atom_energy_fix_id() + "_DUMMY all DUMMY");
}

void DemcAtomEnergyShares::attach_atom_energy_fix()
{
  if (atom_energy != nullptr) return;
  PairGranDemc &pair = owner();
  const std::string id = pair.atom_energy_fix_id();
  atom_energy = dynamic_cast<FixDemcAtomEnergy *>(
      pair.modify->replace_fix(id + "_DUMMY", id + " all DEMC/ATOM_ENERGY", 1));
  atom_energy->attach(&pair);
}

/* whichever of the two is in the list: a restart whose per-atom energy record stopped with an
   error left the fix in the placeholder's place, though the pair style never took it */
void DemcAtomEnergyShares::delete_atom_energy_fix()
{
  PairGranDemc &pair = owner();
  for (const std::string &id : {pair.atom_energy_fix_id(), pair.atom_energy_fix_id() + "_DUMMY"})
    if (pair.modify->get_fix_by_id(id)) pair.modify->delete_fix(id);
}

/* ---------------------------------------------------------------------- */

void DemcAtomEnergyShares::begin_atom_energy_tally(int eflag)
{
  atom_energy->begin_step(eflag != 0);
}

void DemcAtomEnergyShares::end_atom_energy_tally()
{
  atom_energy->end_step();
}

void DemcAtomEnergyShares::tally_atom_shares(int p, int q, double stored_n, double stored_t,
                                             double work_t, double damp)
{
  const double h = 0.5;
  atom_energy->add(p, h * stored_n, h * stored_t, h * work_t, h * damp);
  atom_energy->add(q, h * stored_n, h * stored_t, h * work_t, h * damp);
}
