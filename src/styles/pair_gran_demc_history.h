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
 public:
  // style: "gran/kuhn", ...; chooses the lowest index free in this LAMMPS instance
  DemcHistoryFixes(class LAMMPS *lmp, const std::string &style);
  // e.g. DEMC_GRAN_KUHN_HISTORY0: unique within this LAMMPS instance, the same when a restart
  // file is read back
  std::string history_fix_id() const;
  std::string atom_energy_fix_id() const { return history_fix_id() + "_ATOM_ENERGY"; }
  // constructor: a placeholder that keeps the history fix's place; destructor: the fix made in
  // its place (history_made), or the placeholder
  void add_history_placeholder();
  void delete_history_fix(bool history_made);

  // init: stop with an error instead of losing contact histories without notice. Call
  // begin_init() from init_style(), check_restart_histories() at the top of init_one():
  // every style's history fix exists then. running_style: with /kk where so.
  void begin_init() { restart_histories_checked = false; }
  void check_restart_histories(const std::string &running_style);

 private:
  class LAMMPS *lmp;
  std::string style;
  int history_index = 0;
  bool restart_histories_checked = true;    // set by the first init_one() after begin_init()
};

}    // namespace LAMMPS_NS

#endif
