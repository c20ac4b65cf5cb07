/* ----------------------------------------------------------------------
   dem-contact: coefficients in and out of the package's pair styles (see
   header).
------------------------------------------------------------------------- */

#include "pair_gran_demc_coeffs.h"

#include "pair_gran_demc.h"

#include "demc_restart_records.h"

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
   pair_coeff I J c1 c2 mu [damping nu_n nu_t]: what both laws take alike
------------------------------------------------------------------------- */

DemcCoefficientIO::CoeffArgs DemcCoefficientIO::read_coeff_args(int narg, char **arg,
                                                                const char *law_names)
{
  PairGranDemc &pair = owner();
  const std::string &style_name = pair.style_name;
  if (narg != 5 && narg != 8)
    pair.error->all(FLERR,
                    "Pair_coeff {} expects: I J {} [damping nu_n nu_t | restitution e x_t], got "
                    "{} arguments",
                    style_name, law_names, narg);
  CoeffArgs c;
  for (int k = 0; k < 3; k++) c.law[k] = utils::numeric(FLERR, arg[2 + k], false, pair.lmp);
  c.damp_n = c.damp_t = c.restitution = c.restitution_t = 0.0;
  if (c.law[2] < 0.0)
    pair.error->all(FLERR, "Pair_coeff {}: mu must be >= 0, got {}", style_name, c.law[2]);
  if (narg == 5) return c;
  const bool damping = strcmp(arg[5], "damping") == 0;
  if (!damping && strcmp(arg[5], "restitution") != 0)
    pair.error->all(FLERR,
                    "Unknown pair_coeff {} keyword: {} (expected 'damping' or 'restitution')",
                    style_name, arg[5]);
  const double a = utils::numeric(FLERR, arg[6], false, pair.lmp);
  const double b = utils::numeric(FLERR, arg[7], false, pair.lmp);
  const std::string problem = demc_damping_values_problem(!damping, a, b);
  if (!problem.empty()) pair.error->all(FLERR, "Pair_coeff {}: {}", style_name, problem);
  (damping ? c.damp_n : c.restitution) = a;
  (damping ? c.damp_t : c.restitution_t) = b;
  return c;
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

void DemcCoefficientIO::write_double(FILE *fp, double value) const
{
  fwrite(&value, sizeof(double), 1, fp);
}

double DemcCoefficientIO::read_double(FILE *fp)
{
  PairGranDemc &pair = owner();
  double value = 0.0;
  if (pair.comm->me == 0) utils::sfread(FLERR, &value, sizeof(double), 1, fp, nullptr, pair.error);
  MPI_Bcast(&value, 1, MPI_DOUBLE, 0, pair.world);
  return value;
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
   the coefficients of the type pairs for restart files (rank 0 writes,
   rank 0 reads and broadcasts)
------------------------------------------------------------------------- */

void DemcCoefficientIO::write_coefficients(FILE *fp, const std::vector<double **> &arrays) const
{
  const PairGranDemc &pair = owner();
  for (int i = 1; i <= pair.atom->ntypes; i++)
    for (int j = i; j <= pair.atom->ntypes; j++) {
      fwrite(&pair.setflag[i][j], sizeof(int), 1, fp);
      if (!pair.setflag[i][j]) continue;
      for (double **a : arrays) write_double(fp, a[i][j]);
    }
}

void DemcCoefficientIO::read_coefficients(FILE *fp, const std::vector<double **> &arrays)
{
  PairGranDemc &pair = owner();
  int **setflag = pair.setflag;
  for (int i = 1; i <= pair.atom->ntypes; i++)
    for (int j = i; j <= pair.atom->ntypes; j++) {
      if (pair.comm->me == 0)
        utils::sfread(FLERR, &setflag[i][j], sizeof(int), 1, fp, nullptr, pair.error);
      MPI_Bcast(&setflag[i][j], 1, MPI_INT, 0, pair.world);
      if (!setflag[i][j]) continue;
      for (double **a : arrays) a[i][j] = read_double(fp);
    }
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
