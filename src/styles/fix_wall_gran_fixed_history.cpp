/* ----------------------------------------------------------------------
   dem-contact: faithful DEM contact laws for LAMMPS (plugin package)
   The fixed-size per-atom wall history of fix wall/gran/kuhn and
   fix wall/gran/coulomb.
------------------------------------------------------------------------- */

#include "fix_wall_gran_fixed_history.h"

#include "demc_restart_records.h"

#include "atom.h"
#include "memory.h"

#include <string>

using namespace LAMMPS_NS;

FixWallGranFixedHistory::FixWallGranFixedHistory(LAMMPS *lmp, int narg, char **arg,
                                                 int history_size, int record_version) :
    FixWallGranDemc(lmp, narg, arg), history(nullptr), history_size(history_size),
    record_version(record_version), callbacks_added(false)
{
}

FixWallGranFixedHistory::~FixWallGranFixedHistory()
{
  if (callbacks_added) {
    atom->delete_callback(id, Atom::GROW);
    atom->delete_callback(id, Atom::RESTART);
  }
  memory->destroy(history);
}

void FixWallGranFixedHistory::allocate_history()
{
  maxexchange = history_size;
  FixWallGranFixedHistory::grow_arrays(atom->nmax);
  atom->add_callback(Atom::GROW);
  atom->add_callback(Atom::RESTART);
  callbacks_added = true;
  for (int i = 0; i < atom->nlocal; i++) FixWallGranFixedHistory::set_arrays(i);
}

/* ----------------------------------------------------------------------
   per-atom history: grows, moves and migrates with the atoms
------------------------------------------------------------------------- */

void FixWallGranFixedHistory::grow_arrays(int nmax)
{
  memory->grow(history, nmax, history_size, (std::string(style) + ":history").c_str());
}

void FixWallGranFixedHistory::copy_arrays(int i, int j, int)
{
  for (int k = 0; k < history_size; k++) history[j][k] = history[i][k];
}

void FixWallGranFixedHistory::set_arrays(int i)
{
  for (int k = 0; k < history_size; k++) history[i][k] = 0.0;
}

int FixWallGranFixedHistory::pack_exchange(int i, double *buf)
{
  for (int k = 0; k < history_size; k++) buf[k] = history[i][k];
  return history_size;
}

int FixWallGranFixedHistory::unpack_exchange(int nlocal, double *buf)
{
  for (int k = 0; k < history_size; k++) history[nlocal][k] = buf[k];
  return history_size;
}

/* ----------------------------------------------------------------------
   restart record: [count, marker, version, length, history]
------------------------------------------------------------------------- */

int FixWallGranFixedHistory::pack_restart(int i, double *buf)
{
  return demc_restart::pack_fixed_record(buf, record_version, history[i], history_size);
}

int FixWallGranFixedHistory::size_restart(int)
{
  return 1 + demc_restart::PERATOM_HEADER + history_size;
}

int FixWallGranFixedHistory::maxsize_restart()
{
  return 1 + demc_restart::PERATOM_HEADER + history_size;
}

int FixWallGranFixedHistory::unpack_fixed_record(int nlocal, int nth,
                                                 const std::function<int(int)> &stored_values)
{
  double **extra = atom->extra;
  int m = 0;
  for (int k = 0; k < nth; k++) m += static_cast<int>(extra[nlocal][m]);
  const double *record = &extra[nlocal][m + 1];
  const double *values = record;
  int version = 0, stored = 0;
  if (demc_restart::is_versioned(record)) {
    version =
        demc_restart::checked_version(lmp, record[1], record_version, law_error("wall record"));
    stored = stored_values(version);
    demc_restart::checked_int(lmp, record[2], stored, stored, law_error("wall record length"));
    values = record + demc_restart::PERATOM_HEADER;
  } else {
    stored = stored_values(0);
    demc_restart::checked_int(lmp, extra[nlocal][m], stored + 1, stored + 1,
                              law_error("wall record size"));
  }
  for (int k = 0; k < history_size; k++) history[nlocal][k] = k < stored ? values[k] : 0.0;
  return version;
}

double FixWallGranFixedHistory::history_memory() const
{
  return (double) atom->nmax * history_size * sizeof(double);
}
