/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: faithful DEM contact laws for LAMMPS (plugin package)
   pair_style gran/jaeger: Jaeger's exact Hertz-Mindlin-Deresiewicz contact
   for arbitrary movement sequences, with an equivalent load history per
   contact (kernels/jaeger_contact.h) kept in fix DEMC/JAEGER_HISTORY and a
   contact frame carried by a quaternion (kernels/contact_frame.h).
------------------------------------------------------------------------- */

#ifdef PAIR_CLASS
// clang-format off
PairStyle(gran/jaeger,PairGranJaeger);
// clang-format on
#else

#ifndef DEMC_PAIR_GRAN_JAEGER_H
#define DEMC_PAIR_GRAN_JAEGER_H

#include "pair_gran_demc.h"

#include "jaeger_step.h"

#include <functional>
#include <string>
#include <vector>

namespace LAMMPS_NS {

class PairGranJaeger : public PairGranDemc {
 public:
  PairGranJaeger(class LAMMPS *);
  ~PairGranJaeger() override;
  void compute(int, int) override;
  void settings(int, char **) override;
  void coeff(int, char **) override;
  void init_style() override;
  double init_one(int, int) override;
  void write_restart_settings(FILE *) override;
  void read_restart_settings(FILE *) override;
  double single(int, int, int, int, double, double, double, double &) override;
  void *extract(const char *, int &) override;
  // single()'s extra values after the shared ones (SingleIndex): stored tangential energy U_t,
  // the contact's cumulative tangential work since it formed, its history length (points)
  enum JaegerSingleIndex { S_STORED_T = S_LAW, S_WORK, S_LENGTH, S_JAEGER_SIZE };
  // the material (without its radius) a contact record's history was made with, if known: its
  // type pair's in the restart file's settings, else the coefficients' (after init_one())
  bool record_material(const double *rec, demc::jaeger::Material &mat) const;

 protected:
  // per type pair: the coefficients given (E, nu; the dashpots: PairGranDemc::damping_table);
  // an unset pair's E and nu are those of one material on both bodies with its E* and G*
  DemcCoefficient youngs{coefficients, "E", DemcMix::BY_STYLE};
  DemcCoefficient poisson{coefficients, "nu", DemcMix::BY_STYLE};
  DemcCoefficient mu{coefficients, "mu", DemcMix::GEOMETRIC};
  // the effective moduli (init_one)
  DemcCoefficient estar{coefficients, "estar", DemcMix::DERIVED};
  DemcCoefficient gstar{coefficients, "gstar", DemcMix::DERIVED};
  // per type pair (index itype * (ntypes + 1) + jtype): the moduli and friction as a kernel
  // Material without the radius (init_one)
  std::vector<demc::jaeger::Material> pair_materials;
  // the Material of the contact of atoms i and j (list pair): the type pair's, with their radii
  demc::jaeger::Material contact_material(int i, int j) const;
  // the same with the type pair's index (type_pair()) at hand
  demc::jaeger::Material contact_material(int i, int j, int pair) const;
  int type_pair(int i, int j) const;    // index of tables per type pair: i * (n + 1) + j
  // the type pair's Material from the coefficients as they are (mixed if not set explicitly)
  demc::jaeger::Material type_pair_material(int i, int j) const;
  /* Changed materials: coefficients changed by pair_coeff between runs (or after read_restart),
     or atoms whose type changed (set type). history_materials: what the histories were made
     with, per type pair (as pair_materials; empty while there are none); each record names its
     type pair (FixJaegerHistory::R_TYPES). At the first compute() after an init every history
     whose material differs from its contact's is moved to it (demc::jaeger::change_material()). */
  std::vector<demc::jaeger::Material> history_materials;
  bool check_materials;
  void write_history_materials(std::vector<double> &out) const;
  void read_history_materials(const std::function<double()> &next);
  void convert_histories();
  // a record's key (R_TYPES): the type pair of atoms i and j, smaller type first (the tables
  // per type pair are symmetric), so that both records of a pair with a ghost name the same
  int material_key(int i, int j) const;
  // the type pair a record's history was made with: its key, or `now` if that is not known
  int history_key(const double *rec, int now) const;
  /* rolling and twisting resistance (PairGranDemc::resistance); layout_fixed: whether every
     record has the resistance's slots (demc::jaeger::PairResistRecord; 1: rolling or twisting
     on for any type pair, 0: off), fixed by the first init (the restart file's records: its
     settings); -1: not yet */
  int layout_fixed;
  bool resisting() const { return layout_fixed > 0; }
  void set_record_layout();
  int record_header() const;    // values before a record's history (FixJaegerHistory::header)
  // the resistance of the contact of atoms i and j with the type pair's index `pair`; null: off
  const demc::resistance::Params *contact_resistance(int pair) const
  {
    return resisting() && demc::resistance::active(resistance[pair]) ? &resistance[pair] : nullptr;
  }
  double beta;       // memory approximation, 0 = exact
  double prune;      // pruning tolerance (of mu P), 0 = keep every point
  int max_length;    // history/max: points per contact, 0 = unbounded
  // keyword work: integrate the tangential work (friction dissipation) always, never, or (auto)
  // in the runs in which a compute or the per-atom energies can read it
  enum WorkSetting { WORK_NO, WORK_YES, WORK_AUTO };
  int work_setting;
  bool work;            // this run integrates it (resolve_work())
  bool work_skipped;    // a run went without it (kept when pair_style is given again)
  // the integral starts after runs without it: at this run's setup the sum of the work starts
  // from the stored energy, so that the friction dissipation counts from there
  bool seed_work;
  void resolve_work();
  // whether this computation starts the sum of the work (a run's setup after seed_work was set)
  bool starts_work_sum(bool advance) const { return seed_work && !advance; }
  // the sum of the work started from the stored tangential energy of this computation
  void start_work_sum(double stored)
  {
    tangential_sum += stored;
    seed_work = false;
  }
  bool work_is_read() const;
  // steps of the last energy step (-1: none yet) and between the last two (0: not known), and
  // the history length from which a contact carries U_t from step to step
  // (demc::jaeger::stored_to_carry())
  bigint last_energy_step, energy_interval;
  int carry_length;

  class FixJaegerHistory *fix_history;

  void note_energy_step(bool energy);
  // compute()'s second pass: the contact law on each pair of the block
  void flush_contacts(ContactBuffer &buf, bool advance, bool energy, double &stored_tangential);
  // L: the records' layout (demc::jaeger::PairRecord, or PairResistRecord with rolling and
  // twisting), chosen once per block: without, the step's resistance code is dropped
  template <class L>
  void compute_contact(const TouchingPair &t, bool advance, bool energy, double &stored_tangential);
  template <class L> void prefetch_stack_tops(const ContactBuffer &buf) const;
  void count_contact(bool sliding, double weight, double normal_energy);
  // the keywords' and the run's part of a contact step's settings (compute())
  demc::jaeger::StepSettings step_settings;
  // single() of atoms i, j at distance^2 rsq with the contact's record rec (null: none)
  double single_of_record(int i, int j, double rsq, const double *rec, double &fforce);
};

/* ---- inline: called once per contact and step. Defined in the .cpp, GCC called it out of
   line. ---- */

inline int PairGranJaeger::type_pair(int i, int j) const
{
  return atom->type[i] * (atom->ntypes + 1) + atom->type[j];
}

inline demc::jaeger::Material PairGranJaeger::contact_material(int i, int j, int pair) const
{
  const double *radius = atom->radius;
  return demc::jaeger::with_radius(pair_materials[pair],
                                   demc::jaeger::effective_radius(radius[i], radius[j]));
}

inline demc::jaeger::Material PairGranJaeger::contact_material(int i, int j) const
{
  return contact_material(i, j, type_pair(i, j));
}

}    // namespace LAMMPS_NS

#endif
#endif
