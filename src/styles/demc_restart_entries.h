/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: the per-atom fix records of a restart file that no fix has
   claimed yet.

   LAMMPS hands a restart file's per-atom fix data to a new fix only when its
   ID and style both match, and silently drops what is left at the first run
   (a line in the log, no warning). For contact histories that means a run
   that goes on with every contact fresh. The styles of this package look at
   the records left over to stop with an error instead (pair_gran_demc_history.cpp,
   fix_wall_gran_demc.cpp).

   The one place where the package reads members of LAMMPS that are not
   public: Modify keeps the list of a restart file's per-atom fix records
   (id_restart_peratom, style_restart_peratom, used_restart_peratom)
   protected and has no public function that gives it (LAMMPS 4 Jul 2026). It
   is read through pointers to members formed in a derived class, the one
   legal way to read a protected member of an object one did not make. A
   LAMMPS that renames the members stops the build here; one that changes
   their meaning fails StyleClashes.GiveClearErrors (its restart files whose
   histories no fix takes must end in this package's errors).
------------------------------------------------------------------------- */

#ifndef DEMC_RESTART_ENTRIES_H
#define DEMC_RESTART_ENTRIES_H

#include "modify.h"
#include "utils.h"

#include <string>
#include <vector>

namespace demc_restart {

struct Entry {
  std::string id, style;
};

namespace detail {
  struct ModifyAccess : LAMMPS_NS::Modify {
    static char **LAMMPS_NS::Modify::*ids() { return &ModifyAccess::id_restart_peratom; }
    static char **LAMMPS_NS::Modify::*styles() { return &ModifyAccess::style_restart_peratom; }
    static int *LAMMPS_NS::Modify::*used() { return &ModifyAccess::used_restart_peratom; }
  };
}    // namespace detail

// per-atom fix records of the restart file read last that no fix has taken (empty after the
// first run: LAMMPS frees them then). The same on every rank.
inline std::vector<Entry> unclaimed_peratom_entries(LAMMPS_NS::Modify *modify)
{
  std::vector<Entry> out;
  char **ids = modify->*detail::ModifyAccess::ids();
  char **styles = modify->*detail::ModifyAccess::styles();
  int *used = modify->*detail::ModifyAccess::used();
  for (int i = 0; i < modify->nfix_restart_peratom; i++)
    if (!used[i]) out.push_back({ids[i], styles[i]});
  return out;
}

// fix styles that hold pair contact histories: LAMMPS's fix neigh/history (gran/*/history,
// granular, also under an accelerator suffix) and this package's two history fixes
inline bool is_contact_history_style(const std::string &style)
{
  for (const char *prefix : {"NEIGH_HISTORY", "DEMC/NEIGH_HISTORY", "DEMC/JAEGER_HISTORY"}) {
    const std::string p(prefix);
    if (style == p || style.compare(0, p.size() + 1, p + "/") == 0) return true;
  }
  return false;
}

// wall fixes that hold per-atom wall contact histories
inline bool is_wall_history_style(const std::string &style)
{
  return LAMMPS_NS::utils::strmatch(style, "^wall/gran");
}

}    // namespace demc_restart

#endif
