/* ----------------------------------------------------------------------
   dem-contact: what the package's particle-wall fixes share (see header).
------------------------------------------------------------------------- */

#include "fix_wall_gran_demc.h"

#include "demc_restart_entries.h"
#include "demc_restart_records.h"

#include "atom.h"
#include "comm.h"
#include "domain.h"
#include "error.h"
#include "input.h"
#include "math_const.h"
#include "memory.h"
#include "modify.h"
#include "region.h"
#include "update.h"
#include "variable.h"

#include <cmath>
#include <cstring>
#include <vector>

using namespace LAMMPS_NS;
using namespace FixConst;
using demc::Vec3;

namespace {
Vec3 vec(const double *a)
{
  return {a[0], a[1], a[2]};
}

double &component(Vec3 &v, int k)
{
  return k == 0 ? v.x : (k == 1 ? v.y : v.z);
}

double component(const Vec3 &v, int k)
{
  return k == 0 ? v.x : (k == 1 ? v.y : v.z);
}

int wall_style_of(const char *word)
{
  const char *const names[] = {"xplane", "yplane", "zplane", "zcylinder", "region"};
  for (int k = 0; k < 5; k++)
    if (strcmp(word, names[k]) == 0) return k;
  return -1;
}

int axis_of(const char *word)
{
  if (strcmp(word, "x") == 0) return 0;
  if (strcmp(word, "y") == 0) return 1;
  if (strcmp(word, "z") == 0) return 2;
  return -1;
}

// global restart record (demc_restart_records.h): displacement (3), elapsed time, the sums
constexpr int RESTART_VALUES = 4;
}    // namespace

/* ---------------------------------------------------------------------- */

FixWallGranDemc::FixWallGranDemc(LAMMPS *lmp, int narg, char **arg) :
    Fix(lmp, narg, arg), dt(0.0), damping_keyword(false), wallstyle(-1), has_lo(false),
    has_hi(false), lo(0.0), hi(0.0), cylradius(0.0), motion(STATIC), wiggle_axis(0), amplitude(0.0),
    period(0.0), rotating(false), spin(0.0), spin_var(-1), step_turn(0.0), elapsed(0.0),
    step_move{0.0, 0.0, 0.0}, reduced(false), contacts_output(false), contacts(nullptr),
    contacts_nmax(0)
{
  if (!atom->radius_flag || !atom->rmass_flag || !atom->omega_flag)
    error->all(FLERR,
               "Fix {} requires atom attributes radius, rmass, omega (e.g. atom_style sphere)",
               style);
  create_attribute = 1;
  restart_global = 1;
  restart_peratom = 1;
  scalar_flag = 1;
  vector_flag = 1;
  size_vector = V_SIZE;
  global_freq = 1;
  extscalar = 1;
  extvector = 1;
  energy_global_flag = 1;    // fix_modify energy yes: stored elastic energy joins pe
  for (int k = 0; k < 3; k++) {
    velocity[k] = disp[k] = 0.0;
    vvar[k] = -1;
  }
  for (double &c : cumulative) c = 0.0;
  for (int k = 0; k < V_REGION_SIZE; k++) local[k] = global[k] = 0.0;
  // a restart file's wall contact histories under this ID but of another wall style would be
  // dropped without notice by LAMMPS (records go only to a fix of the same ID and style)
  for (const auto &e : demc_restart::unclaimed_peratom_entries(modify))
    if (e.id == id && demc_restart::is_wall_history_style(e.style) &&
        e.style != utils::strip_style_suffix(style, lmp))
      error->all(
          FLERR,
          "Fix {} {}: the restart file holds wall contact histories of fix {} written by fix "
          "style {}, which fix {} cannot read: the run would go on with every wall contact "
          "fresh. Use fix {} again, or another fix ID to start the wall afresh on purpose",
          id, style, id, e.style, style, e.style);
}

FixWallGranDemc::~FixWallGranDemc()
{
  memory->destroy(contacts);
}

/* ---------------------------------------------------------------------- */

int FixWallGranDemc::setmask()
{
  return POST_FORCE;
}

std::string FixWallGranDemc::law_error(const std::string &what) const
{
  return fmt::format("Fix {}: {}", style, what);
}

/* a keyword no parser took: LAMMPS's fix wall/gran keywords that these walls do not have said
   as such (an input moved from fix wall/gran would otherwise read "unknown keyword") */
void FixWallGranDemc::unknown_keyword(const char *word, bool region_fix) const
{
  if (strcmp(word, "shear") == 0)
    error->all(FLERR,
               law_error(region_fix ? "LAMMPS's shear keyword is not supported: the region's "
                                      "own move and rotate keywords move the wall"
                                    : "LAMMPS's shear keyword is not supported: a plane wall "
                                      "moves in its plane with translate vx vy vz (after the "
                                      "wall style)"));
  if (strcmp(word, "temperature") == 0)
    error->all(FLERR, law_error("LAMMPS's temperature keyword (heat flow) is not supported"));
  error->all(FLERR, "Unknown fix {} keyword: {}", style, word);
}

/* ----------------------------------------------------------------------
   [law keywords] wallstyle args [wiggle dim A period | translate vx vy vz |
   rotate omega | law keywords] ...; law keywords may come before or after the wall.
   The region wall fixes (wall/gran/region/LAW) take "region ID" as their wall
   and no motion keyword (the region moves itself); the others refuse it.
------------------------------------------------------------------------- */

void FixWallGranDemc::parse_wall(int narg, char **arg, int iarg)
{
  const bool region_fix = utils::strmatch(style, "^wall/gran/region/");
  auto keyword = [&](bool motion_allowed) {
    int n = motion_allowed ? parse_motion(narg, arg, iarg) : 0;
    if (n == 0 && motion_allowed) n = parse_rotation(narg, arg, iarg);
    if (n == 0) n = parse_dashpot_limit_keyword(narg, arg, iarg);
    if (n == 0) n = parse_contacts(narg, arg, iarg);
    if (n == 0) n = law_keyword(narg, arg, iarg);
    if (n == 0) unknown_keyword(arg[iarg], region_fix);
    iarg += n;
  };
  while (iarg < narg && wall_style_of(arg[iarg]) < 0) {
    for (const char *motion_word : {"wiggle", "translate", "rotate"})
      if (strcmp(arg[iarg], motion_word) == 0)
        error->all(FLERR, law_error("keyword {} must follow the wall style"), motion_word);
    keyword(false);
  }
  if (iarg >= narg && region_fix) error->all(FLERR, "Fix {} expects: region REGION-ID", style);
  if (iarg >= narg)
    error->all(FLERR, "Fix {} expects a wall style: xplane, yplane, zplane or zcylinder", style);
  const std::string wall_word = arg[iarg];
  iarg = parse_wall_style(narg, arg, iarg);
  if (region_fix && wallstyle != REGION)
    error->all(FLERR, law_error("the wall is a region (region REGION-ID), got {}"), wall_word);
  if (!region_fix && wallstyle == REGION)
    error->all(FLERR, law_error("a region wall is fix wall/gran/region/{}"),
               std::string(style).substr(std::string("wall/gran/").size()));
  while (iarg < narg) {
    for (const char *motion_word : {"wiggle", "translate", "rotate"})
      if (wallstyle == REGION && strcmp(arg[iarg], motion_word) == 0)
        error->all(FLERR,
                   law_error("a region wall moves with its region (region move, rotate), not "
                             "with keyword {}"),
                   motion_word);
    keyword(wallstyle != REGION);
  }
  check_wall();
}

int FixWallGranDemc::parse_wall_style(int narg, char **arg, int iarg)
{
  wallstyle = wall_style_of(arg[iarg]);
  if (wallstyle == REGION) {
    if (iarg + 2 > narg) utils::missing_cmd_args(FLERR, fmt::format("fix {} region", style), error);
    region_id = arg[iarg + 1];
    const Region *region = domain->get_region_by_id(region_id);
    if (!region) error->all(FLERR, law_error("region {} does not exist"), region_id);
    if (region->varshape)
      error->all(FLERR,
                 law_error("region {} changes its shape with variables, which a region wall "
                           "does not follow (a region may move and rotate)"),
                 region_id);
    return iarg + 2;
  }
  if (wallstyle != ZCYLINDER) return parse_plane(narg, arg, iarg);
  if (iarg + 2 > narg)
    utils::missing_cmd_args(FLERR, fmt::format("fix {} zcylinder", style), error);
  cylradius = utils::numeric(FLERR, arg[iarg + 1], false, lmp);
  if (cylradius <= 0.0)
    error->all(FLERR, law_error("zcylinder radius must be > 0, got {}"), cylradius);
  has_lo = true;
  return iarg + 2;
}

int FixWallGranDemc::parse_plane(int narg, char **arg, int iarg)
{
  if (iarg + 3 > narg)
    utils::missing_cmd_args(FLERR, fmt::format("fix {} {}", style, arg[iarg]), error);
  has_lo = strcmp(arg[iarg + 1], "NULL") != 0;
  has_hi = strcmp(arg[iarg + 2], "NULL") != 0;
  if (has_lo) lo = utils::numeric(FLERR, arg[iarg + 1], false, lmp);
  if (has_hi) hi = utils::numeric(FLERR, arg[iarg + 2], false, lmp);
  return iarg + 3;
}

int FixWallGranDemc::parse_motion(int narg, char **arg, int iarg)
{
  const bool wiggle = strcmp(arg[iarg], "wiggle") == 0;
  if (!wiggle && strcmp(arg[iarg], "translate") != 0) return 0;
  if (iarg + 4 > narg)
    utils::missing_cmd_args(FLERR, fmt::format("fix {} {}", style, arg[iarg]), error);
  if (motion != STATIC) error->all(FLERR, law_error("use one of wiggle and translate, once"));
  if (wiggle) {
    motion = WIGGLE;
    wiggle_axis = axis_of(arg[iarg + 1]);
    if (wiggle_axis < 0)
      error->all(FLERR, law_error("wiggle dim must be x, y or z, got {}"), arg[iarg + 1]);
    amplitude = utils::numeric(FLERR, arg[iarg + 2], false, lmp);
    period = utils::numeric(FLERR, arg[iarg + 3], false, lmp);
    if (period <= 0.0) error->all(FLERR, law_error("wiggle period must be > 0, got {}"), period);
    return 4;
  }
  motion = TRANSLATE;
  for (int k = 0; k < 3; k++) {
    if (utils::strmatch(arg[iarg + 1 + k], "^v_"))
      vstr[k] = arg[iarg + 1 + k] + 2;
    else
      velocity[k] = utils::numeric(FLERR, arg[iarg + 1 + k], false, lmp);
  }
  return 4;
}

int FixWallGranDemc::parse_damping_keyword(int narg, char **arg, int iarg, bool hertz)
{
  const bool damping = strcmp(arg[iarg], "damping") == 0;
  if (!damping && strcmp(arg[iarg], "restitution") != 0) return 0;
  if (iarg + 3 > narg)
    utils::missing_cmd_args(FLERR, fmt::format("fix {} {}", style, arg[iarg]), error);
  if (damping_keyword) error->all(FLERR, law_error("use one of damping and restitution, once"));
  damping_keyword = true;
  const double a = utils::numeric(FLERR, arg[iarg + 1], false, lmp);
  const double b = utils::numeric(FLERR, arg[iarg + 2], false, lmp);
  const std::string problem = demc_damping_values_problem(!damping, a, b);
  if (!problem.empty()) error->all(FLERR, law_error(problem));
  if (damping) {
    dashpots.nu_n = a;
    dashpots.nu_t = b;
  } else {
    dashpots.restitution_factor = hertz ? demc::hertz_restitution_factor(a)
                                        : demc::linear_restitution_factor(a);
    dashpots.tangential_ratio = b;
  }
  return 3;
}

int FixWallGranDemc::parse_dashpot_limit_keyword(int narg, char **arg, int iarg)
{
  if (strcmp(arg[iarg], "limit_damping") == 0) {    // no value, as in LAMMPS's granular styles
    dashpot_limits.no_tension = true;
    return 1;
  }
  if (strcmp(arg[iarg], "damping_cap") != 0) return 0;
  if (iarg + 2 > narg)
    utils::missing_cmd_args(FLERR, fmt::format("fix {} damping_cap", style), error);
  dashpot_limits.coulomb = utils::logical(FLERR, arg[iarg + 1], false, lmp);
  return 2;
}

void FixWallGranDemc::check_restitution_damping()
{
  if (demc::needs_effective_mass(dashpots))
    demc_refuse_rigid_bodies(lmp, fmt::format("Fix {}", style));
}

/* contacts: the per-atom array of the particles' wall contacts, as LAMMPS's fix wall/gran */
int FixWallGranDemc::parse_contacts(int, char **arg, int iarg)
{
  if (strcmp(arg[iarg], "contacts") != 0) return 0;
  if (contacts_output) error->all(FLERR, law_error("use contacts once"));
  contacts_output = true;
  peratom_flag = 1;
  size_peratom_cols = K_SIZE;
  peratom_freq = 1;
  return 1;
}

/* rotate omega: the wall turns about its z axis (through the wall's x, y displacement) with
   angular velocity omega, a number or v_name */
int FixWallGranDemc::parse_rotation(int narg, char **arg, int iarg)
{
  if (strcmp(arg[iarg], "rotate") != 0) return 0;
  if (iarg + 2 > narg) utils::missing_cmd_args(FLERR, fmt::format("fix {} rotate", style), error);
  if (rotating) error->all(FLERR, law_error("use rotate once"));
  rotating = true;
  if (utils::strmatch(arg[iarg + 1], "^v_"))
    spin_str = arg[iarg + 1] + 2;
  else
    spin = utils::numeric(FLERR, arg[iarg + 1], false, lmp);
  return 2;
}

void FixWallGranDemc::check_wall() const
{
  if (wallstyle == REGION) return;    // (the region fix checks its region)
  if (rotating && wallstyle != ZPLANE && wallstyle != ZCYLINDER)
    error->all(FLERR,
               law_error("rotate turns the wall about the z axis, which only a zplane or the "
                         "zcylinder can do in place"));
  if (wallstyle <= ZPLANE && domain->periodicity[wallstyle])
    error->all(FLERR, law_error("cannot use a wall in a periodic dimension"));
  if (wallstyle == ZCYLINDER && (domain->xperiodic || domain->yperiodic))
    error->all(FLERR, law_error("cannot use a zcylinder with periodic x or y"));
  if (wallstyle <= ZPLANE && !has_lo && !has_hi)
    error->all(FLERR, law_error("lo and hi are both NULL: no wall"));
  if (has_lo && has_hi && lo >= hi)
    error->all(FLERR, law_error("lo must be below hi, got {} {}"), lo, hi);
}

/* ---------------------------------------------------------------------- */

void FixWallGranDemc::init()
{
  dt = update->dt;
  if (utils::strmatch(update->integrate_style, "^respa"))
    error->all(FLERR, law_error("run_style respa is not supported"));
  for (int k = 0; k < 3; k++)
    if (!vstr[k].empty()) vvar[k] = find_equal_variable(vstr[k]);
  if (!spin_str.empty()) spin_var = find_equal_variable(spin_str);
  check_restitution_damping();
  clear_contacts();
}

int FixWallGranDemc::find_equal_variable(const std::string &name) const
{
  const int var = input->variable->find(name.c_str());
  if (var < 0) error->all(FLERR, law_error("variable {} does not exist"), name);
  if (!input->variable->equalstyle(var))
    error->all(FLERR, law_error("variable {} must be an equal-style variable"), name);
  return var;
}

void FixWallGranDemc::reset_dt()
{
  dt = update->dt;
}

void FixWallGranDemc::setup(int vflag)
{
  post_force(vflag);
}

/* ----------------------------------------------------------------------
   geometry: planes at lo + d and hi + d along their axis, or the cylinder
   around the z axis shifted by d
------------------------------------------------------------------------- */

int FixWallGranDemc::nearest_side(const Vec3 &x, const Vec3 &d) const
{
  if (wallstyle == ZCYLINDER || !has_hi) return LO_SIDE;
  if (!has_lo) return HI_SIDE;
  const double xa = component(x, wallstyle), da = component(d, wallstyle);
  return (xa - (lo + da) < (hi + da) - xa) ? LO_SIDE : HI_SIDE;
}

double FixWallGranDemc::wall_gap(int side, const Vec3 &x, const Vec3 &d, Vec3 &n) const
{
  if (wallstyle == ZCYLINDER) {
    const Vec3 radial = {x.x - d.x, x.y - d.y, 0.0};
    const double rho = demc::norm(radial);
    n = rho > 0.0 ? (1.0 / rho) * radial : Vec3{1.0, 0.0, 0.0};
    return cylradius - rho;
  }
  n = {0.0, 0.0, 0.0};
  const double xa = component(x, wallstyle), da = component(d, wallstyle);
  component(n, wallstyle) = (side == LO_SIDE) ? -1.0 : 1.0;
  return (side == LO_SIDE) ? xa - (lo + da) : (hi + da) - xa;
}

/* ----------------------------------------------------------------------
   particle i (p) and the wall (q) over the step; at setup nothing moves.
   The start-of-step normal comes from x - v*dt and the wall's previous place.
------------------------------------------------------------------------- */

FixWallGranDemc::Contact FixWallGranDemc::make_contact(int i, int side, bool advance) const
{
  const double radius = atom->radius[i];
  const Vec3 x = vec(atom->x[i]), d = vec(disp);
  Contact c;
  c.p = i;
  c.q = -1;
  c.r = wall_gap(side, x, d, c.n);
  c.overlap = radius - c.r;
  const double step = advance ? dt : 0.0;
  c.du_p = step * vec(atom->v[i]);
  c.dth_p = step * vec(atom->omega[i]);
  c.du_q = advance ? step_move : Vec3{0.0, 0.0, 0.0};
  c.dth_q = {0.0, 0.0, advance ? step_turn : 0.0};
  // (a zplane and the zcylinder are unchanged by their rotation: only the normal's turn with the
  // particle's own movement enters)
  wall_gap(side, x - c.du_p, d - c.du_q, c.n_old);
  c.r_p = (radius - 0.5 * c.overlap) * c.n;
  const Vec3 contact_point = x + c.r_p;
  c.r_q = {contact_point.x - d.x, contact_point.y - d.y, 0.0};
  c.du = c.du_q - c.du_p + demc::cross(c.dth_q, c.r_q) - demc::cross(c.dth_p, c.r_p);
  return c;
}

/* ----------------------------------------------------------------------
   the wall's movement over this step: wiggle exactly from its position
   function, translate as v dt and rotate as omega dt with v and omega at
   the end of the step; sets step_turn
------------------------------------------------------------------------- */

Vec3 FixWallGranDemc::advance_wall()
{
  Vec3 m = {0.0, 0.0, 0.0};
  const bool variables = vvar[0] >= 0 || vvar[1] >= 0 || vvar[2] >= 0 || spin_var >= 0;
  if (variables) modify->clearstep_compute();
  if (motion == WIGGLE) {
    const double w = 2.0 * MathConst::MY_PI / period;
    component(m, wiggle_axis) = amplitude * (std::cos(w * elapsed) - std::cos(w * (elapsed + dt)));
  } else if (motion == TRANSLATE) {
    for (int k = 0; k < 3; k++) component(m, k) = dt * rate_at_step_end(vvar[k], velocity[k]);
  }
  step_turn = rotating ? dt * rate_at_step_end(spin_var, spin) : 0.0;
  if (variables) modify->addstep_compute(update->ntimestep + 1);
  for (int k = 0; k < 3; k++) disp[k] += component(m, k);
  elapsed += dt;
  return m;
}

// an equal-style variable's value now (the end of the step), or the constant
double FixWallGranDemc::rate_at_step_end(int var, double constant) const
{
  return var >= 0 ? input->variable->compute_equal(var) : constant;
}

/* ---------------------------------------------------------------------- */

void FixWallGranDemc::post_force(int)
{
  // at setup the particles have not moved since the last step: no history changes
  const bool advance = (update->setupflag == 0);
  step_turn = 0.0;
  step_move = advance ? advance_wall() : Vec3{0.0, 0.0, 0.0};
  begin_tallies();
  const int *mask = atom->mask;
  const Vec3 d = vec(disp);
  for (int i = 0; i < atom->nlocal; i++) {
    if (!(mask[i] & groupbit)) continue;
    const int old_side = history_side(i);
    const Vec3 x = vec(atom->x[i]);
    const int side = nearest_side(x, d);
    // most particles neither touch the wall nor leave it: the gap alone says so, without the
    // movements, arms and old normal of a contact
    Vec3 n;
    if (old_side == NO_SIDE && !(atom->radius[i] - wall_gap(side, x, d, n) > 0.0)) continue;
    const Contact c = make_contact(i, side, advance);
    const bool touching = c.overlap > 0.0;
    if (old_side != NO_SIDE && (old_side != side || !touching))
      part(old_side == side ? c : make_contact(i, old_side, advance), advance);
    if (touching) apply(i, c, touch(c, side, advance));
  }
  end_tallies();
}

void FixWallGranDemc::begin_tallies()
{
  for (double &v : local) v = 0.0;
  reduced = false;
  clear_contacts();
}

void FixWallGranDemc::end_tallies()
{
  if (update->setupflag) first_setup_after_restart = false;
  local[energy_slot(PairGranDemc::E_FRICTION)] =
      friction_dissipation(local[energy_slot(PairGranDemc::E_TANGENTIAL)]);
  local[energy_slot(PairGranDemc::E_DAMPING)] = cumulative[C_DAMPING];
  local[V_WALL_WORK] = cumulative[C_WALL_WORK];
}

void FixWallGranDemc::apply(int i, const Contact &c, const Touch &t)
{
  double *f = atom->f[i], *tq = atom->torque[i];
  const Vec3 tor = demc::cross(c.r_p, t.force) + t.couple;
  f[0] += t.force.x;
  f[1] += t.force.y;
  f[2] += t.force.z;
  tq[0] += tor.x;
  tq[1] += tor.y;
  tq[2] += tor.z;
  local[V_FX] -= t.force.x;
  local[V_FY] -= t.force.y;
  local[V_FZ] -= t.force.z;
  // the reaction -F acts on the wall at the contact point, r_q from its axis
  local[V_TORQUE_Z] -= c.r_q.x * t.force.y - c.r_q.y * t.force.x;
  local[V_TORQUE_X] -= c.r_q.y * t.force.z - c.r_q.z * t.force.y;
  local[V_TORQUE_Y] -= c.r_q.z * t.force.x - c.r_q.x * t.force.z;
  local[V_TORQUE_X] -= t.couple.x;    // (a couple: the same about every point)
  local[V_TORQUE_Y] -= t.couple.y;
  local[V_TORQUE_Z] -= t.couple.z;
  // the wall's movement at the contact point over the step (0 at setup) times the force the
  // particle takes, at the end of the step
  cumulative[C_WALL_WORK] += demc::dot(t.force, c.du_q + demc::cross(c.dth_q, c.r_q)) +
      demc::dot(t.couple, c.dth_q);
  local[energy_slot(PairGranDemc::E_NORMAL)] += t.normal_energy;
  local[energy_slot(PairGranDemc::E_TANGENTIAL)] += t.tangential_energy;
  local[energy_slot(PairGranDemc::E_CONTACTS)] += 1.0;
  if (t.sliding) local[energy_slot(PairGranDemc::E_SLIDING)] += 1.0;
  if (contacts_output) store_contact(i, c, t);
}

/* ----------------------------------------------------------------------
   keyword contacts
------------------------------------------------------------------------- */

void FixWallGranDemc::clear_contacts()
{
  if (!contacts_output) return;
  if (atom->nmax > contacts_nmax) {
    contacts_nmax = atom->nmax;
    memory->destroy(contacts);
    memory->create(contacts, contacts_nmax, K_SIZE, "wall/gran:contacts");
    array_atom = contacts;
  }
  for (int i = 0; i < atom->nlocal; i++)
    for (int k = 0; k < K_SIZE; k++) contacts[i][k] = 0.0;
}

// the contact point on the wall's surface: c.r from the centre along n. A particle touching
// several surfaces of a region wall: the count of its contacts, the sum of their forces and the
// point of the last one
void FixWallGranDemc::store_contact(int i, const Contact &c, const Touch &t)
{
  const Vec3 point = vec(atom->x[i]) + c.r * c.n;
  double *row = contacts[i];
  row[K_TOUCH] += 1.0;
  row[K_FX] += t.force.x;
  row[K_FY] += t.force.y;
  row[K_FZ] += t.force.z;
  row[K_X] = point.x;
  row[K_Y] = point.y;
  row[K_Z] = point.z;
  row[K_RADIUS] = atom->radius[i];
}

double FixWallGranDemc::contacts_memory() const
{
  return (double) contacts_nmax * K_SIZE * sizeof(double);
}

void FixWallGranDemc::add_late_tangential_force(int p, const Vec3 &force, const Vec3 &r_q,
                                                const Vec3 &wall_move, bool sliding,
                                                double dissipated)
{
  if (contacts_output) {
    contacts[p][K_FX] += force.x;
    contacts[p][K_FY] += force.y;
    contacts[p][K_FZ] += force.z;
  }
  cumulative[C_FRICTION] += dissipated;
  local[energy_slot(PairGranDemc::E_FRICTION)] =
      friction_dissipation(local[energy_slot(PairGranDemc::E_TANGENTIAL)]);
  local[V_FX] -= force.x;
  local[V_FY] -= force.y;
  local[V_FZ] -= force.z;
  local[V_TORQUE_Z] -= r_q.x * force.y - r_q.y * force.x;
  local[V_TORQUE_X] -= r_q.y * force.z - r_q.z * force.y;
  local[V_TORQUE_Y] -= r_q.z * force.x - r_q.x * force.z;
  cumulative[C_WALL_WORK] += demc::dot(force, wall_move);
  local[V_WALL_WORK] = cumulative[C_WALL_WORK];
  if (sliding) local[energy_slot(PairGranDemc::E_SLIDING)] += 1.0;
}

double FixWallGranDemc::friction_dissipation(double) const
{
  return cumulative[C_FRICTION];
}

/* ----------------------------------------------------------------------
   global vector (summed over ranks once per step); scalar: stored energy
------------------------------------------------------------------------- */

double FixWallGranDemc::compute_vector(int n)
{
  if (!reduced) {
    MPI_Allreduce(local, global, V_REGION_SIZE, MPI_DOUBLE, MPI_SUM, world);
    reduced = true;
  }
  return global[n];
}

double FixWallGranDemc::compute_scalar()
{
  return compute_vector(energy_slot(PairGranDemc::E_NORMAL)) +
      compute_vector(energy_slot(PairGranDemc::E_TANGENTIAL));
}

/* ----------------------------------------------------------------------
   global restart: the wall's displacement and clock, and the system's
   cumulative sums (rank 0 carries the totals after a restart)
------------------------------------------------------------------------- */

void FixWallGranDemc::write_restart(FILE *fp)
{
  double totals[C_SIZE];
  MPI_Reduce(cumulative, totals, C_SIZE, MPI_DOUBLE, MPI_SUM, 0, world);
  if (comm->me != 0) return;
  std::vector<double> values = {disp[0], disp[1], disp[2], elapsed};
  values.insert(values.end(), totals, totals + C_SIZE);
  demc_restart::write_global_record(fp, values);
}

void FixWallGranDemc::restart(char *buf)
{
  first_setup_after_restart = true;
  const double *values =
      demc_restart::read_global_record(lmp, buf, RESTART_VALUES + C_SIZE, law_error("wall record"));
  for (int k = 0; k < 3; k++) disp[k] = values[k];
  elapsed = values[3];
  for (int k = 0; k < C_SIZE; k++)
    cumulative[k] = (comm->me == 0) ? values[RESTART_VALUES + k] : 0.0;
}
