/* ----------------------------------------------------------------------
   dem-contact: per-contact history of variable length for gran/jaeger
   (see the header for the design).
------------------------------------------------------------------------- */

#include "fix_jaeger_history.h"

#include "demc_exchange_room.h"

#include "atom.h"
#include "comm.h"
#include "error.h"
#include "force.h"
#include "history_partner_ids.h"
#include "neigh_list.h"
#include "pair.h"
#include "update.h"

#include <algorithm>
#include <climits>
#include <cstring>

using namespace LAMMPS_NS;
using namespace FixConst;

namespace {
constexpr int POINT = 4;           // doubles per history point
constexpr int MIN_CAPACITY = 4;    // smallest record

}    // namespace

// the values a record holds: its header and its history's points
int FixJaegerHistory::record_size(const double *rec) const
{
  return header + POINT * demc::jaeger::record_length<demc::jaeger::PairRecord>(rec);
}

// a record's contents into another record; the target keeps its own capacity (the header's
// first value), which allocate() set
void FixJaegerHistory::copy_contents(const double *source, double *target) const
{
  static_assert(FixJaegerHistory::R_CAPACITY == 0, "the capacity leads the header");
  std::copy(source + 1, source + record_size(source), target + 1);
}

/* ---------------------------------------------------------------------- */

FixJaegerHistory::FixJaegerHistory(LAMMPS *lmp, int narg, char **arg) :
    FixJaegerHistory(lmp, narg, arg, 0)
{
}

FixJaegerHistory::FixJaegerHistory(LAMMPS *lmp, int narg, char **arg, int own_args) :
    Fix(lmp, narg, arg), pair(nullptr), header(R_HEADER), merges(0.0), pruned(0.0),
    stored_by_post_run(false),
    stats_step(-1)
{
  if (narg != 3 + own_args) error->all(FLERR, "Illegal fix {} command", style);
  restart_peratom = 1;
  restart_global = 1;
  create_attribute = 1;
  stores_ids = 1;      // partner atom IDs: reset_atoms id refuses
  comm_forward = 1;    // whether an atom has partners, to its ghosts (setup_post_neighbor())
  maxexchange_dynamic = 1;
  vector_flag = 1;
  size_vector = S_SIZE;
  extvector = 0;
  if (force->newton_pair) comm_reverse = 1;    // records of ghost partners go to their owners
  FixJaegerHistory::grow_arrays(atom->nmax);
  atom->add_callback(Atom::GROW);
  atom->add_callback(Atom::RESTART);
  for (double &s : stats) s = 0.0;
}

/* ---------------------------------------------------------------------- */

FixJaegerHistory::~FixJaegerHistory()
{
  atom->delete_callback(id, Atom::GROW);
  atom->delete_callback(id, Atom::RESTART);
}

/* ---------------------------------------------------------------------- */

int FixJaegerHistory::setmask()
{
  return PRE_EXCHANGE | MIN_PRE_EXCHANGE | POST_NEIGHBOR | MIN_POST_NEIGHBOR | POST_RUN;
}

/* ---------------------------------------------------------------------- */

void FixJaegerHistory::init()
{
  if (!pair) error->all(FLERR, "Fix DEMC/JAEGER_HISTORY is internal to pair_style gran/jaeger");
  init_records_from_restart();
  if ((force->newton_pair != 0) != (comm_reverse != 0))
    error->all(FLERR,
               "Pair gran/jaeger: newton pair cannot change while contact histories "
               "exist; use the newton setting the pair style was defined with");
}

/* ---------------------------------------------------------------------- */

void FixJaegerHistory::setup_post_neighbor()
{
  stored_by_post_run = false;
  check_partner_ids(
      lmp, this,
      [this](int i, auto visit) {
        const auto &store = peratom[i];
        for (size_t m = 0; m < store.size(); m = next_entry(store, m)) visit((tagint) store[m]);
      },
      [this](int i, tagint id) {
        forget(i, (double) id);
      },
      ghost_partner_flags);
  post_neighbor();
}

/* ---------------------------------------------------------------------- */

int FixJaegerHistory::capacity_class(int capacity)
{
  int k = 0;
  while ((static_cast<long>(MIN_CAPACITY) << k) < capacity) k++;
  return k;
}

long FixJaegerHistory::allocate(int capacity)
{
  const int k = capacity_class(capacity);
  if ((int) free_lists.size() <= k) free_lists.resize(k + 1);
  long h;
  if (!free_lists[k].empty()) {
    h = free_lists[k].back();
    free_lists[k].pop_back();
  } else {
    h = (long) pool.size();
    pool.resize(pool.size() + header + POINT * (MIN_CAPACITY << k));
  }
  pool[h + R_CAPACITY] = MIN_CAPACITY << k;
  pool[h + R_LENGTH] = 0.0;
  return h;
}

void FixJaegerHistory::release(long h)
{
  free_lists[capacity_class((int) pool[h + R_CAPACITY])].push_back(h);
}

/* ---------------------------------------------------------------------- */

double *FixJaegerHistory::open(int i, int jj, int capacity)
{
  long &h = handles[first[i] + jj];
  if (h >= 0) release(h);
  h = allocate(capacity);
  return &pool[h];
}

double *FixJaegerHistory::reserve(int i, int jj, int length)
{
  long &h = handles[first[i] + jj];
  if (pool[h + R_CAPACITY] >= length) return &pool[h];
  // the next capacity class: capacities are powers of two, so a growing record doubles
  // (amortised O(1) per point) without asking for twice the length on top
  const long grown = allocate(length);
  // allocate() may move the pool: index, don't hold pointers across it
  copy_contents(&pool[h], &pool[grown]);
  release(h);
  h = grown;
  return &pool[h];
}

void FixJaegerHistory::close(int i, int jj)
{
  long &h = handles[first[i] + jj];
  if (h >= 0) release(h);
  h = -1;
}

/* ----------------------------------------------------------------------
   per-atom store: a flat list of entries [partner tag, record size, record]
   (values) or [partner tag, -1 - handle, record size] (a reference)
------------------------------------------------------------------------- */

// a reference to record `handle` (of the arena; of gran/jaeger/kk's pools: referred_record())
void FixJaegerHistory::refer(int atom_index, double partner_tag, long handle, int size)
{
  auto &store = peratom[atom_index];
  store.push_back(partner_tag);
  store.push_back(-1.0 - (double) handle);
  store.push_back(size);
}

// where the entry after the one at m starts
size_t FixJaegerHistory::next_entry(const std::vector<double> &store, size_t m)
{
  return store[m + 1] >= 0.0 ? m + 2 + (size_t) store[m + 1] : m + 3;
}

// the size of the record of the entry at m (a reference keeps it: no read of the arena)
int FixJaegerHistory::entry_record_size(const std::vector<double> &store, size_t m)
{
  return (int) (store[m + 1] >= 0.0 ? store[m + 1] : store[m + 2]);
}

// the record of the entry at m: its own values, or the record it refers to
const double *FixJaegerHistory::entry_record(const std::vector<double> &store, size_t m) const
{
  return store[m + 1] >= 0.0 ? &store[m + 2] : referred_record((long) (-1.0 - store[m + 1]));
}

// the record of handle h: the arena's, or the last arena's while post_neighbor() reads it (the
// last arena holds values only then)
const double *FixJaegerHistory::referred_record(long h) const
{
  return &(last_pool.empty() ? pool : last_pool)[h];
}

// where the entry of partner_tag starts in the atom's store; the store's size if it has none
size_t FixJaegerHistory::entry_of(int atom_index, double partner_tag) const
{
  const auto &store = peratom[atom_index];
  size_t m = 0;
  while (m < store.size() && store[m] != partner_tag) m = next_entry(store, m);
  return m;
}

const double *FixJaegerHistory::find(int atom_index, double partner_tag) const
{
  const size_t m = entry_of(atom_index, partner_tag);
  return m < peratom[atom_index].size() ? entry_record(peratom[atom_index], m) : nullptr;
}

// the values an atom's store takes with every record written out (exchange, restart)
long FixJaegerHistory::store_size_by_value(int atom_index) const
{
  const auto &store = peratom[atom_index];
  long size = 0;
  for (size_t m = 0; m < store.size(); m = next_entry(store, m))
    size += 2 + entry_record_size(store, m);
  return size;
}

// the store's entries with every record written out, to buf; returns the values written
long FixJaegerHistory::copy_store_by_value(int atom_index, double *buf) const
{
  const auto &store = peratom[atom_index];
  long n = 0;
  for (size_t m = 0; m < store.size(); m = next_entry(store, m)) {
    const double *rec = entry_record(store, m);
    const int size = entry_record_size(store, m);    // as store_size_by_value() counts it
    buf[n++] = store[m];
    buf[n++] = size;
    std::copy(rec, rec + size, buf + n);
    n += size;
  }
  return n;
}

// every local atom's references replaced by the records' values (before a restart file)
void FixJaegerHistory::store_by_value()
{
  for (int i = 0; i < atom->nlocal; i++) {
    auto &store = peratom[i];
    bool refers = false;
    for (size_t m = 0; m < store.size() && !refers; m = next_entry(store, m))
      refers = store[m + 1] < 0.0;
    if (!refers) continue;
    std::vector<double> values(store_size_by_value(i));
    copy_store_by_value(i, values.data());
    store = std::move(values);
  }
}

void FixJaegerHistory::forget(int atom_index, double partner_tag)
{
  auto &store = peratom[atom_index];
  const size_t m = entry_of(atom_index, partner_tag);
  if (m < store.size()) store.erase(store.begin() + m, store.begin() + next_entry(store, m));
}

/* ----------------------------------------------------------------------
   every record of the current neighbor list named in the per-atom store of
   both atoms; with newton on, ghosts' records are sent to their owners
------------------------------------------------------------------------- */

void FixJaegerHistory::pre_exchange()
{
  const int nall = atom->nlocal + atom->nghost;
  for (int i = 0; i < nall && i < (int) peratom.size(); i++) peratom[i].clear();
  NeighList *list = pair ? pair->list : nullptr;
  const int newton = force->newton_pair;
  if (list && !first.empty()) {
    const int nlocal_list = std::min<int>(atom->nlocal, (int) first.size());
    const tagint *tag = atom->tag;
    for (int ii = 0; ii < list->inum; ii++) {
      const int i = list->ilist[ii];
      const int *jlist = list->firstneigh[i];
      for (int jj = 0; jj < list->numneigh[i]; jj++) {
        const long h = handles[first[i] + jj];
        if (h < 0) continue;
        const int j = jlist[jj] & NEIGHMASK;
        const int size = record_size(&pool[h]);
        refer(i, (double) tag[j], h, size);
        if (j < nlocal_list || newton) refer(j, (double) tag[i], h, size);
      }
    }
  }
  // collective: a process without atoms (an empty region of the box, or before fix pour has
  // reached its part) takes part too; it used to return before it, and the others waited for
  // it forever
  if (newton) comm->reverse_comm_variable(this);
  set_maxexchange();
}

void FixJaegerHistory::min_pre_exchange()
{
  pre_exchange();
}

void FixJaegerHistory::post_run()
{
  pre_exchange();
  stored_by_post_run = true;
}

void FixJaegerHistory::set_maxexchange()
{
  long largest = 0;
  for (int i = 0; i < atom->nlocal; i++) largest = std::max(largest, store_size_by_value(i));
  maxexchange = demc_exchange::exchange_room((int) largest + 1, maxexchange);
}

/* ----------------------------------------------------------------------
   new neighbor list: rebuild the arena from the per-atom store
------------------------------------------------------------------------- */

void FixJaegerHistory::post_neighbor()
{
  NeighList *list = pair->list;
  const tagint *tag = atom->tag;
  const int nall = atom->nlocal + atom->nghost;
  // the records that the stores refer to are in the arena of the last list; the new arena is
  // laid out in the new list's order
  last_pool.swap(pool);
  pool.reserve(last_pool.size());
  free_lists.clear();
  first.assign(nall, 0);
  long total = 0;
  for (int ii = 0; ii < list->inum; ii++) {
    const int i = list->ilist[ii];
    first[i] = total;
    total += list->numneigh[i];
  }
  handles.assign(total, -1);

  for (int ii = 0; ii < list->inum; ii++) {
    const int i = list->ilist[ii];
    int *jlist = list->firstneigh[i];
    for (int jj = 0; jj < list->numneigh[i]; jj++) {
      // the neighbor build marks pairs that touch (as fix neigh/history expects); strip the
      // mark but restore every saved record: a pair that parted at this very step still
      // needs its last step (the work of the springs that leave)
      jlist[jj] &= HISTMASK;
      const double *saved = find(i, (double) tag[jlist[jj] & NEIGHMASK]);
      if (!saved) continue;
      const int length = (int) saved[R_LENGTH];
      // a record longer than a (new, smaller) history/max keeps its length here; the pair
      // style trims it with the kernel's merges before its next step
      copy_contents(saved, open(i, jj, std::max(MIN_CAPACITY, length + 1)));
    }
  }
  std::vector<double>().swap(last_pool);
  release_stores();    // (their references name records of the arena just freed)
}

/* the stores, read by a new neighbor list, emptied: between reneighborings the records live
   in the arena only (the values of a restart file or of migrated atoms are given back) */

void FixJaegerHistory::release_stores()
{
  for (auto &store : peratom) {
    store.clear();
    if (store.capacity() > RETAINED_STORE) std::vector<double>().swap(store);
  }
}

void FixJaegerHistory::min_post_neighbor()
{
  post_neighbor();
}

/* ----------------------------------------------------------------------
   memory statistics: contacts, mean and max stack length, arena bytes per
   contact (slack and free records included), merges (beta and capacity),
   points pruned
------------------------------------------------------------------------- */

void FixJaegerHistory::update_stats()
{
  if (stats_step == update->ntimestep) return;
  stats_step = update->ntimestep;
  double local[3] = {0.0, 0.0, (double) pool.size() * sizeof(double)};
  double longest = 0.0;
  for (long h : handles) {
    if (h < 0) continue;
    local[0] += 1.0;
    local[1] += pool[h + R_LENGTH];
    longest = std::max(longest, pool[h + R_LENGTH]);
  }
  const double counts[2] = {merges, pruned};
  reduce_stats(local, longest, counts, 2, stats);
}

/* values S_CONTACTS .. S_BYTES_PER_CONTACT of the vector from this rank's records (count, total
   length, bytes) and longest history, then `n` cumulative counts summed (collective) */
void FixJaegerHistory::reduce_stats(const double *records, double longest, const double *counts,
                                    int n, double *out) const
{
  static_assert(S_CONTACTS == 0 && S_MEAN_LENGTH == 1 && S_MAX_LENGTH == 2 &&
                    S_BYTES_PER_CONTACT == 3,
                "the counts follow the record statistics");
  double sum[3], global_longest = 0.0;
  // with newton off a contact with a ghost atom is held on both sides and counted twice
  MPI_Allreduce(records, sum, 3, MPI_DOUBLE, MPI_SUM, world);
  MPI_Allreduce(&longest, &global_longest, 1, MPI_DOUBLE, MPI_MAX, world);
  MPI_Allreduce(counts, out + S_BYTES_PER_CONTACT + 1, n, MPI_DOUBLE, MPI_SUM, world);
  out[S_CONTACTS] = sum[0];
  out[S_MEAN_LENGTH] = sum[0] > 0.0 ? sum[1] / sum[0] : 0.0;
  out[S_MAX_LENGTH] = global_longest;
  out[S_BYTES_PER_CONTACT] = sum[0] > 0.0 ? sum[2] / sum[0] : 0.0;
}

double FixJaegerHistory::compute_vector(int n)
{
  update_stats();
  return stats[n];
}

double FixJaegerHistory::memory_usage()
{
  double bytes = (double) pool.capacity() * sizeof(double);
  bytes += (double) (handles.capacity() + first.capacity()) * sizeof(long);
  for (const auto &store : peratom) bytes += (double) store.capacity() * sizeof(double);
  return bytes;
}

/* ---------------------------------------------------------------------- */

void FixJaegerHistory::grow_arrays(int nmax)
{
  peratom.resize(nmax);
}

void FixJaegerHistory::copy_arrays(int i, int j, int)
{
  if (i != j) peratom[j] = peratom[i];
}

void FixJaegerHistory::set_arrays(int i)
{
  peratom[i].clear();
}

int FixJaegerHistory::pack_exchange(int i, double *buf)
{
  const long n = copy_store_by_value(i, buf + 1);
  buf[0] = (double) n;
  return 1 + (int) n;
}

int FixJaegerHistory::unpack_exchange(int nlocal, double *buf)
{
  const int size = (int) buf[0];
  peratom[nlocal].assign(buf + 1, buf + 1 + size);
  return 1 + size;
}

/* ---------------------------------------------------------------------- */

int FixJaegerHistory::pack_reverse_comm_size(int n, int first_atom)
{
  int m = 0;
  for (int i = first_atom; i < first_atom + n; i++) m += 1 + (int) store_size_by_value(i);
  return m;
}

int FixJaegerHistory::pack_reverse_comm(int n, int first_atom, double *buf)
{
  int m = 0;
  for (int i = first_atom; i < first_atom + n; i++) m += pack_exchange(i, buf + m);
  return m;
}

void FixJaegerHistory::unpack_reverse_comm(int n, int *list, double *buf)
{
  int m = 0;
  for (int k = 0; k < n; k++) {
    const int size = (int) buf[m];
    auto &store = peratom[list[k]];
    store.insert(store.end(), buf + m + 1, buf + m + 1 + size);
    m += 1 + size;
  }
}

/* ----------------------------------------------------------------------
   restart: records go out with the atoms. Between runs (write_restart
   command) the copy made by post_run() is used: the command has moved the
   atoms since, so the neighbor list no longer matches them. So is a copy
   read from a restart file and not yet used by a run.

   Per-atom records: each atom's store [partner tag, record size, record]
   ..., spread evenly over the atoms' restart slots (demc_restart_records.h),
   so that reading a file back needs memory for the mean store, not the
   largest.
------------------------------------------------------------------------- */

void FixJaegerHistory::write_restart(FILE *fp)
{
  if (update->whichflag != 0 || !stored_by_post_run) pre_exchange();
  if (comm->me == 0) {
    int size = 0;
    fwrite(&size, sizeof(int), 1, fp);
  }
}

void FixJaegerHistory::restart(char *) {}

int FixJaegerHistory::maxsize_restart()
{
  // called by Modify::write_restart() on every rank, after write_restart() and before the
  // atoms' records are sized and packed (records of a file read since, not yet taken by an
  // init(): write_restart noinit)
  init_records_from_restart();
  store_by_value();
  restart_out.build(lmp, [this](int i) {
    return std::make_pair(peratom[i].data(), (long) peratom[i].size());
  });
  return restart_out.max_record_size(lmp);
}

int FixJaegerHistory::size_restart(int nlocal)
{
  return restart_out.record_size(lmp, nlocal);
}

int FixJaegerHistory::pack_restart(int i, double *buf)
{
  const int n = restart_out.pack(i, buf);
  if (i == atom->nlocal - 1) restart_out.clear();
  return n;
}

void FixJaegerHistory::unpack_restart(int nlocal, int nth)
{
  // a copy of the histories that write_restart may write again before a run (see above)
  stored_by_post_run = true;
  restart_in.take(lmp, nlocal, nth, "Fix DEMC/JAEGER_HISTORY");
}

// the records of a restart file whose stores sit with other atoms, to their atoms (collective)
void FixJaegerHistory::init_records_from_restart()
{
  restart_in.assemble(
      lmp, [this](int i, std::vector<double> &store) { restore_store(i, store); },
      "Fix DEMC/JAEGER_HISTORY");
  set_maxexchange();
}

void FixJaegerHistory::restore_store(int i, std::vector<double> &store)
{
  check_store(store);
  peratom[i] = std::move(store);
}

/* every entry of a store: a partner atom ID, a size, a record of header + 4 length values
   (checked before any of them is used as an integer); a record of another header (with or
   without the rolling and twisting resistance's slots) is refused */

void FixJaegerHistory::check_store(const std::vector<double> &store) const
{
  using demc_restart::checked_int;
  const std::string who = "Fix DEMC/JAEGER_HISTORY";
  for (size_t m = 0; m < store.size();) {
    const long left = (long) (store.size() - m);
    checked_int(lmp, (double) left, 2 + header, LONG_MAX, who + ": values left in a store");
    checked_int(lmp, store[m], 1, MAXTAGINT, who + ": partner atom ID");
    const long size = checked_int(lmp, store[m + 1], header, left - 2, who + ": record size");
    const double *rec = &store[m + 2];
    const long length =
        checked_int(lmp, rec[R_LENGTH], 0, (size - header) / POINT, who + ": history length");
    checked_int(lmp, (double) size, header + POINT * length, header + POINT * length,
                who + ": record size for its history length (with or without the rolling and "
                      "twisting resistance's values)");
    checked_int(lmp, rec[R_CAPACITY], 0, INT_MAX, who + ": record capacity");
    checked_int(lmp, rec[R_TYPES], 0, INT_MAX, who + ": record type pair");
    m += 2 + (size_t) size;
  }
}

/* ---------------------------------------------------------------------- */

int FixJaegerHistory::pack_forward_comm(int n, int *list, double *buf, int, int *)
{
  return ghost_partner_flags.pack(n, list, buf, atom->nlocal, [this](int i) {
    return !peratom[i].empty();
  });
}

void FixJaegerHistory::unpack_forward_comm(int n, int first, double *buf)
{
  ghost_partner_flags.unpack(n, first, buf);
}
