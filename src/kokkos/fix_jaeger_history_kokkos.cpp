/* ----------------------------------------------------------------------
   dem-contact: the contact histories of pair_style gran/jaeger/kk (see the
   header).
------------------------------------------------------------------------- */

#include "fix_jaeger_history_kokkos.h"

#include "atom_kokkos.h"
#include "atom_masks.h"
#include "comm.h"
#include "error.h"
#include "neigh_list_kokkos.h"
#include "pair.h"
#include "update.h"

#include <algorithm>
#include <climits>
#include <cmath>

using namespace LAMMPS_NS;

template <class DeviceType>
FixJaegerHistoryKokkos<DeviceType>::FixJaegerHistoryKokkos(LAMMPS *lmp, int narg, char **arg) :
    FixNeighHistoryDemcKokkos<DeviceType>(lmp, narg, arg), merges(0.0), forced_merges(0.0),
    handed_over(0.0), run_forced_merges(0.0), run_forced_contacts(0.0), run_contacts(0.0),
    stats_step(-1), stamp(1.0)
{
  pool_used = Kokkos::View<int, DeviceType>("jaeger_history:pool_used");
  this->reading_version = JAEGER_RECORD_VERSION;
  if (this->dnum < R_POINTS + 4 || (this->dnum - R_POINTS) % 4 != 0)
    this->error->all(FLERR,
                     "Fix DEMC/JAEGER_HISTORY/KK: {} values per contact is not a Jaeger record",
                     this->dnum);
  this->vector_flag = 1;
  this->size_vector = S_SIZE;
  this->extvector = 0;
  for (double &s : stats) s = 0.0;
}

/* ----------------------------------------------------------------------
   this rank's records: sums[0] = count, sums[1] = total stack length;
   longest = the longest stack. A slot holds a record iff its quaternion is
   not zero (a frame quaternion is a unit quaternion, negated or not); the
   length may carry the hand-over's sign.
------------------------------------------------------------------------- */

template <class DeviceType>
void FixJaegerHistoryKokkos<DeviceType>::local_stats(double *sums, double &longest)
{
  sums[0] = sums[1] = 0.0;
  longest = 0.0;
  if (this->pair == nullptr || this->pair->list == nullptr || this->pair->list->inum == 0) return;
  auto *k_list = static_cast<NeighListKokkos<DeviceType> *>(this->pair->list);
  this->k_firstflag.template sync<DeviceType>();
  const auto flag = this->k_firstflag.template view<DeviceType>();
  if ((int) flag.extent(0) == 0) return;
  const auto records = pool;
  const auto ilist = k_list->d_ilist;
  const auto numneigh = k_list->d_numneigh;
  double count = 0.0, total = 0.0, most = 0.0;
  const int inum = this->pair->list->inum;
  // a record holds a contact iff its quaternion is not zero; its length may carry the
  // hand-over's sign
  Kokkos::parallel_reduce(
      "FixJaegerHistoryKokkos::count", Kokkos::RangePolicy<DeviceType>(0, inum),
      KOKKOS_LAMBDA(const int ii, double &c, double &t) {
        const int i = ilist(ii);
        for (int jj = 0; jj < numneigh(i); jj++) {
          const int f = flag(i, jj);
          if (f <= 0) continue;
          const double *rec = &records(f - 1, 0);
          if (rec[R_QW] != 0.0 || rec[R_QX] != 0.0 || rec[R_QY] != 0.0 || rec[R_QZ] != 0.0) {
            c += 1.0;
            t += Kokkos::fabs(rec[R_LENGTH]);
          }
        }
      },
      count, total);
  Kokkos::parallel_reduce(
      "FixJaegerHistoryKokkos::longest", Kokkos::RangePolicy<DeviceType>(0, inum),
      KOKKOS_LAMBDA(const int ii, double &m) {
        const int i = ilist(ii);
        for (int jj = 0; jj < numneigh(i); jj++) {
          const int f = flag(i, jj);
          if (f <= 0) continue;
          const double n = Kokkos::fabs(records(f - 1, R_LENGTH));
          if (n > m) m = n;
        }
      },
      Kokkos::Max<double>(most));
  sums[0] = count;
  sums[1] = total;
  longest = most > 0.0 ? most : 0.0;    // (the maximum over no record is -inf)
}

/* ----------------------------------------------------------------------
   the global vector (intensive), as the CPU fix's f_ID[1..5] plus two:
   1 records, 2 mean stack length, 3 longest stack, 4 bytes of the history
   arrays per record, 5 all merges made by the kernel, 6 merges forced by a
   full stack (capacity = history/max), 7 records read back negated after a
   hand-over by fix neigh/history/kk (the pair style undoes the negation).
   5-7 are cumulative since the fix was created, summed over ranks.
------------------------------------------------------------------------- */

template <class DeviceType> double FixJaegerHistoryKokkos<DeviceType>::compute_vector(int n)
{
  if (stats_step != this->update->ntimestep) {
    stats_step = this->update->ntimestep;
    double local[6], global[6], longest = 0.0, global_longest = 0.0;
    local_stats(local, longest);
    local[2] = this->memory_usage();
    local[3] = merges;
    local[4] = forced_merges;
    local[5] = handed_over;
    MPI_Allreduce(local, global, 6, MPI_DOUBLE, MPI_SUM, this->world);
    MPI_Allreduce(&longest, &global_longest, 1, MPI_DOUBLE, MPI_MAX, this->world);
    stats[S_CONTACTS] = global[0];
    stats[S_MEAN_LENGTH] = global[0] > 0.0 ? global[1] / global[0] : 0.0;
    stats[S_MAX_LENGTH] = global_longest;
    stats[S_BYTES_PER_CONTACT] = global[0] > 0.0 ? global[2] / global[0] : 0.0;
    stats[S_MERGES] = global[3];
    stats[S_FORCED_MERGES] = global[4];
    stats[S_HANDED_OVER] = global[5];
  }
  return stats[n];
}

/* ----------------------------------------------------------------------
   the records of the pool, to the per-atom partner arrays of fix
   neigh/history/kk, as its pre_exchange_no_newton() moves the values of the
   neighbor slots: the partner's copy negated (see pair_gran_jaeger_kokkos.cpp)
------------------------------------------------------------------------- */

template <class DeviceType> void FixJaegerHistoryKokkos<DeviceType>::pre_exchange()
{
  if (this->newton_pair || this->onesided) {    // the base class stops with its error message
    FixNeighHistoryKokkos<DeviceType>::pre_exchange();
    return;
  }
  this->ensure_partner_capacity(this->count_partners());
  records_to_partners();
  this->maxexchange = (this->dnum + 1) * this->maxpartner + 2;
}

namespace {
// the host side of the partner arrays of fix neigh/history/kk, as views (its rows are
// contiguous: memoryKK->grow_kokkos() points them into one LayoutRight array)
using HostInts = Kokkos::View<int *, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
using HostTags =
    Kokkos::View<tagint **, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
using HostValues =
    Kokkos::View<double **, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
}    // namespace

template <class DeviceType> void FixJaegerHistoryKokkos<DeviceType>::records_to_partners()
{
  const int rows = this->partner_rows, width = this->maxpartner, dnum = this->dnum;
  if (rows == 0 || this->npartner == nullptr) return;
  // the host side, current (pack_exchange() syncs it: the public way); written here, then
  // marked modified by copying an atom onto itself
  this->scratch.resize((size_t) (dnum + 1) * width + 1);
  FixNeighHistoryKokkos<DeviceType>::pack_exchange(0, this->scratch.data());
  const HostInts h_count(this->npartner, rows);
  const HostTags h_partner(this->partner[0], rows, width);
  const HostValues h_values(this->valuepartner[0], rows, (size_t) dnum * width);
  // (on a host space these are the host arrays themselves)
  const auto count = Kokkos::create_mirror_view(typename DeviceType::memory_space(), h_count);
  const auto partner = Kokkos::create_mirror_view(typename DeviceType::memory_space(), h_partner);
  const auto values = Kokkos::create_mirror_view(typename DeviceType::memory_space(), h_values);
  Kokkos::deep_copy(count, 0);
  auto *k_list = this->pair ? static_cast<NeighListKokkos<DeviceType> *>(this->pair->list)
                            : nullptr;
  const int inum = k_list ? k_list->inum : 0;
  if (inum > 0 && this->k_firstflag.extent(0) > 0) {
    this->atomKK->sync(this->execution_space, TAG_MASK);
    this->k_firstflag.template sync<DeviceType>();
    const auto flag = this->k_firstflag.template view<DeviceType>();
    const auto tag = this->atomKK->k_tag.template view<DeviceType>();
    const auto ilist = k_list->d_ilist;
    const auto numneigh = k_list->d_numneigh;
    const auto neighbors = k_list->d_neighbors;
    const auto records = pool;
    const int nlocal_neigh = this->nlocal_neigh;
    Kokkos::parallel_for(
        "FixJaegerHistoryKokkos::records_to_partners", Kokkos::RangePolicy<DeviceType>(0, inum),
        KOKKOS_LAMBDA(const int ii) {
          const int i = ilist(ii);
          for (int jj = 0; jj < numneigh(i); jj++) {
            const int f = flag(i, jj);
            if (f <= 0) continue;
            const int j = neighbors(i, jj) & NEIGHMASK;
            const double *rec = &records(f - 1, 0);
            // ensure_partner_capacity() made room for every partner
            int m = Kokkos::atomic_fetch_add(&count(i), 1);
            partner(i, m) = tag(j);
            for (int k = 0; k < dnum; k++) values(i, dnum * m + k) = rec[k];
            if (j < nlocal_neigh) {
              m = Kokkos::atomic_fetch_add(&count(j), 1);
              partner(j, m) = tag(i);
              for (int k = 0; k < dnum; k++) values(j, dnum * m + k) = -rec[k];
            }
          }
        });
  }
  Kokkos::deep_copy(h_count, count);
  Kokkos::deep_copy(h_partner, partner);
  Kokkos::deep_copy(h_values, values);
  FixNeighHistoryKokkos<DeviceType>::copy_arrays(0, 0, 0);
}

/* ----------------------------------------------------------------------
   the new neighbor list's slots: each slot of a listed atom whose partner
   has a record takes a record of a new, compact pool (touch flag = its index
   + 1), the others a flag of 0. Histories of pairs that parted exactly at a
   reneighboring are restored too, as FixNeighHistoryDemcKokkos does.
------------------------------------------------------------------------- */

template <class DeviceType> void FixJaegerHistoryKokkos<DeviceType>::post_neighbor()
{
  auto *k_list = static_cast<NeighListKokkos<DeviceType> *>(this->pair->list);
  const int nlocal = this->atom->nlocal;
  this->nlocal_neigh = nlocal;
  this->nall_neigh = nlocal + this->atom->nghost;
  if (nlocal > this->maxatom || k_list->maxneighs > (int) this->k_firstflag.extent(1)) {
    this->maxatom = this->atom->nmax;
    this->k_firstflag =
        DAT::tdual_int_2d("neighbor_history:firstflag", this->maxatom, k_list->maxneighs);
  }
  records_from_partners();
}

template <class DeviceType> void FixJaegerHistoryKokkos<DeviceType>::records_from_partners()
{
  auto *k_list = static_cast<NeighListKokkos<DeviceType> *>(this->pair->list);
  const int rows = this->partner_rows, width = this->maxpartner, dnum = this->dnum;
  this->atomKK->sync(this->execution_space, TAG_MASK);
  this->k_firstflag.template sync<DeviceType>();
  this->scratch.resize((size_t) (dnum + 1) * width + 1);
  if (rows > 0) FixNeighHistoryKokkos<DeviceType>::pack_exchange(0, this->scratch.data());
  const HostInts h_count(this->npartner, rows);
  const HostTags h_partner(rows > 0 ? this->partner[0] : nullptr, rows, width);
  const HostValues h_values(rows > 0 ? this->valuepartner[0] : nullptr, rows,
                            (size_t) dnum * width);
  const auto count =
      Kokkos::create_mirror_view_and_copy(typename DeviceType::memory_space(), h_count);
  const auto partner =
      Kokkos::create_mirror_view_and_copy(typename DeviceType::memory_space(), h_partner);
  const auto values =
      Kokkos::create_mirror_view_and_copy(typename DeviceType::memory_space(), h_values);
  const auto flag = this->k_firstflag.template view<DeviceType>();
  const auto tag = this->atomKK->k_tag.template view<DeviceType>();
  const auto ilist = k_list->d_ilist;
  const auto numneigh = k_list->d_numneigh;
  const auto neighbors = k_list->d_neighbors;
  const int inum = k_list->inum;

  // first pass: each slot's partner (its index + 1 in the flag, 0: none), and the count
  int found = 0;
  Kokkos::parallel_reduce(
      "FixJaegerHistoryKokkos::match", Kokkos::RangePolicy<DeviceType>(0, inum),
      KOKKOS_LAMBDA(const int ii, int &n) {
        const int i = ilist(ii);
        const int np = count(i);
        for (int jj = 0; jj < numneigh(i); jj++) {
          const tagint jtag = tag(neighbors(i, jj) & NEIGHMASK);
          int m = 0;
          while (m < np && partner(i, m) != jtag) m++;
          flag(i, jj) = m < np ? m + 1 : 0;
          if (m < np) n++;
        }
      },
      found);

  // a compact pool with room for some new contacts (grow_pool() when a step needs more); kept
  // when its size is still of the order of the records
  const long held = (long) pool.extent(0);
  const long wanted = found + found / 8 + 64;
  if (held < found || held > 2 * wanted || (int) pool.extent(1) != dnum)
    pool = Kokkos::View<double **, Kokkos::LayoutRight, DeviceType>("jaeger_history:pool", wanted,
                                                                    dnum);
  Kokkos::deep_copy(pool_used, 0);
  const auto records = pool;
  const auto used = pool_used;
  Kokkos::parallel_for(
      "FixJaegerHistoryKokkos::records_from_partners", Kokkos::RangePolicy<DeviceType>(0, inum),
      KOKKOS_LAMBDA(const int ii) {
        const int i = ilist(ii);
        for (int jj = 0; jj < numneigh(i); jj++) {
          const int m = flag(i, jj) - 1;
          if (m < 0) continue;
          const int r = Kokkos::atomic_fetch_add(&used(), 1);
          for (int k = 0; k < dnum; k++) records(r, k) = values(i, dnum * m + k);
          flag(i, jj) = r + 1;
        }
      });
  this->k_firstflag.template modify<DeviceType>();
}

/* ----------------------------------------------------------------------
   the pool after a pair loop in which `waiting` new contacts found it full:
   every record below its size was taken (the counter went beyond it), so
   the records taken are its size; it grows keeping them, with room for the
   waiting contacts and 1/8 more
------------------------------------------------------------------------- */

template <class DeviceType> void FixJaegerHistoryKokkos<DeviceType>::grow_pool(long waiting)
{
  const long taken = (long) pool.extent(0);
  const long wanted = taken + waiting;
  if (wanted + wanted / 8 + 64 > INT_MAX / 2)
    this->error->one(FLERR, "Pair gran/jaeger/kk: {} contact records exceed the pool's index range",
                     wanted);
  Kokkos::resize(pool, wanted + wanted / 8 + 64, this->dnum);
  Kokkos::deep_copy(pool_used, (int) taken);
}

/* the partner arrays (fix neigh/history/kk's memory_usage(): its neighbor slots' values are
   not allocated here), the touch flags and the pool */
template <class DeviceType> double FixJaegerHistoryKokkos<DeviceType>::memory_usage()
{
  return FixNeighHistoryKokkos<DeviceType>::memory_usage() +
      (double) this->k_firstflag.template view<DeviceType>().span() * sizeof(int) +
      (double) pool.span() * sizeof(double);
}

/* ---------------------------------------------------------------------- */

template <class DeviceType> void FixJaegerHistoryKokkos<DeviceType>::begin_run()
{
  run_forced_merges = run_forced_contacts = run_contacts = 0.0;
  stamp = (double) this->update->ntimestep + 1.0;
}

/* ----------------------------------------------------------------------
   a run whose histories reached their capacity merged points that pair_style
   gran/jaeger (without history/max) keeps: the model was not the CPU
   style's. Said at the end of the run, with how much it merged.
------------------------------------------------------------------------- */

template <class DeviceType> void FixJaegerHistoryKokkos<DeviceType>::post_run()
{
  FixNeighHistoryDemcKokkos<DeviceType>::post_run();
  double local[3] = {run_forced_merges, run_forced_contacts, run_contacts}, global[3];
  MPI_Allreduce(local, global, 3, MPI_DOUBLE, MPI_SUM, this->world);
  if (this->comm->me != 0 || !(global[0] > 0.0)) return;
  const double share = global[2] > 0.0 ? 100.0 * global[1] / global[2] : 0.0;
  this->error->warning(
      FLERR,
      "Pair gran/jaeger/kk: {:.0f} history points merged in this run because histories reached "
      "their capacity (history/max {}), in {:.0f} of {:.0f} contacts ({:.3g}%); pair_style "
      "gran/jaeger keeps them: raise history/max for its model",
      global[0], capacity(), global[1], global[2], share);
}

/* ----------------------------------------------------------------------
   a restart file written with another history/max has another record size:
   refuse it rather than read records at the wrong offsets. Records of format
   version 1 (RecordVersion1) hold R1_POINTS header values, files before
   markers R1_TYPES (before the records named their type pair) or R1_FDAMP_X
   (before they kept the last dashpot force).
------------------------------------------------------------------------- */

template <class DeviceType>
void FixJaegerHistoryKokkos<DeviceType>::check_values_per_partner(int dnum_file) const
{
  const int version = this->reading_version;
  if (version == JAEGER_RECORD_VERSION && dnum_file == this->dnum) return;
  if (version == 1 && dnum_file == R1_POINTS + 4 * capacity()) return;
  if (version == 0 && earlier_header(dnum_file) > 0) return;
  // (headers R1_TYPES and R1_POINTS are alike modulo 4, but only files before markers have the
  // first)
  int header = version == JAEGER_RECORD_VERSION ? (int) R_POINTS : (int) R1_POINTS;
  if (version == 0) header = (dnum_file - R1_TYPES) % 4 == 0 ? R1_TYPES : R1_FDAMP_X;
  this->error->one(
      FLERR,
      "Pair gran/jaeger/kk: the restart file holds contact histories with capacity {} "
      "(history/max); this run uses {}: set 'history/max {}' in the pair_style command",
      (dnum_file - header) / 4, capacity(), (dnum_file - header) / 4);
}

// the header of a record of a file before markers (an earlier layout) with this run's
// capacity; 0 if none, and for records with markers
template <class DeviceType>
int FixJaegerHistoryKokkos<DeviceType>::earlier_header(int dnum_file) const
{
  static_assert(R1_TYPES + 1 == R1_FDAMP_X && R1_FDAMP_X + 3 == R1_POINTS,
                "the key and then the dashpot force were added last to the version 1 header");
  if (this->reading_version != 0) return 0;
  const int header = dnum_file - 4 * capacity();
  return (header == R1_TYPES || header == R1_FDAMP_X) ? header : 0;
}

/* A record of this version is copied. Earlier ones are moved to this layout: U_t not known
   (R_STORED -1: taken from the whole history when next needed, and carried from then on), no
   forced merge, the type pair 0 (not known) and the dashpot force 0 where their layout did not
   hold them. A record keeps the sign of the hand-over (every value negated alike, the length's
   sign bit tells): the values added carry it too. */

template <class DeviceType>
void FixJaegerHistoryKokkos<DeviceType>::restore_values(const double *in, int dnum_file,
                                                        double *out) const
{
  const int version = this->reading_version;
  const int length_at = version == JAEGER_RECORD_VERSION ? (int) R_LENGTH : (int) R1_LENGTH;
  // a record's length (negated by a hand-over or not) and type pair as the device code reads
  // them: range-checked here, before they become integers there
  demc_restart::checked_int(this->lmp, std::fabs(in[length_at]), 0, capacity(),
                            "Pair gran/jaeger/kk: history length of a record");
  if (version == JAEGER_RECORD_VERSION) {
    demc_restart::checked_int(this->lmp, std::fabs(in[R_TYPES]), 0, INT_MAX,
                              "Pair gran/jaeger/kk: type pair of a record");
    std::copy(in, in + dnum_file, out);
    return;
  }
  const int header = version != 0 ? (int) R1_POINTS : earlier_header(dnum_file);
  const double sign = std::signbit(in[R1_LENGTH]) ? -1.0 : 1.0;
  for (int k = 0; k < R_POINTS; k++) out[k] = 0.0;
  for (int k = 0; k < 4; k++) out[R_QW + k] = in[R1_QW + k];
  out[R_WORK] = in[R1_WORK];
  out[R_DAMPWORK] = in[R1_DAMPWORK];
  out[R_LENGTH] = in[R1_LENGTH];
  out[R_STORED] = -1.0 * sign;
  if (header > R1_TYPES) {
    demc_restart::checked_int(this->lmp, std::fabs(in[R1_TYPES]), 0, INT_MAX,
                              "Pair gran/jaeger/kk: type pair of a record");
    out[R_TYPES] = in[R1_TYPES];
  }
  if (header > R1_FDAMP_X)
    for (int k = 0; k < 3; k++) out[R_FDAMP_X + k] = in[R1_FDAMP_X + k];
  std::copy(in + header, in + dnum_file, out + R_POINTS);
}

namespace LAMMPS_NS {
template class FixJaegerHistoryKokkos<LMPDeviceType>;
#ifdef LMP_KOKKOS_GPU
template class FixJaegerHistoryKokkos<LMPHostType>;
#endif
}    // namespace LAMMPS_NS
