/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: a part of PairGranDemc (pair_gran_demc.h). Coefficients in
   and out: pair_coeff's arguments that both laws share, their type ranges,
   and the restart file's coefficient arrays and settings record (rank 0
   writes; rank 0 reads and broadcasts).
------------------------------------------------------------------------- */

#ifndef DEMC_PAIR_GRAN_DEMC_COEFFS_H
#define DEMC_PAIR_GRAN_DEMC_COEFFS_H

#include "rolling_twisting.h"

#include <cstdio>
#include <initializer_list>
#include <utility>
#include <vector>

namespace LAMMPS_NS {

class DemcCoefficientIO {
 protected:
  // pair_coeff I J c1 c2 mu [damping nu_n nu_t | restitution e x_t] [rolling ...]
  // [twisting ...], read and checked for what the laws share
  struct CoeffArgs {
    double law[3];            // c1 c2 mu; mu checked >= 0, the law checks c1 and c2
    double damp_n, damp_t;    // 0 without the keyword; checked >= 0
    // coefficient of restitution in (0, 1] and the tangential to normal dashpot ratio (>= 0);
    // 0 0 without the keyword
    double restitution, restitution_t;
    demc::resistance::Params resistance;    // rolling and twisting (none without the keywords)
  };
  CoeffArgs read_coeff_args(int narg, char **arg, const char *law_names);    // e.g. "kn kt mu"
  int read_dashpot_keyword(int narg, char **arg, int iarg, const char *law_names,
                           bool &dashpot_set, CoeffArgs &c);
  [[noreturn]] void usage_error(int narg, const char *law_names);
  // pair_coeff's type ranges: set each array to its value for every i <= j in them
  void set_coefficients(const char *types_i, const char *types_j,
                        std::initializer_list<std::pair<double **, double>> values);

  /* the settings' restart record, a record of the package's format (demc_restart_records.h;
     rank 0 writes); read_settings_record() (collective) returns its values */
  void write_settings_record(FILE *fp, const std::vector<double> &values) const;
  std::vector<double> read_settings_record(FILE *fp);
  // a record (demc_restart_records.h) of, per type pair i <= j, setflag, then (if set) one
  // value of each coefficient array
  void write_coefficients(FILE *fp, const std::vector<double **> &arrays) const;
  void read_coefficients(FILE *fp, const std::vector<double **> &arrays);
  // restart files: the law's coefficient arrays, then the dashpots'
  void write_law_coefficients(FILE *fp, std::vector<double **> law) const;
  void read_law_coefficients(FILE *fp, std::vector<double **> law);

 private:
  class PairGranDemc &owner();
  const class PairGranDemc &owner() const;
};

}    // namespace LAMMPS_NS

#endif
