/* ----------------------------------------------------------------------
   dem-contact: faithful DEM contact laws for LAMMPS (plugin package)
   pair_style gran/kuhn/kk: the Kokkos variant of pair_style gran/kuhn.

   One physics: the functor below builds demc::kuhn::Kinematics as
   PairGranKuhn::compute() does (demc::sphere_contact(), the same
   arithmetic as PairGranDemc::sphere_contact()) and calls the same kernel,
   demc::kuhn::step(). What differs is only where the data live (Kokkos
   views) and how sums are formed (a parallel reduction).

   Per-contact history: LAMMPS's fix neigh/history/kk (through
   FixNeighHistoryDemcKokkos, which works around its restart and
   more-than-8-partners problems), the CPU style's record per contact
   (PairGranKuhn::HistoryIndex, record_layout).
------------------------------------------------------------------------- */

#include "pair_gran_kuhn_kokkos.h"

#include "contact_geometry.h"
#include "kuhn_step.h"

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

#include <cmath>

using namespace LAMMPS_NS;
using demc::Vec3;
namespace kuhn = demc::kuhn;

namespace {

// a contact's record in a history row (DemcRow), indexed as kuhn::read_record() reads it
template <class Row> struct RecordAt {
  Row row;
  int base;
  KOKKOS_FORCEINLINE_FUNCTION double &operator[](int k) const { return row(base + k); }
};
template <class Row> KOKKOS_FORCEINLINE_FUNCTION RecordAt<Row> record_at(const Row &row, int base)
{
  return {row, base};
}

/* ----------------------------------------------------------------------
   The pair loop: one atom i of the half list and all its neighbors j.
   The body of PairGranKuhn::compute() on views. Device code: only Kokkos
   and kernel (DEMC_FN) calls, no host-only or std:: math, no virtual calls.
   NEIGHFLAG: HALF or HALFTHREAD (several threads may add to the same j);
   NEWTON_PAIR: only 0 is instantiated (see init_style()), the tallies are
   written for both; EVFLAG: tally energy/virial; ADVANCE: 0 at setup
   (forces from the stored history, nothing advanced), 1 during a run;
   ALL_ON: 1: every refinement on (the default), known to the compiler, which
   then drops the kernel's tests of the flags, as PairGranKuhn's
   run_contact_law<true, false, false>; 2: some type pair has restitution damping,
   added to the kernel's result (run_contact_law<false, true, false>); 3: as 2, with
   rolling or twisting resistance (run_contact_law<false, true, true>; without, the step's
   resistance code is dropped from the loop); 0: none of these.
------------------------------------------------------------------------- */

template <class DeviceType, int NEIGHFLAG, int NEWTON_PAIR, int EVFLAG, int ADVANCE, int ALL_ON>
struct KuhnPairLoop : PairGranKuhnKernelData<DeviceType>, DemcForceScatter<DeviceType, NEIGHFLAG> {
  typedef DeviceType device_type;
  typedef PairGranKuhnSums value_type;
  typedef PairGranKuhnKernelData<DeviceType> Data;
  typedef DemcForceScatter<DeviceType, NEIGHFLAG> Scatter;
  explicit KuhnPairLoop(const Data &d) : Data(d), Scatter(d) {}

  // with newton off a pair with a ghost is computed on two ranks: count half on each
  KOKKOS_INLINE_FUNCTION double pair_weight(int j) const
  {
    return (NEWTON_PAIR || j < this->nlocal) ? 1.0 : 0.5;
  }

  /* Neighbor jj of atom a.i: true if the pair touches (j and rsq are then set); a pair
     apart that held a history is released here. */
  KOKKOS_INLINE_FUNCTION bool needs_contact(const DemcScannedAtom<DeviceType> &a, int jj, int &j,
                                            double &rsq, value_type &sums) const
  {
    const Data &d = *this;
    const int i = a.i;
    if (demc_overlaps(d, a, jj, j, rsq)) return true;
    /* Most neighbors are apart and hold no history. Their flag is 0 then: set so below,
       or by the list build of the history fix (host-only builds: FixNeighHistoryDemcKokkos
       sets 0; with a GPU, LAMMPS's fix neigh/history/kk zeroes every value and sets the
       flag of a pair without a saved history to its neighbor index j, nonzero but for
       atom 0: such a pair passes once through the release below, which then clears the
       flag). Skipping them on the flag alone, as the CPU style does, spares every
       neighbor a rewrite of its values in every step. */
    const auto touch_i = demc_row(d.touch, i);
    if (touch_i(jj) == 0) return false;
    // separation releases the energy the contact held
    const auto h = record_at(demc_row(d.history, i), d.history_size * jj);
    const int ti = d.type[i], tj = d.type[j];
    const double r_eff = d.radius[i] * d.radius[j] / (d.radius[i] + d.radius[j]);
    sums.friction += pair_weight(j) *
        kuhn::parting_energy(d.params(ti, tj).kt, resist(ti, tj), record_of(h), r_eff);
    touch_i(jj) = 0;
    for (int k = 0; k < d.history_size; k++) h[k] = 0.0;
    return false;
  }

  /* fix neigh/history/kk ignores Pair::nondefault_history_transfer: when it hands the
     history of pair (i,j) over to j (at re-neighboring and at the end of a run) it negates
     ALL values. That is right for the forces and the torque (they then act on the other
     particle; PairGranKuhn::transfer_history() does the same), wrong for the values that
     do not change under the exchange. The stored overlap is > 0 for every touching pair,
     so its sign says whether the values were handed over an odd number of times, and those
     are read back times that sign (kuhn::read_record()); the record is written back with
     sign +. The sign bit is tested, so a stored overlap of 0 keeps it. */
  template <class H> KOKKOS_INLINE_FUNCTION kuhn::Record record_of(const H &h) const
  {
    return kuhn::read_record(h, this->layout, Kokkos::signbit(h[kuhn::R_ZETA]) ? -1.0 : 1.0);
  }

  // the rolling and twisting parameters of a type pair, nullptr if off
  KOKKOS_INLINE_FUNCTION const demc::resistance::Params *resist(int ti, int tj) const
  {
    return ALL_ON == 3 ? &this->resistance(ti, tj) : nullptr;
  }

  /* The touching pair (i, j) at list position jj: the contact step, its record, the force
     and torque on j (through the scatter accesses) and on i (added to f_i, tor_i). */
  template <class AccessF, class AccessT>
  KOKKOS_INLINE_FUNCTION void contact(int i, int jj, int j, double rsq, value_type &sums,
                                      const AccessF &a_f, const AccessT &a_torque, Vec3 &f_i,
                                      Vec3 &tor_i) const
  {
    const Data &d = *this;
    const auto touch_i = demc_row(d.touch, i);
    const auto h = record_at(demc_row(d.history, i), d.history_size * jj);
    const double weight = pair_weight(j);
    const int ti = d.type[i], tj = d.type[j];

    // geometry and movements as the CPU style (PairGranDemc::sphere_contact): n from i to
    // j, positions at the start of the step x - v dt, contact point at the middle of the
    // overlap, nothing moves at setup
    const Vec3 x_i = demc_vec3(d.x, i), x_j = demc_vec3(d.x, j);
    const Vec3 w_i = demc_vec3(d.omega, i), w_j = demc_vec3(d.omega, j);
    const demc::SphereContact c =
        demc::sphere_contact(x_i, x_j, d.radius[i], d.radius[j], demc::math::sqrt(rsq),
                             demc_vec3(d.v, i), demc_vec3(d.v, j), w_i, w_j, ADVANCE ? d.dt : 0.0);
    // named: params_for_step() may return this reference (a view of another memory trait could
    // hand out a temporary, which must outlive the step)
    const kuhn::Params &type_params = d.params(ti, tj);
    kuhn::Params folded;
    const kuhn::Params &params = kuhn::params_for_step < ALL_ON == 1 > (type_params, folded);
    kuhn::Law law = {&params, nullptr, d.dashpot_limits, resist(ti, tj)};
    kuhn::Geometry g = {c.overlap, c.n, c.n_old, c.du, c.twirl, 0.0, {0.0, 0.0, 0.0}, 0.0};
    if (ALL_ON >= 2) {
      law.restitution = &d.dashpots(ti, tj);
      if (demc::needs_effective_mass(*law.restitution)) g.m_eff = d.effective_mass(i, j);
    }
    if (law.resist != nullptr) {
      g.w_rel = w_j - w_i;
      g.r_eff = d.radius[i] * d.radius[j] / (d.radius[i] + d.radius[j]);
    }
    const kuhn::Phase phase =
        ADVANCE ? kuhn::ADVANCE : kuhn::REPEAT;
    kuhn::Record rec = record_of(h);
    const kuhn::Outcome o = kuhn::contact_step(law, g, phase, d.dt, rec);

    if (ADVANCE) {
      touch_i(jj) = 1;
      kuhn::write_record(h, d.layout, rec);
      sums.friction += weight * o.friction;
      sums.damping += weight * o.damping;
    } else {
      // the CPU style's touch flag at setup: set iff a history is held (the flag that
      // fix neigh/history/kk leaves after a neighbor list build is not always 0 or 1)
      touch_i(jj) = (h[kuhn::R_ZETA] != 0.0) ? 1 : 0;
    }

    // force on i is o.force, j takes the reaction; torques from the contact vectors and the
    // resistance's couple
    const Vec3 &F = o.force;
    const Vec3 torque_axis = demc::sphere_torque_arm(c, F);
    f_i = f_i + F;
    tor_i = tor_i + c.arm_p * torque_axis + o.torque;
    if (NEWTON_PAIR || j < d.nlocal)
      demc_add_force_torque(a_f, a_torque, j, -F, c.arm_q * torque_axis - o.torque);

    sums.normal += weight * o.Wn;
    sums.tangential += weight * o.Wt;
    sums.contacts += weight;
    if (o.sliding) sums.sliding += weight;
    // energy and virial of this pair's force (not of the force accumulated on i so far)
    if (EVFLAG) demc_tally<NEIGHFLAG, NEWTON_PAIR>(d, sums, i, j, o.Wn + o.Wt, F, x_i - x_j);
  }

  // the first pass's requests: the partner's data and the contact's history
  KOKKOS_INLINE_FUNCTION void prefetch_pair(int i, int jj, int j) const
  {
    demc_prefetch_contact<Scatter>(*this, j, &demc_row(this->history, i)(this->history_size * jj),
                                   this->history_size);
  }
  // before the second pass: nothing more (the first pass asked for the whole history)
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

}    // namespace

/* ---------------------------------------------------------------------- */

template <class DeviceType>
PairGranKuhnKokkos<DeviceType>::PairGranKuhnKokkos(LAMMPS *lmp) :
    PairGranKuhn(lmp), shared(lmp, *this), fix_historyKK(nullptr)
{
  datamask_read |= RMASS_MASK | MASK_MASK;    // restitution damping's effective mass
}

/* ---------------------------------------------------------------------- */

template <class DeviceType> PairGranKuhnKokkos<DeviceType>::~PairGranKuhnKokkos()
{
  if (copymode) return;
  shared.destroy(*this);
}

/* ---------------------------------------------------------------------- */

template <class DeviceType> void PairGranKuhnKokkos<DeviceType>::init_style()
{
  shared.check_settings(running_style_name(), style_name, energy_per_atom);
  set_history_layout();

  // the Kokkos history fix replaces the placeholder made in PairGranKuhn's constructor
  // (keeping its place in the fix list); PairGranKuhn::init_style() then keeps it
  if (fix_history == nullptr) {
    auto cmd = fmt::format("{} all {} {}", history_fix_id(),
                           execution_space == Device ? "DEMC/NEIGH_HISTORY/KK/DEVICE"
                                                     : "DEMC/NEIGH_HISTORY/KK/HOST",
                           history_size);
    fix_history =
        dynamic_cast<FixNeighHistory *>(modify->replace_fix(history_fix_id() + "_DUMMY", cmd, 1));
    if (fix_history == nullptr)
      error->all(FLERR, "Pair gran/kuhn/kk could not create its history fix");
    fix_history->pair = this;
  }
  fix_historyKK = dynamic_cast<FixNeighHistoryKokkos<DeviceType> *>(fix_history);
  if (fix_historyKK == nullptr)
    error->all(
        FLERR,
        "Pair gran/kuhn/kk: history fix {} is not a fix neigh/history/kk of this execution space",
        history_fix_id());

  PairGranKuhn::init_style();

  shared.request_list(*this);

  // coefficients per type pair for the device, filled by init_one()
  shared.size_type_params(k_params, atom->ntypes, "PairGranKuhn::params");
  shared.size_type_params(k_dashpots, atom->ntypes, "PairGranKuhn::dashpots");
  shared.size_type_params(k_resistance, atom->ntypes, "PairGranKuhn::resistance");
}

/* ---------------------------------------------------------------------- */

template <class DeviceType> double PairGranKuhnKokkos<DeviceType>::init_one(int i, int j)
{
  const double cut = PairGranKuhn::init_one(i, j);
  const int ij = i * (atom->ntypes + 1) + j;
  shared.set_type_params(k_params, i, j, type_params(i, j));
  shared.set_type_params(k_dashpots, i, j, damping_table.pair_dashpots[ij]);
  shared.set_type_params(k_resistance, i, j, resistance_params[ij]);
  return cut;
}

/* ---------------------------------------------------------------------- */

template <class DeviceType> void PairGranKuhnKokkos<DeviceType>::compute(int eflag_in, int vflag_in)
{
  // at setup the particles have not moved since the last step: forces are
  // evaluated from the stored history without advancing it (as the CPU style)
  const bool advance = (update->setupflag == 0);

  ev_init(eflag_in, vflag_in, 0);    // newton off: checked by check_settings() at every init
  const int inum =
      shared.load_views(*this, loop_inputs(), kdata, fix_historyKK, eflag_in, vflag_in);

  k_params.template sync<DeviceType>();
  kdata.params = k_params.template view<DeviceType>();
  k_dashpots.template sync<DeviceType>();
  kdata.dashpots = k_dashpots.template view<DeviceType>();
  k_resistance.template sync<DeviceType>();
  kdata.resistance = k_resistance.template view<DeviceType>();
  kdata.layout = record_layout;
  kdata.history_size = history_size;

  PairGranKuhnSums sums;
  shared.dispatch(evflag, advance, [&](auto neigh, auto ev, auto adv) {
    constexpr int N = decltype(neigh)::value, EV = decltype(ev)::value, ADV = decltype(adv)::value;
    // setup steps are rare: only the run's steps get the variant with the flags folded
    if (resistance_on()) {
      this->template launch<N, EV, ADV, 3>(inum, sums);
      return;
    }
    if (restitution_active) {
      this->template launch<N, EV, ADV, 2>(inum, sums);
      return;
    }
    if constexpr (ADV) {
      if (refinements == kuhn::ALL) {
        this->template launch<N, EV, ADV, 1>(inum, sums);
        return;
      }
    }
    this->template launch<N, EV, ADV, 0>(inum, sums);
  });

  // pvector: the same layout and meaning as the CPU style's (this rank's share)
  if (advance) {
    tangential_sum += sums.friction;
    dissipated_damping += sums.damping;
  }
  pvector[E_NORMAL] = sums.normal;
  pvector[E_TANGENTIAL] = sums.tangential;
  pvector[E_FRICTION] = tangential_sum;
  pvector[E_DAMPING] = dissipated_damping;
  pvector[E_CONTACTS] = sums.contacts;
  pvector[E_SLIDING] = sums.sliding;
  shared.store_results(*this, fix_historyKK, sums.evdwl, sums.v);
  setup_done(advance);
}

/* ---------------------------------------------------------------------- */

template <class DeviceType>
template <int NEIGHFLAG, int EVFLAG, int ADVANCE, int ALL_ON>
void PairGranKuhnKokkos<DeviceType>::launch(int inum, PairGranKuhnSums &sums)
{
  KuhnPairLoop<DeviceType, NEIGHFLAG, 0, EVFLAG, ADVANCE, ALL_ON> loop(kdata);
  demc_launch_pair_loop<DeviceType>("PairGranKuhnKokkos::compute", inum, loop, sums,
                                    this->static_schedule);
  loop.contribute(kdata);
}

/* ----------------------------------------------------------------------
   the history of pair (i,j) in i's Kokkos neighbor list, or else in j's (if
   j is owned; then it holds the force on j), read on the host with the
   hand-over sign undone (see KuhnPairLoop); false if absent. ft_sign: -1 if
   it holds the force on j.
------------------------------------------------------------------------- */

template <class DeviceType>
bool PairGranKuhnKokkos<DeviceType>::find_history_host(int i, int j, double *history,
                                                       double &ft_sign)
{
  if (fix_historyKK == nullptr) return false;
  int owner, slot;
  if (!find_single_slot(
          i, j,
          [this](int a, int b) {
            return shared.neighbor_slot_host(list, a, b, neighprev);
          },
          owner, slot))
    return false;
  fix_historyKK->k_firstvalue.sync_host();
  auto h_values = fix_historyKK->k_firstvalue.view_host();
  if (owner >= (int) h_values.extent(0)) return false;
  const int h = history_size * slot;
  const double sign = std::signbit(h_values(owner, h + H_ZETA)) ? -1.0 : 1.0;
  history[H_FTX] = h_values(owner, h + H_FTX);
  history[H_FTY] = h_values(owner, h + H_FTY);
  history[H_FTZ] = h_values(owner, h + H_FTZ);
  history[H_ZETA] = sign * h_values(owner, h + H_ZETA);
  history[H_WFRIC] = sign * h_values(owner, h + H_WFRIC);
  history[H_WDAMP] = sign * h_values(owner, h + H_WDAMP);
  ft_sign = (owner == i) ? 1.0 : -1.0;
  return true;
}

/* ----------------------------------------------------------------------
   per-contact state for compute pair/local, compute fabric and the like, as
   PairGranKuhn::single() (which reads the CPU history arrays; fix
   neigh/history/kk does not fill them)
------------------------------------------------------------------------- */

template <class DeviceType>
double PairGranKuhnKokkos<DeviceType>::single(int i, int j, int itype, int jtype, double rsq,
                                              double, double, double &fforce)
{
  atomKK->sync(Host, X_MASK | RADIUS_MASK);
  begin_single(i, j, rsq, fforce);    // (after the sync: it reads x)
  const double radsum = atom->radius[i] + atom->radius[j];
  double history[H_SIZE];
  double ft_sign = 1.0;
  if (rsq >= radsum * radsum || !find_history_host(i, j, history, ft_sign)) return 0.0;
  return single_from_history(itype, jtype, rsq, radsum, history, ft_sign, fforce);
}

namespace LAMMPS_NS {
template class PairGranKuhnKokkos<LMPDeviceType>;
#ifdef LMP_KOKKOS_GPU
template class PairGranKuhnKokkos<LMPHostType>;
#endif
}    // namespace LAMMPS_NS
