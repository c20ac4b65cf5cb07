/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: the contact histories of pair_style gran/jaeger/kk.

   The CPU style's history fix (FixJaegerHistory: per-atom stores of
   variable size that move with the atoms and go to restart files) with the
   records of the current neighbor list in device memory instead of its
   arena, so that memory follows the contacts and their history lengths, not
   the neighbor list:

   - two pools of records of the layout of demc::jaeger::RecordField: small
     records (room for SMALL points) for most contacts, and records with room
     for `capacity` points (history/max) for the contacts whose history
     outgrew a small one. A neighbor slot's touch flag names its record: 0
     none, 1 .. BIG_FLAG-1 small record flag-1, BIG_FLAG + r big record r.
   - pre_exchange(): the stores of both atoms name the records, as the CPU
     fix's do (in a host copy of the pools on devices); post_neighbor(): the
     records named or held by the per-atom stores go to new compact pools for
     the new list (a small record when its history has room to grow by one
     point, else a big one). In between the pair loop opens new contacts in
     free small records and moves a full small record to a big one, both with
     atomic counters; a contact that finds a pool full waits,
     the pool grows (grow_pools()) and the pair style runs its step alone, as
     LAMMPS's Kokkos styles redo a neighbor build that ran out of room. The
     records of contacts that part, and the small records left by a move to a
     big one, go to a ring per pool (`freed`), from which later steps take
     records first: between re-neighborings the pools follow the contacts
     held, not all those opened.
   - restart files: the CPU fix's records.
   - a global vector like the CPU fix's (see compute_vector()), with the merge
     counters the pair style adds to.
------------------------------------------------------------------------- */

#ifndef DEMC_FIX_JAEGER_HISTORY_KOKKOS_H
#define DEMC_FIX_JAEGER_HISTORY_KOKKOS_H

#include "fix_jaeger_history.h"
#include "jaeger_driver.h"
#include "kokkos_type.h"

namespace LAMMPS_NS {

template <class DeviceType> class FixJaegerHistoryKokkos : public FixJaegerHistory {
 public:
  /* a contact's record: the CPU fix's (Header: R_LENGTH, R_QW .. R_FDAMP_Z; with rolling or
     twisting the resistance's slots after it, FixJaegerHistory::header), then the history
     points (z*, P*, T*x, T*y) from `header`. R_FORCED_RUN (the CPU's capacity slot): the run in
     which the contact last merged because its history was full (run_stamp(); 0: none), so that
     a run counts the contacts its forced merges touched. */
  enum Record { R_FORCED_RUN = R_CAPACITY, R_POINTS = R_HEADER };
  enum KkStats {
    K_CONTACTS,             // records held (a contact with a ghost atom: one per side)
    K_MEAN_LENGTH,          // mean stack length (points)
    K_MAX_LENGTH,           // longest stack
    K_BYTES_PER_CONTACT,    // bytes of the record pools per record
    K_MERGES,               // all merges by the kernel (capacity and beta), cumulative
    K_FORCED_MERGES,        // merges forced by a full stack (history/max), cumulative
    K_SIZE
  };
  static constexpr int SMALL = 8;             // points of a small record
  static constexpr int BIG_FLAG = 1 << 30;    // touch flags from here on name big records
  // records a pool keeps beyond those it holds (and 1/8 more), for the contacts to come
  static constexpr int SPARE_SMALL = 64, SPARE_BIG = 8;
  int values_per_contact(int capacity) const { return header + 4 * capacity; }
  // the touch flag of a record (row `row` of the big or the small pool), and for a flag > 0
  // whether it names a big record and the record's row in its pool
  KOKKOS_INLINE_FUNCTION static int flag_of(bool big, int row)
  {
    return big ? BIG_FLAG + row : row + 1;
  }
  KOKKOS_INLINE_FUNCTION static bool names_big(int flag) { return flag >= BIG_FLAG; }
  // a record in a pool holds a contact iff its frame quaternion is not zero (a unit quaternion)
  KOKKOS_INLINE_FUNCTION static bool holds_contact(const double *rec)
  {
    return rec[R_QW] != 0.0 || rec[R_QX] != 0.0 || rec[R_QY] != 0.0 || rec[R_QZ] != 0.0;
  }
  KOKKOS_INLINE_FUNCTION static int row_of(int flag)
  {
    return names_big(flag) ? flag - BIG_FLAG : flag - 1;
  }

  // arguments: ID group style capacity (history/max)
  FixJaegerHistoryKokkos(class LAMMPS *, int, char **);
  double compute_vector(int) override;
  void pre_exchange() override;
  void post_neighbor() override;
  double memory_usage() override;

  // touch flags per neighbor slot (atom, jj): see the file header
  DAT::tdual_int_2d k_firstflag;
  using Pool = Kokkos::View<double **, Kokkos::LayoutRight, DeviceType>;
  Pool pool, big;                                       // small and big records
  Kokkos::View<int, DeviceType> pool_used, big_used;    // records taken (the pair loop adds)
  /* records freed since the last re-neighboring (their contacts parted, or a small one's
     history moved to a big record), for the pair loop to take before untouched ones, as the
     CPU fix's free lists: a ring of rows per pool (SMALL_POOL, BIG_POOL). A pair loop takes from
     the rows put before it (from `head`) and puts after them (from `tail`); freed_counts: its
     takes and puts, of the small pool, then of the big one (see freed_rings_advanced()) */
  enum { SMALL_POOL, BIG_POOL };
  struct FreeRing {
    Kokkos::View<int *, DeviceType> rows;
    long head = 0, tail = 0;
  };
  FreeRing freed[2];
  Kokkos::View<int[4], DeviceType> freed_counts;
  // after a pair loop that took taken[p] rows of pool p's ring and put put[p]
  void freed_rings_advanced(const double taken[2], const double put[2]);
  /* after a pair loop in which contacts found a pool full (`waiting_small` new contacts,
     `waiting_big` full small records): the pools grow, records kept, with room for them and
     more; the counters count the records taken */
  void grow_pools(long waiting_small, long waiting_big);

  int capacity() const { return max_points; }
  int small_capacity() const { return max_points < SMALL ? max_points : SMALL; }
  bool has_big() const { return max_points > SMALL; }

  // counters the pair style adds to (this rank's; compute_vector() sums over ranks)
  double forced_merges;
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

 protected:
  int max_points;    // history/max
  double kk_stats[K_SIZE];
  bigint kk_stats_step;
  double stamp;
  void restore_store(int i, std::vector<double> &store) override;
  // a history longer than history/max shortened to it, with the material it was made with
  void fit_lengths(std::vector<double> &store);
  void size_flags(int rows, int slots);
  // the pools as pre_exchange() found them, in host memory: the stores' references name them
  typename Pool::host_mirror_type referred_small, referred_big;
  const double *referred_record(long h) const override;
  void size_free_rings();    // rings with room for every row of their pools
};

}    // namespace LAMMPS_NS

#endif
