/* ----------------------------------------------------------------------
   dem-contact: per-atom energy bookkeeping (see the header).
------------------------------------------------------------------------- */

#include "fix_demc_atom_energy.h"

#include "demc_restart_records.h"

#include "pair_gran_demc.h"

#include "atom.h"
#include "comm.h"
#include "error.h"
#include "force.h"
#include "memory.h"

using namespace LAMMPS_NS;

FixDemcAtomEnergy::FixDemcAtomEnergy(LAMMPS *lmp, int narg, char **arg) :
    Fix(lmp, narg, arg), values(nullptr), step_share(nullptr), nmax_share(0), tally_stored(false),
    pair(nullptr), restored_sums{0.0, 0.0}, have_restored_sums(false)
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

void FixDemcAtomEnergy::attach(PairGranDemc *owner)
{
  pair = owner;
  if (!have_restored_sums) return;
  pair->tangential_sum = (comm->me == 0) ? restored_sums[0] : 0.0;
  pair->dissipated_damping = (comm->me == 0) ? restored_sums[1] : 0.0;
  have_restored_sums = false;
}

/* global record (format version 1): marker, version, 2, the friction and damping sums; files
   written before records had markers hold the two sums only */

void FixDemcAtomEnergy::write_restart(FILE *fp)
{
  double mine[2] = {0.0, 0.0}, total[2];
  if (pair) {
    mine[0] = pair->tangential_sum;
    mine[1] = pair->dissipated_damping;
  }
  MPI_Reduce(mine, total, 2, MPI_DOUBLE, MPI_SUM, 0, world);
  if (comm->me == 0) {
    const double record[5] = {demc_restart::record_marker(), RECORD_VERSION, 2.0, total[0],
                              total[1]};
    int size = sizeof(record);
    fwrite(&size, sizeof(int), 1, fp);
    fwrite(record, sizeof(double), 5, fp);
  }
}

void FixDemcAtomEnergy::restart(char *buf)
{
  auto *record = reinterpret_cast<double *>(buf);
  const double *sums = record;
  if (demc_restart::is_record_marker(record[0])) {
    demc_restart::checked_version(lmp, record[1], RECORD_VERSION, "Fix DEMC/ATOM_ENERGY");
    demc_restart::checked_int(lmp, record[2], 2, 2, "Fix DEMC/ATOM_ENERGY: global record length");
    sums = record + 3;
  }
  restored_sums[0] = sums[0];
  restored_sums[1] = sums[1];
  have_restored_sums = true;
  if (pair) attach(pair);
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

/* per-atom record (format version 1): [count, marker, version, NCOLS, the columns]; files
   written before records had markers hold [NCOLS + 1, the columns] */

int FixDemcAtomEnergy::pack_restart(int i, double *buf)
{
  buf[0] = size_restart(i);    // count including itself, as the other fixes expect
  buf[1] = demc_restart::record_marker();
  buf[2] = RECORD_VERSION;
  buf[3] = NCOLS;
  for (int k = 0; k < NCOLS; k++) buf[1 + demc_restart::PERATOM_HEADER + k] = values[i][k];
  return size_restart(i);
}

void FixDemcAtomEnergy::unpack_restart(int nlocal, int nth)
{
  double **extra = atom->extra;
  int m = 0;
  for (int k = 0; k < nth; k++) m += static_cast<int>(extra[nlocal][m]);
  const double *record = &extra[nlocal][m + 1], *columns = record;
  if (demc_restart::is_versioned(record)) {
    demc_restart::checked_version(lmp, record[1], RECORD_VERSION, "Fix DEMC/ATOM_ENERGY");
    demc_restart::checked_int(lmp, record[2], NCOLS, NCOLS, "Fix DEMC/ATOM_ENERGY: columns");
    columns = record + demc_restart::PERATOM_HEADER;
  } else {
    demc_restart::checked_int(lmp, extra[nlocal][m], NCOLS + 1, NCOLS + 1,
                              "Fix DEMC/ATOM_ENERGY: record size");
  }
  for (int k = 0; k < NCOLS; k++) values[nlocal][k] = columns[k];
}

double FixDemcAtomEnergy::memory_usage()
{
  return (double) (atom->nmax + nmax_share) * static_cast<int>(NCOLS) * sizeof(double);
}
