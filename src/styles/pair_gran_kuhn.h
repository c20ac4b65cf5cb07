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

#include "kuhn_step.h"
#include "pair_gran_demc.h"
#include "rolling_twisting.h"

#include <vector>

namespace LAMMPS_NS {

class PairGranKuhn : public PairGranDemc {
 public:
  PairGranKuhn(class LAMMPS *);
  ~PairGranKuhn() override;
  void compute(int, int) override;
  void settings(int, char **) override;
  void coeff(int, char **) override;
  void init_style() override;
  double init_one(int, int) override;
  void write_restart_settings(FILE *) override;
  void read_restart_settings(FILE *) override;
  double single(int, int, int, int, double, double, double, double &) override;
  void transfer_history(double *, double *, int, int) override;
  void *extract(const char *, int &) override;

  // layout of one contact's history in fix neigh/history (oriented from i to j): the shared
  // Kuhn history (kuhn_keywords.h), then the dashpot force on i of the last step, which the
  // force of a run's setup repeats (so that a run after another, or after read_restart,
  // continues as the one that went straight on: the half-step velocities the dashpots saw are
  // not kept)
  enum HistoryIndex {
    H_FTX,
    H_FTY,
    H_FTZ,
    H_ZETA,
    H_WFRIC,
    H_WDAMP,
    H_FDAMP_X,
    H_FDAMP_Y,
    H_FDAMP_Z,
    H_SIZE
  };
  // with rolling or twisting resistance on any type pair (pair_coeff keywords) the history
  // continues after H_SIZE: the rolling spring (3 values), the twisting angle, and the
  // resistance's torque on i of the last step (repeated at a run's setup)
  // single()'s extra values after the shared ones (SingleIndex): stored tangential energy, and
  // the contact's cumulative friction and damping dissipation since it formed
  enum KuhnSingleIndex { S_STORED_T = S_LAW, S_FRICTION, S_DAMPING, S_KUHN_SIZE };

 protected:
  // per type pair (mixed in init_one; the dashpots: PairGranDemc::damping)
  DemcCoefficient kn{coefficients, "kn", DemcMix::SERIES};
  DemcCoefficient kt{coefficients, "kt", DemcMix::SERIES};
  DemcCoefficient mu{coefficients, "mu", DemcMix::GEOMETRIC};
  unsigned refinements;       // demc::kuhn::Refinement bits

  // the kernel's parameters per type pair, (ntypes + 1)^2, set by init_one()
  std::vector<demc::kuhn::Params> contact_params;
  const demc::kuhn::Params &type_params(int i, int j) const
  {
    return contact_params[i * (atom->ntypes + 1) + j];
  }

  class FixNeighHistory *fix_history;
  // a touching pair for flush_contacts(), with its history slot as the first pass found it
  struct KuhnContact {
    int i, j;
    double rsq;
    int *touch;
    double *history;
  };
  // 128 touching pairs a block (the size measured best: bench/HISTORY.md)
  using KuhnBuffer = BufferOf<KuhnContact, 128>;
  void flush_contacts(KuhnBuffer &buf, bool advance, double *sum, double &friction,
                      double &damping);
  // ALL_ON: every refinement on (the default), known to the compiler, so that the kernel's
  // tests of the refinement bits fold away
  // RESTITUTION: some type pair has restitution damping, which the style adds to the kernel's
  // result (its dashpots depend on the masses); the default variant has no such test
  // what the block's contacts add to (compute() keeps the sums in locals)
  struct LawTotals {
    double *sum;
    double &friction, &damping;
  };
  // RESIST: rolling or twisting resistance is on (known to the compiler: without, the step's
  // resistance code is dropped from the loop)
  template <bool ALL_ON, bool RESTITUTION, bool RESIST>
  void run_contact_law(KuhnBuffer &buf, bool advance, LawTotals &totals);
  // one contact's step (demc::kuhn::contact_step()) with its record and compute()'s sums
  // (always inlined: out of line, the results went through memory)
  template <bool ALL_ON, bool RESTITUTION, bool RESIST>
  DEMC_HOST_FLAT demc::kuhn::Outcome step_contact(const KuhnContact &t,
                                                  const demc::SphereContact &c,
                                                  demc::kuhn::Phase phase, LawTotals &totals);
  bool restitution_active = false;    // init_style()

  // the kernel's parameters of rolling and twisting per type pair (PairGranDemc::resistance;
  // twisting marshall: the law's kt, damp_t, mu; init_one())
  std::vector<demc::resistance::Params> resistance_params;
  // values per contact history, and where the record's values lie in it (kuhn_step.h)
  int history_size = H_SIZE;
  demc::kuhn::RecordLayout record_layout = {H_FDAMP_X};
  bool resistance_on() const { return record_layout.torque >= 0; }
  void set_history_layout();
  // the energy a contact's history holds, released when the contact parts
  double parting_energy(int i, int j, const double *history) const;

  double single_from_history(int itype, int jtype, double rsq, double radsum, const double *history,
                             double ft_sign, double &fforce);
};

}    // namespace LAMMPS_NS

#endif
#endif
