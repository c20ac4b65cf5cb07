/* ----------------------------------------------------------------------
   dem-contact: fix neigh/history that survives a write_restart command
   between runs with newton off (see the header for the why).
------------------------------------------------------------------------- */

#include "fix_neigh_history_demc.h"

#include "comm.h"
#include "history_partner_ids.h"
#include "pair.h"
#include "update.h"

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
