/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: faithful DEM contact laws for LAMMPS (plugin package)
   The per-atom wall history of fixed size that fix wall/gran/kuhn and
   fix wall/gran/coulomb keep (one record per particle: grows, moves and
   migrates with the atoms, written to restart files as a per-atom record of
   the package's format, demc_restart_records.h). Each law checks the
   histories read back (check_restored_history()).
------------------------------------------------------------------------- */

#ifndef DEMC_FIX_WALL_GRAN_FIXED_HISTORY_H
#define DEMC_FIX_WALL_GRAN_FIXED_HISTORY_H

#include "fix_wall_gran_demc.h"

namespace LAMMPS_NS {

class FixWallGranFixedHistory : public FixWallGranDemc {
 public:
  // history_size values per particle
  FixWallGranFixedHistory(class LAMMPS *, int, char **, int history_size);
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
  void unpack_restart(int, int) override;

 protected:
  double **history;
  // the arrays and the atom callbacks: at the end of the law's constructor (its arguments checked)
  void allocate_history();
  void set_history_size(int n) { history_size = n; }    // (before allocate_history())
  // error->one unless atom i's history read from a restart file is one the law can hold
  virtual void check_restored_history(int i) const = 0;
  // what pack_exchange() wrote (n values), read from a restart file into atom i's, checked
  void restore_exchanged(int i, const double *buf, long n);
  double history_memory() const;

 private:
  int history_size;
  bool callbacks_added;
};

}    // namespace LAMMPS_NS

#endif
