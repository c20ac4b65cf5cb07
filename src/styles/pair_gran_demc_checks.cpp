/* ----------------------------------------------------------------------
   dem-contact: the input checks of the package's pair styles (see header).
------------------------------------------------------------------------- */

#include "pair_gran_demc_checks.h"

#include "pair_gran_demc.h"

#include "atom.h"
#include "comm.h"
#include "compute.h"
#include "error.h"
#include "force.h"
#include "modify.h"
#include "pair_hybrid.h"
#include "utils.h"

#include <utility>
#include <vector>

using namespace LAMMPS_NS;

namespace {
/* the sub-styles of pair hybrid (any flavour) that are contact laws, with their keywords:
   LAMMPS's gran/* and granular*, this package's gran/kuhn, gran/jaeger, gran/coulomb (not
   tracker), found through Force's public look-ups (the nsub-th match; with one match, every
   nsub gives it) */
std::vector<std::pair<Pair *, std::string>> contact_law_substyles(Force *force)
{
  std::vector<std::pair<Pair *, std::string>> out;
  for (int nsub = 1;; nsub++) {
    Pair *p = force->pair_match("^gran", 0, nsub);
    if (p == nullptr || (!out.empty() && p == out.front().first)) break;
    out.emplace_back(p, force->pair_match_ptr(p));
  }
  return out;
}

/* whether sub-style p (keyword) of pair hybrid/overlay or hybrid/scaled computes type pair
   (i, j): a style of its keyword is mapped there (PairHybrid::check_ijtype()), and p has
   coefficients there (which tells two instances of one style apart: these flavours map a
   sub-style to every type pair it has coefficients for) */
bool computes(PairHybrid *hybrid, Pair *p, const std::string &keyword, int i, int j)
{
  std::string word = keyword;
  return hybrid->check_ijtype(i, j, word.data()) && p->allocated && p->setflag &&
      p->setflag[i][j];
}
}    // namespace

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
  // plain pair hybrid maps one sub-style to a type pair
  if (!utils::strmatch(force->pair_style, "^hybrid/overlay") &&
      !utils::strmatch(force->pair_style, "^hybrid/scaled"))
    return;
  const auto laws = contact_law_substyles(force);
  const char *my_keyword = force->pair_match_ptr(me);
  if (my_keyword == nullptr) return;
  for (int i = 1; i <= lmp->atom->ntypes; i++)
    for (int j = i; j <= lmp->atom->ntypes; j++) {
      if (!computes(hybrid, me, my_keyword, i, j)) continue;
      for (const auto &law : laws)
        if (law.first != me && computes(hybrid, law.first, law.second, i, j))
          lmp->error->all(
              FLERR,
              "Pair {}: atom types {} {} have two contact laws in pair_style {} ({} and {}): "
              "each adds its own contact force and keeps its own history, so every contact "
              "would count twice. Give each type pair one granular pair style",
              style, i, j, force->pair_style, style, law.second);
    }
}
