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
                                                 int history_size) :
    FixWallGranDemc(lmp, narg, arg), history(nullptr), history_size(history_size),
    callbacks_added(false)
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
   restart: a per-atom record of the history (demc_restart_records.h)
------------------------------------------------------------------------- */

int FixWallGranFixedHistory::pack_restart(int i, double *buf)
{
  return demc_restart::pack_peratom_record(buf, history[i], history_size);
}

int FixWallGranFixedHistory::size_restart(int)
{
  return demc_restart::peratom_record_size(history_size);
}

int FixWallGranFixedHistory::maxsize_restart()
{
  return demc_restart::peratom_record_size(history_size);
}

void FixWallGranFixedHistory::unpack_restart(int nlocal, int nth)
{
  const auto record = demc_restart::open_peratom_record(lmp, nlocal, nth, history_size,
                                                        history_size, law_error("wall record"));
  restore_exchanged(nlocal, record.values, record.n);
}

void FixWallGranFixedHistory::restore_exchanged(int i, const double *buf, long n)
{
  demc_restart::checked_int(lmp, (double) n, history_size, history_size,
                            law_error("wall record size"));
  for (int k = 0; k < history_size; k++) history[i][k] = buf[k];
  check_restored_history(i);
}

double FixWallGranFixedHistory::history_memory() const
{
  return (double) atom->nmax * history_size * sizeof(double);
}
