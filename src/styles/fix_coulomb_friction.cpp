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
#include <functional>

using namespace LAMMPS_NS;
using namespace FixConst;
using demc::TangentBasis;
using demc::Vec2;
using demc::Vec3;
namespace cf = demc::coulomb;

namespace {
Vec3 vec(const double *a)
{
  return {a[0], a[1], a[2]};
}
// a per-atom 3-vector array of LAMMPS as the contiguous block it is (row k at 3 k): one load less
// per row than through its row pointer
double *flat(double **a)
{
  return a ? a[0] : nullptr;
}
}    // namespace

/* ---------------------------------------------------------------------- */

FixCoulombFriction::FixCoulombFriction(LAMMPS *lmp, int narg, char **arg) :
    Fix(lmp, narg, arg), pair(nullptr), comm_mode(OTHER_FORCES), dt(0.0), largest_limit(0.0),
    frozen_groupbit(0), norotate_groupbit(0)
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
   per atom (local and ghost): the inverse mass and moment of inertia (0 if
   frozen, 1/I = 0 if it does not rotate), and the velocity and spin after a
   kick of length h by every other force; the friction totals zeroed
------------------------------------------------------------------------- */

void FixCoulombFriction::prepare_atoms(double h)
{
  const int nall = atom->nlocal + atom->nghost;
  atom_rows.resize(nall);
  const int *mask = atom->mask;
  const double *rmass = atom->rmass, *radius = atom->radius;
  const double *v = flat(atom->v), *omega = flat(atom->omega), *f = flat(atom->f),
               *torque = flat(atom->torque);
  double *sum = total.data();
  for (int k = 0; k < nall; k++) {
    double inv_m = 0.0, inv_I = 0.0;
    if (!(mask[k] & frozen_groupbit)) {
      inv_m = 1.0 / rmass[k];
      if (!(mask[k] & norotate_groupbit)) inv_I = inv_m / (0.4 * radius[k] * radius[k]);
    }
    AtomRow &row = atom_rows[k];
    row.inv_m = inv_m;
    row.inv_I = inv_I;
    for (int d = 0; d < 3; d++) {
      row.free[d] = v[3 * k + d] + h * inv_m * f[3 * k + d];
      row.free[3 + d] = omega[3 * k + d] + h * inv_I * torque[3 * k + d];
    }
    for (int d = 0; d < 6; d++) sum[6 * k + d] = 0.0;
  }
}

namespace {
// the velocity of the point at arm n from the centre of a body of velocity v and spin w
Vec3 point_velocity(const double *v, const double *w, double arm, const Vec3 &n)
{
  return cf::surface_velocity(vec(v), vec(w), arm, n);
}
}    // namespace

// the wall's velocity at the contact point of a wall contact
inline Vec3 FixCoulombFriction::wall_velocity(const Contact &c) const
{
  const WallPart &w = walls[c.wall];
  return w.v + demc::cross(w.w, w.r_q);
}

// the contact's tangential inverse reduced mass 1 / m_t (Eq. 24)
inline double FixCoulombFriction::inverse_mass(const Contact &c) const
{
  const int p = c.p, q = c.q;
  double inv = atom_rows[p].inv_m + c.arm_p * c.arm_p * atom_rows[p].inv_I;
  if (q >= 0) inv += atom_rows[q].inv_m + c.arm_q * c.arm_q * atom_rows[q].inv_I;
  return inv;
}

// the tangential velocity of q relative to p at the contact point now
inline Vec3 FixCoulombFriction::velocity_now(const Contact &c) const
{
  const Vec3 vp = point_velocity(atom->v[c.p], atom->omega[c.p], c.arm_p, c.n);
  const Vec3 vq = c.q >= 0 ? point_velocity(atom->v[c.q], atom->omega[c.q], -c.arm_q, c.n)
                           : wall_velocity(c);
  return cf::tangential_part(vq - vp, c.n);
}

// the same after the kick of every other force (a wall's velocity does not change)
inline Vec3 FixCoulombFriction::velocity_free(const Contact &c) const
{
  const double *sp = atom_rows[c.p].free;
  const Vec3 vp = point_velocity(sp, sp + 3, c.arm_p, c.n);
  Vec3 vq;
  if (c.q >= 0) {
    const double *sq = atom_rows[c.q].free;
    vq = point_velocity(sq, sq + 3, -c.arm_q, c.n);
  } else {
    vq = wall_velocity(c);
  }
  return cf::tangential_part(vq - vp, c.n);
}

namespace {
/* the change of contact c's relative velocity at the contact point (its normal part included)
   over a kick of length h, from kick_at(k, arm): the velocity change per unit time of atom k's
   surface point at arm n (inlined: the solver's gather runs it per contact and sweep) */
template <class Row, class KickAt>
DEMC_FN_FLAT Vec3 relative_kick(const Row &c, double h, KickAt kick_at)
{
  const Vec3 kp = kick_at(c.p, c.arm_p);
  const Vec3 dq = c.q >= 0 ? kick_at(c.q, -c.arm_q) - kp : -kp;
  return h * dq;
}
}    // namespace

/* the change of the relative tangential velocity over the kick that the friction totals give */
inline Vec3 FixCoulombFriction::friction_kick(const Contact &c, double h) const
{
  const Vec3 kick = relative_kick(c, h, [this, &c](int k, double arm) {
    const double *s = &total[6 * k];
    return cf::surface_kick(vec(s), vec(s + 3), atom_rows[k].inv_m, atom_rows[k].inv_I, arm, c.n);
  });
  return cf::tangential_part(kick, c.n);
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
  total.resize(6 * (size_t) nall);    // (zeroed by prepare_atoms(); /kk copies its own in)
  // the forces and torques of every other origin, complete on the owners by now, to the ghosts
  comm_mode = OTHER_FORCES;
  comm->forward_comm(this);
  const bool repeat = pair->repeats_last_step();
  const bool direct = !repeat && pair->iterate_tolerance <= 0.0;
  // a pair style that makes the direct decision itself (gran/coulomb/kk, on its device), where
  // no wall contact joins the pair's
  if (direct && walls.empty() && pair->decides_friction()) {
    pair->decide_friction(h, advance);
    pair->last_step_repeated();
    return;
  }
  pair->contacts_to_friction();
  prepare_atoms(h);
  // (a pair style that makes the decision itself hands over no u_now)
  if (direct && advance && walls.empty() && !pair->decides_friction()) {
    decide_run_step(h);
    clear_contacts();
    return;
  }
  double residual = 0.0;
  int sweeps = 1;
  if (repeat) {
    prepare(false, h);
    sweeps = repeat_last_step(h);
  } else if (direct) {
    // the paper's direct treatment: every contact decided from the forces without friction
    prepare(true, h);
    exchange(true);
  } else {
    sweeps = solve_iterated(h, residual);
    if (residual > pair->iterate_tolerance) out_of_sweeps(sweeps, residual);
  }
  apply(h, advance, repeat ? REPEATED : direct ? DECIDED : ITERATED, sweeps, residual);
  clear_contacts();
  pair->last_step_repeated();
}

/* ----------------------------------------------------------------------
   the first setup after read_restart: each contact's friction force of the
   last step, as its record holds it (the contacts are where they were then);
   returns 0 sweeps
------------------------------------------------------------------------- */

int FixCoulombFriction::repeat_last_step(double h)
{
  const int n = (int) contacts.size();
  for (int k = 0; k < n; k++) {
    const double *hist = contacts[k].history;
    Solution &s = solved[k];
    s.force = vec(hist + PairGranCoulomb::H_FX);
    s.sticks = hist[PairGranCoulomb::H_STATE] == PairGranCoulomb::STICKING;
    add_to_totals(contacts[k], s.force);
  }
  exchange(true);
  for (int k = 0; k < n; k++) solved[k].u_after = velocity_after(k, h);
  return 0;
}

// a contact's reduced mass and its relative tangential velocities now and free of friction
inline void FixCoulombFriction::start_solution(const Contact &c, Solution &s) const
{
  s.inv_mass = inverse_mass(c);
  s.u_before = velocity_now(c);
  s.v_free = velocity_free(c);
}

// the largest mu F_N over all ranks from this rank's
void FixCoulombFriction::reduce_largest_limit(double local)
{
  MPI_Allreduce(&local, &largest_limit, 1, MPI_DOUBLE, MPI_MAX, world);
}

/* ----------------------------------------------------------------------
   each contact's reduced mass and relative tangential velocities now and
   after the kick without friction; the largest mu F_N over all ranks. With
   decide: each contact's friction from these alone (the direct treatment),
   this rank's contributions to the totals.
------------------------------------------------------------------------- */

void FixCoulombFriction::prepare(bool decide, double h)
{
  double largest = 0.0;
  const int n = (int) contacts.size();
  solved.resize(n);
  for (int k = 0; k < n; k++) {
    const Contact &c = contacts[k];
    Solution &s = solved[k];
    start_solution(c, s);
    largest = std::max(largest, c.limit);
    if (decide) {
      const auto d = cf::decide(s.v_free, s.inv_mass, c.limit, h);
      s.force = d.force;
      s.sticks = d.sticks;
      add_to_totals(c, s.force);
    }
  }
  reduce_largest_limit(largest);
}

/* ----------------------------------------------------------------------
   a run's step with the direct treatment and no wall contact: each
   contact decided and its decision written to its history in one pass,
   this rank's totals summed to the owners and added to them, the work of
   the kicks booked (kick_dissipation() summed, with the pair loop's
   velocity before the kick, its part from the totals' kick per atom:
   add_totals()); the velocities after the kick
   at the contacts (the ghosts' totals, the residual) and the virial only
   at a step that tallies energy or virial (the pair's pvector is read at
   those steps alone)
------------------------------------------------------------------------- */

void FixCoulombFriction::decide_run_step(double h)
{
  double sliding = 0.0, work = 0.0;
  for (const Contact &c : contacts) {
    const Vec3 v_free = velocity_free(c);
    const cf::Decision d = cf::decide(v_free, inverse_mass(c), c.limit, h);
    add_to_totals(c, d.force);
    write_decision(c.history, d.force, d.sticks);
    if (!d.sticks) sliding += c.weight;
    work += c.weight * demc::dot(d.force, c.u_now + v_free);
  }
  exchange(false);
  // sum_c F . (u_before + u_after) with u_after = v_free + the totals' kick at the contact
  const double dissipated = 0.5 * h * (work + add_totals(h));
  double residual = 0.0;
  if (pair->evflag) {
    exchange_to_ghosts();
    residual = report_run_step(h);
  }
  pair->friction_decided(dissipated, sliding, 1, residual);
  pair->last_step_repeated();
}

/* decide_run_step()'s report: the residual (as the solver's) and the friction's virial, from
   the decisions in the histories */
double FixCoulombFriction::report_run_step(double h)
{
  double worst = 0.0, largest = 0.0;
  const bool virial = pair->vflag_either != 0;
  for (const Contact &c : contacts) {
    const double *hist = c.history;
    const Vec3 force = vec(hist + PairGranCoulomb::H_FX);
    const Vec3 u_after = velocity_free(c) + friction_kick(c, h);
    worst = std::max(worst, cf::contact_residual(force, u_after, inverse_mass(c), c.limit, h));
    largest = std::max(largest, c.limit);
    if (virial) pair->tally_friction(c.p, c.q, force);
  }
  double global[2] = {0.0, 0.0}, local[2] = {worst, largest};
  MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, world);
  return global[1] > 0.0 ? global[0] / global[1] : 0.0;
}

// a contact's decision into its record (the pair's or a wall's: the same places)
void FixCoulombFriction::write_decision(double *hist, const Vec3 &force, bool sticks)
{
  hist[PairGranCoulomb::H_FX] = force.x;
  hist[PairGranCoulomb::H_FY] = force.y;
  hist[PairGranCoulomb::H_FZ] = force.z;
  hist[PairGranCoulomb::H_STATE] = sticks ? PairGranCoulomb::STICKING : PairGranCoulomb::SLIDING;
}

// the last step's force turned into today's tangent plane (basis t) and held inside today's disc
Vec2 FixCoulombFriction::warm_start(const Contact &c, const Solution &s,
                                    const TangentBasis &t) const
{
  if (!(s.inv_mass > 0.0)) return {0.0, 0.0};
  return cf::onto_disc(demc::in_basis(vec(c.history), t), c.limit);
}

/* ----------------------------------------------------------------------
   the solver's building blocks: the friction totals of the forces F (one
   exchange: a sweep) as each atom's velocity changes per unit time (its kick
   row, which holds its inverse masses too: the scatter reads no other row),
   from which each contact's u(F), the relative tangential velocity after the
   kick, is gathered from its two atoms' rows alone (the iterates are held in
   each contact's tangent basis, made from its normal where a pass needs it:
   two values a vector, not three); and the residual of F:
   the largest force change that deciding one contact alone with the others'
   forces fixed would make, over all ranks, relative to the largest mu F_N of
   the system
------------------------------------------------------------------------- */

// the kick rows' rates zeroed (masses: with_masses, from the atom rows)
void FixCoulombFriction::clear_kicks(bool with_masses)
{
  const size_t nall = atom_rows.size();
  kicks.resize(nall);
  for (size_t i = 0; i < nall; i++) {
    KickRow &r = kicks[i];
    for (double &v : r.rate) v = 0.0;
    if (!with_masses) continue;
    r.inv_m = atom_rows[i].inv_m;
    r.inv_I = atom_rows[i].inv_I;
  }
}

// the change of contact c's relative tangential velocity over the kick (in its basis t), from
// the atoms' rates
inline Vec2 FixCoulombFriction::rates_kick(const SolverRow &c, const TangentBasis &t,
                                           double h) const
{
  const Vec3 kick = relative_kick(c, h, [this, &c](int k, double arm) {
    const double *r = kicks[k].rate;
    return cf::surface_kick(vec(r), vec(r + 3), 1.0, 1.0, arm, c.n);
  });
  return demc::in_basis(kick, t);
}

/* the solver's start, one pass over the contacts: each contact's solution started, its row,
   its warm start gamma into this rank's kicks; the kicks exchanged */
void FixCoulombFriction::prepare_solver(double h)
{
  const int n = (int) contacts.size();
  for (auto *a : {&gamma, &u_gamma, &y, &u_y, &trial, &u_trial}) a->resize(n);
  solved.resize(n);
  rows.resize(n);
  clear_kicks(true);
  fold_ghosts();
  double largest = 0.0;
  for (int k = 0; k < n; k++) {
    const Contact &c = contacts[k];
    Solution &s = solved[k];
    start_solution(c, s);
    largest = std::max(largest, c.limit);
    const TangentBasis t = demc::tangent_basis(c.n);
    SolverRow &r = rows[k];
    r = {kick_row[c.p],
         c.q >= 0 ? kick_row[c.q] : -1,
         c.n,
         c.arm_p,
         c.arm_q,
         s.inv_mass,
         cf::mass_over_h(s.inv_mass, h),
         c.limit,
         c.weight,
         demc::in_basis(s.v_free, t)};
    gamma[k] = warm_start(c, s, t);
    add_to_kicks(r, demc::from_basis(gamma[k], t));
  }
  reduce_largest_limit(largest);
  exchange_kicks();
}

/* With newton pair on, each ghost atom that is an image of an atom this rank owns (a periodic
   image on one rank) has its contacts' kicks added to that atom's row directly: the local
   relaxation then sees one velocity per particle, as a Gauss-Seidel step needs; ghosts of other
   ranks keep their rows, and the exchanges make their totals. (The atom map names the owned image
   first.) With newton off a contact with a ghost is listed for each of its atoms and acts on that
   atom alone: what it adds to the ghost's row is not used, and must not reach the owner's. */
void FixCoulombFriction::fold_ghosts()
{
  const int nlocal = atom->nlocal, nall = nlocal + atom->nghost;
  const bool mapped = force->newton_pair && atom->map_style != Atom::MAP_NONE && atom->tag_enable;
  kick_row.resize(nall);
  for (int i = 0; i < nall; i++) {
    int row = i;
    if (i >= nlocal && mapped) {
      const int owned = atom->map(atom->tag[i]);
      if (owned >= 0 && owned < nlocal) row = owned;
    }
    kick_row[i] = row;
  }
}

// the contacts at each kick row (touching_start, touching: CSR, in the order of the contacts)
void FixCoulombFriction::list_contacts_by_atom()
{
  const int n = (int) rows.size(), nrows = (int) kick_row.size();
  touching_start.assign(nrows + 1, 0);
  for (const SolverRow &r : rows) {
    touching_start[r.p + 1]++;
    if (r.q >= 0) touching_start[r.q + 1]++;
  }
  for (int i = 0; i < nrows; i++) touching_start[i + 1] += touching_start[i];
  touching.resize(touching_start[nrows]);
  // (filled with each row's start as its cursor, which ends at the next row's start; shifted back)
  for (int k = 0; k < n; k++) {
    touching[touching_start[rows[k].p]++] = k;
    if (rows[k].q >= 0) touching[touching_start[rows[k].q]++] = k;
  }
  for (int i = nrows; i > 0; i--) touching_start[i] = touching_start[i - 1];
  touching_start[0] = 0;
}

/* The local relaxation, a phase of the iterated solver: each contact whose residual is above
   kRelaxTarget of the tolerance is decided alone with the others' forces fixed (decide()'s exact
   solution: a non-linear Gauss-Seidel step), its force change goes into its atoms' kick rows at
   once, and the other contacts of those atoms become due to be looked at in turn; until no
   contact is due or kRelaxVisits visits per contact are spent. Where a step starts from forces
   that are right but in a few places (the last step's, once a sweep has smoothed them), this
   settles those places at the cost of their neighbourhoods, where the global sweeps would take
   many sweeps over all contacts for their slow modes; the sweep that follows measures the
   residual, and the global sweeps take whatever is left. Contacts listed on two ranks (newton
   off) are left to the global sweeps, so that both ranks keep the same force for them. */
namespace {
constexpr double kRelaxTarget = 0.5;
constexpr int kRelaxVisits = 4;
}    // namespace

void FixCoulombFriction::relax_locally(double h)
{
  const int n = (int) rows.size();
  list_contacts_by_atom();
  const double target = kRelaxTarget * pair->iterate_tolerance * largest_limit;
  const double target2 = target * target;
  due.resize(n);
  wave.clear();
  next_wave.clear();
  for (int k = 0; k < n; k++) {
    const SolverRow &r = rows[k];
    const bool above = cf::contact_residual2(gamma[k], u_gamma[k], r.mass_h, r.limit) > target2;
    due[k] = r.weight < 1.0 ? LEFT : above ? DUE : IDLE;
    if (due[k] == DUE) wave.push_back(relax_key(k));
  }
  long visits = (long) kRelaxVisits * n;
  // in waves over the contacts in the order of their particles' IDs (so that a run continued
  // from a restart file, whose atoms and lists are in another order, relaxes as the run that
  // went straight on): a contact that becomes due behind the wave waits for the next one
  const auto later = std::greater<RelaxKey>();
  while (!wave.empty() && visits > 0) {
    std::make_heap(wave.begin(), wave.end(), later);
    while (!wave.empty() && visits > 0) {
      std::pop_heap(wave.begin(), wave.end(), later);
      const RelaxKey at = wave.back();
      wave.pop_back();
      due[at.k] = IDLE;
      visits--;
      if (relax_contact(at.k, h, target2)) make_neighbours_due(at);
    }
    wave.swap(next_wave);
    next_wave.clear();
  }
}

inline FixCoulombFriction::RelaxKey FixCoulombFriction::relax_key(int k) const
{
  const Contact &c = contacts[k];
  const tagint p = atom->tag[c.p];
  if (c.q >= 0) {
    const tagint q = atom->tag[c.q];
    return {std::min(p, q), std::max(p, q), k};
  }
  const Fix *wall = walls[c.wall].fix;
  const int place = (int) (std::find(modify->fix, modify->fix + modify->nfix, wall) - modify->fix);
  return {p, -1 - (tagint) place, k};
}

// the other contacts of contact at.k's atoms due (those not due yet, not LEFT): into this wave
// where they come after it, else into the next
inline void FixCoulombFriction::make_neighbours_due(const RelaxKey &at)
{
  const auto later = std::greater<RelaxKey>();
  for (const int row : {rows[at.k].p, rows[at.k].q}) {
    if (row < 0) continue;
    for (int j = touching_start[row]; j < touching_start[row + 1]; j++) {
      const int other = touching[j];
      if (other == at.k || due[other] != IDLE) continue;
      due[other] = DUE;
      const RelaxKey key = relax_key(other);
      if (key > at) {
        wave.push_back(key);
        std::push_heap(wave.begin(), wave.end(), later);
      } else {
        next_wave.push_back(key);
      }
    }
  }
}

/* contact k decided alone with the others' forces fixed where that changes its force by more than
   the square root of change2; the change into the kick rows */
inline bool FixCoulombFriction::relax_contact(int k, double h, double change2)
{
  const SolverRow &r = rows[k];
  const TangentBasis t = demc::tangent_basis(r.n);
  const Vec2 u = r.v_free + rates_kick(r, t, h);
  const Vec2 change = cf::scaled_gradient_step(gamma[k], u, r.mass_h, r.limit) - gamma[k];
  if (demc::norm2(change) <= change2) return false;
  gamma[k] = gamma[k] + change;
  add_to_kicks(r, demc::from_basis(change, t));
  return true;
}

/* the kick rows made anew from the iterates gamma and exchanged: the local relaxation's own
   updates, added one by one and not exchanged, are not what the residual is measured on */
void FixCoulombFriction::kicks_from_iterates()
{
  clear_kicks(false);
  const int n = (int) rows.size();
  for (int k = 0; k < n; k++)
    add_to_kicks(rows[k], demc::from_basis(gamma[k], demc::tangent_basis(rows[k].n)));
  exchange_kicks();
}

/* the warm start's velocities u_gamma and residual (returned), from its kicks; y the same */
double FixCoulombFriction::start_iterates(double h)
{
  const int n = (int) contacts.size();
  double worst = 0.0;
  for (int k = 0; k < n; k++) {
    const SolverRow &r = rows[k];
    y[k] = gamma[k];
    u_y[k] = u_gamma[k] = r.v_free + rates_kick(r, demc::tangent_basis(r.n), h);
    worst = std::max(worst, cf::contact_residual2(gamma[k], u_gamma[k], r.mass_h, r.limit));
  }
  return global_residual(worst);
}

// the residual over all ranks from this rank's largest squared contact residual
double FixCoulombFriction::global_residual(double local2) const
{
  double global = 0.0;
  MPI_Allreduce(&local2, &global, 1, MPI_DOUBLE, MPI_MAX, world);
  return largest_limit > 0.0 ? std::sqrt(global) / largest_limit : 0.0;
}

// (n <= 4)
void FixCoulombFriction::sum_over_ranks(double *values, int n) const
{
  double global[4] = {0.0, 0.0, 0.0, 0.0};
  MPI_Allreduce(values, global, n, MPI_DOUBLE, MPI_SUM, world);
  for (int k = 0; k < n; k++) values[k] = global[k];
}

/* Accelerated projected gradient (Nesterov's momentum with adaptive restart and a backtracked
   Lipschitz estimate, as Mazhar et al.'s APGD in Chrono), preconditioned by m_t: from y the
   trial onto_disc(y + m_t u(y) / (L h)); L doubles while 1/2 d.W d > L/2 sum |d|^2 / m_t
   (d = trial - y) and shrinks by 0.9 after each accepted step (never below 1, the largest
   eigenvalue's lower bound: the preconditioned diagonal is 1), from kLipschitzStart at each
   step; the momentum restarts when the gradient at the new iterate points along the step taken.
   After the first accepted step, once, the local relaxation (relax_locally()); the sweeps then
   start again from its forces. */
namespace {
// the Lipschitz estimate each step's search starts from: in jammed packings the backtracking from
// 1 doubled to 4 at most steps, two sweeps of a few per step at rest
constexpr double kLipschitzStart = 4.0;
}    // namespace

int FixCoulombFriction::solve_iterated(double h, double &residual)
{
  prepare_solver(h);
  residual = start_iterates(h);
  int sweeps = 1;
  double theta = 1.0;
  // (each step's search starts from the same estimate, so that its path depends on the step's
  // own data and the stored forces alone, not on the run's earlier steps: a run continued from
  // a restart file takes the path of the run that went straight on, but for round-off)
  double lipschitz = kLipschitzStart;
  // (y moves only after an accepted step: a backtrack retries from the same y)
  bool extrapolate = false;
  double beta = 0.0;
  bool relaxed = false;
  while (residual > pair->iterate_tolerance && sweeps < pair->iterate_max_sweeps) {
    // after the first accepted step (whose forces the kick rows hold), whose damped update of
    // every contact leaves the residual in fewer places: the local relaxation, then the sweeps
    // start again from its forces
    if (extrapolate && !relaxed) {
      relaxed = true;
      relax_locally(h);
      kicks_from_iterates();
      residual = start_iterates(h);
      sweeps++;
      theta = 1.0;
      lipschitz = kLipschitzStart;
      extrapolate = false;
      continue;
    }
    step_to_trials(1.0 / lipschitz, h, extrapolate, beta);
    sweeps++;
    double sums[3];
    const double worst = measure_trials(h, sums);
    extrapolate = false;
    if (sums[0] > lipschitz * sums[1] * (1.0 + 1.0e-10)) {
      lipschitz *= 2.0;
      continue;
    }
    residual = global_residual(worst);
    cf::Momentum m = cf::nesterov_momentum(theta);
    if (sums[2] > 0.0) m = {1.0, 0.0};
    // the trial is the new iterate; the old one (now in trial) serves the next extrapolation
    std::swap(gamma, trial);
    std::swap(u_gamma, u_trial);
    extrapolate = true;
    beta = m.beta;
    theta = m.theta;
    lipschitz = std::max(1.0, 0.9 * lipschitz);
  }
  return sweeps;
}

/* A sweep's first pass: (extrapolate) Nesterov's point y from the last iterate gamma and the
   one before it (in trial), and its velocities likewise (u is affine in F, so u(y) needs no
   exchange); each contact's trial force, the gradient step from y, into this rank's kick rows;
   the kick rows exchanged. */
void FixCoulombFriction::step_to_trials(double step, double h, bool extrapolate, double beta)
{
  clear_kicks(false);
  const int n = (int) contacts.size();
  for (int k = 0; k < n; k++) {
    if (extrapolate) {
      y[k] = gamma[k] + beta * (gamma[k] - trial[k]);
      u_y[k] = u_gamma[k] + beta * (u_gamma[k] - u_trial[k]);
    }
    const SolverRow &r = rows[k];
    trial[k] = cf::scaled_gradient_step(y[k], u_y[k], step * r.mass_h, r.limit);
    add_to_kicks(r, demc::from_basis(trial[k], demc::tangent_basis(r.n)));
  }
  exchange_kicks();
}

/* The second pass: each contact's velocity after the kick with the trial forces; the step's
   sums over all ranks ([0]: d.W d, [1]: |d|^2 / m_t, [2]: the gradient at the trial along the
   step taken, d = trial - y); returns this rank's largest squared residual of the trials
   (needed only if the step is accepted, but cheaper here than in a pass of its own). */
double FixCoulombFriction::measure_trials(double h, double *sums)
{
  // (local sums: through sums[] each contact's terms would wait for the last one's store)
  double curvature = 0.0, metric = 0.0, along = 0.0, worst = 0.0;
  const int n = (int) contacts.size();
  for (int k = 0; k < n; k++) {
    const SolverRow &r = rows[k];
    const Vec2 u = r.v_free + rates_kick(r, demc::tangent_basis(r.n), h);
    u_trial[k] = u;
    // (weight: a contact listed on two ranks, newton off, counts half on each)
    const Vec2 d = trial[k] - y[k];
    curvature += r.weight * demc::dot(d, u_y[k] - u);
    metric += r.weight * demc::norm2(d) * r.inv_mass;
    along -= r.weight * demc::dot(u, trial[k] - gamma[k]);
    worst = std::max(worst, cf::contact_residual2(trial[k], u, r.mass_h, r.limit));
  }
  sums[0] = curvature / h;
  sums[1] = metric;
  sums[2] = along / h;
  sum_over_ranks(sums, 3);
  return worst;
}

/* the solver's force and velocity after the kick of contact k into its solution, its state
   from decide(); its force into this rank's totals (prepare_atoms() zeroed them) */
inline void FixCoulombFriction::take_iterate(int k, double h)
{
  Solution &s = solved[k];
  const TangentBasis t = demc::tangent_basis(rows[k].n);
  s.force = demc::from_basis(gamma[k], t);
  s.u_after = demc::from_basis(u_gamma[k], t);
  s.sticks =
      cf::decide(s.u_after + (h * s.inv_mass) * s.force, s.inv_mass, contacts[k].limit, h).sticks;
  add_to_totals(rows[k], s.force);
}

void FixCoulombFriction::out_of_sweeps(int sweeps, double residual) const
{
  if (comm->me == 0)
    error->warning(FLERR,
                   "Pair gran/coulomb iterate: step {}: the friction solver stopped after {} "
                   "sweeps at residual {:.3g} > tolerance {:.3g}; raise max_sweeps",
                   update->ntimestep, sweeps, residual, pair->iterate_tolerance);
}

namespace {
// a force f and a torque t into an atom's row of 6
DEMC_FN_FLAT void add_force_torque(double *row, const Vec3 &f, const Vec3 &t)
{
  row[0] += f.x;
  row[1] += f.y;
  row[2] += f.z;
  row[3] += t.x;
  row[4] += t.y;
  row[5] += t.z;
}
}    // namespace

/* a friction force df on p (and -df on q) into this rank's per-atom sums; its torques are
   r x df with r = arm_p n on p, -arm_q n on q (whose force is -df) */
template <class Row> inline void FixCoulombFriction::add_to_totals(const Row &c, const Vec3 &df)
{
  const Vec3 t = demc::cross(c.n, df);
  add_force_torque(&total[6 * c.p], df, c.arm_p * t);
  if (c.q >= 0) add_force_torque(&total[6 * c.q], -df, c.arm_q * t);
}

// the same as velocity changes per unit time into this rank's kick rows
inline void FixCoulombFriction::add_to_kicks(const SolverRow &c, const Vec3 &df)
{
  const Vec3 t = demc::cross(c.n, df);
  KickRow &p = kicks[c.p];
  add_force_torque(p.rate, p.inv_m * df, (p.inv_I * c.arm_p) * t);
  if (c.q < 0) return;
  KickRow &q = kicks[c.q];
  add_force_torque(q.rate, -q.inv_m * df, (q.inv_I * c.arm_q) * t);
}

/* the totals over all ranks from each rank's contributions: ghosts' shares summed to their
   owners (newton on; with newton off every rank has all contacts of its atoms), and (to_ghosts)
   the owners' totals to their ghosts */
void FixCoulombFriction::exchange(bool to_ghosts)
{
  comm_mode = FRICTION_TOTALS;
  if (force->newton_pair) comm->reverse_comm(this);
  if (to_ghosts) exchange_to_ghosts();
}

void FixCoulombFriction::exchange_to_ghosts()
{
  comm_mode = FRICTION_TOTALS;
  comm->forward_comm(this);
}

// the same for the kick rows' rates (always to the ghosts: the gather reads them)
void FixCoulombFriction::exchange_kicks()
{
  comm_mode = FRICTION_KICKS;
  if (force->newton_pair) comm->reverse_comm(this);
  comm->forward_comm(this);
}

// atom i's row of 6 that the friction exchanges move
inline double *FixCoulombFriction::exchanged_row(int i)
{
  return comm_mode == FRICTION_KICKS ? kicks[i].rate : &total[6 * i];
}

/* The owned atoms (not frozen ones) take their friction totals. Returns sum_c F_c . du_c over
   this rank's share of the contacts, du_c the change of the relative tangential velocity at
   contact c that the totals' kick of length h gives: for a friction force F on p (-F on q),
   F . du = -sum over p and q of (f . dv + t . dw), with f, t its force and torque on each and
   dv = h f_total / m, dw = h t_total / I their kick (F tangential), so the sum is
   -h sum_i (|f_i|^2 / m_i + |t_i|^2 / I_i) over the owned atoms: terms of one sign, unlike
   the same identity for the velocities themselves, whose atoms' terms cancel to round-off of
   the bulk velocity (measured: 3.5e-6 of the friction work in a 100-step run). */
double FixCoulombFriction::add_totals(double h)
{
  double *f = flat(atom->f), *torque = flat(atom->torque);
  const double *sum = total.data();
  const int *mask = atom->mask;
  double kicked = 0.0;    // sum_i (|f_i|^2 / m_i + |t_i|^2 / I_i)
  for (int i = 0; i < atom->nlocal; i++) {
    const double *s = sum + 6 * i;
    kicked += atom_rows[i].inv_m * (s[0] * s[0] + s[1] * s[1] + s[2] * s[2]) +
        atom_rows[i].inv_I * (s[3] * s[3] + s[4] * s[4] + s[5] * s[5]);
    if (mask[i] & frozen_groupbit) continue;
    for (int k = 0; k < 3; k++) {
      f[3 * i + k] += s[k];
      torque[3 * i + k] += s[3 + k];
    }
  }
  return -h * kicked;
}

/* ----------------------------------------------------------------------
   the virial, the dissipated work, the contacts' histories, the friction
   totals to the owned atoms (not to frozen ones). DECIDED (the direct
   treatment): each contact's velocity after the kick from the totals first,
   and the residual (as the solver's); ITERATED: each contact's solution
   from the solver first, the totals from these
------------------------------------------------------------------------- */

void FixCoulombFriction::apply(double h, bool advance, Outcome outcome, int sweeps, double residual)
{
  double dissipated = 0.0, sliding = 0.0, worst = 0.0;
  const bool virial = pair->evflag != 0;    // (a call per contact otherwise)
  const bool after_kick = outcome == DECIDED;
  const int n = (int) contacts.size();
  for (int k = 0; k < n; k++) {
    const Contact &c = contacts[k];
    Solution &s = solved[k];
    if (outcome == ITERATED) take_iterate(k, h);
    if (after_kick) {
      s.u_after = velocity_after(k, h);
      const double mass_h = cf::mass_over_h(s.inv_mass, h);
      worst = std::max(worst, cf::contact_residual2(s.force, s.u_after, mass_h, c.limit));
    }
    if (virial && c.q >= 0) pair->tally_friction(c.p, c.q, s.force);
    double *hist = c.history;
    // a run's steps book the whole kick of their force (its second half acts at the next
    // step); at setup that half of a contact's force has been booked by the step that ended the
    // last run, and only a contact without a decision yet (the first run) books its half kick
    const bool booked = !advance &&
        hist[PairGranCoulomb::H_STATE] != static_cast<double>(PairGranCoulomb::NO_STATE);
    const double work = booked ? 0.0 : cf::kick_dissipation(s.force, s.u_before, s.u_after, h);
    if (c.q < 0) {
      const WallPart &w = walls[c.wall];
      hist[FixWallGranCoulomb::H_WORK] += work;
      w.fix->friction_applied(c.p, s.force, w.r_q, w.move, !s.sticks, work);
    } else {
      dissipated += c.weight * work;
    }
    write_decision(hist, s.force, s.sticks);
    if (!s.sticks && c.q >= 0) sliding += c.weight;
  }
  if (outcome == ITERATED) exchange(false);
  add_totals(h);    // (the work is booked per contact above: at a setup not every contact books)
  if (after_kick) residual = global_residual(worst);
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
      const double *row = exchanged_row(j);
      for (int d = 0; d < 6; d++) buf[m++] = row[d];
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
      double *row = exchanged_row(i);
      for (int d = 0; d < 6; d++) row[d] = buf[m++];
    }
  }
}

int FixCoulombFriction::pack_reverse_comm(int n, int first, double *buf)
{
  int m = 0;
  for (int i = first; i < first + n; i++) {
    const double *row = exchanged_row(i);
    for (int d = 0; d < 6; d++) buf[m++] = row[d];
  }
  return m;
}

void FixCoulombFriction::unpack_reverse_comm(int n, int *list, double *buf)
{
  int m = 0;
  for (int k = 0; k < n; k++) {
    double *row = exchanged_row(list[k]);
    for (int d = 0; d < 6; d++) row[d] += buf[m++];
  }
}

double FixCoulombFriction::memory_usage()
{
  double bytes = (double) total.capacity() * sizeof(double) +
      (double) atom_rows.capacity() * sizeof(AtomRow) + (double) kicks.capacity() * sizeof(KickRow);
  for (const auto *a : {&gamma, &u_gamma, &y, &u_y, &trial, &u_trial})
    bytes += (double) a->capacity() * sizeof(Vec2);
  for (const auto *a : {&kick_row, &touching_start, &touching})
    bytes += (double) a->capacity() * sizeof(int);
  bytes += (double) due.capacity() +
      (double) (wave.capacity() + next_wave.capacity()) * sizeof(RelaxKey);
  return bytes + (double) contacts.capacity() * sizeof(Contact) +
      (double) rows.capacity() * sizeof(SolverRow) + (double) solved.capacity() * sizeof(Solution) +
      (double) walls.capacity() * sizeof(WallPart);
}
