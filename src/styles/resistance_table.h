/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: the rolling and twisting resistance of a pair style per type
   pair, as LAMMPS's pair_style granular takes it: pair_coeff keywords
   (resistance_keywords.h) for a range of type pairs, unlike types mixed,
   each type pair's models in the restart file's settings record and in
   write_data's pair_coeff lines.
------------------------------------------------------------------------- */

#ifndef DEMC_RESISTANCE_TABLE_H
#define DEMC_RESISTANCE_TABLE_H

#include "resistance_keywords.h"

#include "fmt/format.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace LAMMPS_NS {

class DemcResistanceTable {
 public:
  using Params = demc::resistance::Params;

  // every type pair without resistance, unless already sized for ntypes (pair styles allocate
  // with their coefficients, which read_restart() reads after the settings)
  void allocate(int ntypes)
  {
    if (ntypes == n) return;
    n = ntypes;
    table.assign((n + 1) * (n + 1), Params());
  }
  const Params &at(int i, int j) const { return table[i * (n + 1) + j]; }

  // r for every type pair i <= j of pair_coeff's type ranges
  void set(LAMMPS *lmp, const char *types_i, const char *types_j, const Params &r)
  {
    int ilo, ihi, jlo, jhi;
    utils::bounds(FLERR, types_i, 1, n, ilo, ihi, lmp->error);
    utils::bounds(FLERR, types_j, 1, n, jlo, jhi, lmp->error);
    for (int i = ilo; i <= ihi; i++)
      for (int j = std::max(jlo, i); j <= jhi; j++) table[i * (n + 1) + j] = r;
  }

  /* init_one(): unlike types not set explicitly (mixed = true) get the same models as i,i and
     j,j with the geometric means of their coefficients; then j,i = i,j */
  void init_pair(LAMMPS *lmp, const std::string &style, int i, int j, bool mixed)
  {
    Params &ij = table[i * (n + 1) + j];
    if (mixed) {
      const Params &a = at(i, i), &b = at(j, j);
      if (a.rolling != b.rolling || a.twisting != b.twisting)
        lmp->error->all(FLERR,
                        "Pair {}: types {} and {} have different rolling or twisting models: set "
                        "pair_coeff {} {} explicitly",
                        style, i, j, i, j);
      ij = a;
      ij.roll = geometric_mean(a.roll, b.roll);
      ij.twist = geometric_mean(a.twist, b.twist);
    }
    table[j * (n + 1) + i] = ij;
  }

  /* the models any type pair set so far has (the contact histories make room for these);
     twisting: TWISTING_SDS stands for any twisting model */
  Params models_in_use(int **setflag) const
  {
    Params any;
    for (int i = 1; i <= n; i++)
      for (int j = i; j <= n; j++) {
        if (!setflag[i][j]) continue;
        const Params &p = at(i, j);
        any.rolling = any.rolling || p.rolling;
        if (p.twisting != demc::resistance::TWISTING_NONE)
          any.twisting = demc::resistance::TWISTING_SDS;
      }
    return any;
  }

  // any type pair i <= j has a model (restart: the file's, mixed ones included)
  bool any_active() const
  {
    for (int i = 1; i <= n; i++)
      for (int j = i; j <= n; j++)
        if (demc::resistance::active(at(i, j))) return true;
    return false;
  }
  // the models of the type pair with index k = i (ntypes + 1) + j (init_one() set both orders)
  const Params &operator[](int k) const { return table[k]; }

  // restart: each type pair i <= j's models (RESISTANCE_VALUES each)
  int values_size() const { return n * (n + 1) / 2 * RESISTANCE_VALUES; }
  void append_values(std::vector<double> &values) const
  {
    for (int i = 1; i <= n; i++)
      for (int j = i; j <= n; j++) append_resistance_values(at(i, j), values);
  }
  void read_values(LAMMPS *lmp, const double *v, const std::string &who)
  {
    for (int i = 1; i <= n; i++)
      for (int j = i; j <= n; j++, v += RESISTANCE_VALUES)
        table[i * (n + 1) + j] = resistance_from_values(lmp, v, who);
  }

  // pair_coeff's keywords for type pair i, j (write_data), each with a leading space
  std::string coeff_words(int i, int j) const
  {
    const Params &r = at(i, j);
    std::string words;
    if (r.rolling)
      words += fmt::format(" rolling sds {:.17g} {:.17g} {:.17g}", r.roll.k, r.roll.gamma,
                           r.roll.mu);
    if (r.twisting == demc::resistance::TWISTING_SDS)
      words += fmt::format(" twisting sds {:.17g} {:.17g} {:.17g}", r.twist.k, r.twist.gamma,
                           r.twist.mu);
    if (r.twisting == demc::resistance::TWISTING_MARSHALL) words += " twisting marshall";
    return words;
  }

 private:
  int n = 0;
  std::vector<Params> table;

  static demc::resistance::Sds geometric_mean(const demc::resistance::Sds &x,
                                              const demc::resistance::Sds &y)
  {
    return {std::sqrt(x.k * y.k), std::sqrt(x.gamma * y.gamma), std::sqrt(x.mu * y.mu)};
  }
};

}    // namespace LAMMPS_NS

#endif
