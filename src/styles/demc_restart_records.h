/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: the one restart format of the package, and per-atom restart
   data whose read-back memory follows the data stored.

   1. Records. Every restart record of the package, global (fixes, the pair
      styles' settings) and per-atom, is one envelope: [marker, FORMAT_VERSION,
      n, n values], the marker a NaN with a payload that no number of a record
      can be. A per-atom record has LAMMPS's count before it. One function
      opens every envelope (open_record()): a record of another format version
      stops with an error, a newer one's saying so, an older one's or one
      without the marker (files of the package's development versions) that
      the file cannot be read. The package reads its first release's format
      only. Doubles that become integers (lengths, capacities, atom IDs, type
      pairs) are range-checked first: checked_int().

   2. Per-atom data spread evenly. read_restart gives every atom a slot of
      atom->extra as large as the largest atom's per-atom fix data (the sum of
      the fixes' maxsize_restart()), so one contact history of thousands of
      points made a file unreadable (n atoms x the longest record). Here a
      rank's per-atom payloads (whatever a fix keeps per atom) are laid end to
      end and cut evenly over the rank's atoms' records: an atom's record
      holds fragments [owner atom ID, offset, count, payload size, values],
      which may belong to other atoms. maxsize_restart() is then about the
      rank's mean payload, not the largest one. After read_restart the atoms
      holding a payload's fragments may sit on other ranks than its owner:
      SpreadReader::assemble(), collective, sends every fragment to the rank
      that owns its atom and joins them there (owners found by a rendezvous
      on atom ID modulo the number of ranks), at the fix's init() (the first
      collective call after the fix took its records; also reached by
      write_restart and write_data, which initialise the system).

   A fix that adopts it: in maxsize_restart() (collective, called by
   Modify::write_restart() before any size_restart()/pack_restart()) call
   SpreadWriter::build() with a function giving each local atom's payload,
   return max_record_size(); size_restart()/pack_restart() return
   record_size(i)/pack(i, buf). unpack_restart() passes the atom and the fix's
   place in the file to SpreadReader::take(); init() calls assemble(). A fix
   with a record of fixed size per atom uses pack_peratom_record() and
   open_peratom_record() instead.
------------------------------------------------------------------------- */

#ifndef DEMC_RESTART_RECORDS_H
#define DEMC_RESTART_RECORDS_H

#include "lmptype.h"

#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace LAMMPS_NS {
class LAMMPS;
}

namespace demc_restart {

/* the format version of every restart record of the package (global and per-atom). Numbers
   1 to 7 were used by development versions (1 to 5 each class numbering its own records); files
   of those are refused. A change of any record's layout raises it. */
constexpr int FORMAT_VERSION = 8;
// the envelope before a record's values: the marker, the format version, the number of values
constexpr int HEADER = 3;

double record_marker();

/* value as an integer within [lo, hi]; error->one naming `what` (e.g. "Fix wall/gran/jaeger:
   history length") when it is not an integer there (a NaN, an infinity, a fraction, out of
   range): a corrupt or foreign file must stop with a message, not index memory */
long checked_int(LAMMPS_NS::LAMMPS *lmp, double value, long lo, long hi, const std::string &what);

// the envelope of n values into header[0 .. HEADER - 1]
void put_header(double *header, long n);

/* the number of values of the record whose envelope starts at `header`: error->one naming
   `who` unless it has the marker and this format version and a count within [lo, hi] */
long open_record(LAMMPS_NS::LAMMPS *lmp, const double *header, long lo, long hi,
                 const std::string &who);

/* global records of fixes: write_restart() (rank 0) writes LAMMPS's size and the envelope of
   the values; restart() gives LAMMPS's buffer to read_global_record(), which returns the n
   values a record of this fix must hold */
void write_global_record(FILE *fp, const std::vector<double> &values);
const double *read_global_record(LAMMPS_NS::LAMMPS *lmp, const char *buf, long n,
                                 const std::string &who);

/* records in a file the style writes itself (the pair styles' settings; rank 0 writes), read
   collectively: rank 0 reads and broadcasts */
void write_file_record(FILE *fp, const std::vector<double> &values);
std::vector<double> read_file_record(LAMMPS_NS::LAMMPS *lmp, FILE *fp, const std::string &who);

/* per-atom records: [LAMMPS's count (itself included, as other fixes expect), envelope,
   values]. pack_peratom_record() writes n values and returns the count;
   open_peratom_record() finds atom i's record of the fix whose per-atom data is the nth of
   the file, opens it (its count within [lo, hi]) and returns its values and their count */
inline int peratom_record_size(long n)
{
  return (int) (1 + HEADER + n);
}
int pack_peratom_record(double *buf, const double *values, long n);
struct PeratomRecord {
  const double *values;
  long n;
};
PeratomRecord open_peratom_record(LAMMPS_NS::LAMMPS *lmp, int i, int nth, long lo, long hi,
                                  const std::string &who);

/* a neighbor-history payload (FixNeighHistory::pack_restart()'s layout without LAMMPS's count:
   n, then per partner its atom ID as LAMMPS's ubuf and dnum values), checked (its size for n
   partners of dnum values, every ID an atom ID); returns n. The CPU and the Kokkos fix read
   their payloads through it. */
long checked_partner_payload(LAMMPS_NS::LAMMPS *lmp, const std::vector<double> &payload,
                             int dnum, const std::string &who);

class SpreadWriter {
 public:
  // payload(i) for local atom i: {pointer, count}; count 0 for none
  using Payload = std::function<std::pair<const double *, long>(int)>;

  // lays the payloads of the rank's nlocal atoms end to end and cuts them evenly over the
  // atoms' records
  void build(LAMMPS_NS::LAMMPS *lmp, const Payload &payload);
  // the largest record over all ranks, LAMMPS's count included (collective)
  int max_record_size(LAMMPS_NS::LAMMPS *lmp) const;
  int record_size(LAMMPS_NS::LAMMPS *lmp, int i) const;    // atom i's, LAMMPS's count included
  int pack(int i, double *buf) const;
  void clear();
  double memory_usage() const;

 private:
  std::vector<double> pieces;    // the records' contents, atom after atom
  std::vector<long> begin;       // atom i's piece: [begin[i], begin[i + 1])
  void check_atom(LAMMPS_NS::LAMMPS *lmp, int i) const;
};

class SpreadReader {
 public:
  using Deliver = std::function<void(int local_index, std::vector<double> &payload)>;

  // atom i's record of the fix whose per-atom data is the nth of the file, kept until
  // assemble()
  void take(LAMMPS_NS::LAMMPS *lmp, int i, int nth, const std::string &who);
  /* collective: every payload to the rank owning its atom, deliver(i, payload) for
     each local atom i that has one; a payload whose atom no longer exists is dropped */
  void assemble(LAMMPS_NS::LAMMPS *lmp, const Deliver &deliver, const std::string &who);
  bool holds_fragments() const { return !fragments.empty(); }

 private:
  std::vector<double> fragments;    // [owner ID, offset, count, size, values] ...
};

}    // namespace demc_restart

#endif
