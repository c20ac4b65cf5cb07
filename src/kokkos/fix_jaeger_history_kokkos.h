/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: the contact histories of pair_style gran/jaeger/kk.

   FixNeighHistoryDemcKokkos (LAMMPS's fix neigh/history/kk with its restart
   and partner-count problems worked around) with a FIXED number of values per
   contact: the Jaeger record of PairGranJaegerKokkos (header of R_POINTS
   values, then `capacity` history points of 4 doubles). Its post_neighbor()
   restores the record of every listed pair that has one, also of a pair that
   stopped touching at this very step, as the CPU style's fix
   DEMC/JAEGER_HISTORY does (the pair style needs it for the contact's last
   step: the work done while its springs leave). What this class adds:

   - records for contacts, not for neighbors: the neighbor slots of fix
     neigh/history/kk hold no values here, only their touch flag, which is the
     index + 1 of the contact's record in a pool (0: none). The pool is rebuilt
     from the per-atom partner arrays at each reneighboring (post_neighbor(),
     sized to the records then held) and its records go back to the partner
     arrays in pre_exchange(), the partner's copy negated as fix
     neigh/history/kk does. New contacts take records with an atomic counter in
     the pair loop; a contact that finds the pool full waits, the pool grows
     by the contacts that waited (grow_pool()) and the pair style runs its
     step for them alone (LAMMPS's Kokkos styles grow their neighbor lists
     likewise, redoing the build);
   - a global vector like the CPU fix's (see compute_vector()), with the merge
     counters the pair style adds to;
   - reading a restart file stops with an error when it holds another number of
     values per contact (another history/max).
------------------------------------------------------------------------- */

#ifndef DEMC_FIX_JAEGER_HISTORY_KOKKOS_H
#define DEMC_FIX_JAEGER_HISTORY_KOKKOS_H

#include "fix_neigh_history_demc_kokkos.h"
#include "jaeger_driver.h"

namespace LAMMPS_NS {

template <class DeviceType>
class FixJaegerHistoryKokkos : public FixNeighHistoryDemcKokkos<DeviceType> {
 public:
  /* the record of one contact in its slot of fix neigh/history/kk (dnum values): the layout
     of the CPU style's records (demc::jaeger::RecordField), then `capacity` points (z*, P*,
     T*x, T*y). R_FORCED_RUN (the CPU's capacity slot): the run in which the contact last
     merged because its history was full (run_stamp(); 0: none), so that a run counts the
     contacts its forced merges touched. */
  enum Record {
    R_FORCED_RUN = demc::jaeger::REC_KEY,
    R_LENGTH = demc::jaeger::REC_LENGTH,
    R_QW = demc::jaeger::REC_QW,
    R_QX = demc::jaeger::REC_QX,
    R_QY = demc::jaeger::REC_QY,
    R_QZ = demc::jaeger::REC_QZ,
    R_WORK = demc::jaeger::REC_WORK,
    R_DAMPWORK = demc::jaeger::REC_DAMPWORK,
    R_TYPES = demc::jaeger::REC_TYPES,
    R_STORED = demc::jaeger::REC_STORED,
    R_FDAMP_X = demc::jaeger::REC_FDAMP_X,
    R_FDAMP_Y = demc::jaeger::REC_FDAMP_Y,
    R_FDAMP_Z = demc::jaeger::REC_FDAMP_Z,
    R_POINTS = demc::jaeger::REC_HEADER
  };
  /* the layout of format versions 0 (before markers: its first R1_TYPES values, or its first
     R1_FDAMP_X) and 1 of the restart records: no U_t, the length after the work */
  enum RecordVersion1 {
    R1_QW,
    R1_WORK = 4,
    R1_DAMPWORK,
    R1_LENGTH,
    R1_TYPES,
    R1_FDAMP_X,
    R1_POINTS = R1_FDAMP_X + 3
  };
  enum Stats {
    S_CONTACTS,             // records held (a contact with a ghost atom: one per side)
    S_MEAN_LENGTH,          // mean stack length (points)
    S_MAX_LENGTH,           // longest stack
    S_BYTES_PER_CONTACT,    // memory of the history arrays per record
    S_MERGES,               // all merges by the kernel (capacity and beta), cumulative
    S_FORCED_MERGES,        // merges forced by a full stack (history/max), cumulative
    S_HANDED_OVER,          // records read back negated by the hand-over (and restored)
    S_SIZE
  };
  static int values_per_contact(int capacity) { return R_POINTS + 4 * capacity; }

  FixJaegerHistoryKokkos(class LAMMPS *, int, char **);
  double compute_vector(int) override;
  void pre_exchange() override;
  void post_neighbor() override;
  double memory_usage() override;

  /* the contact records: pool(r, k), value k of record r; a neighbor slot's touch flag f > 0
     names record f - 1. pool_used: the records taken (the pair loop adds to it). */
  Kokkos::View<double **, Kokkos::LayoutRight, DeviceType> pool;
  Kokkos::View<int, DeviceType> pool_used;
  /* after a pair loop in which `waiting` new contacts found the pool full: the pool grows
     (records kept) with room for them and more, pool_used counts the records taken */
  void grow_pool(long waiting);

  int capacity() const { return (this->dnum - R_POINTS) / 4; }
  int values() const { return this->dnum; }

  // counters the pair style adds to (this rank's; compute_vector() sums over ranks)
  double merges, forced_merges, handed_over;
  /* this run's forced merges, the contacts they touched and the contacts it held (at its
     setup, and opened since), this rank's, a pair across ranks counted half on each;
     post_run() warns when there were forced merges */
  double run_forced_merges, run_forced_contacts, run_contacts;
  /* a run starts (the pair style's setup compute(), before its steps): the counters restart
     and records touched by a forced merge from now on take R_FORCED_RUN = run_stamp(), the
     run's first step + 1 (unique to the run unless reset_timestep went back) */
  void begin_run();
  double run_stamp() const { return stamp; }
  void post_run() override;

  // public only because a CUDA extended lambda may not sit in a protected member function
  void local_stats(double *sums, double &longest);
  void records_to_partners();
  void records_from_partners();

 protected:
  bigint stats_step;
  double stats[S_SIZE];
  double stamp;
  static constexpr int JAEGER_RECORD_VERSION = 2;    // 1: RecordVersion1
  int record_version() const override { return JAEGER_RECORD_VERSION; }
  int earlier_header(int dnum_file) const;    // the header of an earlier layout, else 0
  void restore_values(const double *in, int dnum_file, double *out) const override;
  void check_values_per_partner(int dnum_file) const override;
};

}    // namespace LAMMPS_NS

#endif
