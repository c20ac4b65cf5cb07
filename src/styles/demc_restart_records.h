/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: restart records that know their version, and per-atom
   restart data whose read-back memory follows the data stored.

   1. Records. Every restart record of the package starts with a marker (a
      NaN with a payload, which no number of an earlier record can be), the
      record's format version and the number of values that follow. A reader
      refuses a version newer than its own with an error that says so, and
      upgrades older ones; a record without the marker is one of the layouts
      written before markers existed. Doubles that become integers (lengths,
      capacities, atom IDs, type pairs) are range-checked first: checked_int().

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
   record_size(i)/pack(i, buf). unpack_restart() passes the record (the values
   after LAMMPS's count) to SpreadReader::take() when is_versioned() says it
   has the marker, else reads the earlier layout; init() calls assemble().
------------------------------------------------------------------------- */

#ifndef DEMC_RESTART_RECORDS_H
#define DEMC_RESTART_RECORDS_H

#include "lmptype.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace LAMMPS_NS {
class LAMMPS;
}

namespace demc_restart {

// the marker that opens every versioned record of the package
double record_marker();
bool is_record_marker(double value);

/* value as an integer within [lo, hi]; error->one naming `what` (e.g. "Fix wall/gran/jaeger:
   history length") when it is not an integer there (a NaN, an infinity, a fraction, out of
   range): a corrupt or foreign file must stop with a message, not index memory */
long checked_int(LAMMPS_NS::LAMMPS *lmp, double value, long lo, long hi, const std::string &what);

/* a per-atom record: [marker, version, length, length values]; record points just after
   LAMMPS's leading count */
constexpr int PERATOM_HEADER = 3;
inline bool is_versioned(const double *record)
{
  return is_record_marker(record[0]);
}

/* a per-atom restart record of n values (a wall fix's fixed-size history) packed whole into buf:
   LAMMPS's leading count (including itself, as other fixes expect), the header, the values;
   returns the count */
int pack_fixed_record(double *buf, int version, const double *values, int n);

/* the version of a record; error->one when it is newer than `newest` (the file was written
   by a newer version of the package, whose layout this one cannot know) */
int checked_version(LAMMPS_NS::LAMMPS *lmp, double value, int newest, const std::string &who);

class SpreadWriter {
 public:
  // payload(i) for local atom i: {pointer, count}; count 0 for none
  using Payload = std::function<std::pair<const double *, long>(int)>;

  /* lays the payloads of the rank's nlocal atoms end to end and cuts them evenly over the
     atoms' records, each marked with the fix's format version */
  void build(LAMMPS_NS::LAMMPS *lmp, int version, const Payload &payload);
  // the largest record over all ranks, LAMMPS's count included (collective)
  int max_record_size(LAMMPS_NS::LAMMPS *lmp) const;
  int record_size(LAMMPS_NS::LAMMPS *lmp, int i) const;    // atom i's, LAMMPS's count included
  int pack(int i, double *buf) const;
  void clear();
  double memory_usage() const;

 private:
  int version = 0;
  std::vector<double> pieces;    // the records' contents, atom after atom
  std::vector<long> begin;       // atom i's piece: [begin[i], begin[i + 1])
  void check_atom(LAMMPS_NS::LAMMPS *lmp, int i) const;
};

class SpreadReader {
 public:
  using Deliver = std::function<void(int local_index, std::vector<double> &payload, int version)>;

  /* the record of one atom (after LAMMPS's count, is_versioned()), kept until assemble();
     the version is checked against newest */
  void take(LAMMPS_NS::LAMMPS *lmp, const double *record, int newest, const std::string &who);
  /* collective: every payload to the rank owning its atom, deliver(i, payload, version) for
     each local atom i that has one; a payload whose atom no longer exists is dropped */
  void assemble(LAMMPS_NS::LAMMPS *lmp, const Deliver &deliver, const std::string &who);
  bool holds_fragments() const { return !fragments.empty(); }

 private:
  std::vector<double> fragments;    // [owner ID, offset, count, size, values] ...
  int version = -1;
};

}    // namespace demc_restart

#endif
