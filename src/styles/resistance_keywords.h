/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: the keywords of rolling and twisting resistance
   (kernels/rolling_twisting.h), in the syntax of LAMMPS's pair_style granular:

     rolling sds k_roll gamma_roll mu_roll
     twisting sds k_twist gamma_twist mu_twist
     twisting marshall

   and their values in a restart file's settings record.
------------------------------------------------------------------------- */

#ifndef DEMC_RESISTANCE_KEYWORDS_H
#define DEMC_RESISTANCE_KEYWORDS_H

#include "rolling_twisting.h"

#include "error.h"
#include "lammps.h"
#include "utils.h"

#include <cstring>
#include <string>
#include <vector>

namespace LAMMPS_NS {

// the three coefficients of an sds sub-model at arg[iarg], each >= 0
inline demc::resistance::Sds parse_sds_coefficients(LAMMPS *lmp, const std::string &what,
                                                    char **arg, int iarg)
{
  const char *names[3] = {"k", "gamma", "mu"};
  double c[3];
  for (int m = 0; m < 3; m++) {
    c[m] = utils::numeric(FLERR, arg[iarg + m], false, lmp);
    if (!(c[m] >= 0.0))
      lmp->error->all(FLERR, "{}: {} must be >= 0, got {}", what, names[m], arg[iarg + m]);
  }
  return {c[0], c[1], c[2]};
}

/* Parse the rolling or twisting keyword at arg[iarg] into p (as the command's parsing began: no
   sub-model set; each keyword once). Returns the number of arguments used, 0 if arg[iarg] is
   neither. Twisting marshall takes the law's tangential stiffness, dashpot and friction
   coefficient, which the caller fills in per contact. */
inline int parse_resistance_keyword(LAMMPS *lmp, const std::string &command, int narg, char **arg,
                                    int iarg, demc::resistance::Params &p)
{
  const bool rolling = strcmp(arg[iarg], "rolling") == 0;
  if (!rolling && strcmp(arg[iarg], "twisting") != 0) return 0;
  const std::string what = command + " " + arg[iarg];
  if (rolling ? p.rolling : p.twisting != demc::resistance::TWISTING_NONE)
    lmp->error->all(FLERR, "{}: given twice (each keyword once)", what);
  if (iarg + 2 > narg) utils::missing_cmd_args(FLERR, what, lmp->error);
  const std::string model = arg[iarg + 1];
  if (!rolling && model == "marshall") {
    p.twisting = demc::resistance::TWISTING_MARSHALL;
    p.twist = demc::resistance::Sds();
    return 2;
  }
  if (model != "sds")
    lmp->error->all(FLERR, "{}: unknown model {} (expected {})", what, model,
                    rolling ? "sds" : "sds or marshall");
  if (iarg + 5 > narg) utils::missing_cmd_args(FLERR, what + " sds", lmp->error);
  const demc::resistance::Sds c = parse_sds_coefficients(lmp, what + " sds", arg, iarg + 2);
  if (rolling) {
    p.rolling = true;
    p.roll = c;
  } else {
    p.twisting = demc::resistance::TWISTING_SDS;
    p.twist = c;
  }
  return 5;
}

// the options as eight numbers of a settings record, and back
inline void append_resistance_values(const demc::resistance::Params &p, std::vector<double> &v)
{
  v.insert(v.end(), {p.rolling ? 1.0 : 0.0, p.roll.k, p.roll.gamma, p.roll.mu, (double) p.twisting,
                     p.twist.k, p.twist.gamma, p.twist.mu});
}
constexpr int RESISTANCE_VALUES = 8;
inline demc::resistance::Params resistance_from_values(LAMMPS *lmp, const double *v,
                                                       const std::string &who)
{
  demc::resistance::Params p;
  p.rolling = v[0] != 0.0;
  p.roll = {v[1], v[2], v[3]};
  const int model = (int) v[4];
  if (model < demc::resistance::TWISTING_NONE || model > demc::resistance::TWISTING_MARSHALL ||
      (double) model != v[4])
    lmp->error->all(FLERR, "{}: no twisting model {}", who, v[4]);
  p.twisting = model;
  p.twist = {v[5], v[6], v[7]};
  return p;
}

}    // namespace LAMMPS_NS

#endif
