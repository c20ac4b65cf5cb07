/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: LAMMPS's fix neigh/history/kk with two restart problems
   solved, for the package's Kokkos pair styles. The Kokkos analogue of
   FixNeighHistoryDemc (styles/fix_neigh_history_demc.h).

   1. write_restart between runs (newton off). FixNeighHistory::write_restart()
      calls pre_exchange(), which copies the per-contact history from the
      neighbor list into per-atom arrays. The write_restart command calls it
      after it has re-wrapped, exchanged and re-bordered the atoms, so the stale
      list attaches the histories of pairs with ghost atoms to the wrong
      partners, and the run that follows continues with them. FixNeighHistoryKokkos
      inherits that write_restart() (measured with gran/kuhn/kk: "run 150,
      write_restart, run 50" differs from "run 150, run 50" by O(1) in the
      forces). Between runs this class keeps the copy that post_run() made at
      the end of the last run, as FixNeighHistoryDemc does.

   2. Reading a restart file. FixNeighHistoryKokkos does not override
      FixNeighHistory::unpack_restart(), which stores the histories in host
      memory pages that the Kokkos arrays never see: the restarted run starts
      with no contact history. It also raises maxpartner without growing the
      Kokkos arrays, so an atom with more than 8 partners can make a later
      pre_exchange() write beyond them. This class unpacks into the Kokkos
      arrays instead (through unpack_exchange(), whose buffer layout it
      builds), growing them first; pack_restart() brings their host side up
      to date first (it matters on a GPU only).

   3. More than 8 partners per atom. pre_exchange_no_newton() sizes its
      per-atom partner arrays by trial: when an atom has more partners than
      maxpartner (initially 8) it grows k_partner and k_valuepartner but keeps
      using its device views d_partner and d_valuepartner of the old size
      (they are refreshed only by grow_arrays()), so the retry writes beyond
      them: histories are scrambled (measured: the tangential energy drops from
      4.7e-5 to 2e-7 J across one run boundary in a packing with 18 contacts
      per atom) and memory is corrupted. gran/hooke/history/kk shares this. Also,
      maxpartner is per rank while unpack_exchange_kokkos() writes an incoming
      atom's partners without a size check. This class counts the partners
      before pre_exchange() does, takes the maximum over all ranks, and grows
      the arrays through grow_arrays() when needed, so the trial never fails;
      setup_pre_exchange() does the same for histories read from a restart file
      before the first exchange.

   4. Time and memory traffic at each reneighboring. post_neighbor() zeroes all
      of firstflag and firstvalue (every slot of every atom, ghosts included,
      up to the list's maxneighs) before it fills the slots that have a
      partner. On host spaces with fewer than 4 threads Kokkos zeroes with one
      serial memset: with gran/jaeger/kk's large records that is most of the
      fix's time, and it does not speed up with threads. In host-only builds this class refills in place
      instead: one parallel pass over the list's atoms writes each slot that
      is read later (i in the list, jj < numneigh) once, with the partner's
      values or zeros. It also sets the flag of a slot without history to 0;
      LAMMPS's functor leaves the neighbor index there, a non-zero flag that
      makes the next pre_exchange() carry a record of zeros for every such
      neighbor until the pair style clears it. The base class still runs when
      its arrays must grow, when the atoms' tag array was reallocated (its
      functors keep a view of it), and in builds with a GPU (its partner
      arrays are private, their host copies are current only there).

   5. Setup time. The atom arrays of Kokkos grow by 1 % at a time while the
      ghost atoms are made, and each growth reallocated and copied the
      per-atom partner arrays (maxpartner records of dnum values per atom
      slot), many times while a large system is set up. grow_arrays() here gives them 1/8 more rows than asked
      for, and skips a call that needs no more rows than they have (and no
      other maxpartner).

   Only public and protected members of the LAMMPS classes are used: nothing
   in LAMMPS is patched.
------------------------------------------------------------------------- */

#ifndef DEMC_FIX_NEIGH_HISTORY_DEMC_KOKKOS_H
#define DEMC_FIX_NEIGH_HISTORY_DEMC_KOKKOS_H

#include "demc_restart_records.h"
#include "fix_neigh_history_kokkos.h"
#include "history_partner_ids.h"

#include <vector>

namespace LAMMPS_NS {

template <class DeviceType>
class FixNeighHistoryDemcKokkos : public FixNeighHistoryKokkos<DeviceType> {
 public:
  FixNeighHistoryDemcKokkos(class LAMMPS *, int, char **);
  void setup_pre_exchange() override;
  void grow_arrays(int) override;
  void *extract(const char *, int &) override;    // "partner_rows": rows of the partner arrays
  void pre_exchange() override;
  void setup_post_neighbor() override;
  void post_neighbor() override;
  void post_run() override;
  void init() override;
  void write_restart(FILE *) override;
  int maxsize_restart() override;
  int size_restart(int) override;
  int pack_restart(int, double *) override;
  void unpack_restart(int, int) override;
  int pack_forward_comm(int, int *, double *, int, int *) override;    // partner flags (host)
  void unpack_forward_comm(int, int, double *) override;

  // public only because a CUDA extended lambda may not sit in a protected member function
  int count_partners();
  void refill_slots_in_place();

 protected:
  bool stored_by_post_run;    // per-atom copy is current and no run has started since
  std::vector<double> scratch;
  PartnerFlagsOfGhosts ghost_partner_flags;
  /* restart records (demc_restart_records.h): per atom with partners the layout of
     FixNeighHistory::pack_restart() without its count, as the CPU fix's, read through the same
     check (demc_restart::checked_partner_payload()) */
  demc_restart::SpreadWriter restart_out;
  demc_restart::SpreadReader restart_in;
  void restore_partners(int i, const std::vector<double> &payload);
  void init_records_from_restart();

  void ensure_partner_capacity(int needed_here);
  int partner_rows, partner_columns;    // the per-atom partner arrays' size (atoms, maxpartner)
  const void *tag_data_of_base;         // the tag array the base class's functors hold a view of
  bool can_refill_in_place() const;
};

}    // namespace LAMMPS_NS

#endif
