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
   each other back. Run once per run setup; O(atoms x partners^2).
------------------------------------------------------------------------- */

#ifndef DEMC_HISTORY_PARTNER_IDS_H
#define DEMC_HISTORY_PARTNER_IDS_H

#include "atom.h"
#include "error.h"
#include "fix.h"
#include "lammps.h"

#include <unordered_map>

namespace LAMMPS_NS {

/* Saved partner IDs of local atoms i that name i itself, or an atom k of this process that
   has partners but does not name i among them. partners(i, visit) calls visit(id) for every
   partner ID saved with local atom i. Partners owned by another process, deleted, or new
   (created since, with no partners: they may reuse a deleted atom's ID) are not counted. */
template <class Partners> bigint unmatched_partner_ids(const Atom *atom, Partners partners)
{
  const tagint *tag = atom->tag;
  const int nlocal = atom->nlocal;
  std::unordered_map<tagint, int> local_index;    // no atom map needed
  local_index.reserve(nlocal);
  for (int i = 0; i < nlocal; i++) local_index[tag[i]] = i;
  bigint unmatched = 0;
  for (int i = 0; i < nlocal; i++) {
    partners(i, [&](tagint id) {
      const auto found = local_index.find(id);
      if (found == local_index.end()) return;
      if (found->second == i) {
        unmatched++;
        return;
      }
      bool has_partners = false, named_back = false;
      partners(found->second, [&](tagint back) {
        has_partners = true;
        named_back = named_back || back == tag[i];
      });
      if (has_partners && !named_back) unmatched++;
    });
  }
  return unmatched;
}

// error->all on every process when any process holds unmatched partner IDs
template <class Partners> void check_partner_ids(LAMMPS *lmp, const Fix *fix, Partners partners)
{
  const bigint mine = unmatched_partner_ids(lmp->atom, partners);
  bigint all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_LMP_BIGINT, MPI_SUM, lmp->world);
  if (all == 0) return;
  lmp->error->all(FLERR,
                  "Fix {} ({}): {} contact histories saved with the atoms name a partner atom "
                  "that does not name them back: atom IDs have changed since the histories were "
                  "saved (delete_atoms renumbers atoms unless given compress no), and the "
                  "histories would act between other pairs. Use delete_atoms ... compress no",
                  fix->id, fix->style, all);
}

}    // namespace LAMMPS_NS

#endif
