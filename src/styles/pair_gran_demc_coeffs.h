/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: a part of PairGranDemc (pair_gran_demc.h). A style's
   coefficient arrays per type pair, each declared once, as a member

     DemcCoefficient kn{coefficients, "kn", DemcMix::SERIES};

   which registers it in the style's DemcCoefficientTable. The table does
   what every array takes alike: allocation and release, pair_coeff's type
   ranges, the mixing of unset type pairs (where a rule is declared), the
   copy to (j, i), the restart record, write_data's values and extract().
------------------------------------------------------------------------- */

#ifndef DEMC_PAIR_GRAN_DEMC_COEFFS_H
#define DEMC_PAIR_GRAN_DEMC_COEFFS_H

#include <cstdio>
#include <string>
#include <vector>

namespace LAMMPS_NS {

class LAMMPS;
class DemcCoefficientTable;

/* What a coefficient is, and how an unset type pair (i, j) takes it from types i and j:
     SERIES, GEOMETRIC  given by pair_coeff; 2 a b / (a + b), sqrt(a b)
     BY_STYLE           given by pair_coeff; mixed by the style's init_one()
     DAMPING            given by pair_coeff after the law's coefficients (DemcDampingTable)
     DERIVED            computed by init_one(); neither read nor written */
enum class DemcMix { SERIES, GEOMETRIC, BY_STYLE, DAMPING, DERIVED };

// one coefficient array, (ntypes + 1)^2, used as a double ** (kn[i][j])
class DemcCoefficient {
 public:
  DemcCoefficient(DemcCoefficientTable &table, const char *name, DemcMix mix);
  ~DemcCoefficient();    // (the table outlives its coefficients: a base's member)
  DemcCoefficient(const DemcCoefficient &) = delete;
  DemcCoefficient &operator=(const DemcCoefficient &) = delete;
  operator double **() const { return values; }

  const char *const name;    // its name in extract() (and memory labels)
  const DemcMix mix;
  double **values = nullptr;

 private:
  DemcCoefficientTable &table;
};

class DemcCoefficientTable {
 public:
  DemcCoefficientTable(LAMMPS *lmp, const std::string &style) : lmp(lmp), style(style) {}
  DemcCoefficientTable(const DemcCoefficientTable &) = delete;
  DemcCoefficientTable &operator=(const DemcCoefficientTable &) = delete;
  void add(DemcCoefficient *c);
  void release(DemcCoefficient *c);

  void allocate(int ntypes);
  int size() const { return (int) law.size() + (int) damping.size(); }
  // pair_coeff: each given coefficient's value (values: the law's in declaration order, then
  // the dashpots') for every i <= j of the type ranges, and setflag
  void set(const char *types_i, const char *types_j, int **setflag,
           const std::vector<double> &values);
  void mix(int i, int j);       // the SERIES and GEOMETRIC coefficients of unset pair (i, j)
  void mirror(int i, int j);    // every array's (j, i) from its (i, j)
  // a restart record (demc_restart_records.h) of, per type pair i <= j, setflag, then (if set)
  // each given coefficient (rank 0 writes; read collectively)
  void write_restart(FILE *fp, int **setflag, int ntypes) const;
  void read_restart(FILE *fp, int **setflag, int ntypes);
  std::string law_words(int i, int j) const;    // write_data: the law's given values of (i, j)
  double **extract(const char *name) const;     // nullptr if no coefficient has that name

 private:
  LAMMPS *lmp;
  std::string style;
  std::vector<DemcCoefficient *> law, damping;    // in declaration order
  std::vector<DemcCoefficient *> given() const;   // the law's, then the dashpots'
};

}    // namespace LAMMPS_NS

#endif
