/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: the refinement keywords of the Kuhn contact law, shared by
   pair_style gran/kuhn and fix wall/gran/kuhn, and the part of their
   contact histories they share.
------------------------------------------------------------------------- */

#ifndef DEMC_KUHN_KEYWORDS_H
#define DEMC_KUHN_KEYWORDS_H

#include "kuhn_step.h"

#include "error.h"
#include "lammps.h"
#include "utils.h"

#include <cstring>
#include <string>

namespace LAMMPS_NS {

/* The first values of a Kuhn contact history, in both CPU styles (the wall adds its side):
   those of demc::kuhn::RecordIndex. */
enum KuhnHistoryIndex { KH_FTX, KH_FTY, KH_FTZ, KH_ZETA, KH_WFRIC, KH_WDAMP, KH_SIZE };
static_assert(int(KH_WDAMP) == int(demc::kuhn::R_WDAMP) && int(KH_SIZE) == int(demc::kuhn::R_FIXED),
              "the Kuhn history begins with demc::kuhn::Record's fixed values");

/* Parse the refinement keyword at arg[iarg] into bits ("conventional" clears them all;
   "fresh|elastic_slip|turn|project|twirl yes|no" sets or clears one). Returns the number
   of arguments used, 0 if arg[iarg] is not a refinement keyword. */
inline int parse_kuhn_refinement(LAMMPS *lmp, const std::string &command, int narg, char **arg,
                                 int iarg, unsigned &bits)
{
  struct Keyword {
    const char *name;
    unsigned bit;
  };
  static const Keyword keywords[] = {{"fresh", demc::kuhn::FRESH},
                                     {"elastic_slip", demc::kuhn::ELASTIC_SLIP},
                                     {"turn", demc::kuhn::TURN},
                                     {"project", demc::kuhn::PROJECT},
                                     {"twirl", demc::kuhn::TWIRL}};
  if (strcmp(arg[iarg], "conventional") == 0) {
    bits = 0u;
    return 1;
  }
  for (const auto &kw : keywords) {
    if (strcmp(arg[iarg], kw.name) != 0) continue;
    if (iarg + 2 > narg) utils::missing_cmd_args(FLERR, command + " " + kw.name, lmp->error);
    if (utils::logical(FLERR, arg[iarg + 1], false, lmp))
      bits |= kw.bit;
    else
      bits &= ~kw.bit;
    return 2;
  }
  return 0;
}

}    // namespace LAMMPS_NS

#endif
