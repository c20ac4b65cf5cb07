/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: a part of PairGranDemc (pair_gran_demc.h), one of its
   bases (the styles and their loops use its members by name). The keywords
   every granular pair style of the package takes after its own:
     energy/atom yes|no, schedule static|dynamic (Kokkos variants only),
     damping_cap yes|no, limit_damping,
   their code in a restart file's settings, their values for extract(),
   and whether gran/coulomb's setup repeats the last step (the first
   after read_restart).
------------------------------------------------------------------------- */

#ifndef DEMC_PAIR_GRAN_DEMC_KEYWORDS_H
#define DEMC_PAIR_GRAN_DEMC_KEYWORDS_H

#include "contact_geometry.h"

#include <string>

namespace LAMMPS_NS {

/* pair_style gran/coulomb and fix wall/gran/coulomb refuse damping_cap and limit_damping: they
   have no tangential dashpot, and their normal dashpot is always kept repulsive (Sakamaki et
   al.'s Eq. 7), so neither keyword could change a force; accepting them would let an input
   believe it had set something. */
inline bool demc_is_dashpot_limit_keyword(const std::string &word)
{
  return word == "damping_cap" || word == "limit_damping";
}
// the error message for `keyword` given to `who` ("Pair_style gran/coulomb", "Fix ...")
inline std::string demc_coulomb_dashpot_limit_refusal(const std::string &who,
                                                      const std::string &keyword)
{
  return who + " does not take " + keyword +
      ": it has no tangential dashpot, and its normal dashpot is always kept from making the "
      "normal force attractive (what limit_damping does in the other styles)";
}

class DemcSharedKeywords {
 protected:
  // per-atom energies (keyword energy/atom yes; off by default for their cost): each contact
  // gives half to p and q (DemcAtomEnergyShares)
  bool energy_per_atom = false;
  /* keyword schedule: how the Kokkos variants share the neighbor list among host threads
     (dynamic: blocks handed out as threads become free; static: fixed shares, so that the
     sums of forces, formed in thread copies, are the same bit for bit in every run).
     Without Kokkos a rank runs one thread and the keyword has no effect. */
  bool static_schedule = false;
  /* keywords damping_cap yes|no (default yes: the tangential dashpot's force counts towards
     Coulomb's limit) and limit_damping (the normal dashpot never makes the normal force
     attractive): demc::limit_dashpot_force() */
  demc::DashpotLimits dashpot_limits;
  /* (Each record keeps the dashpot force of its contact's last step, which every setup repeats:
     nothing has moved since and the half-step velocities it came from are gone, so a run that
     follows another, or read_restart, continues as the run that went straight on. A fresh
     contact has none.)
     gran/coulomb's constraint friction is decided anew by a run's setup, but for the first
     setup after read_restart, which repeats the last step's (FixCoulombFriction) */
  bool first_setup_after_restart = false;
  void setup_done(bool advance)
  {
    if (!advance) first_setup_after_restart = false;
  }

  void reset_common_keywords()    // at the start of settings()
  {
    energy_per_atom = false;
    static_schedule = false;
    dashpot_limits = demc::DashpotLimits();
  }
  // returns the number of arguments used, 0 if arg[iarg] is not one of the keywords (style:
  // the pair style's name, for the errors)
  int parse_common_keyword(class LAMMPS *lmp, const std::string &style, int narg, char **arg,
                           int iarg);
  // energy/atom, schedule, damping_cap no and limit_damping as one number of a restart file's
  // settings: bits 1, 2, 8 and 16

  double common_keywords_code() const
  {
    return (energy_per_atom ? 1.0 : 0.0) + (static_schedule ? 2.0 : 0.0) +
        (dashpot_limits.coulomb ? 0.0 : 8.0) + (dashpot_limits.no_tension ? 16.0 : 0.0);
  }
  void set_common_keywords(double code)
  {
    const int bits = static_cast<int>(code);
    energy_per_atom = (bits & 1) != 0;
    static_schedule = (bits & 2) != 0;
    dashpot_limits.coulomb = (bits & 8) == 0;
    dashpot_limits.no_tension = (bits & 16) != 0;
  }
  // "energy/atom", "schedule/static", "damping_cap", "limit_damping" as bool (dim 0), for a
  // style's extract(); nullptr for any other name
  void *extract_common(const char *name, int &dim);
};

}    // namespace LAMMPS_NS

#endif
