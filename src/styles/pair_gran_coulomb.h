/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: faithful DEM contact laws for LAMMPS (plugin package)
   pair_style gran/coulomb: numerically exact Coulomb friction (Sakamaki et
   al.) with a hooke or hertz normal law per type pair. This class computes
   the normal forces and hands every contact to its friction fix
   (DEMC/COULOMB_FRICTION), which decides the friction once every other
   force of the step is known (kernels/coulomb_friction.h).
------------------------------------------------------------------------- */

#ifdef PAIR_CLASS
// clang-format off
PairStyle(gran/coulomb,PairGranCoulomb);
// clang-format on
#else

#ifndef DEMC_PAIR_GRAN_COULOMB_H
#define DEMC_PAIR_GRAN_COULOMB_H

#include "coulomb_step.h"
#include "pair_gran_demc.h"

#include <string>
#include <vector>

namespace LAMMPS_NS {

class FixCoulombFriction;

class PairGranCoulomb : public PairGranDemc {
 public:
  PairGranCoulomb(class LAMMPS *);
  ~PairGranCoulomb() override;
  void compute(int, int) override;
  void settings(int, char **) override;
  void coeff(int, char **) override;
  void init_style() override;
  double init_one(int, int) override;
  void read_restart(FILE *) override;
  void write_restart_settings(FILE *) override;
  void read_restart_settings(FILE *) override;
  double single(int, int, int, int, double, double, double, double &) override;
  // single()'s own value after the shared ones: the contact's state (1 sticking, 2 sliding)
  enum CoulombSingleIndex { S_STATE = S_LAW, S_COULOMB_SIZE };
  void transfer_history(double *, double *, int, int) override;
  void *extract(const char *, int &) override;

  // one contact's history in the neighbor history fix (oriented from i to j): the friction force
  // on i, the contact's state (a ContactState), the normal dashpot force of the last step (its
  // repulsive part as applied), which the first setup after read_restart repeats with the last
  // step's friction (see repeats_last_step())
  enum HistoryIndex { H_FX, H_FY, H_FZ, H_STATE, H_FDAMP, H_SIZE };
  // with rolling or twisting resistance on any type pair the history continues: the rolling
  // spring (3), the twisting angle, the resistance's torque on i of the last step (3)
  enum ResistanceIndex { H_ROLL = H_SIZE, H_TWIST = H_ROLL + 3, H_TORQUE, H_RESISTANCE_SIZE = H_TORQUE + 3 };
  enum ContactState { NO_STATE = 0, STICKING = 1, SLIDING = 2 };
  // pvector after the package's layout: the friction solver's sweeps and its residual
  // (the largest force change a further sweep would make / the largest mu F_N) at the last step
  enum ExtraIndex { E_SWEEPS = E_SIZE, E_RESIDUAL, E_COULOMB_SIZE };

  // called by the friction fix once it has decided the step's friction (and written the
  // contacts' histories)
  virtual void friction_decided(double dissipated, double sliding, int sweeps, double residual);
  void tally_friction(int i, int j, const demc::Vec3 &force_on_i);    // virial
  bool advancing() const { return advance_step; }
  /* the first setup after read_restart applies each contact's dashpot and friction forces of
     the last step as the records hold them (the half-step velocities they came from are gone;
     decided again from the full-step velocities, the friction of many contacts decided at once
     differs), so that the run continues as the one that went straight on; the friction fix
     calls last_step_repeated() once it has applied them */
  bool repeats_last_step() const { return !advance_step && first_setup_after_restart; }
  void last_step_repeated() { setup_done(advance_step); }
  FixCoulombFriction *friction_fix() const { return friction; }
  /* the Kokkos variant hands its contacts to the friction fix only when the fix needs them
     (contacts_to_friction(), at the fix's pass), and may make the direct decision itself:
     decides_friction(), decide_friction(h, advance) (the fix's pass with the kick h, where no
     wall contact joins the pair's) */
  virtual void contacts_to_friction() {}
  virtual bool decides_friction() const { return false; }
  virtual void decide_friction(double, bool) {}

  // the friction solver's settings (pair_style keywords)
  double iterate_tolerance;    // 0: the paper's direct treatment (one pass)
  int iterate_max_sweeps;
  std::string norotate_group;    // particles that do not rotate ("" none)

 protected:
  // per type pair: normal law (a demc::coulomb::NormalLaw), its coefficients (hooke: kn, 0;
  // hertz: E, nu), friction coefficient; the stiffness factor of the law (kn or 4/3 E*)
  DemcCoefficient law{coefficients, "law", DemcMix::BY_STYLE};
  DemcCoefficient c1{coefficients, "c1", DemcMix::BY_STYLE};
  DemcCoefficient c2{coefficients, "c2", DemcMix::BY_STYLE};
  DemcCoefficient mu{coefficients, "mu", DemcMix::GEOMETRIC};
  DemcCoefficient kfactor{coefficients, "kfactor", DemcMix::DERIVED};
  // per type pair (index i (ntypes + 1) + j): the contact step's parameters (init_one())
  std::vector<demc::coulomb::StepParams> step_params;
  int history_size = H_SIZE;    // values per contact history
  demc::coulomb::RecordLayout record_layout = {H_FDAMP, -1, -1, -1};
  bool restitution_active = false;
  bool advance_step = false;
  FixCoulombFriction *friction;
  class FixNeighHistory *fix_history;

  void allocate() override;
  int parse_coeff_keyword(int narg, char **arg, int iarg, bool &dashpot_set, double &a, double &b,
                          bool &damping, demc::resistance::Params &r);
  void set_history_layout();
  demc::coulomb::StepParams &type_step(int ti, int tj)
  {
    return step_params[ti * (atom->ntypes + 1) + tj];
  }
  void place_friction_fix();
  // the style of the history fix made at the first init (the Kokkos variant's differs)
  virtual std::string history_fix_style() const { return "DEMC/NEIGH_HISTORY"; }
  // single() from the contact's history h in the list of i (sign 1) or of j (sign -1)
  double single_from_history(int i, int j, int itype, int jtype, double rsq, const double *h,
                             double sign, double &fforce);
  std::string friction_fix_id() const { return history_fix_id() + "_FRICTION"; }
  std::string coeff_words(int i, int j) const override;
};

}    // namespace LAMMPS_NS

#endif
#endif
