/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: what the package's Kokkos pair styles (gran/kuhn/kk,
   gran/jaeger/kk) share: DemcLoopViews, the part of each style's kernel
   data that is the same, and PairGranDemcKokkosShared, the set-up and
   bookkeeping around each style's functor.
------------------------------------------------------------------------- */

#ifndef DEMC_PAIR_GRAN_DEMC_KOKKOS_H
#define DEMC_PAIR_GRAN_DEMC_KOKKOS_H

#include "atom_kokkos.h"
#include "atom_masks.h"
#include "error.h"
#include "fix_neigh_history_kokkos.h"
#include "force.h"
#include "kernel_common.h"
#include "kokkos.h"
#include "kokkos_type.h"
#include "memory_kokkos.h"
#include "neigh_list_kokkos.h"
#include "neigh_request.h"
#include "neighbor.h"
#include "pair_gran_demc.h"
#include "pair_kokkos.h"

#include <string>
#include <type_traits>
#include <utility>

namespace LAMMPS_NS {

/* Forces and torques as a plain array of rows of three (LayoutRight), added to without
   atomics: an atom's row in f or torque, or in a thread's copy of them. */
struct DemcRowsAccess {
  KK_ACC_FLOAT *p;
  KOKKOS_FORCEINLINE_FUNCTION KK_ACC_FLOAT &operator()(int k, int d) const { return p[3 * k + d]; }
};

/* Per-thread copies of f and torque for host threads on a half list (HALFTHREAD), kept
   between steps by the pair style. LAMMPS's own Kokkos pair styles make a ScatterView with a
   copy per thread in every compute(): all T copies are zeroed and all summed into f, every
   step. Here
   the thread holding token 0 adds into f and torque themselves and the others into their own
   copies; the sum after the loop zeroes each copy as it reads it, which keeps them zero for
   the next step: one pass over T - 1 copies instead of two over T. */
template <class DeviceType> struct DemcThreadCopies {
  using ExecSpace = typename DeviceType::execution_space;
  using Token = Kokkos::Experimental::UniqueToken<ExecSpace>;
  Kokkos::View<KK_ACC_FLOAT *, Kokkos::LayoutRight, DeviceType>
      rows;          // (copy, f|torque, atom, 3)
  int atoms = 0;     // rows per array (atom->nmax when sized)
  int copies = 0;    // threads but the first

  // compute(), before the loop: room for every thread but the first; new room is zero
  void size_for(int nmax)
  {
    const int threads_but_one = Token().size() - 1;
    if (atoms == nmax && copies == threads_but_one) return;
    rows = decltype(rows)("PairGranDemcKokkos::thread_copies", (size_t) threads_but_one * 6 * nmax);
    atoms = nmax;
    copies = threads_but_one;
  }
  KOKKOS_INLINE_FUNCTION KK_ACC_FLOAT *copy_f(int copy) const
  {
    return rows.data() + (size_t) copy * 6 * atoms;
  }
  KOKKOS_INLINE_FUNCTION KK_ACC_FLOAT *copy_torque(int copy) const
  {
    return copy_f(copy) + 3 * (size_t) atoms;
  }
};

/* Views and values every contact loop of the package reads and writes: views and plain
   values only, so that a functor copied to the device holds no pointer into host objects. */
template <class DeviceType> struct DemcLoopViews {
  typedef ArrayTypes<DeviceType> AT;
  typename AT::t_kkfloat_1d_3_lr_randomread x;
  typename AT::t_kkfloat_1d_3_randomread v, omega;
  typename AT::t_kkacc_1d_3 f, torque;
  typename AT::t_int_1d_randomread type;
  typename AT::t_tagint_1d_randomread tag;
  typename AT::t_kkfloat_1d_randomread radius, rmass;    // (rmass: restitution damping)
  typename AT::t_int_1d_randomread mask;                 // (restitution damping: fix freeze)
  typename AT::t_kkacc_1d eatom;
  typename AT::t_kkacc_1d_6 vatom;
  typename AT::t_neighbors_2d neighbors;
  typename AT::t_int_1d_randomread ilist, numneigh;
  typename AT::t_int_2d touch;                   // fix neigh/history/kk: firstflag
  typename AT::t_kkfloat_2d history;             // fix neigh/history/kk: firstvalue
  DemcThreadCopies<DeviceType> thread_copies;    // HALFTHREAD on host threads only
  double dt;
  int nlocal, inum;
  int block_threads = 1, blocks_per_thread = 0;    // demc_launch_pair_loop() on host spaces
  int eflag_global, eflag_atom, vflag_global, vflag_atom;
  int freeze_groupbit = 0;               // restitution damping (DemcDampingTable::freeze_groupbit)
  demc::DashpotLimits dashpot_limits;    // DemcSharedKeywords::dashpot_limits
  // restitution damping: the effective mass of atoms i and j, as
  // PairGranDemc::contact_effective_mass() (needs RMASS_MASK and MASK_MASK in datamask_read)
  KOKKOS_INLINE_FUNCTION double effective_mass(int i, int j) const
  {
    return demc::effective_mass(rmass[i], rmass[j], mask[i] & freeze_groupbit,
                                mask[j] & freeze_groupbit);
  }
};

/* Row i of a 2-D view (atom i's neighbors, touch flags or history values) as a pointer and a
   stride, found once per atom: indexing the 2-D view for every neighbor recomputed
   i * stride each time. Any layout: LayoutRight (hosts) has contiguous rows, known at compile
   time; LayoutLeft (GPUs) strides by the view's first extent. */
template <class T, bool CONTIGUOUS> struct DemcRow {
  T *p;
  size_t stride;
  KOKKOS_FORCEINLINE_FUNCTION T &operator()(int k) const { return p[CONTIGUOUS ? k : k * stride]; }
};

template <class View> KOKKOS_FORCEINLINE_FUNCTION auto demc_row(const View &v, int i)
{
  constexpr bool contiguous = std::is_same_v<typename View::array_layout, Kokkos::LayoutRight>;
  return DemcRow<typename View::value_type, contiguous>{v.data() + i * v.stride(0), v.stride(1)};
}

/* Row k of a per-atom 3-vector view (x, v, omega: LayoutRight rows of three). On host spaces
   read through the data pointer: the View's LayoutRight mapping keeps a run-time row stride
   (a padded layout), a load and a multiplication per access in the loops' hottest code;
   PairGranDemcKokkosShared::check_rows_of_three() checks the stride once per compute().
   Devices index the view (its random-access trait). */
template <class View> KOKKOS_FORCEINLINE_FUNCTION demc::Vec3 demc_vec3(const View &v, int k)
{
  static_assert(std::is_same_v<typename View::array_layout, Kokkos::LayoutRight>, "rows of three");
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                           typename View::memory_space>::accessible) {
    const auto *row = v.data() + 3 * static_cast<size_t>(k);
    return {row[0], row[1], row[2]};
  } else {
    return {v(k, 0), v(k, 1), v(k, 2)};
  }
}

/* What a contact loop's neighbor scan reads of list atom i, found once per atom rather than
   once per neighbor. */
template <class DeviceType> struct DemcScannedAtom {
  int i;
  demc::Vec3 x;
  double radius;
  decltype(demc_row(std::declval<const typename ArrayTypes<DeviceType>::t_neighbors_2d &>(),
                    0)) neighbors;
};
template <class DeviceType>
KOKKOS_INLINE_FUNCTION DemcScannedAtom<DeviceType>
demc_scanned_atom(const DemcLoopViews<DeviceType> &d, int i)
{
  return {i, demc_vec3(d.x, i), d.radius[i], demc_row(d.neighbors, i)};
}

/* Neighbor jj of the scanned atom a: its index j (NEIGHMASK also clears the history bit
   that fix neigh/history/kk leaves in the list), the squared centre distance rsq, and
   whether the two spheres overlap. */
template <class DeviceType>
KOKKOS_INLINE_FUNCTION bool demc_overlaps(const DemcLoopViews<DeviceType> &d,
                                          const DemcScannedAtom<DeviceType> &a, int jj, int &j,
                                          double &rsq)
{
  j = a.neighbors(jj) & NEIGHMASK;
  const demc::Vec3 x_j = demc_vec3(d.x, j);
  const double dx = x_j.x - a.x.x, dy = x_j.y - a.x.y, dz = x_j.z - a.x.z;
  rsq = dx * dx + dy * dy + dz * dz;
  const double radsum = a.radius + d.radius[j];
  return rsq < radsum * radsum;
}

/* A thread's target for one work item: f and torque themselves for token 0, else its copies.
   Holds the token for the work item's lifetime. */
template <class DeviceType> struct DemcThreadTarget {
  const typename DemcThreadCopies<DeviceType>::Token &token;
  int id;
  DemcRowsAccess f, torque;
  KOKKOS_INLINE_FUNCTION DemcThreadTarget(const typename DemcThreadCopies<DeviceType>::Token &t,
                                          const DemcThreadCopies<DeviceType> &c, KK_ACC_FLOAT *f0,
                                          KK_ACC_FLOAT *t0) :
      token(t), id(t.acquire()), f{id == 0 ? f0 : c.copy_f(id - 1)},
      torque{id == 0 ? t0 : c.copy_torque(id - 1)}
  {
  }
  KOKKOS_INLINE_FUNCTION ~DemcThreadTarget() { token.release(id); }
  DemcThreadTarget(const DemcThreadTarget &) = delete;
  DemcThreadTarget &operator=(const DemcThreadTarget &) = delete;
};

// f and torque themselves through ScatterAccess (atomic where several threads may add)
template <class AccessF, class AccessT> struct DemcSharedTarget {
  AccessF f;
  AccessT torque;
};

/* After the loop: each copy added into f and torque and zeroed (owned atoms). */
template <class DeviceType> struct DemcSumThreadCopies {
  DemcThreadCopies<DeviceType> c;
  typename ArrayTypes<DeviceType>::t_kkacc_1d_3 f, torque;
  KOKKOS_INLINE_FUNCTION void operator()(const int k) const
  {
    for (int copy = 0; copy < c.copies; copy++) {
      KK_ACC_FLOAT *cf = c.copy_f(copy) + 3 * k, *ct = c.copy_torque(copy) + 3 * k;
      for (int d = 0; d < 3; d++) {
        f(k, d) += cf[d];
        torque(k, d) += ct[d];
        cf[d] = ct[d] = 0.0;
      }
    }
  }
};

/* Where a contact loop adds forces and torques, a base of each style's functor made from the
   loop's views for one launch: with several host threads on a half list (HALFTHREAD) into
   per-thread copies (DemcThreadCopies), otherwise, as LAMMPS's own Kokkos pair styles, into
   the arrays themselves, atomically where needed (GPUs). target() is what one work item adds
   to, as two accessors f and torque. */
template <class DeviceType, int NEIGHFLAG> struct DemcForceScatter {
  static constexpr bool THREAD_COPIES =
      std::is_same_v<NeedDup_v<NEIGHFLAG, DeviceType>, Kokkos::Experimental::ScatterDuplicated>;
  using Access = AtomicDup_v<NEIGHFLAG, DeviceType>;
  using View3 = KKScatterView<KK_ACC_FLOAT *[3], typename DAT::t_kkacc_1d_3::array_layout,
                              typename KKDevice<DeviceType>::value, KKScatterSum,
                              Kokkos::Experimental::ScatterNonDuplicated>;
  View3 scatter_f, scatter_torque;
  DemcThreadCopies<DeviceType> copies;
  std::conditional_t<THREAD_COPIES, typename DemcThreadCopies<DeviceType>::Token, char> token{};
  KK_ACC_FLOAT *f_rows, *torque_rows;    // f and torque themselves (thread copies: token 0)

  explicit DemcForceScatter(const DemcLoopViews<DeviceType> &d) :
      scatter_f(Kokkos::Experimental::create_scatter_view<
                KKScatterSum, Kokkos::Experimental::ScatterNonDuplicated>(d.f)),
      scatter_torque(Kokkos::Experimental::create_scatter_view<
                     KKScatterSum, Kokkos::Experimental::ScatterNonDuplicated>(d.torque)),
      copies(d.thread_copies), f_rows(d.f.data()), torque_rows(d.torque.data())
  {
    if constexpr (THREAD_COPIES)
      static_assert(std::is_same_v<typename DAT::t_kkacc_1d_3::array_layout, Kokkos::LayoutRight>,
                    "per-thread copies assume rows of three");
  }

  KOKKOS_INLINE_FUNCTION auto target() const
  {
    if constexpr (THREAD_COPIES)
      return DemcThreadTarget<DeviceType>(token, copies, f_rows, torque_rows);
    else
      return DemcSharedTarget<decltype(scatter_f.template access<Access>()),
                              decltype(scatter_torque.template access<Access>())>{
          scatter_f.template access<Access>(), scatter_torque.template access<Access>()};
  }

  void contribute(const DemcLoopViews<DeviceType> &d)
  {
    if constexpr (THREAD_COPIES) {
      if (copies.copies == 0) return;
      // owned atoms only: with newton off (check_settings()) no ghost receives a force
      Kokkos::parallel_for("PairGranDemcKokkos::sum_thread_copies",
                           Kokkos::RangePolicy<DeviceType>(0, d.nlocal),
                           DemcSumThreadCopies<DeviceType>{copies, d.f, d.torque});
    }
  }
};

/* Adds force F and torque T to atom k through the loop's scatter accesses (a - b and
   a + (-b) round alike, so a reaction may be passed negated). */
template <class AccessF, class AccessT>
KOKKOS_FORCEINLINE_FUNCTION void demc_add_force_torque(const AccessF &a_f, const AccessT &a_torque,
                                                       int k, const demc::Vec3 &F,
                                                       const demc::Vec3 &T)
{
  a_f(k, 0) += F.x;
  a_f(k, 1) += F.y;
  a_f(k, 2) += F.z;
  a_torque(k, 0) += T.x;
  a_torque(k, 1) += T.y;
  a_torque(k, 2) += T.z;
}

/* Host execution spaces run a contact loop over blocks of atoms in two passes, as the CPU
   styles do (PairGranKuhn::compute()): the first finds the touching pairs and asks the
   memory system for what each will need, the second runs the contact law on them. In one
   pass the long arithmetic of each contact keeps the processor from issuing the next
   contact's loads early, so each cache miss on a distant partner is waited for in turn.
   Devices keep one pass per atom (many threads in flight hide the latency there). */
struct DemcBlockTag {};
struct DemcPendingContact {
  int i, jj, j;
  double rsq;
};
struct DemcContactBlock {
  static constexpr int ATOMS = 64, SIZE = 32;    // atoms per block, contacts per second pass
  DemcPendingContact pairs[SIZE];
  int n = 0;
  KOKKOS_INLINE_FUNCTION void add(const DemcPendingContact &c) { pairs[n++] = c; }
  KOKKOS_INLINE_FUNCTION bool full() const { return n == SIZE; }
  // the block of work item w of blocks_per_thread * threads (empty beyond the last atom)
  KOKKOS_INLINE_FUNCTION static int interleaved(int w, int blocks_per_thread, int threads)
  {
    return (w % blocks_per_thread) * threads + w / blocks_per_thread;
  }
  KOKKOS_INLINE_FUNCTION static int begin_of(int block) { return block * ATOMS; }
  KOKKOS_INLINE_FUNCTION static int end_of(int block, int inum)
  {
    return (block + 1) * ATOMS < inum ? (block + 1) * ATOMS : inum;
  }
};

KOKKOS_FORCEINLINE_FUNCTION void demc_prefetch(const void *p, bool for_write)
{
  KOKKOS_IF_ON_HOST((if (for_write) __builtin_prefetch(p, 1); else __builtin_prefetch(p);))
  KOKKOS_IF_ON_DEVICE(((void) p; (void) for_write;))
}

/* The partner's velocities, force and torque (the arrays themselves unless each thread adds
   into its own copy) and the first and last value of the contact's history. */
template <class Scatter, class DeviceType>
KOKKOS_INLINE_FUNCTION void demc_prefetch_contact(const DemcLoopViews<DeviceType> &d, int j,
                                                  const void *history, int history_doubles)
{
  demc_prefetch(&d.v(j, 0), false);
  demc_prefetch(&d.omega(j, 0), false);
  if constexpr (!Scatter::THREAD_COPIES) {
    demc_prefetch(&d.f(j, 0), true);
    demc_prefetch(&d.torque(j, 0), true);
  }
  for (int k = 0; k < history_doubles; k += 8)
    demc_prefetch(static_cast<const double *>(history) + k, true);
  demc_prefetch(static_cast<const double *>(history) + history_doubles - 1, true);
}

/* The two drivers of a contact loop, shared by the package's styles. A Loop (the style's
   functor) provides needs_contact(a, jj, j, rsq, sums): whether neighbor jj of the scanned
   atom a needs the contact law (setting j and rsq; it may release a parted pair's history),
   contact(i, jj, j, rsq, sums, f, torque, f_i, tor_i): the law, its reaction added to j
   through f and torque and its force on i to f_i and tor_i, prefetch_pair(i, jj, j):
   what the first pass asks the caches for, and prefetch_pending(block): what the second pass
   asks for before it starts. */

/* atom i of the half list and those of its neighbors that needs(a, jj, j, rsq, sums) selects
   (as Loop::needs_contact()), in one pass */
template <class Loop, class Sums, class Needs>
KOKKOS_INLINE_FUNCTION void demc_atom_contacts(const Loop &loop, int i, Sums &sums,
                                               const Needs &needs)
{
  const auto target = loop.target();
  const auto a = demc_scanned_atom(loop, i);
  demc::Vec3 f_i = {0.0, 0.0, 0.0}, tor_i = {0.0, 0.0, 0.0};
  const int jnum = loop.numneigh[a.i];
  for (int jj = 0; jj < jnum; jj++) {
    int j;
    double rsq;
    if (needs(a, jj, j, rsq, sums))
      loop.contact(a.i, jj, j, rsq, sums, target.f, target.torque, f_i, tor_i);
  }
  demc_add_force_torque(target.f, target.torque, a.i, f_i, tor_i);
}

// devices: work item ii, atom ilist[ii] in one pass
template <class Loop, class Sums>
KOKKOS_INLINE_FUNCTION void demc_atom_in_one_pass(const Loop &loop, int ii, Sums &sums)
{
  demc_atom_contacts(loop, loop.ilist[ii], sums,
                     [&loop](const auto &a, int jj, int &j, double &rsq, Sums &s) {
                       return loop.needs_contact(a, jj, j, rsq, s);
                     });
}

// host spaces: work item `item` of demc_launch_pair_loop(), a block of atoms in two passes
template <class Loop, class Sums>
KOKKOS_INLINE_FUNCTION void demc_block_in_two_passes(const Loop &loop, int item, Sums &sums)
{
  const int block = DemcContactBlock::interleaved(item, loop.blocks_per_thread, loop.block_threads);
  const auto target = loop.target();
  DemcContactBlock pending;
  auto flush = [&]() {
    loop.prefetch_pending(pending);
    for (int k = 0; k < pending.n; k++) {
      const DemcPendingContact &c = pending.pairs[k];
      demc::Vec3 f_i = {0.0, 0.0, 0.0}, tor_i = {0.0, 0.0, 0.0};
      loop.contact(c.i, c.jj, c.j, c.rsq, sums, target.f, target.torque, f_i, tor_i);
      demc_add_force_torque(target.f, target.torque, c.i, f_i, tor_i);
    }
    pending.n = 0;
  };
  const int end = DemcContactBlock::end_of(block, loop.inum);
  for (int ii = DemcContactBlock::begin_of(block); ii < end; ii++) {
    const auto a = demc_scanned_atom(loop, loop.ilist[ii]);
    const int jnum = loop.numneigh[a.i];
    for (int jj = 0; jj < jnum; jj++) {
      int j;
      double rsq;
      if (!loop.needs_contact(a, jj, j, rsq, sums)) continue;
      pending.add(DemcPendingContact{a.i, jj, j, rsq});
      loop.prefetch_pair(a.i, jj, j);
      if (pending.full()) flush();
    }
  }
  flush();
}

/* The launch of a contact loop: blocks in two passes on host spaces, one atom per work item
   on devices. On host spaces the threads share the blocks
   - dynamically (default): each free thread takes the next block. This balances unequal
     blocks (where the list is ordered in space) and threads slowed by other work on their
     core. The sums of forces, formed in per-thread copies, then depend on which thread took
     which block: runs agree to round-off, not bit for bit.
   - statically (schedule static): each thread takes an equal range of work items; work item
     w stands for block DemcContactBlock::interleaved(w), so that thread t runs blocks t,
     t + T, t + 2T, ... of the T threads (contiguous ranges are more unequal). */
template <class DeviceType, class Loop, class Sums>
void demc_launch_pair_loop(const char *name, int inum, const Loop &loop, Sums &sums,
                           bool static_schedule)
{
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                           typename DeviceType::memory_space>::accessible) {
    Loop blocked = loop;
    const int blocks = (inum + DemcContactBlock::ATOMS - 1) / DemcContactBlock::ATOMS;
    // dynamic shares: interleaved() over one "thread", i.e. work item w is block w
    blocked.block_threads = static_schedule ? typename DeviceType::execution_space().concurrency()
                                            : 1;
    blocked.blocks_per_thread = (blocks + blocked.block_threads - 1) / blocked.block_threads;
    const int items = blocked.blocks_per_thread * blocked.block_threads;
    if (static_schedule) {
      Kokkos::parallel_reduce(name, Kokkos::RangePolicy<DeviceType, DemcBlockTag>(0, items),
                              blocked, sums);
    } else {
      Kokkos::RangePolicy<DeviceType, DemcBlockTag, Kokkos::Schedule<Kokkos::Dynamic>> policy(
          0, items);
      Kokkos::parallel_reduce(name, policy.set_chunk_size(1), blocked, sums);
    }
  } else {
    Kokkos::parallel_reduce(name, Kokkos::RangePolicy<DeviceType>(0, inum), loop, sums);
  }
}

/* Pair::ev_tally_xyz() on the loop's views, for the pair force F on i, del = x_i - x_j:
   global sums into `sums` (any struct with evdwl and v[6]), per-atom ones atomically when
   several threads may add to one atom (NEIGHFLAG HALFTHREAD). */
template <int NEIGHFLAG, int NEWTON_PAIR, class DeviceType, class Sums>
KOKKOS_INLINE_FUNCTION void demc_tally(const DemcLoopViews<DeviceType> &d, Sums &sums, int i, int j,
                                       double energy, const demc::Vec3 &F, const demc::Vec3 &del)
{
  Kokkos::View<KK_ACC_FLOAT *, typename DAT::t_kkacc_1d::array_layout,
               typename KKDevice<DeviceType>::value,
               Kokkos::MemoryTraits<AtomicF<NEIGHFLAG>::value>>
      a_eatom = d.eatom;
  Kokkos::View<KK_ACC_FLOAT *[6], typename DAT::t_kkacc_1d_6::array_layout,
               typename KKDevice<DeviceType>::value,
               Kokkos::MemoryTraits<AtomicF<NEIGHFLAG>::value>>
      a_vatom = d.vatom;
  const bool own_i = NEWTON_PAIR || i < d.nlocal;
  const bool own_j = NEWTON_PAIR || j < d.nlocal;
  const double wi = NEWTON_PAIR ? 1.0 : (i < d.nlocal ? 0.5 : 0.0) + (j < d.nlocal ? 0.5 : 0.0);

  if (d.eflag_global) sums.evdwl += wi * energy;
  if (d.eflag_atom) {
    if (own_i) a_eatom(i) += 0.5 * energy;
    if (own_j) a_eatom(j) += 0.5 * energy;
  }
  if (d.vflag_global || d.vflag_atom) {
    const double w[6] = {del.x * F.x, del.y * F.y, del.z * F.z,
                         del.x * F.y, del.x * F.z, del.y * F.z};
    if (d.vflag_global)
      for (int k = 0; k < 6; k++) sums.v[k] += wi * w[k];
    if (d.vflag_atom) {
      if (own_i)
        for (int k = 0; k < 6; k++) a_vatom(i, k) += 0.5 * w[k];
      if (own_j)
        for (int k = 0; k < 6; k++) a_vatom(j, k) += 0.5 * w[k];
    }
  }
}

/* What the package's Kokkos pair styles share, held by each as a member: the settings
   LAMMPS's fix neigh/history/kk supports, the neighbor request, the per-atom energy and
   virial views, and filling DemcLoopViews at the start of compute() and handing the
   results back at its end. It reaches LAMMPS through its own pointer and is given the pair
   style's public Pair members, and what it needs of the protected ones
   (PairGranDemc::LoopInputs); not a base class, so that the styles keep their CPU style as
   their base. */
template <class DeviceType> struct PairGranDemcKokkosShared {
  LAMMPS *lmp;
  int neighflag = HALF;
  DAT::ttransform_kkacc_1d k_eatom;
  DAT::ttransform_kkacc_1d_6 k_vatom;
  // single(): host copies of the Kokkos neighbor list, refreshed after each list build
  typename ArrayTypes<DeviceType>::t_neighbors_2d::host_mirror_type h_neighbors;
  typename ArrayTypes<DeviceType>::t_int_1d::host_mirror_type h_numneigh;
  bigint h_list_built = -1;

  // the style's constructor: the Kokkos settings of Pair p
  PairGranDemcKokkosShared(LAMMPS *lmp, Pair &p) : lmp(lmp)
  {
    p.kokkosable = 1;
    lmp->atomKK = (AtomKokkos *) lmp->atom;
    p.execution_space = ExecutionSpaceFromDevice<DeviceType>::space;
    p.datamask_read = X_MASK | V_MASK | OMEGA_MASK | F_MASK | TORQUE_MASK | TYPE_MASK | TAG_MASK |
        ENERGY_MASK | VIRIAL_MASK | RADIUS_MASK;
    p.datamask_modify = F_MASK | TORQUE_MASK | ENERGY_MASK | VIRIAL_MASK;
  }

  void destroy(Pair &p)    // destructor
  {
    lmp->memoryKK->destroy_kokkos(k_eatom, p.eatom);
    lmp->memoryKK->destroy_kokkos(k_vatom, p.vatom);
    p.eatom = nullptr;
    p.vatom = nullptr;
  }

  /* init_style(): what LAMMPS's fix neigh/history/kk supports, and so what these styles
     support: it hands histories over between atoms only with newton off (with newton on its
     pre_exchange() stops with an error at the first re-neighboring or at the end of the
     run), and the pair loop needs a half list. me: the style's name with /kk, style: without;
     energy_per_atom: keyword energy/atom */
  void check_settings(const std::string &me, const std::string &style, bool energy_per_atom)
  {
    neighflag = lmp->kokkos->neighflag;
    if (neighflag != HALF && neighflag != HALFTHREAD)
      lmp->error->all(FLERR,
                      "Pair style {} requires a half neighbor list: use '-pk kokkos neigh half' "
                      "(or 'package kokkos neigh half')",
                      me);
    if (lmp->force->newton_pair)
      lmp->error->all(
          FLERR,
          "Pair style {} requires newton off: LAMMPS's fix neigh/history/kk cannot "
          "exchange contact histories with newton on (use 'newton off' in the input, after "
          "any package command, or '-pk kokkos newton off')",
          me);
    if (energy_per_atom)
      lmp->error->all(FLERR,
                      "Pair style {} does not keep per-atom energies: drop 'energy/atom yes' "
                      "or use {} without the kk suffix",
                      me, style);
  }

  // init_style(), after the CPU style's: a Kokkos neighbor list in this memory space
  void request_list(Pair &p)
  {
    auto request = lmp->neighbor->find_request(&p);
    request->set_kokkos_host(std::is_same_v<DeviceType, LMPHostType> &&
                             !std::is_same_v<DeviceType, LMPDeviceType>);
    request->set_kokkos_device(std::is_same_v<DeviceType, LMPDeviceType>);
    h_list_built = -1;
  }

  // init_style(): the per-type-pair coefficients the pair loop reads, (ntypes + 1)^2
  template <class T>
  void size_type_params(Kokkos::DualView<T **, Kokkos::LayoutRight, DeviceType> &k_params,
                        int ntypes, const char *name)
  {
    if ((int) k_params.extent(0) != ntypes + 1)
      k_params =
          Kokkos::DualView<T **, Kokkos::LayoutRight, DeviceType>(name, ntypes + 1, ntypes + 1);
  }

  // init_one(): the coefficients of type pairs (i,j) and (j,i)
  template <class T>
  void set_type_params(Kokkos::DualView<T **, Kokkos::LayoutRight, DeviceType> &k_params, int i,
                       int j, const T &c)
  {
    k_params.view_host()(i, j) = c;
    k_params.view_host()(j, i) = c;
    k_params.modify_host();
  }

  /* compute(): run launch(neighflag, evflag, advance) for the current settings, the three as
     std::integral_constant<int, ...> so that it can instantiate its pair loop for them */
  template <class Launch> void dispatch(bool evflag, bool advance, Launch &&launch)
  {
    using Zero = std::integral_constant<int, 0>;
    using One = std::integral_constant<int, 1>;
    auto by_flags = [&](auto neigh) {
      if (evflag) {
        if (advance)
          launch(neigh, One{}, One{});
        else
          launch(neigh, One{}, Zero{});
      } else {
        if (advance)
          launch(neigh, Zero{}, One{});
        else
          launch(neigh, Zero{}, Zero{});
      }
    };
    if (neighflag == HALF)
      by_flags(std::integral_constant<int, HALF>{});
    else
      by_flags(std::integral_constant<int, HALFTHREAD>{});
  }

  /* single(): the slot of pair (i,j) in i's Kokkos neighbor list (of the style: list), read
     on the host; -1 if absent. prev: where the last search ended (demc_find_neighbor_slot()) */
  int neighbor_slot_host(NeighList *list, int i, int j, int &prev)
  {
    if (list == nullptr) return -1;
    if (h_list_built != lmp->neighbor->ncalls) {    // no copy when the list is in host memory
      auto *k_list = static_cast<NeighListKokkos<DeviceType> *>(list);
      h_neighbors = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k_list->d_neighbors);
      h_numneigh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k_list->d_numneigh);
      h_list_built = lmp->neighbor->ncalls;
    }
    if (i < 0 || i >= (int) h_numneigh.extent(0)) return -1;
    return demc_find_neighbor_slot(h_numneigh(i), j, prev, [&](int k) {
      return h_neighbors(i, k) & NEIGHMASK;
    });
  }

  // a history fix with values per neighbor slot (fix neigh/history/kk), or touch flags only
  template <class History> static constexpr bool keeps_values()
  {
    return std::is_base_of_v<FixNeighHistoryKokkos<DeviceType>, History>;
  }

  // demc_vec3() reads x, v and omega as rows of three from their data pointers
  void check_rows_of_three(const DemcLoopViews<DeviceType> &d)
  {
    for (size_t stride : {d.x.stride(0), d.v.stride(0), d.omega.stride(0)})
      if (stride != 3)
        lmp->error->all(FLERR, "Pair {}: per-atom vectors with a row stride of {}, not 3",
                        lmp->force->pair_style, stride);
  }

  /* compute(), first, after the style's ev_init(eflag_in, vflag_in, 0) (newton off: checked
     by check_settings() at every init): atom data on this memory space, and the loop's views
     of atoms, neighbor list and the history fix's arrays, and the style's inputs (in: after
     ev_init()). Returns inum. */
  template <class History>
  int load_views(Pair &p, const PairGranDemc::LoopInputs &in, DemcLoopViews<DeviceType> &d,
                 History *history, int eflag_in, int vflag_in)
  {
    // per-atom energy and virial live in Kokkos views (zeroed when created)
    if (p.eflag_atom) {
      lmp->memoryKK->destroy_kokkos(k_eatom, p.eatom);
      lmp->memoryKK->create_kokkos(k_eatom, p.eatom, in.maxeatom, "pair:eatom");
      d.eatom = k_eatom.template view<DeviceType>();
    }
    if (p.vflag_atom) {
      lmp->memoryKK->destroy_kokkos(k_vatom, p.vatom);
      lmp->memoryKK->create_kokkos(k_vatom, p.vatom, in.maxvatom, "pair:vatom");
      d.vatom = k_vatom.template view<DeviceType>();
    }

    AtomKokkos *atomKK = lmp->atomKK;
    atomKK->sync(p.execution_space, p.datamask_read);
    atomKK->modified(p.execution_space,
                     (eflag_in || vflag_in) ? p.datamask_modify : F_MASK | TORQUE_MASK);
    d.x = atomKK->k_x.template view<DeviceType>();
    d.v = atomKK->k_v.template view<DeviceType>();
    d.omega = atomKK->k_omega.template view<DeviceType>();
    check_rows_of_three(d);
    d.f = atomKK->k_f.template view<DeviceType>();
    d.torque = atomKK->k_torque.template view<DeviceType>();
    d.type = atomKK->k_type.template view<DeviceType>();
    d.tag = atomKK->k_tag.template view<DeviceType>();
    d.radius = atomKK->k_radius.template view<DeviceType>();
    // (synced only by the styles that read them: add RMASS_MASK, MASK_MASK to datamask_read)
    d.rmass = atomKK->k_rmass.template view<DeviceType>();
    d.mask = atomKK->k_mask.template view<DeviceType>();
    d.freeze_groupbit = in.freeze_groupbit;
    d.dashpot_limits = in.dashpot_limits;
    d.nlocal = lmp->atom->nlocal;
    if constexpr (DemcForceScatter<DeviceType, HALFTHREAD>::THREAD_COPIES)
      if (neighflag == HALFTHREAD) d.thread_copies.size_for(lmp->atom->nmax);
    d.inum = p.list->inum;

    auto *k_list = static_cast<NeighListKokkos<DeviceType> *>(p.list);
    d.numneigh = k_list->d_numneigh;
    d.neighbors = k_list->d_neighbors;
    d.ilist = k_list->d_ilist;

    history->k_firstflag.template sync<DeviceType>();
    d.touch = history->k_firstflag.template view<DeviceType>();
    if constexpr (keeps_values<History>()) {
      history->k_firstvalue.template sync<DeviceType>();
      d.history = history->k_firstvalue.template view<DeviceType>();
    }

    d.dt = in.dt;
    d.eflag_global = p.eflag_global;
    d.eflag_atom = p.eflag_atom;
    d.vflag_global = p.vflag_global;
    d.vflag_atom = p.vflag_atom;
    return p.list->inum;
  }

  /* compute(), last: the history arrays were written in this memory space; the global
     energy and virial sums go to LAMMPS, the per-atom ones to the host */
  template <class History>
  void store_results(Pair &p, History *history, double evdwl, const double *v)
  {
    history->k_firstflag.template modify<DeviceType>();
    if constexpr (keeps_values<History>()) history->k_firstvalue.template modify<DeviceType>();
    if (p.eflag_global) p.eng_vdwl += evdwl;
    if (p.vflag_global)
      for (int k = 0; k < 6; k++) p.virial[k] += v[k];
    if (p.eflag_atom) {
      k_eatom.template modify<DeviceType>();
      k_eatom.sync_host();
    }
    if (p.vflag_atom) {
      k_vatom.template modify<DeviceType>();
      k_vatom.sync_host();
    }
  }
};

}    // namespace LAMMPS_NS

#endif
