/* ----------------------------------------------------------------------
   dem-contact: the friction of pair_style gran/coulomb (see header).
------------------------------------------------------------------------- */

#include "fix_coulomb_friction.h"

#include "fix_wall_gran_coulomb.h"
#include "pair_gran_coulomb.h"

#include "atom.h"
#include "comm.h"
#include "domain.h"
#include "error.h"
#include "force.h"
#include "group.h"
#include "modify.h"
#include "update.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace LAMMPS_NS;
using namespace FixConst;
using demc::Vec3;
namespace cf = demc::coulomb;

namespace {
Vec3 vec(const double *a)
{
  return {a[0], a[1], a[2]};
}
}    // namespace

/* ---------------------------------------------------------------------- */

FixCoulombFriction::FixCoulombFriction(LAMMPS *lmp, int narg, char **arg) :
    Fix(lmp, narg, arg), pair(nullptr), comm_mode(OTHER_FORCES), dt(0.0), frozen_groupbit(0),
    norotate_groupbit(0)
{
  if (narg != 3) error->all(FLERR, "Fix DEMC/COULOMB_FRICTION is internal to pair gran/coulomb");
  comm_forward = 6;
  comm_reverse = 6;
}

int FixCoulombFriction::setmask()
{
  return POST_FORCE;
}

/* ---------------------------------------------------------------------- */

void FixCoulombFriction::init()
{
  if (pair == nullptr)
    error->all(FLERR, "Fix DEMC/COULOMB_FRICTION is internal to pair gran/coulomb");
  dt = update->dt;
  if (utils::strmatch(update->integrate_style, "^respa"))
    error->all(FLERR, "Pair gran/coulomb does not support run_style respa");
  if (domain->dimension != 3)
    error->all(FLERR,
               "Pair gran/coulomb needs a 3d simulation (spheres of moment of inertia "
               "2/5 m r^2)");
  if (pair->iterate_tolerance > 0.0 && force->newton_pair == 0)
    error->all(FLERR,
               "Pair gran/coulomb iterate needs newton_pair on (each contact solved on one rank)");
  norotate_groupbit = 0;
  if (!pair->norotate_group.empty()) {
    const int g = group->find(pair->norotate_group);
    if (g < 0)
      error->all(FLERR, "Pair gran/coulomb norotate: group {} does not exist",
                 pair->norotate_group);
    norotate_groupbit = group->bitmask[g];
  }
  check_fix_order();
}

/* ----------------------------------------------------------------------
   The friction must see every other force and nothing may change the
   forces after it: it is the last fix with post_force (the pair style puts
   it there at every init; a fix made during init after it is caught here).
   Fixes that set forces instead of adding to them would be undone by the
   friction added after them: stop. fix freeze: its particles count as
   immovable and get no friction. Rigid bodies: the reduced mass of a
   constituent sphere would be its body's: not supported.
------------------------------------------------------------------------- */

void FixCoulombFriction::check_fix_order()
{
  const auto &fixes = modify->get_fix_list();
  int me = -1;
  for (int k = 0; k < (int) fixes.size(); k++)
    if (fixes[k] == this) me = k;
  frozen_groupbit = 0;
  for (int k = 0; k < (int) fixes.size(); k++) {
    Fix *f = fixes[k];
    if (f == this) continue;
    if (k > me && (modify->fmask[k] & POST_FORCE))
      error->all(FLERR,
                 "Fix {} (style {}) comes after the friction of pair gran/coulomb and could add "
                 "forces it does not see; define it before the pair style's first run, or report "
                 "this as a bug",
                 f->id, f->style);
    if (f->rigid_flag)
      error->all(FLERR,
                 "Pair gran/coulomb does not support fix {} ({}): the tangential reduced mass of "
                 "a sphere in a rigid body is that of the body",
                 f->id, f->style);
    if (utils::strmatch(f->style, "^setforce") || utils::strmatch(f->style, "^aveforce") ||
        utils::strmatch(f->style, "^lineforce") || utils::strmatch(f->style, "^planeforce") ||
        utils::strmatch(f->style, "^enforce2d"))
      error->all(FLERR,
                 "Pair gran/coulomb does not support fix {} ({}): it sets forces, and the "
                 "friction, which needs all other forces first, would be added after it",
                 f->id, f->style);
    if (utils::strmatch(f->style, "^freeze")) frozen_groupbit |= f->groupbit;
  }
}

void FixCoulombFriction::reset_dt()
{
  dt = update->dt;
}

void FixCoulombFriction::setup(int vflag)
{
  post_force(vflag);
}

/* ---------------------------------------------------------------------- */

void FixCoulombFriction::check_not_rotating() const
{
  if (norotate_groupbit == 0) return;
  const int *mask = atom->mask;
  double **omega = atom->omega;
  for (int i = 0; i < atom->nlocal; i++)
    if ((mask[i] & norotate_groupbit) &&
        (omega[i][0] != 0.0 || omega[i][1] != 0.0 || omega[i][2] != 0.0))
      error->one(FLERR,
                 "Pair gran/coulomb norotate: atom {} of group {} rotates; integrate that group "
                 "with fix nve (not nve/sphere) and give it no angular velocity",
                 atom->tag[i], pair->norotate_group);
}

/* ----------------------------------------------------------------------
   atom k as a body of the kernel: its velocities, the forces of every other
   origin (with this fix's friction totals if asked), its inverse mass and
   moment of inertia (0 if frozen, 1/I = 0 if it does not rotate)
------------------------------------------------------------------------- */

cf::Body FixCoulombFriction::body(int k, bool with_friction) const
{
  cf::Body b;
  b.v = vec(atom->v[k]);
  b.w = vec(atom->omega[k]);
  b.f = vec(atom->f[k]);
  b.t = vec(atom->torque[k]);
  if (with_friction) {
    const double *s = &total[6 * k];
    b.f = b.f + Vec3{s[0], s[1], s[2]};
    b.t = b.t + Vec3{s[3], s[4], s[5]};
  }
  const int mask = atom->mask[k];
  if (mask & frozen_groupbit) {
    b.inv_m = b.inv_I = 0.0;
    return b;
  }
  const double m = atom->rmass[k], r = atom->radius[k];
  b.inv_m = 1.0 / m;
  b.inv_I = (mask & norotate_groupbit) ? 0.0 : 1.0 / (0.4 * m * r * r);
  return b;
}

/* ---------------------------------------------------------------------- */

void FixCoulombFriction::post_force(int)
{
  const bool advance = (update->setupflag == 0);
  // the friction force changes the velocity that moves the contact over the next step by
  // h F / m: a whole step during a run, half a step at setup (the velocities are full-step ones)
  const double h = advance ? dt : 0.5 * dt;
  check_not_rotating();
  const int nall = atom->nlocal + atom->nghost;
  mine.assign(6 * (size_t) nall, 0.0);
  total.assign(6 * (size_t) nall, 0.0);
  // the forces and torques of every other origin, complete on the owners by now, to the ghosts
  comm_mode = OTHER_FORCES;
  comm->forward_comm(this);
  prepare(h);
  double residual = 0.0;
  const bool repeat = pair->repeats_last_step();
  const int sweeps = repeat ? repeat_last_step() : solve(h, residual);
  apply(h, advance, sweeps, residual);
  contacts.clear();
  pair->last_step_repeated();
}

/* ----------------------------------------------------------------------
   the first setup after read_restart: each contact's friction force of the
   last step, as its record holds it (the contacts are where they were then);
   returns 0 sweeps
------------------------------------------------------------------------- */

int FixCoulombFriction::repeat_last_step()
{
  for (Contact &c : contacts) {
    const double *hist = c.history;
    const double state = hist[PairGranCoulomb::H_STATE];
    c.force = {hist[PairGranCoulomb::H_FX], hist[PairGranCoulomb::H_FY],
               hist[PairGranCoulomb::H_FZ]};
    c.sticks = state == PairGranCoulomb::STICKING;
    add_to_totals(c, c.force, mine);
  }
  exchange();
  return 0;
}

/* ----------------------------------------------------------------------
   each contact's reduced mass and relative tangential velocity now
------------------------------------------------------------------------- */

cf::Body FixCoulombFriction::wall_body(const Contact &c) const
{
  const Vec3 zero = {0.0, 0.0, 0.0};
  return {c.wall_v, c.wall_w, zero, zero, 0.0, 0.0};
}

void FixCoulombFriction::prepare(double)
{
  /* Sweeps: a ghost q that is the periodic image of an atom this rank owns is summed on that
     atom, so that the sweeps are Gauss-Seidel over all contacts of the rank (summed on the
     image, the contacts of its two copies saw each other's changes only at the exchange, as
     contacts on two ranks do, and those of a periodic packing kept changing from sweep to
     sweep). Needs newton on, which iterate requires (with newton off a contact across the
     boundary is listed from both copies). */
  const bool to_owner = pair->iterate_tolerance > 0.0 && atom->map_style != Atom::MAP_NONE;
  const int nlocal = atom->nlocal;
  for (Contact &c : contacts) {
    c.q_sum = c.q;
    if (to_owner && c.q >= nlocal) {
      const int owner = atom->map(atom->tag[c.q]);
      if (owner >= 0 && owner < nlocal) c.q_sum = owner;
    }
    const cf::Body p = body(c.p, false);
    const cf::Body q = c.q >= 0 ? body(c.q, false) : wall_body(c);
    c.inv_mass = cf::tangential_inverse_mass(p.inv_m, p.inv_I, demc::norm(c.r_p), q.inv_m, q.inv_I,
                                             c.q >= 0 ? demc::norm(c.r_q) : 0.0);
    c.u_before = cf::relative_tangential_velocity(p, q, c.r_p, c.r_q, c.n, 0.0);
    c.force = {0.0, 0.0, 0.0};
    c.sticks = false;
  }
}

/* ----------------------------------------------------------------------
   the friction forces; returns the number of sweeps, sets the residual
------------------------------------------------------------------------- */

int FixCoulombFriction::solve(double h, double &residual)
{
  if (pair->iterate_tolerance <= 0.0) {
    // the paper's direct treatment: every contact from the forces without friction
    for (Contact &c : contacts) {
      const cf::Body p = body(c.p, false);
      const cf::Body q = c.q >= 0 ? body(c.q, false) : wall_body(c);
      const auto d = cf::decide(cf::relative_tangential_velocity(p, q, c.r_p, c.r_q, c.n, h),
                                c.inv_mass, c.limit, h);
      c.force = d.force;
      c.sticks = d.sticks;
      add_to_totals(c, c.force, mine);
    }
    exchange();
    residual = sweep_residual(h);
    return 1;
  }
  // projected Gauss-Seidel from the last step's forces (turned into today's tangent plane and
  // held inside today's cone)
  for (Contact &c : contacts) {
    const double *hist = c.history;
    Vec3 f = cf::tangential_part({hist[0], hist[1], hist[2]}, c.n);
    const double len = demc::norm(f);
    if (len > c.limit) f = (c.limit > 0.0 ? c.limit / len : 0.0) * f;
    c.force = f;
    add_to_totals(c, f, mine);
  }
  exchange();
  int sweep = 0;
  while (sweep < pair->iterate_max_sweeps) {
    sweep++;
    for (Contact &c : contacts) {
      const cf::Body p = body(c.p, true);
      const cf::Body q = c.q >= 0 ? body(c.q_sum, true) : wall_body(c);
      const Vec3 v_free =
          cf::relative_tangential_velocity(p, q, c.r_p, c.r_q, c.n, h) + (h * c.inv_mass) * c.force;
      const auto d = cf::decide(v_free, c.inv_mass, c.limit, h);
      const Vec3 change = d.force - c.force;
      add_to_totals(c, change, mine);
      add_to_totals(c, change, total);
      c.force = d.force;
      c.sticks = d.sticks;
    }
    exchange();
    residual = sweep_residual(h);
    if (residual <= pair->iterate_tolerance) break;
  }
  return sweep;
}

/* a friction force change df on p (and -df on q) into the per-atom sums a */
void FixCoulombFriction::add_to_totals(const Contact &c, const Vec3 &df,
                                       std::vector<double> &a) const
{
  const Vec3 tp = demc::cross(c.r_p, df);
  double *sp = &a[6 * c.p];
  sp[0] += df.x;
  sp[1] += df.y;
  sp[2] += df.z;
  sp[3] += tp.x;
  sp[4] += tp.y;
  sp[5] += tp.z;
  if (c.q < 0) return;
  const Vec3 tq = demc::cross(c.r_q, -df);
  double *sq = &a[6 * c.q_sum];
  sq[0] -= df.x;
  sq[1] -= df.y;
  sq[2] -= df.z;
  sq[3] += tq.x;
  sq[4] += tq.y;
  sq[5] += tq.z;
}

/* the totals over all ranks from each rank's contributions: ghosts' shares summed to their
   owners (newton on; with newton off every rank has all contacts of its atoms), the owners'
   totals to their ghosts */
void FixCoulombFriction::exchange()
{
  total = mine;
  comm_mode = FRICTION_TOTALS;
  if (force->newton_pair) comm->reverse_comm(this);
  comm->forward_comm(this);
}

/* ----------------------------------------------------------------------
   with the friction totals as they are: each contact's velocity after the
   kick (for its dissipation), and the largest change of a friction force
   that a further sweep would make (for a sticking contact: m_t times its
   relative tangential acceleration left), over all ranks, relative to the
   largest friction limit mu F_N of the system. (Relative to each contact's
   own limit, a grazing contact of a jammed packing, whose limit is near
   zero, kept the measure near 2 while the solution had converged.)
------------------------------------------------------------------------- */

double FixCoulombFriction::sweep_residual(double h)
{
  // [0]: the largest force change, [1]: the largest limit, both over all ranks
  double local[2] = {0.0, 0.0}, global[2] = {0.0, 0.0};
  for (Contact &c : contacts) {
    const cf::Body p = body(c.p, true);
    const cf::Body q = c.q >= 0 ? body(c.q_sum, true) : wall_body(c);
    c.u_after = cf::relative_tangential_velocity(p, q, c.r_p, c.r_q, c.n, h);
    if (!(c.limit > 0.0)) continue;
    const auto d = cf::decide(c.u_after + (h * c.inv_mass) * c.force, c.inv_mass, c.limit, h);
    local[0] = std::max(local[0], demc::norm(d.force - c.force));
    local[1] = std::max(local[1], c.limit);
  }
  MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, world);
  return global[1] > 0.0 ? global[0] / global[1] : 0.0;
}

/* ----------------------------------------------------------------------
   the friction totals to the owned atoms (not to frozen ones), the virial,
   the dissipated work, the contacts' histories
------------------------------------------------------------------------- */

void FixCoulombFriction::apply(double h, bool advance, int sweeps, double residual)
{
  double **f = atom->f, **torque = atom->torque;
  const int *mask = atom->mask;
  for (int i = 0; i < atom->nlocal; i++) {
    if (mask[i] & frozen_groupbit) continue;
    const double *s = &total[6 * i];
    for (int k = 0; k < 3; k++) {
      f[i][k] += s[k];
      torque[i][k] += s[3 + k];
    }
  }
  double dissipated = 0.0, sliding = 0.0;
  for (const Contact &c : contacts) {
    if (c.q >= 0) pair->tally_friction(c.p, c.q, c.force);
    double *hist = c.history;
    // a run's steps book the whole kick of their force (its second half acts at the next
    // step); at setup that half of a contact's force has been booked by the step that ended the
    // last run, and only a contact without a decision yet (the first run) books its half kick
    const bool booked = !advance && hist[PairGranCoulomb::H_STATE] != PairGranCoulomb::NO_STATE;
    const double work = booked ? 0.0 : cf::kick_dissipation(c.force, c.u_before, c.u_after, h);
    hist[PairGranCoulomb::H_WORK] += work;
    if (c.q < 0)
      c.wall->friction_applied(c.force, c.r_q, c.wall_move, !c.sticks, work);
    else
      dissipated += c.weight * work;
    hist[PairGranCoulomb::H_FX] = c.force.x;
    hist[PairGranCoulomb::H_FY] = c.force.y;
    hist[PairGranCoulomb::H_FZ] = c.force.z;
    hist[PairGranCoulomb::H_STATE] = c.sticks ? PairGranCoulomb::STICKING
                                              : PairGranCoulomb::SLIDING;
    if (!c.sticks && c.q >= 0) sliding += c.weight;
  }
  pair->friction_decided(dissipated, sliding, sweeps, residual);
}

/* ---------------------------------------------------------------------- */

int FixCoulombFriction::pack_forward_comm(int n, int *list, double *buf, int, int *)
{
  int m = 0;
  for (int k = 0; k < n; k++) {
    const int j = list[k];
    if (comm_mode == OTHER_FORCES) {
      for (int d = 0; d < 3; d++) buf[m++] = atom->f[j][d];
      for (int d = 0; d < 3; d++) buf[m++] = atom->torque[j][d];
    } else {
      for (int d = 0; d < 6; d++) buf[m++] = total[6 * j + d];
    }
  }
  return m;
}

void FixCoulombFriction::unpack_forward_comm(int n, int first, double *buf)
{
  int m = 0;
  for (int i = first; i < first + n; i++) {
    if (comm_mode == OTHER_FORCES) {
      for (int d = 0; d < 3; d++) atom->f[i][d] = buf[m++];
      for (int d = 0; d < 3; d++) atom->torque[i][d] = buf[m++];
    } else {
      for (int d = 0; d < 6; d++) total[6 * i + d] = buf[m++];
    }
  }
}

int FixCoulombFriction::pack_reverse_comm(int n, int first, double *buf)
{
  int m = 0;
  for (int i = first; i < first + n; i++)
    for (int d = 0; d < 6; d++) buf[m++] = total[6 * i + d];
  return m;
}

void FixCoulombFriction::unpack_reverse_comm(int n, int *list, double *buf)
{
  int m = 0;
  for (int k = 0; k < n; k++) {
    const int j = list[k];
    for (int d = 0; d < 6; d++) total[6 * j + d] += buf[m++];
  }
}

double FixCoulombFriction::memory_usage()
{
  return (double) (mine.capacity() + total.capacity()) * sizeof(double) +
      (double) contacts.capacity() * sizeof(Contact);
}
