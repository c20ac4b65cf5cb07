/* ----------------------------------------------------------------------
   dem-contact: coefficients in and out of the package's pair styles (see
   header).
------------------------------------------------------------------------- */

#include "pair_gran_demc_coeffs.h"

#include "pair_gran_demc.h"

#include "demc_restart_records.h"
#include "resistance_keywords.h"

#include "atom.h"
#include "comm.h"
#include "error.h"

#include <cstring>

using namespace LAMMPS_NS;

PairGranDemc &DemcCoefficientIO::owner()
{
  return static_cast<PairGranDemc &>(*this);
}

const PairGranDemc &DemcCoefficientIO::owner() const
{
  return static_cast<const PairGranDemc &>(*this);
}

/* ----------------------------------------------------------------------
   pair_coeff I J c1 c2 mu [damping nu_n nu_t | restitution e x_t]
   [rolling ...] [twisting ...]: what the laws take alike
------------------------------------------------------------------------- */

DemcCoefficientIO::CoeffArgs DemcCoefficientIO::read_coeff_args(int narg, char **arg,
                                                                const char *law_names)
{
  PairGranDemc &pair = owner();
  const std::string &style_name = pair.style_name;
  if (narg < 5) usage_error(narg, law_names);
  CoeffArgs c;
  for (int k = 0; k < 3; k++) c.law[k] = utils::numeric(FLERR, arg[2 + k], false, pair.lmp);
  c.damp_n = c.damp_t = c.restitution = c.restitution_t = 0.0;
  if (c.law[2] < 0.0)
    pair.error->all(FLERR, "Pair_coeff {}: mu must be >= 0, got {}", style_name, c.law[2]);
  bool dashpot_set = false;
  for (int iarg = 5; iarg < narg;) {
    const int used = parse_resistance_keyword(pair.lmp, "Pair_coeff " + style_name, narg, arg,
                                              iarg, c.resistance);
    iarg += used > 0 ? used : read_dashpot_keyword(narg, arg, iarg, law_names, dashpot_set, c);
  }
  return c;
}

void DemcCoefficientIO::usage_error(int narg, const char *law_names)
{
  PairGranDemc &pair = owner();
  pair.error->all(FLERR,
                  "Pair_coeff {} expects: I J {} [damping nu_n nu_t | restitution e x_t] "
                  "[rolling sds k gamma mu] [twisting sds k gamma mu | twisting marshall], got {} "
                  "arguments",
                  pair.style_name, law_names, narg);
}

/* the dashpot keyword at arg[iarg] (once) into c; returns the arguments used */
int DemcCoefficientIO::read_dashpot_keyword(int narg, char **arg, int iarg,
                                            const char *law_names, bool &dashpot_set,
                                            CoeffArgs &c)
{
  PairGranDemc &pair = owner();
  const std::string &style_name = pair.style_name;
  const bool damping = strcmp(arg[iarg], "damping") == 0;
  if (!damping && strcmp(arg[iarg], "restitution") != 0)
    pair.error->all(FLERR,
                    "Unknown pair_coeff {} keyword: {} (expected 'damping', 'restitution', "
                    "'rolling' or 'twisting')",
                    style_name, arg[iarg]);
  if (dashpot_set)
    pair.error->all(FLERR, "Pair_coeff {}: {} given twice or with the other dashpot keyword",
                    style_name, arg[iarg]);
  if (iarg + 3 > narg) usage_error(narg, law_names);
  dashpot_set = true;
  const double a = utils::numeric(FLERR, arg[iarg + 1], false, pair.lmp);
  const double b = utils::numeric(FLERR, arg[iarg + 2], false, pair.lmp);
  const std::string problem = demc_damping_values_problem(!damping, a, b);
  if (!problem.empty()) pair.error->all(FLERR, "Pair_coeff {}: {}", style_name, problem);
  (damping ? c.damp_n : c.restitution) = a;
  (damping ? c.damp_t : c.restitution_t) = b;
  return 3;
}

/* ---------------------------------------------------------------------- */

void DemcCoefficientIO::set_coefficients(const char *types_i, const char *types_j,
                                         std::initializer_list<std::pair<double **, double>> values)
{
  PairGranDemc &pair = owner();
  int ilo, ihi, jlo, jhi;
  utils::bounds(FLERR, types_i, 1, pair.atom->ntypes, ilo, ihi, pair.error);
  utils::bounds(FLERR, types_j, 1, pair.atom->ntypes, jlo, jhi, pair.error);
  int count = 0;
  for (int i = ilo; i <= ihi; i++)
    for (int j = MAX(jlo, i); j <= jhi; j++) {
      for (const auto &v : values) v.first[i][j] = v.second;
      pair.setflag[i][j] = 1;
      count++;
    }
  if (count == 0)
    pair.error->all(FLERR, "Incorrect args for pair coefficients" + utils::errorurl(21));
}

/* ---------------------------------------------------------------------- */

void DemcCoefficientIO::write_settings_record(FILE *fp, const std::vector<double> &values) const
{
  demc_restart::write_file_record(fp, values);
}

std::vector<double> DemcCoefficientIO::read_settings_record(FILE *fp)
{
  PairGranDemc &pair = owner();
  return demc_restart::read_file_record(pair.lmp, fp, "Pair " + pair.style_name + " settings");
}

/* ----------------------------------------------------------------------
   the coefficients of the type pairs for restart files, a record of the
   package's format (rank 0 writes; read collectively): per type pair
   i <= j its setflag, then (if set) one value of each coefficient array
------------------------------------------------------------------------- */

void DemcCoefficientIO::write_coefficients(FILE *fp, const std::vector<double **> &arrays) const
{
  const PairGranDemc &pair = owner();
  std::vector<double> values;
  for (int i = 1; i <= pair.atom->ntypes; i++)
    for (int j = i; j <= pair.atom->ntypes; j++) {
      values.push_back(pair.setflag[i][j] ? 1.0 : 0.0);
      if (!pair.setflag[i][j]) continue;
      for (double **a : arrays) values.push_back(a[i][j]);
    }
  demc_restart::write_file_record(fp, values);
}

void DemcCoefficientIO::read_coefficients(FILE *fp, const std::vector<double **> &arrays)
{
  PairGranDemc &pair = owner();
  const std::string who = "Pair " + pair.style_name + " coefficients";
  const std::vector<double> values = demc_restart::read_file_record(pair.lmp, fp, who);
  size_t k = 0;
  auto next = [&]() {
    if (k >= values.size()) pair.error->all(FLERR, "{}: the restart file's record ends early", who);
    return values[k++];
  };
  for (int i = 1; i <= pair.atom->ntypes; i++)
    for (int j = i; j <= pair.atom->ntypes; j++) {
      pair.setflag[i][j] =
          (int) demc_restart::checked_int(pair.lmp, next(), 0, 1, who + ": setflag");
      if (!pair.setflag[i][j]) continue;
      for (double **a : arrays) a[i][j] = next();
    }
  demc_restart::checked_int(pair.lmp, (double) k, (long) values.size(), (long) values.size(),
                            who + ": values read of the record");
}

/* ---------------------------------------------------------------------- */

void DemcCoefficientIO::write_law_coefficients(FILE *fp, std::vector<double **> law) const
{
  const PairGranDemc &pair = owner();
  law.insert(law.end(), {pair.damp_n, pair.damp_t, pair.restitution, pair.restitution_t});
  write_coefficients(fp, law);
}

void DemcCoefficientIO::read_law_coefficients(FILE *fp, std::vector<double **> law)
{
  PairGranDemc &pair = owner();
  law.insert(law.end(), {pair.damp_n, pair.damp_t, pair.restitution, pair.restitution_t});
  read_coefficients(fp, law);
}
