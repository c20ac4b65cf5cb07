/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: per-contact history of variable length for gran/jaeger.

   Each contact keeps its equivalent load history (a stack of points whose
   length varies per contact and grows to hundreds in slow dense flow), its
   contact frame (a quaternion) and its accumulated work. fix neigh/history
   stores a fixed number of values per contact; this fix keeps each contact's
   record in a pooled arena instead, so memory follows the actual lengths.

   Between reneighborings the pair style reads and writes records through
   record()/reserve()/close(), indexed like its neighbor list. At
   reneighboring (pre_exchange) the per-atom store of both atoms names each
   record (owned atoms or, with newton on, the ghost's owner, which receives
   it); a record goes out by value only with an atom that migrates
   (variable-size exchange) and to restart files. post_neighbor() copies
   the records into a new arena for the new neighbor list, in its order, and
   frees the old one: one copy per record and reneighboring.

   A record is oriented by atom IDs (p = the smaller ID), so the same record
   serves whichever atom the neighbor list lists first: no transfer rule.
------------------------------------------------------------------------- */

#ifdef FIX_CLASS
// clang-format off
FixStyle(DEMC/JAEGER_HISTORY,FixJaegerHistory);
// clang-format on
#else

#ifndef DEMC_FIX_JAEGER_HISTORY_H
#define DEMC_FIX_JAEGER_HISTORY_H

#include "demc_restart_records.h"
#include "fix.h"
#include "history_partner_ids.h"
#include "jaeger_driver.h"

#include <vector>

namespace LAMMPS_NS {

class FixJaegerHistory : public Fix {
 public:
  /* record layout: header, then `capacity` points of 4 doubles (z, P, tx, ty). R_TYPES: the
     type pair whose material the history holds (demc::jaeger::type_pair_key(); 0: not known),
     so that a contact whose atoms
     changed type is moved to its new material. R_STORED: the stored tangential energy U_t,
     which the kernel carries from step to step with work yes; negative: not known (work no,
     a history changed outside a step), then taken
     from the whole history when next needed. R_FDAMP_X..Z: the dashpot force on p of the last
     step (global frame), which the force of a run's setup repeats: a run that follows another
     or a restart file then continues as the run that went straight on (the velocities the
     dashpots saw, half a step old, are not kept). R_PRUNE_FORCE, R_PRUNE_SHIFT: what the pruning
     rule has spent of the contact's error budget (demc::jaeger::PruneSpent). */
  enum Header {    // the layout of demc::jaeger::RecordField, shared with gran/jaeger/kk
    R_CAPACITY = demc::jaeger::REC_KEY,
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
    R_PRUNE_FORCE = demc::jaeger::REC_PRUNE_FORCE,
    R_PRUNE_SHIFT = demc::jaeger::REC_PRUNE_SHIFT,
    R_HEADER = demc::jaeger::REC_HEADER
  };
  enum Stats {
    S_CONTACTS,
    S_MEAN_LENGTH,
    S_MAX_LENGTH,
    S_BYTES_PER_CONTACT,
    S_MERGES,
    S_PRUNED,
    S_SIZE
  };    // S_MERGES: beta and capacity merges; S_PRUNED: points removed by the pruning rule

  FixJaegerHistory(class LAMMPS *, int, char **);
  ~FixJaegerHistory() override;
  int setmask() override;
  void init() override;
  void setup_post_neighbor() override;
  void pre_exchange() override;
  void min_pre_exchange() override;
  void post_neighbor() override;
  void min_post_neighbor() override;
  void post_run() override;
  double compute_vector(int) override;
  double memory_usage() override;

  void grow_arrays(int) override;
  void copy_arrays(int, int, int) override;
  void set_arrays(int) override;
  int pack_exchange(int, double *) override;
  int unpack_exchange(int, double *) override;
  int pack_reverse_comm_size(int, int) override;
  int pack_reverse_comm(int, int, double *) override;
  void unpack_reverse_comm(int, int *, double *) override;
  int pack_forward_comm(int, int *, double *, int, int *) override;    // partner flags
  void unpack_forward_comm(int, int, double *) override;
  void write_restart(FILE *) override;
  void restart(char *) override;
  int pack_restart(int, double *) override;
  void unpack_restart(int, int) override;
  int size_restart(int) override;
  int maxsize_restart() override;

  // access for the pair style, by neighbor-list position (i, jj)
  double *record(int i, int jj)    // nullptr: no contact (asked for every neighbor: inline)
  {
    const long h = handles[first[i] + jj];
    return h < 0 ? nullptr : &pool[h];
  }
  double *open(int i, int jj, int capacity);     // a new, empty record
  double *reserve(int i, int jj, int length);    // room for `length` points
  void close(int i, int jj);
  class Pair *pair;
  /* values before a record's history: R_HEADER, or with rolling or twisting resistance
     R_HEADER + RESISTANCE_SLOTS (demc::jaeger::PairResistRecord); set by the pair style */
  int header;
  int record_size(const double *rec) const;    // header and history points
  double
      merges;    // history points removed by merging (beta and capacity), counted by the pair style
  double pruned;    // history points removed by the pruning rule, counted by the pair style

 protected:
  // a subclass's own arguments follow the fix's three (ID, group, style)
  FixJaegerHistory(class LAMMPS *, int, char **, int own_args);

 private:
  // the arena: records of capacity 4 * 2^k are recycled through per-class free lists
  std::vector<double> pool;
  std::vector<double> last_pool;    // the last list's arena, while post_neighbor() reads it
  std::vector<std::vector<long>> free_lists;
  long allocate(int capacity);
  void copy_contents(const double *source, double *target) const;
  void release(long handle);
  static int capacity_class(int capacity);

  std::vector<long> handles;    // per neighbor-list entry, -1: no contact
  std::vector<long> first;      // per atom: offset of its entries in handles

 protected:
  // (the per-atom store, its restart records and statistics: shared with gran/jaeger/kk's fix)
  /* per-atom store from a reneighboring's pre_exchange() to its post_neighbor(): entries [tag,
     size, record(size)] (the values: migrated atoms, restart files) or [tag, -1 - handle, size]
     (a reference to a record of the arena, or of gran/jaeger/kk's pools: referred_record()) */
  std::vector<std::vector<double>> peratom;
  static constexpr size_t RETAINED_STORE = 64;    // values a cleared store may keep room for
  // restart records: the writer and reader of records spread evenly over the atoms
  demc_restart::SpreadWriter restart_out;
  demc_restart::SpreadReader restart_in;
  void init_records_from_restart();
  // a store read from a restart file into atom i's, checked
  virtual void restore_store(int i, std::vector<double> &store);
  void check_store(const std::vector<double> &store) const;
  bool stored_by_post_run;
  PartnerFlagsOfGhosts ghost_partner_flags;
  bigint stats_step;
  double stats[S_SIZE];

  void refer(int atom_index, double partner_tag, long handle, int size);
  static size_t next_entry(const std::vector<double> &store, size_t m);
  static int entry_record_size(const std::vector<double> &store, size_t m);
  const double *entry_record(const std::vector<double> &store, size_t m) const;
  // the record that a store's reference with handle h names (gran/jaeger/kk: in its pools)
  virtual const double *referred_record(long h) const;
  long store_size_by_value(int atom_index) const;
  long copy_store_by_value(int atom_index, double *buf) const;
  void store_by_value();
  void release_stores();
  size_t entry_of(int atom_index, double partner_tag) const;
  const double *find(int atom_index, double partner_tag) const;
  void forget(int atom_index, double partner_tag);    // drop the record naming partner_tag
  void set_maxexchange();
  void update_stats();
  void reduce_stats(const double *records, double longest, const double *counts, int n,
                    double *out) const;
};

}    // namespace LAMMPS_NS

#endif
#endif
