/* ----------------------------------------------------------------------
   dem-contact: the keywords the package's pair styles share (see header).
------------------------------------------------------------------------- */

#include "pair_gran_demc_keywords.h"

#include "error.h"
#include "utils.h"

#include <cstring>

using namespace LAMMPS_NS;

/* ----------------------------------------------------------------------
   keywords every style of the package takes: energy/atom yes|no,
   schedule static|dynamic, damping_cap yes|no, limit_damping
   returns the number of arguments used, 0 if arg[iarg] is not one
------------------------------------------------------------------------- */

int DemcSharedKeywords::parse_common_keyword(LAMMPS *lmp, const std::string &style, int narg,
                                             char **arg, int iarg)
{
  const std::string keyword = arg[iarg];
  if (keyword == "limit_damping") {    // no value, as in LAMMPS's granular styles
    dashpot_limits.no_tension = true;
    return 1;
  }
  if (keyword != "energy/atom" && keyword != "schedule" && keyword != "damping_cap") return 0;
  if (iarg + 2 > narg)
    utils::missing_cmd_args(FLERR, "pair_style " + style + " " + keyword, lmp->error);
  const std::string value = arg[iarg + 1];
  if (keyword == "energy/atom") {
    energy_per_atom = utils::logical(FLERR, value, false, lmp);
  } else if (keyword == "damping_cap") {
    dashpot_limits.coulomb = utils::logical(FLERR, value, false, lmp);
  } else if (value == "static" || value == "dynamic") {
    static_schedule = (value == "static");
  } else {
    lmp->error->all(FLERR, "Pair_style {} schedule must be static or dynamic, got {}", style,
                    value);
  }
  return 2;
}

/* ---------------------------------------------------------------------- */

void *DemcSharedKeywords::extract_common(const char *name, int &dim)
{
  dim = 0;
  if (strcmp(name, "energy/atom") == 0) return (void *) &energy_per_atom;
  if (strcmp(name, "schedule/static") == 0) return (void *) &static_schedule;
  if (strcmp(name, "damping_cap") == 0) return (void *) &dashpot_limits.coulomb;
  if (strcmp(name, "limit_damping") == 0) return (void *) &dashpot_limits.no_tension;
  return nullptr;
}
