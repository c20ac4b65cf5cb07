/* ----------------------------------------------------------------------
   dem-contact: faithful DEM contact laws for LAMMPS (plugin package)
   pair_style gran/coulomb/kk: the Kokkos variant of pair_style gran/coulomb.

   One physics: the functor below builds demc::coulomb::StepGeometry as
   PairGranCoulomb::compute() does and calls the same step,
   demc::coulomb::contact_step(); the friction is decided by the same host
   fix (see the header). What differs is only where the data live (Kokkos
   views) and how sums are formed (a parallel reduction).

   Per-contact history: LAMMPS's fix neigh/history/kk (through
   FixNeighHistoryDemcKokkos), the CPU style's record per contact
   (PairGranCoulomb::HistoryIndex, record_layout).
------------------------------------------------------------------------- */

#include "pair_gran_coulomb_kokkos.h"

#include "contact_geometry.h"
#include "coulomb_step.h"
#include "fix_coulomb_friction.h"

#include "atom_kokkos.h"
#include "atom_masks.h"
#include "error.h"
#include "fix_neigh_history_demc_kokkos.h"
#include "force.h"
#include "kokkos.h"
#include "memory_kokkos.h"
#include "modify.h"
#include "neigh_list_kokkos.h"
#include "neigh_request.h"
#include "neighbor.h"
#include "update.h"

#include <algorithm>
#include <type_traits>
#include <utility>
#include <vector>

using namespace LAMMPS_NS;
using demc::Vec3;
namespace cf = demc::coulomb;

// the friction fix and the contact step take a contact's history as a contiguous row of doubles
static_assert(std::is_same_v<KK_FLOAT, double>,
              "gran/coulomb/kk needs KOKKOS_PREC=double (the histories are the CPU style's)");
static_assert(std::is_same_v<DAT::tdual_kkfloat_2d::array_layout, Kokkos::LayoutRight>,
              "gran/coulomb/kk needs contiguous history rows (KOKKOS_LAYOUT=legacy)");

namespace {

/* ----------------------------------------------------------------------
   The numbering of the friction rows: first_row(i) = the neighbors of the
   list atoms before i (a prefix sum over the list).
------------------------------------------------------------------------- */

template <class DeviceType> struct CoulombRowNumbers {
  typedef DeviceType device_type;
  typedef int value_type;
  typename ArrayTypes<DeviceType>::t_int_1d_randomread ilist, numneigh;
  Kokkos::View<int *, DeviceType> first_row;
  KOKKOS_INLINE_FUNCTION void operator()(const int ii, int &sum, const bool final) const
  {
    const int i = ilist[ii];
    if (final) first_row(i) = sum;
    sum += numneigh[i];
  }
};

/* ----------------------------------------------------------------------
   The pair loop: one atom i of the half list and all its neighbors j, the
   body of PairGranCoulomb::compute() on views. Device code: only Kokkos and
   kernel (DEMC_FN) calls. NEIGHFLAG: HALF or HALFTHREAD; newton off (see
   init_style()); EVFLAG: tally energy/virial; ADVANCE: 0 at a setup, 1
   during a run; RESIST: some type pair has rolling or twisting resistance
   (the record holds its springs; the start-of-step normal is needed).
------------------------------------------------------------------------- */

template <class DeviceType, int NEIGHFLAG, int EVFLAG, int ADVANCE, int RESIST>
struct CoulombPairLoop : PairGranCoulombKernelData<DeviceType>,
                         DemcForceScatter<DeviceType, NEIGHFLAG> {
  typedef DeviceType device_type;
  typedef PairGranCoulombSums value_type;
  typedef PairGranCoulombKernelData<DeviceType> Data;
  typedef DemcForceScatter<DeviceType, NEIGHFLAG> Scatter;
  explicit CoulombPairLoop(const Data &d) : Data(d), Scatter(d) {}

  // with newton off a pair with a ghost is computed on two ranks: count half on each
  KOKKOS_INLINE_FUNCTION double pair_weight(int j) const { return j < this->nlocal ? 1.0 : 0.5; }

  // the history of list pair (i, jj): a contiguous row (LayoutRight, checked above)
  KOKKOS_INLINE_FUNCTION double *history_of(int i, int jj) const
  {
    return &demc_row(this->history, i)(this->history_size * jj);
  }

  /* fix neigh/history/kk ignores Pair::nondefault_history_transfer: when it hands the history
     of pair (i,j) over to j it negates ALL values. That is right for the friction force and
     the resistance's torque (they then act on the other particle, as
     PairGranCoulomb::transfer_history() turns them), wrong for the others. The state of a
     touching contact's history is 1 or 2 (the friction fix decided it at the step that
     stored it), so a negative state says the values were handed over an odd number of times:
     those others are turned back here, before the step and the friction fix read them. */
  KOKKOS_INLINE_FUNCTION void undo_hand_over(double *h) const
  {
    if (!(h[PairGranCoulomb::H_STATE] < 0.0)) return;
    for (int k = PairGranCoulomb::H_STATE; k <= PairGranCoulomb::H_FDAMP; k++) h[k] = -h[k];
    if (RESIST)
      for (int k = PairGranCoulomb::H_ROLL; k <= PairGranCoulomb::H_TWIST; k++) h[k] = -h[k];
  }

  /* Neighbor jj of atom a.i: true if the pair touches (j and rsq are then set); a pair apart
     that held a history is released here (the rolling and twisting springs' energy through
     their sliders). The flag of a pair apart is then 0; every touching pair's is set to 1 by
     contact(), so after the loop the flags mark the rows of the touching pairs. */
  KOKKOS_INLINE_FUNCTION bool needs_contact(const DemcScannedAtom<DeviceType> &a, int jj, int &j,
                                            double &rsq, value_type &sums) const
  {
    const Data &d = *this;
    if (demc_overlaps(d, a, jj, j, rsq)) return true;
    const auto touch_i = demc_row(d.touch, a.i);
    if (touch_i(jj) == 0) return false;
    double *h = history_of(a.i, jj);
    if (RESIST && ADVANCE) {
      undo_hand_over(h);
      sums.released += pair_weight(j) *
          cf::parting_energy(d.params(d.type[a.i], d.type[j]), cf::load_record(h, d.layout), 0.0);
    }
    touch_i(jj) = 0;
    for (int k = 0; k < d.history_size; k++) h[k] = 0.0;
    return false;
  }

  /* The touching pair (i, j) at list position jj: the contact step, its record, its friction
     row, the force and torque on j (through the scatter accesses) and on i (added to f_i,
     tor_i). */
  template <class AccessF, class AccessT>
  KOKKOS_INLINE_FUNCTION void contact(int i, int jj, int j, double rsq, value_type &sums,
                                      const AccessF &a_f, const AccessT &a_torque, Vec3 &f_i,
                                      Vec3 &tor_i) const
  {
    const Data &d = *this;
    double *h = history_of(i, jj);
    undo_hand_over(h);
    const cf::StepParams &p = d.params(d.type[i], d.type[j]);
    const Vec3 x_i = demc_vec3(d.x, i), x_j = demc_vec3(d.x, j);
    const Vec3 w_i = demc_vec3(d.omega, i), w_j = demc_vec3(d.omega, j);
    const double step_dt = ADVANCE ? d.dt : 0.0;
    // as PairGranCoulomb::compute() (the start-of-step normal only for the rolling spring)
    cf::StepGeometry g;
    g.c = demc::sphere_contact(x_i, x_j, d.radius[i], d.radius[j], demc::math::sqrt(rsq),
                               demc_vec3(d.v, i), demc_vec3(d.v, j), w_i, w_j, step_dt,
                               RESIST != 0);
    g.w_rel = RESIST ? w_j - w_i : Vec3{0.0, 0.0, 0.0};
    g.r_eff = cf::effective_radius(d.radius[i], d.radius[j]);
    g.m_eff = demc::needs_effective_mass(p.dashpots) ? d.effective_mass(i, j) : 0.0;
    g.dt = step_dt;
    cf::Record record = cf::load_record(h, d.layout);
    const cf::StepResult r = cf::contact_step(p, g, ADVANCE ? int(cf::ADVANCE) : d.mode, record);
    if (ADVANCE) cf::store_record(h, d.layout, record);
    demc_row(d.touch, i)(jj) = 1;
    CoulombContactRow &out = d.rows(d.first_row(i) + jj);
    out.j = j;
    out.row = r.row;

    // the normal force has no torque about the centres: the resistance's alone
    f_i = f_i + r.force;
    tor_i = tor_i + r.torque;
    if (j < d.nlocal) demc_add_force_torque(a_f, a_torque, j, -r.force, -r.torque);

    const double weight = pair_weight(j);
    sums.damping += weight * r.damping_work;
    sums.released += weight * r.resistance_friction;
    sums.normal += weight * r.normal_energy;
    sums.tangential += weight * r.resistance_stored;
    sums.contacts += weight;
    if (EVFLAG)
      demc_tally<NEIGHFLAG, 0>(d, sums, i, j, r.normal_energy + r.resistance_stored, r.force,
                               x_i - x_j);
  }

  // the first pass's requests: the partner's data and the contact's history
  KOKKOS_INLINE_FUNCTION void prefetch_pair(int i, int jj, int j) const
  {
    demc_prefetch_contact<Scatter>(*this, j, history_of(i, jj), this->history_size);
  }
  KOKKOS_INLINE_FUNCTION void prefetch_pending(const DemcContactBlock &) const {}

  // devices: an atom in one pass; host spaces: a block of atoms in two (DemcContactBlock)
  KOKKOS_INLINE_FUNCTION void operator()(const int ii, value_type &sums) const
  {
    demc_atom_in_one_pass(*this, ii, sums);
  }
  KOKKOS_INLINE_FUNCTION void operator()(DemcBlockTag, const int item, value_type &sums) const
  {
    demc_block_in_two_passes(*this, item, sums);
  }
};


/* ----------------------------------------------------------------------
   The direct decision of the friction on the device: the pass of
   FixCoulombFriction (post_force(), prepare_atoms(), prepare(), apply())
   for the pair's contacts, with the same kernel calls. Every contact is
   decided at once from the forces without friction, so the order of the
   contacts changes only the round-off of the totals (scattered atomically).
------------------------------------------------------------------------- */

template <class DeviceType> struct CoulombFrictionData : PairGranCoulombKernelData<DeviceType> {
  Kokkos::View<double *, DeviceType> inverse, free, totals;    // 2, 6, 6 a row (see the header)
  double h;             // the kick: dt during a run, dt/2 at a setup
  int advance;          // a run's step (not a setup)
  int frozen_groupbit, norotate_groupbit;

  KOKKOS_INLINE_FUNCTION Vec3 row3(const Kokkos::View<double *, DeviceType> &a, int k) const
  {
    return {a(k), a(k + 1), a(k + 2)};
  }
  // (p: the list atom i; q: its partner, local or ghost, at arm_q on the other side)
  KOKKOS_INLINE_FUNCTION Vec3 kick_of(int k, double arm, const Vec3 &n) const
  {
    return cf::surface_kick(row3(totals, 6 * k), row3(totals, 6 * k + 3), inverse(2 * k),
                            inverse(2 * k + 1), arm, n);
  }
  template <class Body>
  KOKKOS_INLINE_FUNCTION void for_each_contact(int ii, const Body &body) const
  {
    const int i = this->ilist[ii];
    const auto touch_i = demc_row(this->touch, i);
    const int base = this->first_row(i), jnum = this->numneigh[i];
    for (int jj = 0; jj < jnum; jj++)
      if (touch_i(jj)) body(i, jj, this->rows(base + jj));
  }
};

// per atom (local and ghost): FixCoulombFriction::prepare_atoms(), and the totals zeroed
template <class DeviceType> struct CoulombFrictionAtoms {
  typedef DeviceType device_type;
  CoulombFrictionData<DeviceType> d;
  KOKKOS_INLINE_FUNCTION void operator()(const int k) const
  {
    double inv_m = 0.0, inv_I = 0.0;
    if (!(d.mask[k] & d.frozen_groupbit)) {
      inv_m = 1.0 / d.rmass[k];
      if (!(d.mask[k] & d.norotate_groupbit)) inv_I = inv_m / (0.4 * d.radius[k] * d.radius[k]);
    }
    d.inverse(2 * k) = inv_m;
    d.inverse(2 * k + 1) = inv_I;
    for (int c = 0; c < 3; c++) {
      d.free(6 * k + c) = d.v(k, c) + d.h * inv_m * d.f(k, c);
      d.free(6 * k + 3 + c) = d.omega(k, c) + d.h * inv_I * d.torque(k, c);
    }
    for (int c = 0; c < 6; c++) d.totals(6 * k + c) = 0.0;
  }
};

/* per list atom: FixCoulombFriction::prepare() with the decision, for the atom's contacts: the
   largest mu F_N (a Max reduction), each contact's decision in its row, the friction forces
   and torques added to both atoms' totals */
template <class DeviceType> struct CoulombFrictionDecide {
  typedef DeviceType device_type;
  typedef double value_type;
  CoulombFrictionData<DeviceType> d;
  KOKKOS_INLINE_FUNCTION void operator()(const int ii, double &largest) const
  {
    d.for_each_contact(ii, [&](int p, int, CoulombContactRow &c) {
      const int q = c.j;
      const Vec3 &n = c.row.n;
      const double arm_p = c.row.arm_p, arm_q = c.row.arm_q;
      c.inv_mass = cf::tangential_inverse_mass(d.inverse(2 * p), d.inverse(2 * p + 1), arm_p,
                                               d.inverse(2 * q), d.inverse(2 * q + 1), arm_q);
      c.u_before = cf::tangential_part(
          cf::surface_velocity(demc_vec3(d.v, q), demc_vec3(d.omega, q), -arm_q, n) -
              cf::surface_velocity(demc_vec3(d.v, p), demc_vec3(d.omega, p), arm_p, n),
          n);
      c.v_free = cf::tangential_part(
          cf::surface_velocity(d.row3(d.free, 6 * q), d.row3(d.free, 6 * q + 3), -arm_q, n) -
              cf::surface_velocity(d.row3(d.free, 6 * p), d.row3(d.free, 6 * p + 3), arm_p, n),
          n);
      if (c.row.limit > largest) largest = c.row.limit;
      const cf::Decision decision = cf::decide(c.v_free, c.inv_mass, c.row.limit, d.h);
      c.force = decision.force;
      c.sticks = decision.sticks ? 1 : 0;
      // torques r x F with r = arm_p n on p, -arm_q n on q (whose force is -F)
      const Vec3 t = demc::cross(n, c.force);
      const double add_p[6] = {c.force.x, c.force.y, c.force.z,
                               arm_p * t.x, arm_p * t.y, arm_p * t.z};
      const double add_q[6] = {-c.force.x, -c.force.y, -c.force.z,
                               arm_q * t.x, arm_q * t.y, arm_q * t.z};
      for (int k = 0; k < 6; k++) {
        Kokkos::atomic_add(&d.totals(6 * p + k), add_p[k]);
        Kokkos::atomic_add(&d.totals(6 * q + k), add_q[k]);
      }
    });
  }
};

// the owned atoms (not frozen ones) take their friction totals: FixCoulombFriction::apply()
template <class DeviceType> struct CoulombFrictionAdd {
  typedef DeviceType device_type;
  CoulombFrictionData<DeviceType> d;
  KOKKOS_INLINE_FUNCTION void operator()(const int k) const
  {
    if (d.mask[k] & d.frozen_groupbit) return;
    for (int c = 0; c < 3; c++) {
      d.f(k, c) += d.totals(6 * k + c);
      d.torque(k, c) += d.totals(6 * k + 3 + c);
    }
  }
};

// what the contacts' pass sums: the virial of the friction forces, the largest residual, the
// dissipated work and the sliding contacts (weight 1/2 for a pair with a ghost, newton off)
struct CoulombFrictionSums {
  double evdwl;
  double v[6];
  double worst, dissipated, sliding;
  KOKKOS_INLINE_FUNCTION CoulombFrictionSums() :
      evdwl(0.0), v{0.0, 0.0, 0.0, 0.0, 0.0, 0.0}, worst(0.0), dissipated(0.0), sliding(0.0)
  {
  }
  KOKKOS_INLINE_FUNCTION void operator+=(const CoulombFrictionSums &o)
  {
    evdwl += o.evdwl;
    for (int k = 0; k < 6; k++) v[k] += o.v[k];
    worst = o.worst > worst ? o.worst : worst;
    dissipated += o.dissipated;
    sliding += o.sliding;
  }
};

/* per list atom: the rest of FixCoulombFriction::apply() for its contacts: each contact's
   velocity after the kick of the totals, its residual, the virial, the work booked and the
   history written (friction force, state) */
template <class DeviceType> struct CoulombFrictionApply {
  typedef DeviceType device_type;
  typedef CoulombFrictionSums value_type;
  CoulombFrictionData<DeviceType> d;
  int evflag;
  KOKKOS_INLINE_FUNCTION void operator()(const int ii, value_type &sums) const
  {
    d.for_each_contact(ii, [&](int p, int jj, const CoulombContactRow &c) {
      const int q = c.j;
      const Vec3 &n = c.row.n;
      const Vec3 kick_p = d.kick_of(p, c.row.arm_p, n);
      const Vec3 u_after =
          c.v_free + d.h * cf::tangential_part(d.kick_of(q, -c.row.arm_q, n) - kick_p, n);
      const double residual = cf::contact_residual(c.force, u_after, c.inv_mass, c.row.limit, d.h);
      if (residual > sums.worst) sums.worst = residual;
      if (evflag)
        demc_tally<HALFTHREAD, 0>(d, sums, p, q, 0.0, c.force,
                                  demc_vec3(d.x, p) - demc_vec3(d.x, q));
      double *hist = &demc_row(d.history, p)(d.history_size * jj);
      // (FixCoulombFriction::apply(): at a setup only a contact without a decision books)
      const bool booked = !d.advance &&
          hist[PairGranCoulomb::H_STATE] != static_cast<double>(PairGranCoulomb::NO_STATE);
      const double work = booked ? 0.0 : cf::kick_dissipation(c.force, c.u_before, u_after, d.h);
      const double weight = q < d.nlocal ? 1.0 : 0.5;
      sums.dissipated += weight * work;
      hist[PairGranCoulomb::H_FX] = c.force.x;
      hist[PairGranCoulomb::H_FY] = c.force.y;
      hist[PairGranCoulomb::H_FZ] = c.force.z;
      hist[PairGranCoulomb::H_STATE] =
          c.sticks ? PairGranCoulomb::STICKING : PairGranCoulomb::SLIDING;
      if (!c.sticks) sums.sliding += weight;
    });
  }
};
}    // namespace

/* ---------------------------------------------------------------------- */

template <class DeviceType>
PairGranCoulombKokkos<DeviceType>::PairGranCoulombKokkos(LAMMPS *lmp) :
    PairGranCoulomb(lmp), shared(lmp, *this), fix_historyKK(nullptr)
{
  datamask_read |= RMASS_MASK | MASK_MASK;    // restitution damping's effective mass
}

template <class DeviceType> PairGranCoulombKokkos<DeviceType>::~PairGranCoulombKokkos()
{
  if (copymode) return;
  shared.destroy(*this);
}

template <class DeviceType> std::string PairGranCoulombKokkos<DeviceType>::history_fix_style() const
{
  return execution_space == Device ? "DEMC/NEIGH_HISTORY/KK/DEVICE" : "DEMC/NEIGH_HISTORY/KK/HOST";
}

/* ---------------------------------------------------------------------- */

template <class DeviceType> void PairGranCoulombKokkos<DeviceType>::init_style()
{
  shared.check_settings(running_style_name(), style_name, energy_per_atom);
  PairGranCoulomb::init_style();    // (makes the history fix of history_fix_style())
  fix_historyKK = dynamic_cast<FixNeighHistoryKokkos<DeviceType> *>(fix_history);
  if (fix_historyKK == nullptr)
    error->all(FLERR,
               "Pair gran/coulomb/kk: history fix {} is not a fix neigh/history/kk of this "
               "execution space",
               history_fix_id());
  shared.request_list(*this);
  shared.size_type_params(k_params, atom->ntypes, "PairGranCoulomb::params");
}

template <class DeviceType> double PairGranCoulombKokkos<DeviceType>::init_one(int i, int j)
{
  const double cut = PairGranCoulomb::init_one(i, j);
  shared.set_type_params(k_params, i, j, type_step(i, j));
  return cut;
}

/* ---------------------------------------------------------------------- */

template <class DeviceType> void PairGranCoulombKokkos<DeviceType>::compute(int eflag_in, int vflag_in)
{
  // as PairGranCoulomb::compute(): at setup the particles have not moved since the last step
  advance_step = (update->setupflag == 0);
  const int mode = advance_step ? cf::ADVANCE : repeats_last_step() ? cf::REPEAT : cf::SETUP;

  ev_init(eflag_in, vflag_in, 0);    // newton off: checked by check_settings() at every init
  friction->clear_contacts();
  const int inum =
      shared.load_views(*this, loop_inputs(), kdata, fix_historyKK, eflag_in, vflag_in);
  k_params.template sync<DeviceType>();
  kdata.params = k_params.template view<DeviceType>();
  kdata.layout = record_layout;
  kdata.history_size = history_size;
  kdata.mode = mode;
  number_rows(inum);

  PairGranCoulombSums sums;
  const bool resisting = record_layout.torque >= 0;
  shared.dispatch(evflag, advance_step, [&](auto neigh, auto ev, auto adv) {
    constexpr int N = decltype(neigh)::value, EV = decltype(ev)::value, ADV = decltype(adv)::value;
    if (resisting)
      this->template launch<N, EV, ADV, 1>(inum, sums);
    else
      this->template launch<N, EV, ADV, 0>(inum, sums);
  });

  // pvector: the CPU style's layout and meaning (this rank's share); the friction fix adds the
  // friction's dissipation, the sliding contacts, sweeps and residual
  dissipated_damping += sums.damping;
  tangential_sum += sums.released;
  for (int k = 0; k < E_SIZE; k++) pvector[k] = 0.0;
  pvector[E_NORMAL] = sums.normal;
  pvector[E_TANGENTIAL] = sums.tangential;
  pvector[E_CONTACTS] = sums.contacts;
  pvector[E_FRICTION] = tangential_sum;
  pvector[E_DAMPING] = dissipated_damping;
  shared.store_results(*this, fix_historyKK, sums.evdwl, sums.v);
}

// the friction fix's pass decides on the host: the touching pairs to it
template <class DeviceType> void PairGranCoulombKokkos<DeviceType>::contacts_to_friction()
{
  hand_contacts_to_friction(kdata.inum);
}

/* the friction rows' numbers (CoulombContactRow), and room for them */
template <class DeviceType> void PairGranCoulombKokkos<DeviceType>::number_rows(int inum)
{
  if ((int) k_first_row.extent(0) < atom->nmax)
    k_first_row = decltype(k_first_row)("PairGranCoulombKokkos::first_row", atom->nmax);
  CoulombRowNumbers<DeviceType> numbers{kdata.ilist, kdata.numneigh,
                                        k_first_row.template view<DeviceType>()};
  int total = 0;
  Kokkos::parallel_scan("PairGranCoulombKokkos::number_rows",
                        Kokkos::RangePolicy<DeviceType>(0, inum), numbers, total);
  k_first_row.template modify<DeviceType>();
  if ((int) k_rows.extent(0) < total)
    k_rows = decltype(k_rows)("PairGranCoulombKokkos::rows", total + total / 8);
  kdata.first_row = k_first_row.template view<DeviceType>();
  kdata.rows = k_rows.template view<DeviceType>();
}

template <class DeviceType>
template <int NEIGHFLAG, int EVFLAG, int ADVANCE, int RESIST>
void PairGranCoulombKokkos<DeviceType>::launch(int inum, PairGranCoulombSums &sums)
{
  CoulombPairLoop<DeviceType, NEIGHFLAG, EVFLAG, ADVANCE, RESIST> loop(kdata);
  demc_launch_pair_loop<DeviceType>("PairGranCoulombKokkos::compute", inum, loop, sums,
                                    this->static_schedule);
  loop.contribute(kdata);
  k_rows.template modify<DeviceType>();
}

/* ----------------------------------------------------------------------
   the touching pairs to the friction fix, in the order of the neighbor list
   (as PairGranCoulomb::compute() hands them): their rows and histories on
   the host (copies on a GPU, the same memory on host back ends); the fix
   writes the histories' friction values there (friction_decided())
------------------------------------------------------------------------- */

template <class DeviceType>
void PairGranCoulombKokkos<DeviceType>::hand_contacts_to_friction(int inum)
{
  k_rows.sync_host();
  k_first_row.sync_host();
  fix_historyKK->k_firstflag.sync_host();
  fix_historyKK->k_firstvalue.sync_host();
  auto *k_list = static_cast<NeighListKokkos<DeviceType> *>(list);
  const auto ilist = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k_list->d_ilist);
  const auto numneigh =
      Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k_list->d_numneigh);
  const auto rows = k_rows.view_host();
  const auto first_row = k_first_row.view_host();
  const auto touch = fix_historyKK->k_firstflag.view_host();
  const auto values = fix_historyKK->k_firstvalue.view_host();
  const int nlocal = atom->nlocal;
  for (int ii = 0; ii < inum; ii++) {
    const int i = ilist(ii);
    const int jnum = numneigh(i);
    for (int jj = 0; jj < jnum; jj++) {
      if (touch(i, jj) == 0) continue;
      const CoulombContactRow &c = rows(first_row(i) + jj);
      // (no u_now: the fix's general path, which /kk's contacts take, finds its own)
      friction->add_contact(i, c.j, c.row, c.j < nlocal ? 1.0 : 0.5,
                            &values(i, history_size * jj), {0.0, 0.0, 0.0});
    }
  }
}

/* ----------------------------------------------------------------------
   the friction fix's pass with the direct decision, on the device (see the
   functors above): the atoms' inverse masses and free velocities, every
   contact decided, the totals exchanged through the fix (over the ranks and
   to the ghosts), added to the owned atoms, the contacts' histories written
------------------------------------------------------------------------- */

template <class DeviceType>
void PairGranCoulombKokkos<DeviceType>::decide_friction(double h, bool advance)
{
  // the fix gave the ghosts their owners' forces and torques on the host
  atomKK->modified(Host, F_MASK | TORQUE_MASK);
  atomKK->sync(execution_space, X_MASK | V_MASK | OMEGA_MASK | F_MASK | TORQUE_MASK |
                   RMASS_MASK | RADIUS_MASK | MASK_MASK);
  const int nall = atom->nlocal + atom->nghost;
  if ((int) d_totals.extent(0) < 6 * nall) {
    const int rows = nall + nall / 8;
    d_inverse = Kokkos::View<double *, DeviceType>("PairGranCoulombKokkos::inverse", 2 * rows);
    d_free = Kokkos::View<double *, DeviceType>("PairGranCoulombKokkos::free", 6 * rows);
    d_totals = Kokkos::View<double *, DeviceType>("PairGranCoulombKokkos::totals", 6 * rows);
  }
  CoulombFrictionData<DeviceType> d;
  static_cast<PairGranCoulombKernelData<DeviceType> &>(d) = kdata;
  d.v = atomKK->k_v.template view<DeviceType>();
  d.omega = atomKK->k_omega.template view<DeviceType>();
  d.f = atomKK->k_f.template view<DeviceType>();
  d.torque = atomKK->k_torque.template view<DeviceType>();
  d.inverse = d_inverse;
  d.free = d_free;
  d.totals = d_totals;
  d.h = h;
  d.advance = advance ? 1 : 0;
  d.frozen_groupbit = friction->frozen_groups();
  d.norotate_groupbit = friction->norotate_groups();

  Kokkos::parallel_for("PairGranCoulombKokkos::friction_atoms",
                       Kokkos::RangePolicy<DeviceType>(0, nall), CoulombFrictionAtoms<DeviceType>{d});
  double largest_here = 0.0, largest = 0.0;
  Kokkos::parallel_reduce("PairGranCoulombKokkos::friction_decide",
                          Kokkos::RangePolicy<DeviceType>(0, kdata.inum),
                          CoulombFrictionDecide<DeviceType>{d}, Kokkos::Max<double>(largest_here));
  largest_here = largest_here > 0.0 ? largest_here : 0.0;    // (no contact: the Max identity)
  MPI_Allreduce(&largest_here, &largest, 1, MPI_DOUBLE, MPI_MAX, world);
  exchange_totals(nall);
  Kokkos::parallel_for("PairGranCoulombKokkos::friction_add",
                       Kokkos::RangePolicy<DeviceType>(0, atom->nlocal),
                       CoulombFrictionAdd<DeviceType>{d});
  CoulombFrictionSums sums;
  Kokkos::parallel_reduce("PairGranCoulombKokkos::friction_apply",
                          Kokkos::RangePolicy<DeviceType>(0, kdata.inum),
                          CoulombFrictionApply<DeviceType>{d, evflag}, sums);

  fix_historyKK->k_firstvalue.template modify<DeviceType>();
  atomKK->modified(execution_space, F_MASK | TORQUE_MASK);
  atomKK->sync(Host, F_MASK | TORQUE_MASK);    // (Modify marks the fix's data modified on the host)
  if (vflag_global)
    for (int k = 0; k < 6; k++) virial[k] += sums.v[k];
  if (vflag_atom) {
    shared.k_vatom.template modify<DeviceType>();
    shared.k_vatom.sync_host();
  }
  double worst = 0.0;
  MPI_Allreduce(&sums.worst, &worst, 1, MPI_DOUBLE, MPI_MAX, world);
  PairGranCoulomb::friction_decided(sums.dissipated, sums.sliding, 1,
                                    largest > 0.0 ? worst / largest : 0.0);
}

/* this rank's friction totals on the device (nall rows of 6) become the totals over all ranks,
   ghosts' their owners', through the friction fix's exchange on the host */
template <class DeviceType> void PairGranCoulombKokkos<DeviceType>::exchange_totals(int nall)
{
  const auto rows = Kokkos::subview(d_totals, std::make_pair(0, 6 * nall));
  const auto h_rows = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rows);
  std::vector<double> &totals = friction->friction_totals();
  std::copy(h_rows.data(), h_rows.data() + 6 * (size_t) nall, totals.begin());
  friction->exchange_totals();
  std::copy(totals.begin(), totals.begin() + 6 * (size_t) nall, h_rows.data());
  Kokkos::deep_copy(rows, h_rows);
}

/* the friction fix wrote the histories' host side: the next loop takes them to the device */
template <class DeviceType>
void PairGranCoulombKokkos<DeviceType>::friction_decided(double dissipated, double sliding,
                                                         int sweeps, double residual)
{
  PairGranCoulomb::friction_decided(dissipated, sliding, sweeps, residual);
  fix_historyKK->k_firstvalue.modify_host();
}

/* ----------------------------------------------------------------------
   per-contact state for compute pair/local, as PairGranCoulomb::single(),
   from the history in i's or j's Kokkos neighbor list, read on the host
   (every touching pair's record was set right by the last loop:
   CoulombPairLoop::undo_hand_over())
------------------------------------------------------------------------- */

template <class DeviceType>
double PairGranCoulombKokkos<DeviceType>::single(int i, int j, int itype, int jtype, double rsq,
                                                 double, double, double &fforce)
{
  atomKK->sync(Host, X_MASK | RADIUS_MASK);
  begin_single(i, j, rsq, fforce);    // (after the sync: it reads x)
  const double radsum = atom->radius[i] + atom->radius[j];
  if (rsq >= radsum * radsum || fix_historyKK == nullptr) return 0.0;
  int owner, slot;
  if (!find_single_slot(
          i, j,
          [this](int a, int b) {
            return shared.neighbor_slot_host(list, a, b, neighprev);
          },
          owner, slot))
    return 0.0;
  fix_historyKK->k_firstvalue.sync_host();
  const auto values = fix_historyKK->k_firstvalue.view_host();
  if (owner >= (int) values.extent(0)) return 0.0;
  return single_from_history(i, j, itype, jtype, rsq, &values(owner, history_size * slot),
                             owner == i ? 1.0 : -1.0, fforce);
}

namespace LAMMPS_NS {
template class PairGranCoulombKokkos<LMPDeviceType>;
#ifdef LMP_KOKKOS_GPU
template class PairGranCoulombKokkos<LMPHostType>;
#endif
}    // namespace LAMMPS_NS
