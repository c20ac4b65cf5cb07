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
  restart_out.build(lmp, [&](int i) {
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
  // a copy of the histories that write_restart may write again before a run
  stored_by_post_run = true;
  npartner[nlocal] = 0;
  restart_in.take(lmp, nlocal, nth, fmt::format("Fix {}", style));
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
      lmp, [this](int i, std::vector<double> &payload) { restore_partners(i, payload); },
      fmt::format("Fix {}", style));
}

void FixNeighHistoryDemc::restore_partners(int i, const std::vector<double> &payload)
{
  const std::string who = fmt::format("Fix {}", style);
  const long n = demc_restart::checked_partner_payload(lmp, payload, dnum, who);
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
    const double *entry = &payload[1 + p * (dnum + 1)];
    partner[i][p] = (tagint) ubuf(entry[0]).i;
    for (long k = 0; k < dnum; k++) valuepartner[i][dnum * p + k] = entry[1 + k];
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
