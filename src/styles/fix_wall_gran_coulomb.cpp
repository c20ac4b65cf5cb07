/* ----------------------------------------------------------------------
   dem-contact: faithful DEM contact laws for LAMMPS (plugin package)
   fix wall/gran/coulomb: walls with the numerically exact Coulomb friction
   of pair_style gran/coulomb.

   LAMMPS work only: the normal force (kernels/coulomb_friction.h), the
   per-particle record, and the wall contacts handed to the pair style's
   friction fix. Wall geometry, motion, force and energy output:
   FixWallGranDemc.
------------------------------------------------------------------------- */

#include "fix_wall_gran_coulomb.h"

#include "demc_citations.h"
#include "demc_restart_records.h"
#include "fix_coulomb_friction.h"
#include "pair_gran_coulomb.h"
#include "pair_gran_demc_keywords.h"

#include "atom.h"
#include "citeme.h"
#include "error.h"
#include "force.h"
#include "memory.h"

#include <cmath>
#include <cstring>

using namespace LAMMPS_NS;
using demc::Vec3;
namespace cf = demc::coulomb;

/* ----------------------------------------------------------------------
   fix ID group wall/gran/coulomb hooke kn mu | hertz E nu mu
       [damping nu_n 0 | restitution e 0] wallstyle args [wiggle ... | translate ...]
------------------------------------------------------------------------- */

FixWallGranCoulomb::FixWallGranCoulomb(LAMMPS *lmp, int narg, char **arg) :
    FixWallGranFixedHistory(lmp, narg, arg, H_SIZE), law(cf::HOOKE), c1(0.0),
    c2(0.0), mu(0.0), kfactor(0.0), friction(nullptr)
{
  if (lmp->citeme) lmp->citeme->add(demc::cite_sakamaki);
  if (narg < 6)
    error->all(FLERR,
               "Fix {} expects: hooke kn mu | hertz E nu mu [damping nu_n 0 | restitution e 0] "
               "wallstyle args [keyword value ...]",
               style);
  if (strcmp(arg[3], "hooke") == 0)
    law = cf::HOOKE;
  else if (strcmp(arg[3], "hertz") == 0)
    law = cf::HERTZ;
  else
    error->all(FLERR, law_error("unknown normal law {} (expected hooke or hertz)"), arg[3]);
  const int nlaw = law == cf::HOOKE ? 2 : 3;
  if (narg < 4 + nlaw + 1)
    utils::missing_cmd_args(FLERR, fmt::format("fix {} {}", style, arg[3]), error);
  c1 = utils::numeric(FLERR, arg[4], false, lmp);
  if (law == cf::HERTZ) c2 = utils::numeric(FLERR, arg[5], false, lmp);
  mu = utils::numeric(FLERR, arg[3 + nlaw], false, lmp);
  parse_wall(narg, arg, 4 + nlaw);
  if (!(c1 > 0.0))
    error->all(FLERR, law_error("{} must be > 0, got {}"), law == cf::HOOKE ? "kn" : "E", c1);
  if (law == cf::HERTZ && !(c2 > -1.0 && c2 < 0.5))
    error->all(FLERR, law_error("Poisson's ratio must be within (-1, 0.5), got {}"), c2);
  if (!(mu >= 0.0)) error->all(FLERR, law_error("mu must be >= 0, got {}"), mu);
  if (dashpots.nu_t != 0.0 || dashpots.tangential_ratio != 0.0)
    error->all(FLERR,
               law_error("the tangential dashpot must be 0: the friction alone acts "
                         "tangentially (a dashpot would pass Coulomb's limit)"));
  // hertz: the wall of the particles' material, E* = E / (2 (1 - nu^2)), R* the particle's radius
  kfactor = law == cf::HOOKE ? c1 : 4.0 / 3.0 * c1 / (2.0 * (1.0 - c2 * c2));

  allocate_history();
}

FixWallGranCoulomb::~FixWallGranCoulomb() = default;

int FixWallGranCoulomb::law_keyword(int narg, char **arg, int iarg)
{
  return parse_damping_keyword(narg, arg, iarg, law == cf::HERTZ);
}

// damping_cap and limit_damping: refused, as by the pair style (demc_is_dashpot_limit_keyword())
int FixWallGranCoulomb::parse_dashpot_limit_keyword(int, char **arg, int iarg)
{
  if (demc_is_dashpot_limit_keyword(arg[iarg]))
    error->all(FLERR, "{}",
               demc_coulomb_dashpot_limit_refusal(fmt::format("Fix {}", style), arg[iarg]));
  return 0;
}

/* the friction of the wall contacts is decided by pair gran/coulomb's friction fix */
void FixWallGranCoulomb::init()
{
  FixWallGranDemc::init();
  auto *pair = dynamic_cast<PairGranCoulomb *>(force->pair_match("^gran/coulomb", 0));
  if (pair == nullptr || pair->friction_fix() == nullptr)
    error->all(FLERR,
               law_error("needs pair_style gran/coulomb (its friction fix decides the "
                         "friction of the wall contacts with the particles' contacts)"));
  friction = pair->friction_fix();
}

int FixWallGranCoulomb::history_side(int i) const
{
  return static_cast<int>(history[i][H_SIDE]);
}

/* ----------------------------------------------------------------------
   one particle touching surface `side`: the normal force (its dashpot kept
   repulsive), the contact handed to the friction fix
------------------------------------------------------------------------- */

FixWallGranDemc::Touch FixWallGranCoulomb::touch(const Contact &c, int side, bool advance)
{
  const int i = c.p;
  double *h = history[i];
  if (history_side(i) != side)
    for (int k = 0; k < H_SIZE; k++) h[k] = 0.0;
  const double k = law == cf::HERTZ ? kfactor * std::sqrt(atom->radius[i]) : kfactor;
  const cf::NormalForce nf = cf::normal_force(law, k, c.overlap);
  const double step = advance ? dt : 0.0;
  const double dashpot = -demc::dot(
      demc::dashpot_force(dashpots, c.du, c.n, nf.elastic, c.overlap, atom->rmass[i], step), c.n);
  const double F_N = (!advance && setup_repeats_dashpots)
      ? nf.elastic + h[H_FDAMP]
      : cf::damped_normal_force(nf.elastic, dashpot);
  if (advance) {
    cumulative[C_DAMPING] -= (F_N - nf.elastic) * demc::dot(c.du, c.n);
    h[H_FDAMP] = F_N - nf.elastic;
  }
  h[H_SIDE] = side;

  FixCoulombFriction::Contact fc;
  fc.p = i;
  fc.n = c.n;
  fc.arm_p = demc::norm(c.r_p);    // (r_p = arm_p n)
  fc.limit = mu * F_N;
  fc.weight = 1.0;
  fc.history = h;
  FixCoulombFriction::WallPart wall;
  wall.v = advance ? (1.0 / dt) * c.du_q : Vec3{0.0, 0.0, 0.0};
  wall.w = advance ? (1.0 / dt) * c.dth_q : Vec3{0.0, 0.0, 0.0};
  wall.r_q = c.r_q;
  wall.move = c.du_q + demc::cross(c.dth_q, c.r_q);
  wall.fix = this;
  friction->add_wall_contact(fc, wall);
  return {-F_N * c.n, nf.energy, 0.0, false};
}

void FixWallGranCoulomb::friction_applied(int p, const Vec3 &force, const Vec3 &r_q,
                                          const Vec3 &wall_move, bool sliding, double dissipated)
{
  add_late_tangential_force(p, force, r_q, wall_move, sliding, dissipated);
}

// separation: nothing stored to release (no tangential spring)
void FixWallGranCoulomb::part(const Contact &c, bool)
{
  for (int k = 0; k < H_SIZE; k++) history[c.p][k] = 0.0;
}

// a history read from a restart file (FixWallGranFixedHistory's record)
void FixWallGranCoulomb::check_restored_history(int i) const
{
  demc_restart::checked_int(lmp, history[i][H_SIDE], NO_SIDE, HI_SIDE,
                            law_error("wall side of a contact"));
  demc_restart::checked_int(lmp, history[i][H_STATE], PairGranCoulomb::NO_STATE,
                            PairGranCoulomb::SLIDING, law_error("wall contact state"));
}

double FixWallGranCoulomb::memory_usage()
{
  return history_memory();
}
