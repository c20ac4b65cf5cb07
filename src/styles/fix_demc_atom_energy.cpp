/* ----------------------------------------------------------------------
   dem-contact: per-atom energy bookkeeping (see the header).
------------------------------------------------------------------------- */

#include "fix_demc_atom_energy.h"

#include "demc_restart_records.h"

#include "atom.h"
#include "comm.h"
#include "error.h"
#include "force.h"
#include "memory.h"

using namespace LAMMPS_NS;

FixDemcAtomEnergy::FixDemcAtomEnergy(LAMMPS *lmp, int narg, char **arg) :
    Fix(lmp, narg, arg), values(nullptr), step_share(nullptr), nmax_share(0), tally_stored(false),
    pair_sums{nullptr, nullptr}, restored_sums{0.0, 0.0}, have_restored_sums(false)
{
  restart_global = 1;
  if (narg != 3) error->all(FLERR, "Illegal fix DEMC/ATOM_ENERGY command (internal fix)");
  peratom_flag = 1;
  size_peratom_cols = NCOLS;
  peratom_freq = 1;
  restart_peratom = 1;
  create_attribute = 1;
  comm_reverse = NCOLS;
  maxexchange = NCOLS;
  FixDemcAtomEnergy::grow_arrays(atom->nmax);
  atom->add_callback(Atom::GROW);
  atom->add_callback(Atom::RESTART);
  for (int i = 0; i < atom->nlocal; i++) set_arrays(i);
}

FixDemcAtomEnergy::~FixDemcAtomEnergy()
{
  atom->delete_callback(id, Atom::GROW);
  atom->delete_callback(id, Atom::RESTART);
  memory->destroy(values);
  memory->destroy(step_share);
}

/* ----------------------------------------------------------------------
   system-wide cumulative sums: rank 0 carries the totals after a restart
   (restart() may run before the pair attaches, hence the hand-over)
------------------------------------------------------------------------- */

void FixDemcAtomEnergy::attach(double *tangential_sum, double *dissipated_damping)
{
  pair_sums[0] = tangential_sum;
  pair_sums[1] = dissipated_damping;
  if (!have_restored_sums) return;
  for (int k = 0; k < 2; k++) *pair_sums[k] = (comm->me == 0) ? restored_sums[k] : 0.0;
  have_restored_sums = false;
}

// global record (demc_restart_records.h): the friction and damping sums

void FixDemcAtomEnergy::write_restart(FILE *fp)
{
  double mine[2] = {0.0, 0.0}, total[2];
  if (pair_sums[0])
    for (int k = 0; k < 2; k++) mine[k] = *pair_sums[k];
  MPI_Reduce(mine, total, 2, MPI_DOUBLE, MPI_SUM, 0, world);
  if (comm->me == 0) demc_restart::write_global_record(fp, {total[0], total[1]});
}

void FixDemcAtomEnergy::restart(char *buf)
{
  const double *sums = demc_restart::read_global_record(lmp, buf, 2, "Fix DEMC/ATOM_ENERGY");
  restored_sums[0] = sums[0];
  restored_sums[1] = sums[1];
  have_restored_sums = true;
  if (pair_sums[0]) attach(pair_sums[0], pair_sums[1]);
}

/* ---------------------------------------------------------------------- */

void FixDemcAtomEnergy::begin_step(bool stored_is_tallied)
{
  tally_stored = stored_is_tallied;
  const int nall = atom->nlocal + atom->nghost;
  if (nall > nmax_share) {
    memory->destroy(step_share);
    nmax_share = atom->nmax;
    memory->create(step_share, nmax_share, NCOLS, "demc/atom_energy:step_share");
  }
  for (int i = 0; i < nall; i++)
    for (int k = 0; k < NCOLS; k++) step_share[i][k] = 0.0;
}

void FixDemcAtomEnergy::end_step()
{
  if (force->newton_pair) comm->reverse_comm(this);
  for (int i = 0; i < atom->nlocal; i++) {
    if (tally_stored) {
      values[i][STORED_NORMAL] = step_share[i][STORED_NORMAL];
      values[i][STORED_TANGENTIAL] = step_share[i][STORED_TANGENTIAL];
    }
    values[i][WORK_TANGENTIAL] += step_share[i][WORK_TANGENTIAL];
    values[i][DISSIPATED_DAMPING] += step_share[i][DISSIPATED_DAMPING];
  }
}

int FixDemcAtomEnergy::pack_reverse_comm(int n, int first, double *buf)
{
  int m = 0;
  for (int i = first; i < first + n; i++)
    for (int k = 0; k < NCOLS; k++) buf[m++] = step_share[i][k];
  return m;
}

void FixDemcAtomEnergy::unpack_reverse_comm(int n, int *list, double *buf)
{
  int m = 0;
  for (int i = 0; i < n; i++)
    for (int k = 0; k < NCOLS; k++) step_share[list[i]][k] += buf[m++];
}

/* ---------------------------------------------------------------------- */

void FixDemcAtomEnergy::grow_arrays(int nmax)
{
  memory->grow(values, nmax, NCOLS, "demc/atom_energy:values");
  array_atom = values;
}

void FixDemcAtomEnergy::copy_arrays(int i, int j, int)
{
  for (int k = 0; k < NCOLS; k++) values[j][k] = values[i][k];
}

void FixDemcAtomEnergy::set_arrays(int i)
{
  for (int k = 0; k < NCOLS; k++) values[i][k] = 0.0;
}

int FixDemcAtomEnergy::pack_exchange(int i, double *buf)
{
  for (int k = 0; k < NCOLS; k++) buf[k] = values[i][k];
  return NCOLS;
}

int FixDemcAtomEnergy::unpack_exchange(int nlocal, double *buf)
{
  for (int k = 0; k < NCOLS; k++) values[nlocal][k] = buf[k];
  return NCOLS;
}

// per-atom record (demc_restart_records.h): the NCOLS columns

int FixDemcAtomEnergy::pack_restart(int i, double *buf)
{
  return demc_restart::pack_peratom_record(buf, values[i], NCOLS);
}

void FixDemcAtomEnergy::unpack_restart(int nlocal, int nth)
{
  const auto record =
      demc_restart::open_peratom_record(lmp, nlocal, nth, NCOLS, NCOLS, "Fix DEMC/ATOM_ENERGY");
  for (int k = 0; k < NCOLS; k++) values[nlocal][k] = record.values[k];
}

double FixDemcAtomEnergy::memory_usage()
{
  return (double) (atom->nmax + nmax_share) * static_cast<int>(NCOLS) * sizeof(double);
}
