/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: faithful DEM contact laws for LAMMPS (plugin package)
   The per-atom wall history of fixed size that fix wall/gran/kuhn and
   fix wall/gran/coulomb keep (one record per particle: grows, moves and
   migrates with the atoms, written to restart files as a versioned record).
   Each law reads its own record versions back (unpack_restart()).
------------------------------------------------------------------------- */

#ifndef DEMC_FIX_WALL_GRAN_FIXED_HISTORY_H
#define DEMC_FIX_WALL_GRAN_FIXED_HISTORY_H

#include "fix_wall_gran_demc.h"

#include <functional>

namespace LAMMPS_NS {

class FixWallGranFixedHistory : public FixWallGranDemc {
 public:
  // history_size values per particle; record_version: of the per-atom restart record
  FixWallGranFixedHistory(class LAMMPS *, int, char **, int history_size, int record_version);
  ~FixWallGranFixedHistory() override;
  void grow_arrays(int) override;
  void copy_arrays(int, int, int) override;
  void set_arrays(int) override;
  int pack_exchange(int, double *) override;
  int exchange_size(int) const { return history_size; }    // what pack_exchange(i) writes
  int unpack_exchange(int, double *) override;
  int pack_restart(int, double *) override;
  int size_restart(int) override;
  int maxsize_restart() override;

 protected:
  double **history;
  // the arrays and the atom callbacks: at the end of the law's constructor (its arguments checked)
  void allocate_history();
  void set_history_size(int n) { history_size = n; }    // (before allocate_history())
  /* atom nlocal's record of this fix (its nth) into history[nlocal]: [marker, version, length,
     values], or a record written before markers (version 0: [values]); stored_values(version)
     is how many values that version holds, those beyond come in as 0. Returns the version. */
  int unpack_fixed_record(int nlocal, int nth, const std::function<int(int)> &stored_values);
  double history_memory() const;

 private:
  int history_size;
  const int record_version;
  bool callbacks_added;
};

}    // namespace LAMMPS_NS

#endif
