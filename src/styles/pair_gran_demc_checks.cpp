/* ----------------------------------------------------------------------
   dem-contact: the input checks of the package's pair styles (see header).
------------------------------------------------------------------------- */

#include "pair_gran_demc_checks.h"

#include "pair_gran_demc.h"

#include "demc_restart_entries.h"

#include "atom.h"
#include "comm.h"
#include "compute.h"
#include "error.h"
#include "force.h"
#include "modify.h"
#include "pair_hybrid.h"

using namespace LAMMPS_NS;

/* ---------------------------------------------------------------------- */

void LAMMPS_NS::demc_check_atom_requirements(LAMMPS *lmp, const std::string &style)
{
  const Atom *atom = lmp->atom;
  if (!atom->radius_flag || !atom->rmass_flag || !atom->omega_flag)
    lmp->error->all(
        FLERR, "Pair {} requires atom attributes radius, rmass, omega (e.g. atom_style sphere)",
        style);
  if (lmp->comm->ghost_velocity == 0)
    lmp->error->all(FLERR, "Pair {} requires ghost atoms store velocity: use comm_modify vel yes",
                    style);
}

/* ----------------------------------------------------------------------
   LAMMPS commands that cannot give the right numbers with these styles
   stop here instead of reporting wrong ones without a word:
   - those that take a pair's force to be single()'s fforce times the
     distance vector (central): for a contact that is its normal part only,
     so they would leave out the tangential forces (compute pair/local's
     force, fx, fy, fz are the normal part by its definition, and its p1,
     p2, p3 give the tangential force);
   - compute rattlers/atom with newton off: it counts a pair with a ghost
     atom on one side only, for the owned atom, so the ghost's owner misses
     that contact.
------------------------------------------------------------------------- */

void LAMMPS_NS::demc_refuse_unfit_computes(LAMMPS *lmp, const std::string &running_style)
{
  Modify *modify = lmp->modify;
  for (const char *pattern : {"^group/group", "^stress/mop", "^stress/cartesian",
                              "^stress/cylinder", "^stress/spherical"})
    for (const auto *c : modify->get_compute_by_style(pattern))
      lmp->error->all(FLERR,
                      "Pair {}: compute {} ({}) takes each pair force to act along the line of "
                      "centres and would leave out the tangential contact forces. Sum compute "
                      "pair/local's fx fy fz (normal) and p1 p2 p3 (tangential) instead",
                      running_style, c->id, c->style);
  if (lmp->force->newton_pair) return;
  for (const auto *c : modify->get_compute_by_style("^rattlers/atom"))
    lmp->error->all(FLERR,
                    "Pair {}: compute {} ({}) miscounts contacts with newton off: it counts a "
                    "contact with a ghost atom for the owned atom only. Use newton on (the CPU "
                    "styles), or compute contact/atom",
                    running_style, c->id, c->style);
}

/* ----------------------------------------------------------------------
   pair hybrid/overlay (or hybrid/scaled) with two contact laws on one type
   pair: each computes the whole contact force and keeps its own history, so
   the contact is counted twice (stiffness, friction limit, dissipation).
   A contact law overlaid with a style that is not one (e.g. lj/cut for
   cohesion, or tracker) is fine.
------------------------------------------------------------------------- */

void LAMMPS_NS::demc_check_overlapping_contact_laws(LAMMPS *lmp, Pair *me, const std::string &style)
{
  Force *force = lmp->force;
  auto *hybrid = dynamic_cast<PairHybrid *>(force->pair);
  if (hybrid == nullptr || force->pair == me) return;
  for (int i = 1; i <= lmp->atom->ntypes; i++)
    for (int j = i; j <= lmp->atom->ntypes; j++) {
      const auto sub = demc_restart::hybrid_substyles(hybrid, i, j);
      bool mine = false;
      for (auto *p : sub.pairs) mine = mine || p == me;
      if (!mine) continue;
      for (size_t k = 0; k < sub.pairs.size(); k++) {
        if (sub.pairs[k] == me) continue;
        const bool law = dynamic_cast<PairGranDemc *>(sub.pairs[k]) != nullptr ||
            demc_restart::is_contact_law_keyword(sub.keywords[k]);
        if (law)
          lmp->error->all(
              FLERR,
              "Pair {}: atom types {} {} have two contact laws in pair_style {} ({} and {}): "
              "each adds its own contact force and keeps its own history, so every contact "
              "would count twice. Give each type pair one granular pair style",
              style, i, j, force->pair_style, style, sub.keywords[k]);
      }
    }
}
