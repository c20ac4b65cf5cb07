/* ----------------------------------------------------------------------
   dem-contact: restart records that know their version, and per-atom
   restart data spread evenly over the atoms (see the header).
------------------------------------------------------------------------- */

#include "demc_restart_records.h"

#include "atom.h"
#include "comm.h"
#include "error.h"
#include "lammps.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <unordered_map>

using namespace LAMMPS_NS;

namespace demc_restart {

namespace {
  // a quiet NaN whose payload spells "de" (the wall fixes' global records used it first)
  constexpr unsigned long long MARKER_BITS = 0x7ff8000000006465ULL;

  // a fragment: owner atom ID, offset in the owner's payload, count, payload size, values
  enum Fragment { F_OWNER, F_OFFSET, F_COUNT, F_SIZE, F_HEADER };

  // the largest payload a fragment may announce: it is held in one std::vector and sent with
  // MPI's int counts
  constexpr long MAX_PAYLOAD = INT_MAX / 2;

  // sends out[r] to rank r; returns what arrived, and from[r]: where rank r's part starts
  std::vector<double> exchange(LAMMPS *lmp, const std::vector<std::vector<double>> &out,
                               std::vector<int> &from)
  {
    const int nprocs = lmp->comm->nprocs;
    std::vector<int> send_counts(nprocs), recv_counts(nprocs), send_displs(nprocs + 1, 0);
    for (int r = 0; r < nprocs; r++) {
      if (out[r].size() > (size_t) INT_MAX - (size_t) send_displs[r])
        lmp->error->one(FLERR, "Restart records: more than {} values to send to one rank", INT_MAX);
      send_counts[r] = (int) out[r].size();
      send_displs[r + 1] = send_displs[r] + send_counts[r];
    }
    MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, lmp->world);
    from.assign(nprocs + 1, 0);
    for (int r = 0; r < nprocs; r++) {
      if ((long) from[r] + recv_counts[r] > INT_MAX)
        lmp->error->one(FLERR, "Restart records: more than {} values to receive on one rank",
                        INT_MAX);
      from[r + 1] = from[r] + recv_counts[r];
    }
    std::vector<double> sendbuf;
    sendbuf.reserve(send_displs[nprocs]);
    for (const auto &block : out) sendbuf.insert(sendbuf.end(), block.begin(), block.end());
    std::vector<double> recvbuf(from[nprocs]);
    MPI_Alltoallv(sendbuf.data(), send_counts.data(), send_displs.data(), MPI_DOUBLE,
                  recvbuf.data(), recv_counts.data(), from.data(), MPI_DOUBLE, lmp->world);
    return recvbuf;
  }

  int rendezvous_rank(tagint id, int nprocs)
  {
    return (int) (id % nprocs);
  }
}    // namespace

double record_marker()
{
  double marker;
  memcpy(&marker, &MARKER_BITS, sizeof(marker));
  return marker;
}

int pack_fixed_record(double *buf, int version, const double *values, int n)
{
  const int count = 1 + PERATOM_HEADER + n;
  buf[0] = count;
  buf[1] = record_marker();
  buf[2] = version;
  buf[3] = n;
  for (int k = 0; k < n; k++) buf[1 + PERATOM_HEADER + k] = values[k];
  return count;
}

bool is_record_marker(double value)
{
  // compared bit for bit: a NaN test could be optimised away, and any other NaN is no marker
  unsigned long long bits;
  memcpy(&bits, &value, sizeof(bits));
  return bits == MARKER_BITS;
}

long checked_int(LAMMPS *lmp, double value, long lo, long hi, const std::string &what)
{
  // (the comparisons are false for a NaN)
  if (!(value >= (double) lo && value <= (double) hi) || value != std::floor(value))
    lmp->error->one(FLERR,
                    "{}: the restart file holds {}, not an integer within [{}, {}]: the "
                    "file is damaged or not of this package",
                    what, value, lo, hi);
  return (long) value;
}

int checked_version(LAMMPS *lmp, double value, int newest, const std::string &who)
{
  const long version = checked_int(lmp, value, 0, INT_MAX, who + ": record version");
  if (version > newest)
    lmp->error->one(FLERR,
                    "{}: the restart file's records have format version {}, this version of the "
                    "package reads versions up to {}: read it with the version that wrote it "
                    "(or a newer one)",
                    who, version, newest);
  return (int) version;
}

/* ---------------------------------------------------------------------- */

void SpreadWriter::build(LAMMPS *lmp, int format_version, const Payload &payload)
{
  version = format_version;
  const int nlocal = lmp->atom->nlocal;
  const tagint *tag = lmp->atom->tag;
  long total = 0;
  for (int i = 0; i < nlocal; i++) {
    const long n = payload(i).second;
    if (n > MAX_PAYLOAD)
      lmp->error->one(FLERR, "Restart records: atom {} holds {} values, more than {}", tag[i], n,
                      MAX_PAYLOAD);
    if (n > 0) total += F_HEADER + n;
  }
  /* a piece holds `cut` values, or fewer when the next fragment header would not fit with a
     value after it. Each piece but the last then carries at least cut - F_HEADER values of
     the stream and at most one header more than the stream had (the continuation of a
     payload cut at its end), so nlocal pieces of cut = mean + 2 F_HEADER hold the stream. */
  const long cut = nlocal > 0 ? (total + nlocal - 1) / nlocal + 2 * F_HEADER : 0;
  pieces.clear();
  pieces.reserve(total + (long) nlocal * F_HEADER);
  begin.assign(nlocal + 1, 0);
  int atom_of_piece = 0;
  long used = 0;      // values in the current piece
  long room = cut;    // values the current piece may take
  auto next_piece = [&]() {
    used = 0;
    if (atom_of_piece + 1 < nlocal)
      begin[++atom_of_piece] = (long) pieces.size();
    else
      room = LONG_MAX / 2;    // the last piece takes what is left (never more than cut, as above)
  };
  for (int i = 0; i < nlocal; i++) {
    const auto data = payload(i);
    for (long offset = 0; offset < data.second;) {
      if (room - used <= F_HEADER) next_piece();
      const long count = std::min(data.second - offset, room - used - F_HEADER);
      pieces.insert(pieces.end(),
                    {(double) tag[i], (double) offset, (double) count, (double) data.second});
      pieces.insert(pieces.end(), data.first + offset, data.first + offset + count);
      used += F_HEADER + count;
      offset += count;
      if (used >= room) next_piece();
    }
  }
  for (int k = atom_of_piece + 1; k <= nlocal; k++) begin[k] = (long) pieces.size();
}

int SpreadWriter::max_record_size(LAMMPS *lmp) const
{
  long largest = 0;
  for (size_t i = 0; i + 1 < begin.size(); i++)
    largest = std::max(largest, begin[i + 1] - begin[i]);
  long mine = 1 + PERATOM_HEADER + largest, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_LONG, MPI_MAX, lmp->world);
  if (all > INT_MAX)
    lmp->error->all(FLERR, "Restart records: {} values per atom, more than LAMMPS can store", all);
  return (int) all;
}

void SpreadWriter::check_atom(LAMMPS *lmp, int i) const
{
  if (i < 0 || i + 1 >= (int) begin.size())
    lmp->error->one(FLERR,
                    "Restart records: atom {} has no record (the atoms changed since "
                    "maxsize_restart())",
                    i);
}

int SpreadWriter::record_size(LAMMPS *lmp, int i) const
{
  check_atom(lmp, i);
  return 1 + PERATOM_HEADER + (int) (begin[i + 1] - begin[i]);
}

int SpreadWriter::pack(int i, double *buf) const
{
  const long n = begin[i + 1] - begin[i];
  buf[0] = (double) (1 + PERATOM_HEADER + n);    // LAMMPS's count, itself included
  buf[1] = record_marker();
  buf[2] = version;
  buf[3] = (double) n;
  std::copy(pieces.begin() + begin[i], pieces.begin() + begin[i + 1], buf + 1 + PERATOM_HEADER);
  return 1 + PERATOM_HEADER + (int) n;
}

void SpreadWriter::clear()
{
  pieces = std::vector<double>();
  begin = std::vector<long>();
}

double SpreadWriter::memory_usage() const
{
  return (double) pieces.capacity() * sizeof(double) + (double) begin.capacity() * sizeof(long);
}

/* ---------------------------------------------------------------------- */

void SpreadReader::take(LAMMPS *lmp, const double *record, int newest, const std::string &who)
{
  const int v = checked_version(lmp, record[1], newest, who);
  if (version >= 0 && v != version)
    lmp->error->one(FLERR, "{}: the restart file's records have two format versions, {} and {}",
                    who, version, v);
  version = v;
  const long n = checked_int(lmp, record[2], 0, INT_MAX, who + ": record length");
  const double *values = record + PERATOM_HEADER;
  for (long m = 0; m < n;) {
    if (n - m < F_HEADER)
      lmp->error->one(FLERR, "{}: a restart record ends inside a fragment header", who);
    const double *f = values + m;
    checked_int(lmp, f[F_OWNER], 1, MAXTAGINT, who + ": atom ID of a fragment");
    const long size = checked_int(lmp, f[F_SIZE], 1, MAX_PAYLOAD, who + ": payload size");
    const long offset = checked_int(lmp, f[F_OFFSET], 0, size - 1, who + ": fragment offset");
    const long count = checked_int(lmp, f[F_COUNT], 1, std::min(size - offset, n - m - F_HEADER),
                                   who + ": fragment length");
    fragments.insert(fragments.end(), f, f + F_HEADER + count);
    m += F_HEADER + count;
  }
}

void SpreadReader::assemble(LAMMPS *lmp, const Deliver &deliver, const std::string &who)
{
  long held = (long) fragments.size(), any = 0;
  MPI_Allreduce(&held, &any, 1, MPI_LONG, MPI_MAX, lmp->world);
  if (any == 0) return;
  int file_version = version;
  MPI_Allreduce(&version, &file_version, 1, MPI_INT, MPI_MAX, lmp->world);

  const int nlocal = lmp->atom->nlocal, nprocs = lmp->comm->nprocs;
  const tagint *tag = lmp->atom->tag;
  std::unordered_map<tagint, int> local_index;
  local_index.reserve(nlocal);
  for (int i = 0; i < nlocal; i++) local_index[tag[i]] = i;

  // which rank owns the atom of each fragment not owned here: a rendezvous on atom ID
  std::vector<std::vector<double>> out(nprocs);
  for (int i = 0; i < nlocal; i++) out[rendezvous_rank(tag[i], nprocs)].push_back(tag[i]);
  const int atoms_mark = -1;    // atom IDs, then the asked-for IDs, after a separator
  for (auto &block : out) block.push_back(atoms_mark);
  std::vector<tagint> asked;
  for (size_t m = 0; m < fragments.size(); m += F_HEADER + (size_t) fragments[m + F_COUNT]) {
    const auto id = (tagint) fragments[m + F_OWNER];
    if (local_index.count(id) == 0) asked.push_back(id);
  }
  std::sort(asked.begin(), asked.end());
  asked.erase(std::unique(asked.begin(), asked.end()), asked.end());
  for (tagint id : asked) out[rendezvous_rank(id, nprocs)].push_back((double) id);
  std::vector<int> from;
  std::vector<double> in = exchange(lmp, out, from);
  std::unordered_map<tagint, int> owner;
  std::vector<std::vector<double>> answers(nprocs);
  for (int r = 0; r < nprocs; r++) {
    int m = from[r];
    for (; in[m] != atoms_mark; m++) owner[(tagint) in[m]] = r;
  }
  for (int r = 0; r < nprocs; r++) {
    int m = from[r];
    while (in[m] != atoms_mark) m++;
    for (m++; m < from[r + 1]; m++) {
      const auto found = owner.find((tagint) in[m]);
      answers[r].insert(answers[r].end(),
                        {in[m], found == owner.end() ? -1.0 : (double) found->second});
    }
  }
  in = exchange(lmp, answers, from);
  std::unordered_map<tagint, int> rank_of;
  for (size_t m = 0; m < in.size(); m += 2) rank_of[(tagint) in[m]] = (int) in[m + 1];

  // every fragment to its owner's rank (here: kept here)
  for (auto &block : out) block.clear();
  const int me = lmp->comm->me;
  for (size_t m = 0; m < fragments.size(); m += F_HEADER + (size_t) fragments[m + F_COUNT]) {
    const auto id = (tagint) fragments[m + F_OWNER];
    const auto known = rank_of.find(id);
    const int r = local_index.count(id) ? me : (known == rank_of.end() ? -1 : known->second);
    if (r < 0) continue;
    out[r].insert(out[r].end(), fragments.begin() + m,
                  fragments.begin() + m + F_HEADER + (long) fragments[m + F_COUNT]);
  }
  fragments = std::vector<double>();
  version = -1;
  in = exchange(lmp, out, from);
  out = decltype(out)();

  // joined per owner atom, each value once
  struct Joined {
    std::vector<double> payload;
    long filled = 0;
  };
  std::unordered_map<tagint, Joined> joined;
  for (size_t m = 0; m < in.size(); m += F_HEADER + (size_t) in[m + F_COUNT]) {
    const double *f = &in[m];
    Joined &j = joined[(tagint) f[F_OWNER]];
    const long size = (long) f[F_SIZE], offset = (long) f[F_OFFSET], count = (long) f[F_COUNT];
    if (j.payload.empty()) j.payload.resize(size);
    if ((long) j.payload.size() != size || offset + count > size)
      lmp->error->one(FLERR, "{}: the restart file's fragments of atom {} disagree", who,
                      (tagint) f[F_OWNER]);
    std::copy(f + F_HEADER, f + F_HEADER + count, j.payload.begin() + offset);
    j.filled += count;
  }
  in = std::vector<double>();
  for (auto &entry : joined) {
    if (entry.second.filled != (long) entry.second.payload.size())
      lmp->error->one(FLERR, "{}: the restart file holds {} of the {} values of atom {}", who,
                      entry.second.filled, entry.second.payload.size(), entry.first);
    const auto i = local_index.find(entry.first);
    if (i != local_index.end()) deliver(i->second, entry.second.payload, file_version);
  }
}

}    // namespace demc_restart
