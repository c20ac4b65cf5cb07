/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: a part of PairGranDemc (pair_gran_demc.h). Contact damping
   per type pair, both laws: constant dashpots (pair_coeff ... damping nu_n
   nu_t) or a coefficient of restitution (pair_coeff ... restitution e x_t),
   their mixing for unset type pairs, the kernel's demc::ContactDashpots per
   type pair, and what restitution damping needs at init (no rigid bodies;
   fix freeze's group, whose particles count as infinitely heavy).
------------------------------------------------------------------------- */

#ifndef DEMC_PAIR_GRAN_DEMC_DAMPING_H
#define DEMC_PAIR_GRAN_DEMC_DAMPING_H

#include "contact_geometry.h"
#include "pair_gran_demc_coeffs.h"

#include <string>
#include <vector>

namespace LAMMPS_NS {

class DemcDampingTable {
 public:
  // style: "gran/kuhn", ...; the four arrays join the style's coefficients (after the law's)
  DemcDampingTable(class LAMMPS *lmp, const std::string &style, DemcCoefficientTable &table);

  /* per type pair (ntypes + 1)^2: constant dashpots damp_n, damp_t, or a coefficient of
     restitution (0: none) and the tangential ratio */
  DemcCoefficient damp_n, damp_t, restitution, restitution_t;
  // the kernel's dashpots per type pair (index i * (n + 1) + j) after init_one
  std::vector<demc::ContactDashpots> pair_dashpots;
  // restitution damping: fix freeze's group (its particles count as infinitely heavy in the
  // effective mass, as in pair_style granular), 0 without
  int freeze_groupbit = 0;

  // init_one() of an unset pair: geometric means (see mix())
  void mix(int i, int j);
  // init_one(): pair_dashpots of (i, j) and (j, i); hertz: the Hertz restitution factor, else
  // the linear spring's
  void set_pair_dashpots(int i, int j, int ntypes, bool hertz);
  /* whether a type pair's dashpots depend on the masses (restitution e < 1): a type with it,
     or a pair set with it (before init_one(), which fills the unset pairs) */
  bool any_restitution(int ntypes, int **setflag) const;
  // write_data: "damping ..." or "restitution ..."
  std::string words(int i, int j) const;
  // restitution damping at init_style (running_style: with /kk where so): no rigid bodies;
  // freeze_groupbit
  void init_restitution(const std::string &running_style, int ntypes, int **setflag);

 private:
  class LAMMPS *lmp;
  std::string style;
  // the kind of damping of type i (for mixing): none, constant dashpots, restitution (e < 1)
  enum DampingKind { NO_DAMPING, DASHPOTS, RESTITUTION };
  DampingKind kind(int i) const;
};

/* Restitution damping needs each contact's effective mass, which for a particle of a rigid body
   is the body's: stop with an error naming `who` (e.g. "Pair gran/jaeger") if a rigid-body fix
   exists. */
void demc_refuse_rigid_bodies(class LAMMPS *lmp, const std::string &who);

/* The values of a damping (nu_n nu_t >= 0) or restitution (e in (0, 1], x_t >= 0) keyword: what is
   wrong with them, "" if nothing (pair_coeff and the wall fixes word it alike) */
std::string demc_damping_values_problem(bool restitution, double a, double b);

}    // namespace LAMMPS_NS

#endif
