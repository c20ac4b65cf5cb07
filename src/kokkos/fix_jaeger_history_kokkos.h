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

   - a global vector like the CPU fix's (see compute_vector()), with the merge
     counters the pair style adds to;
   - reading a restart file stops with an error when it holds another number of
     values per contact (another history/max).
------------------------------------------------------------------------- */

#ifndef DEMC_FIX_JAEGER_HISTORY_KOKKOS_H
#define DEMC_FIX_JAEGER_HISTORY_KOKKOS_H

#include "fix_neigh_history_demc_kokkos.h"

namespace LAMMPS_NS {

template <class DeviceType>
class FixJaegerHistoryKokkos : public FixNeighHistoryDemcKokkos<DeviceType> {
 public:
  // the record of one contact in its slot of fix neigh/history/kk (dnum values):
  // frame quaternion, the contact's cumulative tangential work and damping work, stack
  // length n, the type pair its material is of (as the CPU style's FixJaegerHistory::R_TYPES),
  // the dashpot force of the last step (as FixJaegerHistory::R_FDAMP_X..Z), then `capacity`
  // points (z*, P*, T*x, T*y)
  enum Record {
    R_QW,
    R_QX,
    R_QY,
    R_QZ,
    R_WORK,
    R_DAMPWORK,
    R_LENGTH,
    R_TYPES,
    R_FDAMP_X,
    R_FDAMP_Y,
    R_FDAMP_Z,
    R_POINTS
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

  int capacity() const { return (this->dnum - R_POINTS) / 4; }
  int values() const { return this->dnum; }

  // counters the pair style adds to (this rank's; compute_vector() sums over ranks)
  double merges, forced_merges, handed_over;

  // public only because a CUDA extended lambda may not sit in a protected member function
  void local_stats(double *sums, double &longest);

 protected:
  bigint stats_step;
  double stats[S_SIZE];
  int earlier_header(int dnum_file) const;    // the header of an earlier layout, else 0
  void restore_values(const double *in, int dnum_file, double *out) const override;
  void check_values_per_partner(int dnum_file) const override;
};

}    // namespace LAMMPS_NS

#endif
