/* ----------------------------------------------------------------------
   dem-contact: the coefficient arrays of the package's pair styles (see
   header).
------------------------------------------------------------------------- */

#include "pair_gran_demc_coeffs.h"

#include "demc_restart_records.h"

#include "atom.h"
#include "error.h"
#include "memory.h"
#include "utils.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace LAMMPS_NS;

DemcCoefficient::DemcCoefficient(DemcCoefficientTable &table, const char *name, DemcMix mix) :
    name(name), mix(mix), table(table)
{
  table.add(this);
}

DemcCoefficient::~DemcCoefficient()
{
  table.release(this);
}

/* ---------------------------------------------------------------------- */

void DemcCoefficientTable::add(DemcCoefficient *c)
{
  (c->mix == DemcMix::DAMPING ? damping : law).push_back(c);
}

void DemcCoefficientTable::release(DemcCoefficient *c)
{
  lmp->memory->destroy(c->values);
  c->values = nullptr;
}

void DemcCoefficientTable::allocate(int ntypes)
{
  for (const auto *list : {&law, &damping})
    for (DemcCoefficient *c : *list) {
      release(c);
      const std::string label = std::string("pair:") + c->name;
      lmp->memory->create(c->values, ntypes + 1, ntypes + 1, label.c_str());
    }
}

std::vector<DemcCoefficient *> DemcCoefficientTable::given() const
{
  std::vector<DemcCoefficient *> out;
  for (DemcCoefficient *c : law)
    if (c->mix != DemcMix::DERIVED) out.push_back(c);
  out.insert(out.end(), damping.begin(), damping.end());
  return out;
}

/* ---------------------------------------------------------------------- */

void DemcCoefficientTable::set(const char *types_i, const char *types_j, int **setflag,
                               const std::vector<double> &values)
{
  const std::vector<DemcCoefficient *> coefficients = given();
  if (values.size() != coefficients.size())
    lmp->error->all(FLERR, "Pair_coeff {}: {} values for {} coefficients (internal error)", style,
                    values.size(), coefficients.size());
  Error *error = lmp->error;
  int ilo, ihi, jlo, jhi;
  utils::bounds(FLERR, types_i, 1, lmp->atom->ntypes, ilo, ihi, error);
  utils::bounds(FLERR, types_j, 1, lmp->atom->ntypes, jlo, jhi, error);
  int count = 0;
  for (int i = ilo; i <= ihi; i++)
    for (int j = std::max(jlo, i); j <= jhi; j++) {
      for (size_t k = 0; k < values.size(); k++) coefficients[k]->values[i][j] = values[k];
      setflag[i][j] = 1;
      count++;
    }
  if (count == 0) error->all(FLERR, "Incorrect args for pair coefficients" + utils::errorurl(21));
}

void DemcCoefficientTable::mix(int i, int j)
{
  for (DemcCoefficient *c : law) {
    double **a = c->values;
    if (c->mix == DemcMix::SERIES)
      a[i][j] = 2.0 * a[i][i] * a[j][j] / (a[i][i] + a[j][j]);
    else if (c->mix == DemcMix::GEOMETRIC)
      a[i][j] = std::sqrt(a[i][i] * a[j][j]);
  }
}

void DemcCoefficientTable::mirror(int i, int j)
{
  for (const auto *list : {&law, &damping})
    for (DemcCoefficient *c : *list) c->values[j][i] = c->values[i][j];
}

/* ---------------------------------------------------------------------- */

void DemcCoefficientTable::write_restart(FILE *fp, int **setflag, int ntypes) const
{
  const std::vector<DemcCoefficient *> coefficients = given();
  std::vector<double> values;
  for (int i = 1; i <= ntypes; i++)
    for (int j = i; j <= ntypes; j++) {
      values.push_back(setflag[i][j] ? 1.0 : 0.0);
      if (!setflag[i][j]) continue;
      for (const DemcCoefficient *c : coefficients) values.push_back(c->values[i][j]);
    }
  demc_restart::write_file_record(fp, values);
}

void DemcCoefficientTable::read_restart(FILE *fp, int **setflag, int ntypes)
{
  const std::vector<DemcCoefficient *> coefficients = given();
  const std::string who = "Pair " + style + " coefficients";
  const std::vector<double> values = demc_restart::read_file_record(lmp, fp, who);
  size_t k = 0;
  auto next = [&]() {
    if (k >= values.size())
      lmp->error->all(FLERR, "{}: the restart file's record ends early", who);
    return values[k++];
  };
  for (int i = 1; i <= ntypes; i++)
    for (int j = i; j <= ntypes; j++) {
      setflag[i][j] = (int) demc_restart::checked_int(lmp, next(), 0, 1, who + ": setflag");
      if (!setflag[i][j]) continue;
      for (DemcCoefficient *c : coefficients) c->values[i][j] = next();
    }
  demc_restart::checked_int(lmp, (double) k, (long) values.size(), (long) values.size(),
                            who + ": values read of the record");
}

/* ---------------------------------------------------------------------- */

std::string DemcCoefficientTable::law_words(int i, int j) const
{
  std::string words;
  for (const DemcCoefficient *c : law)
    if (c->mix != DemcMix::DERIVED)
      words += fmt::format("{}{:.17g}", words.empty() ? "" : " ", c->values[i][j]);
  return words;
}

double **DemcCoefficientTable::extract(const char *name) const
{
  for (const auto *list : {&law, &damping})
    for (const DemcCoefficient *c : *list)
      if (strcmp(c->name, name) == 0) return c->values;
  return nullptr;
}
