/* ----------------------------------------------------------------------
   dem-contact: the package's one restart record format, and per-atom
   restart data spread evenly over the atoms (see the header).
------------------------------------------------------------------------- */

#include "demc_restart_records.h"

#include "atom.h"
#include "comm.h"
#include "error.h"
#include "lammps.h"
#include "utils.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <unordered_map>

using namespace LAMMPS_NS;

namespace demc_restart {

namespace {
  // a quiet NaN whose payload spells "de"
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

/* ---------------------------------------------------------------------- */

void put_header(double *header, long n)
{
  header[0] = record_marker();
  header[1] = FORMAT_VERSION;
  header[2] = (double) n;
}

long open_record(LAMMPS *lmp, const double *header, long lo, long hi, const std::string &who)
{
  // the marker compared bit for bit: a NaN test could be optimised away, and any other NaN is
  // no marker
  unsigned long long bits;
  memcpy(&bits, &header[0], sizeof(bits));
  const double version = header[1];
  if (bits != MARKER_BITS || !(version >= FORMAT_VERSION))
    lmp->error->one(FLERR,
                    "{}: the restart file was written by a development version of the package "
                    "(its records are not of format version {}) and cannot be read: continue "
                    "the run with the version that wrote it, or start it again",
                    who, FORMAT_VERSION);
  if (version != FORMAT_VERSION)
    lmp->error->one(FLERR,
                    "{}: the restart file's records have format version {}, this version of the "
                    "package reads version {}: read it with a version of the package that "
                    "knows its format",
                    who, version, FORMAT_VERSION);
  return checked_int(lmp, header[2], lo, hi, who + ": number of values of a record");
}

/* ---------------------------------------------------------------------- */

void write_global_record(FILE *fp, const std::vector<double> &values)
{
  const int size = (int) ((HEADER + values.size()) * sizeof(double));
  fwrite(&size, sizeof(int), 1, fp);
  write_file_record(fp, values);
}

const double *read_global_record(LAMMPS *lmp, const char *buf, long n, const std::string &who)
{
  const auto *record = reinterpret_cast<const double *>(buf);
  open_record(lmp, record, n, n, who);
  return record + HEADER;
}

void write_file_record(FILE *fp, const std::vector<double> &values)
{
  double header[HEADER];
  put_header(header, (long) values.size());
  fwrite(header, sizeof(double), HEADER, fp);
  fwrite(values.data(), sizeof(double), values.size(), fp);
}

std::vector<double> read_file_record(LAMMPS *lmp, FILE *fp, const std::string &who)
{
  double header[HEADER] = {0.0, 0.0, 0.0};
  if (lmp->comm->me == 0)
    utils::sfread(FLERR, header, sizeof(double), HEADER, fp, nullptr, lmp->error);
  MPI_Bcast(header, HEADER, MPI_DOUBLE, 0, lmp->world);
  std::vector<double> values(open_record(lmp, header, 0, 1L << 24, who));
  if (lmp->comm->me == 0 && !values.empty())
    utils::sfread(FLERR, values.data(), sizeof(double), values.size(), fp, nullptr, lmp->error);
  MPI_Bcast(values.data(), (int) values.size(), MPI_DOUBLE, 0, lmp->world);
  return values;
}

/* ---------------------------------------------------------------------- */

int pack_peratom_record(double *buf, const double *values, long n)
{
  buf[0] = peratom_record_size(n);
  put_header(buf + 1, n);
  std::copy(values, values + n, buf + 1 + HEADER);
  return peratom_record_size(n);
}

PeratomRecord open_peratom_record(LAMMPS *lmp, int i, int nth, long lo, long hi,
                                  const std::string &who)
{
  // LAMMPS keeps atom i's records of all fixes end to end, each led by its count
  const double *extra = lmp->atom->extra[i];
  const long store = lmp->atom->nextra_store;
  long m = 0;
  for (int k = 0; k <= nth; k++) {
    const long count = checked_int(lmp, m < store ? extra[m] : NAN, 1, store - m,
                                   who + ": size of a per-atom record");
    if (k == nth) {
      if (count < 1 + HEADER)
        lmp->error->one(FLERR, "{}: a per-atom record of {} values has no envelope", who, count);
      const long n = open_record(lmp, extra + m + 1, lo, hi, who);
      checked_int(lmp, (double) n, count - 1 - HEADER, count - 1 - HEADER,
                  who + ": values of a per-atom record for its size");
      return {extra + m + 1 + HEADER, n};
    }
    m += count;
  }
  return {nullptr, 0};
}

long checked_partner_payload(LAMMPS *lmp, const std::vector<double> &payload, int dnum,
                             const std::string &who)
{
  const long size = (long) payload.size();
  const long n = checked_int(lmp, size > 0 ? payload[0] : NAN, 0, (size - 1) / (dnum + 1),
                             who + ": partners");
  checked_int(lmp, (double) size, 1 + n * (dnum + 1), 1 + n * (dnum + 1),
              who + ": values for its partners (another style's?)");
  for (long p = 0; p < n; p++) {
    const tagint id = (tagint) ubuf(payload[1 + p * (dnum + 1)]).i;
    if (id < 1 || id > MAXTAGINT)
      lmp->error->one(FLERR, "{}: the restart file holds a partner atom ID of {}", who, id);
  }
  return n;
}

/* ---------------------------------------------------------------------- */

void SpreadWriter::build(LAMMPS *lmp, const Payload &payload)
{
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
  long mine = peratom_record_size(largest), all = 0;
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
  return peratom_record_size(begin[i + 1] - begin[i]);
}

int SpreadWriter::pack(int i, double *buf) const
{
  return pack_peratom_record(buf, pieces.data() + begin[i], begin[i + 1] - begin[i]);
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

void SpreadReader::take(LAMMPS *lmp, int i, int nth, const std::string &who)
{
  const PeratomRecord record = open_peratom_record(lmp, i, nth, 0, INT_MAX, who);
  const long n = record.n;
  const double *values = record.values;
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
    if (i != local_index.end()) deliver(i->second, entry.second.payload);
  }
}

}    // namespace demc_restart
