/* ----------------------------------------------------------------------
   dem-contact: the contact histories of pair_style gran/jaeger/kk (see the
   header).
------------------------------------------------------------------------- */

#include "fix_jaeger_history_kokkos.h"

#include "jaeger_step.h"
#include "pair_gran_jaeger.h"

#include "atom_kokkos.h"
#include "atom_masks.h"
#include "comm.h"
#include "error.h"
#include "lmptype.h"
#include "neigh_list_kokkos.h"
#include "pair.h"
#include "update.h"

#include <algorithm>
#include <climits>
#include <cmath>

using namespace LAMMPS_NS;

namespace {
constexpr int POINT = 4;    // doubles per history point

// the Kokkos neighbor list in host memory (the list itself in host execution spaces)
template <class DeviceType> struct HostList {
  int inum;
  typename Kokkos::View<int *, DeviceType>::host_mirror_type ilist, numneigh;
  typename ArrayTypes<DeviceType>::t_neighbors_2d::host_mirror_type neighbors;
  explicit HostList(NeighListKokkos<DeviceType> *list) :
      inum(list->inum),
      ilist(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), list->d_ilist)),
      numneigh(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), list->d_numneigh)),
      neighbors(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), list->d_neighbors))
  {
  }
};

}    // namespace

template <class DeviceType>
FixJaegerHistoryKokkos<DeviceType>::FixJaegerHistoryKokkos(LAMMPS *lmp, int narg, char **arg) :
    FixJaegerHistory(lmp, narg, arg, 1), forced_merges(0.0),
    run_forced_merges(0.0), run_forced_contacts(0.0), run_contacts(0.0), kk_stats_step(-1),
    stamp(1.0)
{
  max_points = utils::inumeric(FLERR, arg[3], false, lmp);
  if (max_points < 1 || max_points > (INT_MAX - R_POINTS) / POINT)
    error->all(FLERR, "Fix {}: a history capacity of {} points is out of range", style, max_points);
  // the fix works on the host (stores, exchange, restart); it reads the atoms' IDs there
  atomKK = (AtomKokkos *) atom;
  kokkosable = 1;
  execution_space = Host;
  datamask_read = TAG_MASK;
  datamask_modify = EMPTY_MASK;
  pool_used = Kokkos::View<int, DeviceType>("jaeger_history:pool_used");
  big_used = Kokkos::View<int, DeviceType>("jaeger_history:big_used");
  freed_counts = Kokkos::View<int[4], DeviceType>("jaeger_history:freed_counts");
  size_vector = K_SIZE;
  for (double &s : kk_stats) s = 0.0;
}

/* ----------------------------------------------------------------------
   the touch flags: rows for the atom slots, columns for the list's slots
------------------------------------------------------------------------- */

template <class DeviceType> void FixJaegerHistoryKokkos<DeviceType>::size_flags(int rows, int slots)
{
  if ((int) k_firstflag.extent(0) < rows || (int) k_firstflag.extent(1) < slots)
    k_firstflag =
        DAT::tdual_int_2d("jaeger_history:firstflag", std::max(rows, 1), std::max(slots, 1));
}

/* ----------------------------------------------------------------------
   new neighbor list: each slot whose partner has a record in the atom's store
   takes a record of new, compact pools (a small one while its history can
   grow by a point in it); the others a flag of 0. Histories of pairs that
   parted exactly at a reneighboring are restored too, as the CPU fix does.
------------------------------------------------------------------------- */

template <class DeviceType> void FixJaegerHistoryKokkos<DeviceType>::post_neighbor()
{
  auto *k_list = static_cast<NeighListKokkos<DeviceType> *>(pair->list);
  atomKK->sync(Host, TAG_MASK);
  const tagint *tag = atom->tag;
  const HostList<DeviceType> list(k_list);
  const int inum = list.inum;
  const auto &ilist = list.ilist;
  const auto &numneigh = list.numneigh;
  const auto &neighbors = list.neighbors;
  size_flags(atom->nmax, k_list->maxneighs);
  k_firstflag.sync_host();
  const auto flag = k_firstflag.view_host();
  const int small_points = small_capacity();

  // first pass: the record of each slot (its store entry), and how many of each size
  std::vector<const double *> saved;
  long n_small = 0, n_big = 0;
  for (int ii = 0; ii < inum; ii++) {
    const int i = ilist(ii);
    for (int jj = 0; jj < numneigh(i); jj++) {
      const double *rec = find(i, (double) tag[neighbors(i, jj) & NEIGHMASK]);
      saved.push_back(rec);
      if (!rec) continue;
      if (has_big() && (int) rec[R_LENGTH] >= small_points)
        n_big++;
      else
        n_small++;
    }
  }
  if (n_small + n_small / 8 + SPARE_SMALL > BIG_FLAG - 1 ||
      n_big + n_big / 8 + SPARE_BIG > INT_MAX - BIG_FLAG)
    error->one(FLERR, "Pair gran/jaeger/kk: {} contact records exceed the pools' index range",
               n_small + n_big);

  // new compact pools with room for some new contacts (grow_pools() when a step needs more):
  // the stores refer to the records of the old ones
  auto make_pool = [this](Pool &p, long found, int points, long spare, const char *name) {
    p = Pool(name, found + found / 8 + spare, values_per_contact(points));
  };
  make_pool(pool, n_small, small_points, SPARE_SMALL, "jaeger_history:pool");
  // (no big records until a history outgrows a small one: then grow_pools())
  make_pool(big, has_big() ? n_big : 0, has_big() ? max_points : 1, n_big > 0 ? SPARE_BIG : 0,
            "jaeger_history:big");
  const auto h_pool = Kokkos::create_mirror_view(Kokkos::HostSpace(), pool);
  const auto h_big = Kokkos::create_mirror_view(Kokkos::HostSpace(), big);

  size_t m = 0;
  int used_small = 0, used_big = 0;
  for (int ii = 0; ii < inum; ii++) {
    const int i = ilist(ii);
    for (int jj = 0; jj < numneigh(i); jj++) {
      const double *rec = saved[m++];
      if (!rec) {
        flag(i, jj) = 0;
        continue;
      }
      const int size = record_size(rec);
      double *to;
      if (has_big() && (int) rec[R_LENGTH] >= small_points) {
        to = &h_big(used_big, 0);
        flag(i, jj) = flag_of(true, used_big++);
      } else {
        to = &h_pool(used_small, 0);
        flag(i, jj) = flag_of(false, used_small++);
      }
      std::copy(rec, rec + size, to);
    }
  }
  Kokkos::deep_copy(pool, h_pool);
  Kokkos::deep_copy(big, h_big);
  Kokkos::deep_copy(pool_used, used_small);
  Kokkos::deep_copy(big_used, used_big);
  k_firstflag.modify_host();
  for (FreeRing &ring : freed) ring.head = ring.tail = 0;    // every record holds a contact
  size_free_rings();
  referred_small = referred_big = typename Pool::host_mirror_type();
  release_stores();
}

/* ----------------------------------------------------------------------
   the rings of freed records with room for every row of their pools (each
   row is in its ring at most once: put when freed, taken before it can be
   freed again), the rows they hold kept
------------------------------------------------------------------------- */

template <class DeviceType> void FixJaegerHistoryKokkos<DeviceType>::size_free_rings()
{
  const Pool *pools[2] = {&pool, &big};
  for (int p = 0; p < 2; p++) {
    FreeRing &ring = freed[p];
    const long rows = (long) pools[p]->extent(0);
    if ((long) ring.rows.extent(0) == rows) continue;
    Kokkos::View<int *, DeviceType> grown(
        p == SMALL_POOL ? "jaeger_history:freed_small" : "jaeger_history:freed_big", rows);
    const long held = ring.tail - ring.head;
    if (held > 0) {
      const auto h_old = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ring.rows);
      const auto h_new = Kokkos::create_mirror_view(Kokkos::HostSpace(), grown);
      const long old_rows = (long) h_old.extent(0);
      for (long k = 0; k < held; k++) h_new(k) = h_old((ring.head + k) % old_rows);
      Kokkos::deep_copy(grown, h_new);
    }
    ring.rows = grown;
    ring.head = 0;
    ring.tail = held;
  }
}

template <class DeviceType>
void FixJaegerHistoryKokkos<DeviceType>::freed_rings_advanced(const double taken[2],
                                                              const double put[2])
{
  for (int p = 0; p < 2; p++) {
    freed[p].head += static_cast<long>(taken[p]);
    freed[p].tail += static_cast<long>(put[p]);
  }
}

/* ----------------------------------------------------------------------
   every record of the current neighbor list to the stores of both atoms
   (newton off: gran/jaeger/kk refuses newton on)
------------------------------------------------------------------------- */

template <class DeviceType> void FixJaegerHistoryKokkos<DeviceType>::pre_exchange()
{
  const int nall = atom->nlocal + atom->nghost;
  for (int i = 0; i < nall && i < (int) peratom.size(); i++) peratom[i].clear();
  auto *k_list = pair ? static_cast<NeighListKokkos<DeviceType> *>(pair->list) : nullptr;
  if (k_list && k_list->inum > 0 && k_firstflag.extent(0) > 0) {
    atomKK->sync(Host, TAG_MASK);
    const tagint *tag = atom->tag;
    const int nlocal = atom->nlocal;
    const HostList<DeviceType> list(k_list);
    const auto &ilist = list.ilist;
    const auto &numneigh = list.numneigh;
    const auto &neighbors = list.neighbors;
    k_firstflag.sync_host();
    const auto flag = k_firstflag.view_host();
    // the pools in host memory (on host spaces the pools themselves), which the stores refer to
    // until post_neighbor() has read them
    referred_small = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), pool);
    referred_big = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), big);
    for (int ii = 0; ii < list.inum; ii++) {
      const int i = ilist(ii);
      for (int jj = 0; jj < numneigh(i); jj++) {
        const int f = flag(i, jj);
        if (f <= 0) continue;
        const long handle = 2L * row_of(f) + (names_big(f) ? 1 : 0);
        const double *rec = referred_record(handle);
        if (!holds_contact(rec)) continue;
        const int j = neighbors(i, jj) & NEIGHMASK;
        const int size = record_size(rec);
        refer(i, (double) tag[j], handle, size);
        if (j < nlocal) refer(j, (double) tag[i], handle, size);
      }
    }
  }
  set_maxexchange();
}

// a store's reference: row h / 2 of the big pool (h odd) or of the small one, as pre_exchange()
// copied them
template <class DeviceType>
const double *FixJaegerHistoryKokkos<DeviceType>::referred_record(long h) const
{
  return h % 2 ? &referred_big(h / 2, 0) : &referred_small(h / 2, 0);
}

/* ----------------------------------------------------------------------
   the pools after a pair loop in which contacts found them full: every
   record below a pool's size was taken (its counter went beyond it), so the
   records taken are its size; it grows keeping them, with room for the
   waiting contacts and 1/8 more
------------------------------------------------------------------------- */

template <class DeviceType>
void FixJaegerHistoryKokkos<DeviceType>::grow_pools(long waiting_small, long waiting_big)
{
  auto grow = [this](Pool &p, Kokkos::View<int, DeviceType> &used, long waiting, long spare,
                     long limit) {
    if (waiting <= 0) return;
    const long taken = (long) p.extent(0);
    const long wanted = taken + waiting;
    if (wanted + wanted / 8 + spare > limit)
      error->one(FLERR, "Pair gran/jaeger/kk: {} contact records exceed the pools' index range",
                 wanted);
    Kokkos::resize(p, wanted + wanted / 8 + spare, p.extent(1));
    Kokkos::deep_copy(used, (int) taken);
  };
  grow(pool, pool_used, waiting_small, SPARE_SMALL, BIG_FLAG - 1);
  grow(big, big_used, waiting_big, SPARE_BIG, INT_MAX - BIG_FLAG);
  size_free_rings();
}

/* ----------------------------------------------------------------------
   this rank's records: sums[0] = count, sums[1] = total stack length;
   longest = the longest stack
------------------------------------------------------------------------- */

template <class DeviceType>
void FixJaegerHistoryKokkos<DeviceType>::local_stats(double *sums, double &longest)
{
  sums[0] = sums[1] = 0.0;
  longest = 0.0;
  if (pair == nullptr || pair->list == nullptr || pair->list->inum == 0) return;
  if (k_firstflag.extent(0) == 0) return;
  auto *k_list = static_cast<NeighListKokkos<DeviceType> *>(pair->list);
  k_firstflag.template sync<DeviceType>();
  const auto flag = k_firstflag.template view<DeviceType>();
  const auto small_records = pool;
  const auto big_records = big;
  const auto ilist = k_list->d_ilist;
  const auto numneigh = k_list->d_numneigh;
  double count = 0.0, total = 0.0, most = 0.0;
  Kokkos::parallel_reduce(
      "FixJaegerHistoryKokkos::stats", Kokkos::RangePolicy<DeviceType>(0, k_list->inum),
      KOKKOS_LAMBDA(const int ii, double &c, double &t, double &m) {
        const int i = ilist(ii);
        for (int jj = 0; jj < numneigh(i); jj++) {
          const int f = flag(i, jj);
          if (f <= 0) continue;
          const double *rec = names_big(f) ? &big_records(row_of(f), 0)
                                           : &small_records(row_of(f), 0);
          if (!holds_contact(rec)) continue;
          const double n = Kokkos::fabs(rec[R_LENGTH]);
          c += 1.0;
          t += n;
          if (n > m) m = n;
        }
      },
      count, total, Kokkos::Max<double>(most));
  sums[0] = count;
  sums[1] = total;
  longest = most > 0.0 ? most : 0.0;    // (the maximum over no record is -inf)
}

/* ----------------------------------------------------------------------
   the global vector (intensive), as the CPU fix's f_ID[1..5] plus one:
   1 records, 2 mean stack length, 3 longest stack, 4 bytes of the record
   pools per record (spare and freed records and the rings of freed rows
   included, as the CPU fix counts its arena; the touch flags add an int per
   neighbor-list slot, as the CPU fix's handles a long), 5 all merges made by
   the kernel, 6 merges forced by a full stack (capacity = history/max). 5
   and 6 are cumulative since the fix was created, summed over ranks.
------------------------------------------------------------------------- */

template <class DeviceType> double FixJaegerHistoryKokkos<DeviceType>::compute_vector(int n)
{
  if (kk_stats_step != update->ntimestep) {
    kk_stats_step = update->ntimestep;
    double local[3], longest = 0.0;
    local_stats(local, longest);
    local[2] = (double) (pool.span() + big.span()) * sizeof(double) +
        (double) (freed[SMALL_POOL].rows.span() + freed[BIG_POOL].rows.span()) * sizeof(int);
    const double counts[2] = {merges, forced_merges};
    static_assert((int) K_MERGES == (int) S_MERGES && K_FORCED_MERGES == K_MERGES + 1 &&
                      K_SIZE == K_MERGES + 2,
                  "the counts follow the record statistics, as in the CPU fix's vector");
    reduce_stats(local, longest, counts, 2, kk_stats);
  }
  return kk_stats[n];
}

// the pools and touch flags (device) and the per-atom stores (host)
template <class DeviceType> double FixJaegerHistoryKokkos<DeviceType>::memory_usage()
{
  double bytes = (double) (pool.span() + big.span()) * sizeof(double);
  bytes += (double) (freed[SMALL_POOL].rows.span() + freed[BIG_POOL].rows.span()) * sizeof(int);
  bytes += (double) k_firstflag.template view<DeviceType>().span() * sizeof(int);
  for (const auto &store : peratom) bytes += (double) store.capacity() * sizeof(double);
  return bytes;
}

/* ---------------------------------------------------------------------- */

template <class DeviceType> void FixJaegerHistoryKokkos<DeviceType>::begin_run()
{
  run_forced_merges = run_forced_contacts = run_contacts = 0.0;
  stamp = (double) update->ntimestep + 1.0;
}

/* ----------------------------------------------------------------------
   a run whose histories reached their capacity merged points that pair_style
   gran/jaeger (without history/max) keeps: the model was not the CPU
   style's. Said at the end of the run, with how much it merged.
------------------------------------------------------------------------- */

template <class DeviceType> void FixJaegerHistoryKokkos<DeviceType>::post_run()
{
  FixJaegerHistory::post_run();
  double local[3] = {run_forced_merges, run_forced_contacts, run_contacts}, global[3];
  MPI_Allreduce(local, global, 3, MPI_DOUBLE, MPI_SUM, world);
  if (comm->me != 0 || !(global[0] > 0.0)) return;
  const double share = global[2] > 0.0 ? 100.0 * global[1] / global[2] : 0.0;
  error->warning(
      FLERR,
      "Pair gran/jaeger/kk: {:.0f} history points merged in this run because histories reached "
      "their capacity (history/max {}), in {:.0f} of {:.0f} contacts ({:.3g}%); pair_style "
      "gran/jaeger keeps them: raise history/max for its model",
      global[0], capacity(), global[1], global[2], share);
}

/* ----------------------------------------------------------------------
   restart records: the CPU fix's; a history longer than history/max is
   shortened to it (fit_lengths())
------------------------------------------------------------------------- */

template <class DeviceType>
void FixJaegerHistoryKokkos<DeviceType>::restore_store(int i, std::vector<double> &store)
{
  check_store(store);
  fit_lengths(store);
  peratom[i] = std::move(store);
}

/* every history of a store within history/max (a record has room for that many points): a
   longer one (a smaller history/max after read_restart) is shortened by the contact step's rule
   (demc::jaeger::trim_record(): the kernel's merges, which keep the force), as the CPU style and
   the walls shorten theirs before the next step; where the material of its type pair is not
   known yet, the run stops with an error that names the length needed */
template <class DeviceType>
void FixJaegerHistoryKokkos<DeviceType>::fit_lengths(std::vector<double> &store)
{
  for (size_t m = 0; m < store.size(); m += 2 + (size_t) store[m + 1]) {
    double *rec = &store[m + 2];
    const int length = (int) rec[R_LENGTH];
    if (length <= max_points) continue;
    demc::jaeger::Material mat;
    auto *jaeger_pair = dynamic_cast<PairGranJaeger *>(pair);
    if (jaeger_pair == nullptr || !jaeger_pair->record_material(rec, mat))
      error->one(FLERR,
                 "Pair gran/jaeger/kk: the restart file holds a contact history of {} points, "
                 "more than history/max {}: set 'history/max {}' or more in the pair_style command",
                 length, max_points, length);
    merges += header == R_HEADER
        ? demc::jaeger::trim_record<demc::jaeger::PairRecord>(mat, rec, length, max_points)
        : demc::jaeger::trim_record<demc::jaeger::PairResistRecord>(mat, rec, length, max_points);
    const size_t keep = header + 4 * (size_t) max_points;
    store.erase(store.begin() + m + 2 + keep, store.begin() + m + 2 + (size_t) store[m + 1]);
    store[m + 1] = (double) keep;
  }
}

namespace LAMMPS_NS {
template class FixJaegerHistoryKokkos<LMPDeviceType>;
#ifdef LMP_KOKKOS_GPU
template class FixJaegerHistoryKokkos<LMPHostType>;
#endif
}    // namespace LAMMPS_NS
