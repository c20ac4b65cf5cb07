/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: do the contact histories saved with the atoms still belong to
   the atoms' IDs?

   Between runs (and while atoms migrate) the history fixes keep each contact
   with its atoms, under the partner's atom ID. A command that renumbers the
   atoms -- delete_atoms with compress yes (its default for atomic systems) or
   condense yes -- leaves those IDs naming other atoms, and the next run would
   attach the histories to the wrong pairs without notice (LAMMPS's own
   gran/hooke/history does; measured: 2 processes then disagree with 1).
   reset_atoms id refuses by itself when a fix sets stores_ids, as these do.

   The test: a contact between two atoms owned by one process is saved with
   both, each naming the other. After a renumbering, partners no longer name
   each other back. Run once per run setup; O(atoms x partners^2). It sees a
   renumbering only in pairs of atoms owned by one process where the atom now
   holding a saved ID has contacts of its own: a check, not a proof. Entries
   naming an atom (local or ghost) without contacts of its own are dropped: a
   new atom that took a deleted atom's ID must not inherit its contacts.
------------------------------------------------------------------------- */

#ifndef DEMC_HISTORY_PARTNER_IDS_H
#define DEMC_HISTORY_PARTNER_IDS_H

#include "atom.h"
#include "comm.h"
#include "error.h"
#include "fix.h"
#include "lammps.h"

#include <unordered_map>
#include <utility>
#include <vector>

namespace LAMMPS_NS {

/* Whether each ghost atom has saved partners on its owner, sent by a forward communication
   of the history fix (its pack_forward_comm() and unpack_forward_comm() call pack() and
   unpack(), with its own test of a local atom; comm_forward = 1). Later swaps of a forward
   communication pass on ghosts received in earlier ones: their flags are sent as received. */
class PartnerFlagsOfGhosts {
 public:
  template <class LocalTest>
  int pack(int n, const int *list, double *buf, int nlocal, LocalTest local_has_partners) const
  {
    for (int k = 0; k < n; k++) {
      const int i = list[k];
      buf[k] = (i < nlocal ? local_has_partners(i) : has_partners(i)) ? 1.0 : 0.0;
    }
    return n;
  }
  void unpack(int n, int first, const double *buf)
  {
    if ((int) flags.size() < first + n) flags.resize(first + n, 0);
    for (int k = 0; k < n; k++) flags[first + k] = buf[k] != 0.0;
  }
  bool has_partners(int ghost) const { return ghost < (int) flags.size() && flags[ghost]; }
  void clear() { flags.assign(flags.size(), 0); }

 private:
  std::vector<char> flags;    // by atom index; local atoms' entries unused
};

/* What the saved partner IDs of this process's atoms say. partners(i, visit) calls visit(id)
   for every partner ID saved with local atom i. For each saved ID that names another local
   atom k:
   - k has partners and names i among them: the pair's record, as saved;
   - k has partners but does not name i: unmatched (the IDs have changed since);
   - k has none: stale. k is an atom created since (create_atoms, fix pour or fix deposit give
     new atoms the IDs above the largest left, which may be a deleted atom's), and i's entry is
     the deleted atom's contact: it must not act on k (it would on one side of the pair only).
   A saved ID of an atom owned by another process is stale when that atom, a ghost here, has no
   partners on its owner (ghost_flags, from PartnerFlagsOfGhosts); whether it names i back is not
   checked. Deleted atoms' IDs that name no atom are not counted (they act on nothing); an atom
   naming itself is in contact with its own periodic image (a box shorter than its diameter). */
struct SavedPartnerIds {
  bigint unmatched = 0;
  std::vector<std::pair<int, tagint>> stale;    // (local atom, the partner ID it must forget)
};

template <class Partners>
SavedPartnerIds classify_partner_ids(const Atom *atom, Partners partners,
                                     const PartnerFlagsOfGhosts &ghost_flags)
{
  const tagint *tag = atom->tag;
  const int nlocal = atom->nlocal;
  const int nall = nlocal + atom->nghost;
  std::unordered_map<tagint, int> local_index, ghost_index;    // no atom map needed
  local_index.reserve(nlocal);
  for (int i = 0; i < nlocal; i++) local_index[tag[i]] = i;
  ghost_index.reserve(nall - nlocal);
  for (int j = nlocal; j < nall; j++) ghost_index.emplace(tag[j], j);    // any image will do
  SavedPartnerIds ids;
  for (int i = 0; i < nlocal; i++) {
    partners(i, [&](tagint id) {
      const auto found = local_index.find(id);
      if (found == local_index.end()) {
        const auto ghost = ghost_index.find(id);
        if (ghost != ghost_index.end() && !ghost_flags.has_partners(ghost->second))
          ids.stale.emplace_back(i, id);
        return;
      }
      if (found->second == i) return;
      bool has_partners = false, named_back = false;
      partners(found->second, [&](tagint back) {
        has_partners = true;
        named_back = named_back || back == tag[i];
      });
      if (!has_partners)
        ids.stale.emplace_back(i, id);
      else if (!named_back)
        ids.unmatched++;
    });
  }
  return ids;
}

/* error->all on every process when any process holds unmatched partner IDs; otherwise
   forget(i, id) for every stale entry. Returns the number of entries forgotten here. Collective:
   it sends the ghosts' partner flags (fix's forward communication into ghost_flags) first. */
template <class Partners, class Forget>
int check_partner_ids(LAMMPS *lmp, Fix *fix, Partners partners, Forget forget,
                      PartnerFlagsOfGhosts &ghost_flags)
{
  ghost_flags.clear();
  lmp->comm->forward_comm(fix);
  const SavedPartnerIds ids = classify_partner_ids(lmp->atom, partners, ghost_flags);
  // a copy that is not const: the MPI stubs of a LAMMPS built without MPI take void *
  bigint unmatched = ids.unmatched, all = 0;
  MPI_Allreduce(&unmatched, &all, 1, MPI_LMP_BIGINT, MPI_SUM, lmp->world);
  if (all > 0)
    lmp->error->all(FLERR,
                    "Fix {} ({}): {} contact histories saved with the atoms name a partner atom "
                    "that does not name them back: atom IDs have changed since the histories "
                    "were saved (delete_atoms renumbers atoms unless given compress no), and the "
                    "histories would act between other pairs. Use delete_atoms ... compress no",
                    fix->id, fix->style, all);
  for (const auto &entry : ids.stale) forget(entry.first, entry.second);
  return (int) ids.stale.size();
}

/* check_partner_ids() on fix neigh/history's partner arrays (or the host side of the Kokkos
   ones); a stale entry is replaced by the atom's last one. */
inline int check_neigh_history_partners(LAMMPS *lmp, Fix *fix, int *npartner, tagint **partner,
                                        double **valuepartner, int dnum,
                                        PartnerFlagsOfGhosts &ghost_flags)
{
  auto partners = [=](int i, auto visit) {
    for (int m = 0; m < npartner[i]; m++) visit(partner[i][m]);
  };
  auto forget = [=](int i, tagint id) {
    for (int m = 0; m < npartner[i]; m++) {
      if (partner[i][m] != id) continue;
      const int last = --npartner[i];
      partner[i][m] = partner[i][last];
      for (int k = 0; k < dnum; k++)
        valuepartner[i][dnum * m + k] = valuepartner[i][dnum * last + k];
      return;
    }
  };
  return check_partner_ids(lmp, fix, partners, forget, ghost_flags);
}

}    // namespace LAMMPS_NS

#endif
