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
#include "resistance_keywords.h"

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
       [damping nu_n 0 | restitution e 0] [rolling sds k gamma mu] [twisting sds k gamma mu]
       wallstyle args [wiggle ... | translate ...]
------------------------------------------------------------------------- */

FixWallGranCoulomb::FixWallGranCoulomb(LAMMPS *lmp, int narg, char **arg) :
    FixWallGranFixedHistory(lmp, narg, arg, H_SIZE), law(cf::HOOKE), c1(0.0), c2(0.0), mu(0.0),
    friction(nullptr)
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
  // hertz: the wall of the particles' material, R* the particle's radius
  step_params = {law, cf::stiffness_factor(law, c1, c2), mu, dashpots, resistance};

  allocate_history();
}

FixWallGranCoulomb::~FixWallGranCoulomb() = default;

int FixWallGranCoulomb::law_keyword(int narg, char **arg, int iarg)
{
  const int used = parse_damping_keyword(narg, arg, iarg, law == cf::HERTZ);
  if (used) return used;
  const int resisting =
      parse_resistance_keyword(lmp, fmt::format("Fix {}", style), narg, arg, iarg, resistance);
  if (resistance.twisting == demc::resistance::TWISTING_MARSHALL)
    error->all(FLERR,
               law_error("twisting marshall takes its stiffness and dashpot from a tangential "
                         "spring, which gran/coulomb does not have: use twisting sds"));
  return resisting;
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

/* the wall contact in the compact form of two spheres (demc::SphereContact): the contact point
   at arm_p n from the particle's centre (r_p = arm_p n); the wall's arm is not used */
static demc::SphereContact sphere_geometry(const FixWallGranDemc::Contact &c)
{
  return {c.overlap, c.n, c.n_old, c.du, demc::contact_twirl(c), demc::norm(c.r_p), 0.0};
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
  const int mode = advance ? cf::ADVANCE : first_setup_after_restart ? cf::REPEAT : cf::SETUP;
  // the wall: a partner of infinite radius and mass
  cf::StepGeometry g;
  g.c = sphere_geometry(c);
  const Vec3 wall_spin = advance ? (1.0 / dt) * c.dth_q : Vec3{0.0, 0.0, 0.0};
  g.w_rel = wall_spin - Vec3{atom->omega[i][0], atom->omega[i][1], atom->omega[i][2]};
  g.r_eff = cf::effective_radius(atom->radius[i], cf::WALL_RADIUS);
  g.m_eff = atom->rmass[i];
  g.dt = advance ? dt : 0.0;
  cf::Record record = cf::load_record(h, RECORD_LAYOUT);
  const cf::StepResult r = cf::contact_step(step_params, g, mode, record);
  if (advance) {
    cf::store_record(h, RECORD_LAYOUT, record);
    cumulative[C_DAMPING] += r.damping_work;
    cumulative[C_FRICTION] += r.resistance_friction;
  }
  h[H_SIDE] = side;

  FixCoulombFriction::WallPart wall;
  wall.v = advance ? (1.0 / dt) * c.du_q : Vec3{0.0, 0.0, 0.0};
  wall.w = wall_spin;
  wall.r_q = c.r_q;
  wall.move = c.du_q + demc::cross(c.dth_q, c.r_q);
  wall.fix = this;
  last_handle = friction->add_wall_contact(i, r.row, h, wall);
  return {r.force, r.normal_energy, r.resistance_stored, false, r.torque};
}

// the friction fix decides later, from the record where the region wall keeps it then
int FixWallGranCoulomb::record_handle() const
{
  return last_handle;
}

void FixWallGranCoulomb::record_moved(int handle, double *record)
{
  friction->move_history(handle, record);
}

void FixWallGranCoulomb::friction_applied(int p, const Vec3 &force, const Vec3 &r_q,
                                          const Vec3 &wall_move, bool sliding, double dissipated)
{
  add_late_tangential_force(p, force, r_q, wall_move, sliding, dissipated);
}

// separation: the rolling and twisting springs' energy is released through their sliders
void FixWallGranCoulomb::part(const Contact &c, bool advance)
{
  if (advance)
    cumulative[C_FRICTION] +=
        cf::parting_energy(step_params, cf::load_record(history[c.p], RECORD_LAYOUT), 0.0);
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
