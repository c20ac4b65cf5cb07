/* ----------------------------------------------------------------------
   dem-contact: fix neigh/history/kk with its restart problems solved
   (see the header for the why).
------------------------------------------------------------------------- */

#include "fix_neigh_history_demc_kokkos.h"

#include "atom_kokkos.h"
#include "atom_masks.h"
#include "comm.h"
#include "error.h"
#include "history_partner_ids.h"
#include "neigh_list_kokkos.h"
#include "pair.h"
#include "update.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>

using namespace LAMMPS_NS;

template <class DeviceType>
FixNeighHistoryDemcKokkos<DeviceType>::FixNeighHistoryDemcKokkos(LAMMPS *lmp, int narg,
                                                                 char **arg) :
    FixNeighHistoryKokkos<DeviceType>(lmp, narg, arg), stored_by_post_run(false),
    tag_data_of_base(nullptr)
{
  // the base constructor's grow_arrays(atom->nmax) ran before this class existed
  partner_rows = this->atom->nmax;
  partner_columns = this->maxpartner;
  this->stores_ids = 1;      // partner atom IDs: reset_atoms id refuses
  this->comm_forward = 1;    // whether an atom has partners, to its ghosts (setup_post_neighbor())
}

/* ----------------------------------------------------------------------
   per-atom partner arrays with room to spare (see the header, point 5)
------------------------------------------------------------------------- */

template <class DeviceType> void FixNeighHistoryDemcKokkos<DeviceType>::grow_arrays(int nmax)
{
  if (nmax <= partner_rows && this->maxpartner == partner_columns) return;
  if (nmax > partner_rows) partner_rows = MAX(nmax, partner_rows + partner_rows / 8);
  partner_columns = this->maxpartner;
  FixNeighHistoryKokkos<DeviceType>::grow_arrays(partner_rows);
}

template <class DeviceType>
void *FixNeighHistoryDemcKokkos<DeviceType>::extract(const char *name, int &dim)
{
  dim = 0;
  return strcmp(name, "partner_rows") == 0 ? &partner_rows : nullptr;
}

/* ----------------------------------------------------------------------
   the most partners any atom of this rank will have in pre_exchange(): the
   count of pre_exchange_no_newton(), on the device
------------------------------------------------------------------------- */

template <class DeviceType> int FixNeighHistoryDemcKokkos<DeviceType>::count_partners()
{
  if (this->pair == nullptr || this->pair->list == nullptr) return 0;
  auto *k_list = static_cast<NeighListKokkos<DeviceType> *>(this->pair->list);
  const int inum = this->pair->list->inum;
  const int nlocal_neigh = this->nlocal_neigh;
  if (inum == 0 || nlocal_neigh == 0) return 0;
  this->k_firstflag.template sync<DeviceType>();
  const auto flag = this->k_firstflag.template view<DeviceType>();
  const auto ilist = k_list->d_ilist;
  const auto numneigh = k_list->d_numneigh;
  const auto neighbors = k_list->d_neighbors;
  Kokkos::View<int *, DeviceType> count("neighbor_history:count", nlocal_neigh);
  Kokkos::parallel_for(
      "FixNeighHistoryDemcKokkos::count", Kokkos::RangePolicy<DeviceType>(0, inum),
      KOKKOS_LAMBDA(const int ii) {
        const int i = ilist(ii);
        for (int jj = 0; jj < numneigh(i); jj++) {
          if (!flag(i, jj)) continue;
          Kokkos::atomic_inc(&count(i));
          const int j = neighbors(i, jj) & NEIGHMASK;
          if (j < nlocal_neigh) Kokkos::atomic_inc(&count(j));
        }
      });
  int most = 0;
  Kokkos::parallel_reduce(
      "FixNeighHistoryDemcKokkos::max", Kokkos::RangePolicy<DeviceType>(0, nlocal_neigh),
      KOKKOS_LAMBDA(const int i, int &m) { m = count(i) > m ? count(i) : m; },
      Kokkos::Max<int>(most));
  return most;
}

/* ----------------------------------------------------------------------
   make maxpartner at least the largest need of any rank (collective), and
   grow the Kokkos arrays through grow_arrays(), which also renews the
   device views pre_exchange_no_newton() writes through
------------------------------------------------------------------------- */

template <class DeviceType>
void FixNeighHistoryDemcKokkos<DeviceType>::ensure_partner_capacity(int needed_here)
{
  int mine = MAX(needed_here, this->maxpartner);    // not const: MPI stubs take void *
  int needed = mine;
  MPI_Allreduce(&mine, &needed, 1, MPI_INT, MPI_MAX, this->world);
  if (needed <= this->maxpartner) return;
  this->maxpartner = 8 * ((needed + 7) / 8);
  this->grow_arrays(this->atom->nmax);
}

template <class DeviceType> void FixNeighHistoryDemcKokkos<DeviceType>::pre_exchange()
{
  // newton on / onesided: the base class stops with its error message
  if (!this->newton_pair && !this->onesided) ensure_partner_capacity(count_partners());
  FixNeighHistoryKokkos<DeviceType>::pre_exchange();
}

// before the exchange of a run's setup: restart files may have raised maxpartner on some ranks
template <class DeviceType> void FixNeighHistoryDemcKokkos<DeviceType>::setup_pre_exchange()
{
  ensure_partner_capacity(0);
}

/* Histories of pairs that parted exactly at a reneighboring are restored too
   (Pair::beyond_contact only while rebuilding, as FixNeighHistoryDemc does), so that
   the pair style books their stored energy as dissipated, like the CPU style. */
template <class DeviceType> void FixNeighHistoryDemcKokkos<DeviceType>::post_neighbor()
{
  const int saved = this->pair->beyond_contact;
  this->pair->beyond_contact = 1;
  if (can_refill_in_place()) {
    refill_slots_in_place();
  } else {
    FixNeighHistoryKokkos<DeviceType>::post_neighbor();
    tag_data_of_base = this->atomKK->k_tag.template view<DeviceType>().data();
  }
  this->pair->beyond_contact = saved;
}

/* ----------------------------------------------------------------------
   whether post_neighbor() may skip the base class (see the header, point 4):
   host-only build, arrays large enough, and the tag array the base class's
   functors hold is still the atoms' (a reallocated one has another address,
   as the held view keeps the old one alive)
------------------------------------------------------------------------- */

template <class DeviceType> bool FixNeighHistoryDemcKokkos<DeviceType>::can_refill_in_place() const
{
#ifdef LMP_KOKKOS_GPU
  return false;
#else
  if (this->pair == nullptr || this->pair->list == nullptr) return false;
  const auto *k_list = static_cast<NeighListKokkos<DeviceType> *>(this->pair->list);
  return tag_data_of_base != nullptr &&
      tag_data_of_base == this->atomKK->k_tag.template view<DeviceType>().data() &&
      this->maxatom >= this->atom->nlocal &&
      k_list->maxneighs <= (int) this->k_firstflag.template view<DeviceType>().extent(1);
#endif
}

/* ----------------------------------------------------------------------
   what FixNeighHistoryKokkos::post_neighbor() does with beyond_contact = 1,
   in one parallel pass that writes only the slots that are read: each slot
   of a listed atom gets its partner's values (flag 1) or zeros (flag 0).
   The partner arrays are read through FixNeighHistory's host pointers,
   which in a host-only build address the Kokkos arrays themselves.
------------------------------------------------------------------------- */

template <class DeviceType> void FixNeighHistoryDemcKokkos<DeviceType>::refill_slots_in_place()
{
#ifndef LMP_KOKKOS_GPU
  this->atomKK->sync(this->execution_space, TAG_MASK);
  this->k_firstflag.template sync<DeviceType>();
  this->k_firstvalue.template sync<DeviceType>();
  this->nlocal_neigh = this->atom->nlocal;
  this->nall_neigh = this->atom->nlocal + this->atom->nghost;
  auto *k_list = static_cast<NeighListKokkos<DeviceType> *>(this->pair->list);
  const auto ilist = k_list->d_ilist;
  const auto numneigh = k_list->d_numneigh;
  const auto neighbors = k_list->d_neighbors;
  const auto flag = this->k_firstflag.template view<DeviceType>();
  const auto values = this->k_firstvalue.template view<DeviceType>();
  const auto tag = this->atomKK->k_tag.template view<DeviceType>();
  const int *npartner = this->npartner;
  tagint *const *partner = this->partner;
  double *const *valuepartner = this->valuepartner;
  const int dnum = this->dnum;
  Kokkos::parallel_for("FixNeighHistoryDemcKokkos::refill",
                       Kokkos::RangePolicy<DeviceType>(0, k_list->inum), [=](const int ii) {
                         const int i = ilist(ii);
                         const int np = npartner[i];
                         for (int jj = 0; jj < numneigh(i); jj++) {
                           const tagint jtag = tag(neighbors(i, jj) & NEIGHMASK);
                           int m = 0;
                           while (m < np && partner[i][m] != jtag) m++;
                           flag(i, jj) = m < np ? 1 : 0;
                           auto *slot = &values(i, dnum * jj);
                           if (m < np)
                             for (int k = 0; k < dnum; k++) slot[k] = valuepartner[i][dnum * m + k];
                           else
                             for (int k = 0; k < dnum; k++) slot[k] = 0.0;
                         }
                       });
  this->k_firstflag.template modify<DeviceType>();
  this->k_firstvalue.template modify<DeviceType>();
#endif
}

template <class DeviceType> void FixNeighHistoryDemcKokkos<DeviceType>::setup_post_neighbor()
{
  stored_by_post_run = false;
  // the host side of the partner arrays, brought up to date the public way (see pack_restart())
  if (this->atom->nlocal > 0) {
    scratch.resize((size_t) (this->dnum + 1) * this->maxpartner + 1);
    FixNeighHistoryKokkos<DeviceType>::pack_exchange(0, scratch.data());
  }
  const int forgotten =
      check_neigh_history_partners(this->lmp, this, this->npartner, this->partner,
                                   this->valuepartner, this->dnum, ghost_partner_flags);
  // the host side changed: marked so the public way (copying an atom onto itself, which changes
  // nothing else), and the base class's post_neighbor() takes it to the device
  if (forgotten > 0) FixNeighHistoryKokkos<DeviceType>::copy_arrays(0, 0, 0);
  FixNeighHistoryKokkos<DeviceType>::setup_post_neighbor();
}

// the host side of the partner counts, current in setup_post_neighbor() (its only caller)
template <class DeviceType>
int FixNeighHistoryDemcKokkos<DeviceType>::pack_forward_comm(int n, int *list, double *buf, int,
                                                             int *)
{
  return ghost_partner_flags.pack(n, list, buf, this->atom->nlocal, [this](int i) {
    return this->npartner[i] > 0;
  });
}

template <class DeviceType>
void FixNeighHistoryDemcKokkos<DeviceType>::unpack_forward_comm(int n, int first, double *buf)
{
  ghost_partner_flags.unpack(n, first, buf);
}

template <class DeviceType> void FixNeighHistoryDemcKokkos<DeviceType>::post_run()
{
  FixNeighHistoryKokkos<DeviceType>::post_run();
  stored_by_post_run = true;
}

template <class DeviceType> void FixNeighHistoryDemcKokkos<DeviceType>::write_restart(FILE *fp)
{
  // during a run (restart output) the neighbor list matches the atoms: refresh the copy
  if (this->update->whichflag != 0 || !stored_by_post_run) {
    FixNeighHistoryKokkos<DeviceType>::write_restart(fp);
    return;
  }
  // between runs: keep post_run()'s copy; write what the base class writes after copying
  if (this->comm->me == 0) {
    int size = 0;
    fwrite(&size, sizeof(int), 1, fp);
  }
}

/* ----------------------------------------------------------------------
   restart records spread evenly over the atoms (demc_restart_records.h):
   per atom with partners the layout of
   FixNeighHistory::pack_restart() without its count (n, then per partner its
   ID as LAMMPS's ubuf and dnum values). FixNeighHistory::pack_restart() reads
   the host side of the Kokkos arrays; pack_exchange() is the public way to
   bring it up to date (it syncs first).
------------------------------------------------------------------------- */

template <class DeviceType> int FixNeighHistoryDemcKokkos<DeviceType>::maxsize_restart()
{
  // (records of a file read since, not yet taken by an init(): write_restart noinit)
  init_records_from_restart();
  const int nlocal = this->atom->nlocal, dnum = this->dnum;
  const int *npartner = this->npartner;
  std::vector<double> packed, one;
  std::vector<long> begin(nlocal + 1, 0);
  for (int i = 0; i < nlocal; i++) {
    scratch.resize((size_t) (dnum + 1) * this->maxpartner + 1);
    FixNeighHistoryKokkos<DeviceType>::pack_exchange(i, scratch.data());
    if (npartner[i] > 0) {
      one.resize(2 + (size_t) npartner[i] * (dnum + 1));
      const int n = FixNeighHistory::pack_restart(i, one.data());
      packed.insert(packed.end(), one.begin() + 1, one.begin() + n);    // without the count
    }
    begin[i + 1] = (long) packed.size();
  }
  restart_out.build(this->lmp, [&](int i) {
    return std::make_pair(packed.data() + begin[i], begin[i + 1] - begin[i]);
  });
  return restart_out.max_record_size(this->lmp);
}

template <class DeviceType> int FixNeighHistoryDemcKokkos<DeviceType>::size_restart(int i)
{
  return restart_out.record_size(this->lmp, i);
}

template <class DeviceType>
int FixNeighHistoryDemcKokkos<DeviceType>::pack_restart(int i, double *buf)
{
  const int n = restart_out.pack(i, buf);
  if (i == this->atom->nlocal - 1) restart_out.clear();
  return n;
}

template <class DeviceType>
void FixNeighHistoryDemcKokkos<DeviceType>::unpack_restart(int nlocal, int nth)
{
  stored_by_post_run = true;    // a copy that write_restart may write again before a run
  restore_partners(nlocal, {0.0});    // none until init()
  restart_in.take(this->lmp, nlocal, nth, fmt::format("Fix {}", this->style));
}

template <class DeviceType> void FixNeighHistoryDemcKokkos<DeviceType>::init()
{
  FixNeighHistoryKokkos<DeviceType>::init();
  init_records_from_restart();
}

// the records of a restart file that sit with other atoms, to their atoms (collective)
template <class DeviceType> void FixNeighHistoryDemcKokkos<DeviceType>::init_records_from_restart()
{
  restart_in.assemble(
      this->lmp, [this](int i, std::vector<double> &payload) { restore_partners(i, payload); },
      fmt::format("Fix {}", this->style));
}

/* ----------------------------------------------------------------------
   the partners of atom i from a restart payload (checked as the CPU fix's)
   into the Kokkos arrays, through unpack_exchange() (layout: n, the n IDs,
   then the n*dnum values), which syncs and marks the host side
------------------------------------------------------------------------- */

template <class DeviceType>
void FixNeighHistoryDemcKokkos<DeviceType>::restore_partners(int i,
                                                             const std::vector<double> &payload)
{
  const int dnum = this->dnum;
  const int n = (int) demc_restart::checked_partner_payload(
      this->lmp, payload, dnum, fmt::format("Fix {}", this->style));
  if (n > this->maxpartner) {    // grow the Kokkos arrays (contents kept) before writing
    this->maxpartner = n;
    this->grow_arrays(this->atom->nmax);
  }
  scratch.assign((size_t) (dnum + 1) * n + 1, 0.0);
  scratch[0] = n;
  for (int p = 0; p < n; p++) {
    const double *entry = &payload[1 + (size_t) p * (dnum + 1)];
    scratch[1 + p] = (double) (tagint) ubuf(entry[0]).i;
    for (int k = 0; k < dnum; k++) scratch[1 + n + dnum * p + k] = entry[1 + k];
  }
  FixNeighHistoryKokkos<DeviceType>::unpack_exchange(i, scratch.data());
}

namespace LAMMPS_NS {
template class FixNeighHistoryDemcKokkos<LMPDeviceType>;
#ifdef LMP_KOKKOS_GPU
template class FixNeighHistoryDemcKokkos<LMPHostType>;
#endif
}    // namespace LAMMPS_NS
