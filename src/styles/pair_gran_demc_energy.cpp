/* ----------------------------------------------------------------------
   dem-contact: per-atom energies of the package's pair styles (see header).
------------------------------------------------------------------------- */

#include "pair_gran_demc_energy.h"

#include "fix_demc_atom_energy.h"

#include "modify.h"

using namespace LAMMPS_NS;

void DemcAtomEnergyShares::add_placeholder()
{
  lmp->modify->add_fix(fix_id + "_DUMMY all DUMMY");
}

void DemcAtomEnergyShares::attach(double *tangential_sum, double *dissipated_damping)
{
  if (fix != nullptr) return;
  fix = dynamic_cast<FixDemcAtomEnergy *>(
      lmp->modify->replace_fix(fix_id + "_DUMMY", fix_id + " all DEMC/ATOM_ENERGY", 1));
  fix->attach(tangential_sum, dissipated_damping);
}

/* whichever of the two is in the list: a restart whose per-atom energy record stopped with an
   error left the fix in the placeholder's place, though the pair style never took it */
void DemcAtomEnergyShares::remove()
{
  for (const std::string &id : {fix_id, fix_id + "_DUMMY"})
    if (lmp->modify->get_fix_by_id(id)) lmp->modify->delete_fix(id);
}

/* ---------------------------------------------------------------------- */

void DemcAtomEnergyShares::begin(int eflag)
{
  fix->begin_step(eflag != 0);
}

void DemcAtomEnergyShares::end()
{
  fix->end_step();
}

void DemcAtomEnergyShares::tally(int p, int q, double stored_n, double stored_t, double work_t,
                                 double damp)
{
  const double h = 0.5;
  fix->add(p, h * stored_n, h * stored_t, h * work_t, h * damp);
  fix->add(q, h * stored_n, h * stored_t, h * work_t, h * damp);
}
