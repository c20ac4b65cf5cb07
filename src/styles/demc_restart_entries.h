/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: the per-atom fix records of a restart file that no fix has
   claimed yet, and pair hybrid's map of sub-styles per type pair.

   LAMMPS hands a restart file's per-atom fix data to a new fix only when its
   ID and style both match, and silently drops what is left at the first run
   (a line in the log, no warning). For contact histories that means a run
   that goes on with every contact fresh. The styles of this package look at
   the records left over to stop with an error instead (pair_gran_demc.cpp,
   fix_wall_gran_demc.cpp). Modify and PairHybrid keep these lists protected:
   they are read through pointers to members formed in a derived class, the
   one legal way to read a protected member of an object one did not make.
------------------------------------------------------------------------- */

#ifndef DEMC_RESTART_ENTRIES_H
#define DEMC_RESTART_ENTRIES_H

#include "modify.h"
#include "pair_hybrid.h"
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
  struct HybridAccess : LAMMPS_NS::PairHybrid {
    static LAMMPS_NS::Pair **LAMMPS_NS::PairHybrid::*styles_member()
    {
      return &HybridAccess::styles;
    }
    static char **LAMMPS_NS::PairHybrid::*keywords_member() { return &HybridAccess::keywords; }
    static int **LAMMPS_NS::PairHybrid::*nmap_member() { return &HybridAccess::nmap; }
    static int ***LAMMPS_NS::PairHybrid::*map_member() { return &HybridAccess::map; }
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

// pair styles that are contact laws: each computes the whole contact force of a touching pair
// (LAMMPS's gran/* and granular*, this package's gran/kuhn and gran/jaeger; not tracker)
inline bool is_contact_law_keyword(const std::string &keyword)
{
  return LAMMPS_NS::utils::strmatch(keyword, "^gran");
}

// the sub-styles of a pair hybrid (any flavour) set for type pair (i, j), with their keywords
struct SubStyles {
  std::vector<LAMMPS_NS::Pair *> pairs;
  std::vector<std::string> keywords;
};

inline SubStyles hybrid_substyles(LAMMPS_NS::PairHybrid *hybrid, int i, int j)
{
  SubStyles out;
  LAMMPS_NS::Pair **styles = hybrid->*detail::HybridAccess::styles_member();
  char **keywords = hybrid->*detail::HybridAccess::keywords_member();
  int **nmap = hybrid->*detail::HybridAccess::nmap_member();
  int ***map = hybrid->*detail::HybridAccess::map_member();
  if (!nmap || !map) return out;
  for (int k = 0; k < nmap[i][j]; k++) {
    out.pairs.push_back(styles[map[i][j][k]]);
    out.keywords.emplace_back(keywords[map[i][j][k]]);
  }
  return out;
}

}    // namespace demc_restart

#endif
