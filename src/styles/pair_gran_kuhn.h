/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: faithful DEM contact laws for LAMMPS (plugin package)
   pair_style gran/kuhn: the Kuhn-Suzuki-Daouadji linear-frictional contact.
   The contact law itself lives in kernels/kuhn_contact.h; this class feeds
   it the geometry and movements of each pair and keeps its history.
------------------------------------------------------------------------- */

#ifdef PAIR_CLASS
// clang-format off
PairStyle(gran/kuhn,PairGranKuhn);
// clang-format on
#else

#ifndef DEMC_PAIR_GRAN_KUHN_H
#define DEMC_PAIR_GRAN_KUHN_H

#include "pair.h"

#include <string>

namespace LAMMPS_NS {

class PairGranKuhn : public Pair {
 public:
  PairGranKuhn(class LAMMPS *);
  ~PairGranKuhn() override;
  void compute(int, int) override;
  void settings(int, char **) override;
  void coeff(int, char **) override;
  void init_style() override;
  double init_one(int, int) override;
  void write_restart(FILE *) override;
  void read_restart(FILE *) override;
  void write_restart_settings(FILE *) override;
  void read_restart_settings(FILE *) override;
  void write_data(FILE *) override;
  void write_data_all(FILE *) override;
  void reset_dt() override;
  double single(int, int, int, int, double, double, double, double &) override;
  void transfer_history(double *, double *, int, int) override;
  void *extract(const char *, int &) override;
  double memory_usage() override;

  // layout of one contact's history in fix neigh/history
  enum HistoryIndex { H_FTX, H_FTY, H_FTZ, H_ZETA, H_WFRIC, H_WDAMP, H_SIZE };
  // layout of pvector (compute pair gran/kuhn)
  enum EnergyIndex { E_NORMAL, E_TANGENTIAL, E_FRICTION, E_DAMPING, E_CONTACTS, E_SLIDING, E_SIZE };

 protected:
  // per type pair (mixed in init_one)
  double **kn, **kt, **mu, **damp_n, **damp_t;
  unsigned refinements;    // demc::kuhn::Refinement bits
  double dt;
  double dissipated_friction, dissipated_damping;    // this rank's cumulative sums

  class FixDummy *fix_dummy;
  class FixNeighHistory *fix_history;
  double *onerad_dynamic, *onerad_frozen, *maxrad_dynamic, *maxrad_frozen;
  int neighprev;
  int history_index;    // makes the history fix ID unique within this LAMMPS instance

  void allocate();
  void set_max_radii();
  double *find_history(int i, int j);
  std::string history_fix_id() const;
};

}    // namespace LAMMPS_NS

#endif
#endif
