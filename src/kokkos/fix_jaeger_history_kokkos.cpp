/* ----------------------------------------------------------------------
   dem-contact: the contact histories of pair_style gran/jaeger/kk (see the
   header).
------------------------------------------------------------------------- */

#include "fix_jaeger_history_kokkos.h"

#include "atom.h"
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
