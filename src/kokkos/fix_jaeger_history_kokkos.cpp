/* ----------------------------------------------------------------------
   dem-contact: the contact histories of pair_style gran/jaeger/kk (see the
   header).
------------------------------------------------------------------------- */

#include "fix_jaeger_history_kokkos.h"

#include "atom.h"
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
    handed_over(0.0), stats_step(-1)
{
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
  this->k_firstvalue.template sync<DeviceType>();
  const auto values = this->k_firstvalue.template view<DeviceType>();
  const auto ilist = k_list->d_ilist;
  const auto numneigh = k_list->d_numneigh;
  const int dnum = this->dnum;
  if ((int) values.extent(0) == 0) return;
  double count = 0.0, total = 0.0, most = 0.0;
  const int inum = this->pair->list->inum;
  // a slot holds a record iff its quaternion is not zero
  Kokkos::parallel_reduce(
      "FixJaegerHistoryKokkos::count", Kokkos::RangePolicy<DeviceType>(0, inum),
      KOKKOS_LAMBDA(const int ii, double &c) {
        const int i = ilist(ii);
        for (int jj = 0; jj < numneigh(i); jj++) {
          const int h = dnum * jj;
          if (values(i, h + R_QW) != 0.0 || values(i, h + R_QX) != 0.0 ||
              values(i, h + R_QY) != 0.0 || values(i, h + R_QZ) != 0.0)
            c += 1.0;
        }
      },
      count);
  // an empty slot has length 0
  Kokkos::parallel_reduce(
      "FixJaegerHistoryKokkos::total", Kokkos::RangePolicy<DeviceType>(0, inum),
      KOKKOS_LAMBDA(const int ii, double &t) {
        const int i = ilist(ii);
        for (int jj = 0; jj < numneigh(i); jj++) t += Kokkos::fabs(values(i, dnum * jj + R_LENGTH));
      },
      total);
  Kokkos::parallel_reduce(
      "FixJaegerHistoryKokkos::longest", Kokkos::RangePolicy<DeviceType>(0, inum),
      KOKKOS_LAMBDA(const int ii, double &m) {
        const int i = ilist(ii);
        for (int jj = 0; jj < numneigh(i); jj++) {
          const double n = Kokkos::fabs(values(i, dnum * jj + R_LENGTH));
          if (n > m) m = n;
        }
      },
      Kokkos::Max<double>(most));
  sums[0] = count;
  sums[1] = total;
  longest = most;
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
   a restart file written with another history/max has another record size:
   refuse it rather than read records at the wrong offsets. Files of earlier
   versions hold records with a shorter header: R_TYPES values before the
   records named their type pair (read with the key 0, not known, as the CPU
   style reads its own), R_FDAMP_X before they kept the last dashpot force
   (read as 0, as the setup of those versions took it).
------------------------------------------------------------------------- */

template <class DeviceType>
void FixJaegerHistoryKokkos<DeviceType>::check_values_per_partner(int dnum_file) const
{
  if (this->reading_version != 0 ? dnum_file == this->dnum : earlier_header(dnum_file) > 0) return;
  // (headers R_TYPES and R_POINTS are alike modulo 4, but only files before markers have the
  // first)
  int header = R_POINTS;
  if (this->reading_version == 0) header = (dnum_file - R_TYPES) % 4 == 0 ? R_TYPES : R_FDAMP_X;
  this->error->one(
      FLERR,
      "Pair gran/jaeger/kk: the restart file holds contact histories with capacity {} "
      "(history/max); this run uses {}: set 'history/max {}' in the pair_style command",
      (dnum_file - header) / 4, capacity(), (dnum_file - header) / 4);
}

// the header of a record of a file before markers (an earlier layout) with this run's
// capacity; 0 if none, and for records with markers (this layout)
template <class DeviceType>
int FixJaegerHistoryKokkos<DeviceType>::earlier_header(int dnum_file) const
{
  static_assert(R_TYPES + 1 == R_FDAMP_X && R_FDAMP_Z + 1 == R_POINTS,
                "the key and then the dashpot force were added last to the header");
  if (this->reading_version != 0) return 0;
  const int header = dnum_file - 4 * capacity();
  return (header == R_TYPES || header == R_FDAMP_X) ? header : 0;
}

template <class DeviceType>
void FixJaegerHistoryKokkos<DeviceType>::restore_values(const double *in, int dnum_file,
                                                        double *out) const
{
  // a record's length (negated by a hand-over or not) and type pair as the device code reads
  // them: range-checked here, before they become integers there
  static_assert(R_LENGTH < R_TYPES, "the length sits where it sat before R_TYPES");
  const double length = std::fabs(in[R_LENGTH]);
  demc_restart::checked_int(this->lmp, length, 0, capacity(),
                            "Pair gran/jaeger/kk: history length of a record");
  const int header = this->reading_version != 0 ? (int) R_POINTS : earlier_header(dnum_file);
  if (header > R_TYPES)
    demc_restart::checked_int(this->lmp, std::fabs(in[R_TYPES]), 0, INT_MAX,
                              "Pair gran/jaeger/kk: type pair of a record");
  for (int k = 0; k < R_POINTS; k++) out[k] = k < header ? in[k] : 0.0;
  std::copy(in + header, in + dnum_file, out + R_POINTS);
}

namespace LAMMPS_NS {
template class FixJaegerHistoryKokkos<LMPDeviceType>;
#ifdef LMP_KOKKOS_GPU
template class FixJaegerHistoryKokkos<LMPHostType>;
#endif
}    // namespace LAMMPS_NS
