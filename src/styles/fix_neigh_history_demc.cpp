/* ----------------------------------------------------------------------
   dem-contact: fix neigh/history that survives a write_restart command
   between runs with newton off (see the header for the why).
------------------------------------------------------------------------- */

#include "fix_neigh_history_demc.h"

#include "atom.h"
#include "comm.h"
#include "error.h"
#include "history_partner_ids.h"
#include "my_page.h"
#include "pair.h"
#include "update.h"

#include <algorithm>
#include <climits>
#include <cstring>

using namespace LAMMPS_NS;

FixNeighHistoryDemc::FixNeighHistoryDemc(LAMMPS *lmp, int narg, char **arg) :
    FixNeighHistory(lmp, narg, arg), stored_by_post_run(false)
{
  stores_ids = 1;      // partner atom IDs: reset_atoms id refuses
  comm_forward = 1;    // whether an atom has partners, to its ghosts (setup_post_neighbor())
}

void FixNeighHistoryDemc::setup_post_neighbor()
{
  stored_by_post_run = false;
  check_neigh_history_partners(lmp, this, npartner, partner, valuepartner, dnum,
                               ghost_partner_flags);
  FixNeighHistory::setup_post_neighbor();
}

void FixNeighHistoryDemc::post_neighbor()
{
  const int saved = pair->beyond_contact;
  pair->beyond_contact = 1;
  FixNeighHistory::post_neighbor();
  pair->beyond_contact = saved;
}

void FixNeighHistoryDemc::post_run()
{
  FixNeighHistory::post_run();
  stored_by_post_run = true;
}

void FixNeighHistoryDemc::write_restart(FILE *fp)
{
  // during a run (restart output) the neighbor list matches the atoms: refresh the copy
  if (update->whichflag != 0 || !stored_by_post_run) {
    FixNeighHistory::write_restart(fp);
    return;
  }
  // between runs: keep post_run()'s copy; write what the base class writes after copying
  if (comm->me == 0) {
    int size = 0;
    fwrite(&size, sizeof(int), 1, fp);
  }
}

/* ----------------------------------------------------------------------
   restart records spread evenly over the atoms (demc_restart_records.h)
------------------------------------------------------------------------- */

int FixNeighHistoryDemc::maxsize_restart()
{
  // called by Modify::write_restart() on every rank, after write_restart() has brought the
  // per-atom partner arrays up to date: each atom's record as FixNeighHistory packs it
  // (records of a file read since, not yet taken by an init(): write_restart noinit)
  init_records_from_restart();
  const int nlocal = atom->nlocal;
  std::vector<double> packed, one;
  std::vector<long> begin(nlocal + 1, 0);
  for (int i = 0; i < nlocal; i++) {
    if (npartner[i] > 0) {
      one.resize(2 + (size_t) npartner[i] * (dnum + 1));
      const int n = FixNeighHistory::pack_restart(i, one.data());
      packed.insert(packed.end(), one.begin() + 1, one.begin() + n);    // without the count
    }
    begin[i + 1] = (long) packed.size();
  }
  restart_out.build(lmp, RECORD_VERSION, [&](int i) {
    return std::make_pair(packed.data() + begin[i], begin[i + 1] - begin[i]);
  });
  return restart_out.max_record_size(lmp);
}

int FixNeighHistoryDemc::size_restart(int i)
{
  return restart_out.record_size(lmp, i);
}

int FixNeighHistoryDemc::pack_restart(int i, double *buf)
{
  const int n = restart_out.pack(i, buf);
  if (i == atom->nlocal - 1) restart_out.clear();
  return n;
}

void FixNeighHistoryDemc::unpack_restart(int nlocal, int nth)
{
  double **extra = atom->extra;
  int m = 0;
  for (int k = 0; k < nth; k++) m += static_cast<int>(extra[nlocal][m]);
  // a copy of the histories that write_restart may write again before a run
  stored_by_post_run = true;
  npartner[nlocal] = 0;
  const std::string who = fmt::format("Fix {}", style);
  if (demc_restart::is_versioned(&extra[nlocal][m + 1])) {
    restart_in.take(lmp, &extra[nlocal][m + 1], RECORD_VERSION, who);
    return;
  }
  // a file written before markers: the record is the payload, after LAMMPS's count
  const long count = demc_restart::checked_int(lmp, extra[nlocal][m], 2, atom->nextra_store - m,
                                               who + ": record size");
  const std::vector<double> payload(&extra[nlocal][m + 1], &extra[nlocal][m] + count);
  restore_partners(nlocal, payload, 0);
}

void FixNeighHistoryDemc::init()
{
  FixNeighHistory::init();
  init_records_from_restart();
}

// the records of a restart file that sit with other atoms, to their atoms (collective)
void FixNeighHistoryDemc::init_records_from_restart()
{
  restart_in.assemble(
      lmp,
      [this](int i, std::vector<double> &payload, int version) {
        restore_partners(i, payload, version);
      },
      fmt::format("Fix {}", style));
}

void FixNeighHistoryDemc::restore_partners(int i, const std::vector<double> &payload, int version)
{
  using demc_restart::checked_int;
  const std::string who = fmt::format("Fix {}", style);
  if (version != 0 && version != RECORD_VERSION)
    error->one(FLERR, "{}: no reader for record version {}", who, version);
  // values per partner in the file: histories grew at their end (gran/kuhn's dashpot force
  // before markers, gran/coulomb's in version 1), the values a file lacks come in as 0 (as the
  // setup of those versions took them)
  const long n = checked_int(lmp, payload[0], 0, (long) payload.size() - 1, who + ": partners");
  const long dnum_file = n > 0 ? ((long) payload.size() - 1) / n - 1 : dnum;
  checked_int(lmp, (double) payload.size(), 1 + n * (dnum_file + 1), 1 + n * (dnum_file + 1),
              who + ": values for its partners");
  checked_int(lmp, (double) dnum_file, 1, dnum, who + ": values per partner (another style's?)");
  if (ipage_atom == nullptr) allocate_pages();
  npartner[i] = (int) n;
  maxpartner = std::max(maxpartner, (int) n);
  partner[i] = ipage_atom->get(n);
  valuepartner[i] = dpage_atom->get(dnum * n);
  if (!partner[i] || !valuepartner[i])
    error->one(FLERR,
               "{}: atom {} has {} contact partners, more than a neighbor page holds: "
               "boost neigh_modify one",
               who, atom->tag[i], n);
  for (long p = 0; p < n; p++) {
    const double *entry = &payload[1 + p * (dnum_file + 1)];
    const tagint id = (tagint) ubuf(entry[0]).i;
    if (id < 1 || id > MAXTAGINT) error->one(FLERR, "{}: a partner atom ID of {}", who, id);
    partner[i][p] = id;
    for (long k = 0; k < dnum; k++)
      valuepartner[i][dnum * p + k] = k < dnum_file ? entry[1 + k] : 0.0;
  }
}

int FixNeighHistoryDemc::pack_forward_comm(int n, int *list, double *buf, int, int *)
{
  return ghost_partner_flags.pack(n, list, buf, atom->nlocal, [this](int i) {
    return npartner[i] > 0;
  });
}

void FixNeighHistoryDemc::unpack_forward_comm(int n, int first, double *buf)
{
  ghost_partner_flags.unpack(n, first, buf);
}
