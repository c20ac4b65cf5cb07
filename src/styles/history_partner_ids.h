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
   each other back. Run once per run setup; O(atoms x partners^2). It sees
   only pairs of atoms owned by one process, and a renumbering only where an
   atom now holding a saved ID has contacts of its own: a check, not a proof.
------------------------------------------------------------------------- */

#ifndef DEMC_HISTORY_PARTNER_IDS_H
#define DEMC_HISTORY_PARTNER_IDS_H

#include "atom.h"
#include "error.h"
#include "fix.h"
#include "lammps.h"

#include <unordered_map>
#include <utility>
#include <vector>

namespace LAMMPS_NS {

/* What the saved partner IDs of this process's atoms say. partners(i, visit) calls visit(id)
   for every partner ID saved with local atom i. For each saved ID that names another local
   atom k:
   - k has partners and names i among them: the pair's record, as saved;
   - k has partners but does not name i: unmatched (the IDs have changed since);
   - k has none: stale. k is an atom created since (create_atoms, fix pour or fix deposit give
     new atoms the IDs above the largest left, which may be a deleted atom's), and i's entry is
     the deleted atom's contact: it must not act on k (it would on one side of the pair only).
   Partners owned by another process or deleted are not checked; an atom naming itself is in
   contact with its own periodic image (a box shorter than its diameter). */
struct SavedPartnerIds {
  bigint unmatched = 0;
  std::vector<std::pair<int, tagint>> stale;    // (local atom, the partner ID it must forget)
};

template <class Partners> SavedPartnerIds classify_partner_ids(const Atom *atom, Partners partners)
{
  const tagint *tag = atom->tag;
  const int nlocal = atom->nlocal;
  std::unordered_map<tagint, int> local_index;    // no atom map needed
  local_index.reserve(nlocal);
  for (int i = 0; i < nlocal; i++) local_index[tag[i]] = i;
  SavedPartnerIds ids;
  for (int i = 0; i < nlocal; i++) {
    partners(i, [&](tagint id) {
      const auto found = local_index.find(id);
      if (found == local_index.end() || found->second == i) return;
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
   forget(i, id) for every stale entry. Returns the number of entries forgotten here. */
template <class Partners, class Forget>
int check_partner_ids(LAMMPS *lmp, const Fix *fix, Partners partners, Forget forget)
{
  const SavedPartnerIds ids = classify_partner_ids(lmp->atom, partners);
  bigint all = 0;
  MPI_Allreduce(&ids.unmatched, &all, 1, MPI_LMP_BIGINT, MPI_SUM, lmp->world);
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
inline int check_neigh_history_partners(LAMMPS *lmp, const Fix *fix, int *npartner,
                                        tagint **partner, double **valuepartner, int dnum)
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
  return check_partner_ids(lmp, fix, partners, forget);
}

}    // namespace LAMMPS_NS

#endif
