/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: a part of PairGranDemc (pair_gran_demc.h). The internal
   fixes a pair style makes (its contact-history fix, made at init, and
   the per-atom energy fix) by ID: IDs that a restart file finds again,
   placeholders that keep their place in the fix list until init, and the
   guard that stops a run which would lose a restart file's contact
   histories.
------------------------------------------------------------------------- */

#ifndef DEMC_PAIR_GRAN_DEMC_HISTORY_H
#define DEMC_PAIR_GRAN_DEMC_HISTORY_H

#include <string>

namespace LAMMPS_NS {

class DemcHistoryFixes {
 protected:
  // e.g. DEMC_GRAN_KUHN_HISTORY0: unique within this LAMMPS instance, the same when a restart
  // file is read back
  std::string history_fix_id() const;
  std::string atom_energy_fix_id() const { return history_fix_id() + "_ATOM_ENERGY"; }
  // the lowest index free in this LAMMPS instance (constructor)
  void choose_history_index();
  // constructor: a placeholder that keeps the history fix's place; destructor: the fix made in
  // its place (history_made), or the placeholder
  void add_history_placeholder();
  void delete_history_fix(bool history_made);

  // init: stop with an error instead of losing contact histories without notice. Call at the
  // top of init_one(): every style's history fix exists then.
  void check_restart_histories();
  bool restart_histories_checked = true;    // reset by init_style(), set by the first init_one()

 private:
  int history_index = 0;
  class PairGranDemc &owner();
  const class PairGranDemc &owner() const;
};

}    // namespace LAMMPS_NS

#endif
