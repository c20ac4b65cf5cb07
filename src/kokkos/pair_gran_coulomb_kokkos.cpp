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

#include <type_traits>

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
    d.rows(d.first_row(i) + jj) = CoulombContactRow{j, r.row};

    const Vec3 axis = demc::sphere_torque_arm(g.c, r.force);
    f_i = f_i + r.force;
    tor_i = tor_i + g.c.arm_p * axis + r.torque;
    if (j < d.nlocal)
      demc_add_force_torque(a_f, a_torque, j, -r.force, g.c.arm_q * axis - r.torque);

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
  hand_contacts_to_friction(inum);
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
      friction->add_contact(i, c.j, c.row, c.j < nlocal ? 1.0 : 0.5,
                            &values(i, history_size * jj));
    }
  }
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
