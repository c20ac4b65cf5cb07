/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: fix neigh/history that survives a write_restart command
   between runs with newton off.

   LAMMPS's FixNeighHistory::write_restart() copies the per-contact history
   from the neighbor list into per-atom arrays. The write_restart command
   calls it after it has re-wrapped, exchanged and re-bordered the atoms,
   so with newton off the (now stale) neighbor list attaches histories to
   the wrong partners, and a restarted run diverges (LAMMPS's own
   gran/hooke/history shows it too). The copy made by post_run() at the end
   of the last run is still correct and has migrated with the atoms, so
   between runs this class writes that one instead.

   It also restores the history of pairs that parted exactly at a reneighboring
   (Pair::beyond_contact set only while it rebuilds, so that LAMMPS computes that
   refuse pair styles with beyond_contact, e.g. compute fabric, still work): the
   pair style then sees them part and books their stored energy as dissipated.

   Its per-atom restart records are spread evenly over the atoms
   (demc_restart_records.h): reading a file back needs memory for the mean
   number of partners, not the largest.
------------------------------------------------------------------------- */

#ifdef FIX_CLASS
// clang-format off
FixStyle(DEMC/NEIGH_HISTORY,FixNeighHistoryDemc);
// clang-format on
#else

#ifndef DEMC_FIX_NEIGH_HISTORY_DEMC_H
#define DEMC_FIX_NEIGH_HISTORY_DEMC_H

#include "demc_restart_records.h"
#include "fix_neigh_history.h"
#include "history_partner_ids.h"

#include <vector>

namespace LAMMPS_NS {

class FixNeighHistoryDemc : public FixNeighHistory {
 public:
  FixNeighHistoryDemc(class LAMMPS *, int, char **);
  void setup_post_neighbor() override;
  void post_neighbor() override;
  void post_run() override;
  void init() override;
  void write_restart(FILE *) override;
  int maxsize_restart() override;
  int size_restart(int) override;
  int pack_restart(int, double *) override;
  void unpack_restart(int, int) override;
  int pack_forward_comm(int, int *, double *, int, int *) override;    // partner flags
  void unpack_forward_comm(int, int, double *) override;

 protected:
  bool stored_by_post_run;    // per-atom copy is current and no run has started since
  PartnerFlagsOfGhosts ghost_partner_flags;

  /* restart records: per atom with partners the layout of FixNeighHistory::pack_restart()
     without its count (n, then per partner its ID as LAMMPS's ubuf and dnum values), spread
     evenly over the atoms (demc_restart_records.h) */
  demc_restart::SpreadWriter restart_out;
  demc_restart::SpreadReader restart_in;
  void restore_partners(int i, const std::vector<double> &payload);
  void init_records_from_restart();
};

}    // namespace LAMMPS_NS

#endif
#endif
