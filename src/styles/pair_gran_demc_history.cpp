/* ----------------------------------------------------------------------
   dem-contact: the internal fixes of the package's pair styles by ID
   (see header).
------------------------------------------------------------------------- */

#include "pair_gran_demc_history.h"

#include "demc_restart_entries.h"

#include "error.h"
#include "modify.h"

#include <cctype>

using namespace LAMMPS_NS;

/* ----------------------------------------------------------------------
   The history fix's ID must be the same when a restart file is read back.
   LAMMPS's instance_me counts pair objects over the whole process (every
   pair_style command and every library instance adds one), so use the
   lowest index free in this LAMMPS instance instead.
------------------------------------------------------------------------- */

DemcHistoryFixes::DemcHistoryFixes(LAMMPS *lmp, const std::string &style) : lmp(lmp), style(style)
{
  Modify *modify = lmp->modify;
  while (modify->get_fix_by_id(history_fix_id()) ||
         modify->get_fix_by_id(history_fix_id() + "_DUMMY"))
    history_index++;
}

std::string DemcHistoryFixes::history_fix_id() const
{
  std::string id = "DEMC_" + style + "_HISTORY";
  for (char &ch : id) ch = (ch == '/') ? '_' : (char) toupper(ch);
  return id + std::to_string(history_index);
}

/* ---------------------------------------------------------------------- */

void DemcHistoryFixes::add_history_placeholder()
{
  lmp->modify->add_fix(history_fix_id() + "_DUMMY all DUMMY");
}

void DemcHistoryFixes::delete_history_fix(bool history_made)
{
  Modify *modify = lmp->modify;
  // (a history fix whose creation stopped with an error, in unpack_restart(), is in the fix
  // list in the placeholder's place, though the pair style never got it)
  const std::string made = history_fix_id(), placeholder = made + "_DUMMY";
  if (!history_made && modify->get_fix_by_id(placeholder))
    modify->delete_fix(placeholder);
  else if (modify->get_fix_by_id(made))
    modify->delete_fix(made);
}

/* ----------------------------------------------------------------------
   A restart file's contact histories reach a pair style only through a
   history fix of the same ID and style: the one that wrote them. With
   another pair style (gran/kuhn <-> gran/jaeger, LAMMPS's gran/hooke/history,
   gran/hertz/history or granular, or the CPU <-> Kokkos variant), LAMMPS
   drops them at the first run with a line in the log, and every contact
   starts afresh: its tangential force, load history and work are lost.
   Stop instead. Called from init_one(): by then every pair (sub-)style has
   made its history fix in init_style() and taken its records, and LAMMPS
   frees the records only afterwards (Modify::init()).
------------------------------------------------------------------------- */

void DemcHistoryFixes::check_restart_histories(const std::string &running_style)
{
  if (restart_histories_checked) return;
  restart_histories_checked = true;
  const std::string &me = running_style;
  for (const auto &e : demc_restart::unclaimed_peratom_entries(lmp->modify)) {
    if (!demc_restart::is_contact_history_style(e.style)) continue;
    lmp->error->all(
        FLERR,
        "Pair {}: the restart file holds contact histories written by another pair style "
        "or variant (fix ID {}, fix style {}), which pair {} cannot read: the run would go "
        "on with every contact fresh. Use the pair style that wrote the restart file, or "
        "drop the histories on purpose: write_data FILE nocoeff right after read_restart, "
        "then read_data FILE before the new pair style",
        me, e.id, e.style, me);
  }
}
