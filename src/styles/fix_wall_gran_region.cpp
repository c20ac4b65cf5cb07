/* ----------------------------------------------------------------------
   dem-contact: faithful DEM contact laws for LAMMPS (plugin package)
   fix wall/gran/region/kuhn, fix wall/gran/region/jaeger: a LAMMPS
   region's surfaces as walls with the package's contact laws (see header).
------------------------------------------------------------------------- */

#include "fix_wall_gran_region.h"

#include "atom.h"
#include "comm.h"
#include "domain.h"
#include "error.h"
#include "modify.h"
#include "update.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <type_traits>

using namespace LAMMPS_NS;
using demc::Vec3;

namespace {
Vec3 vec(const double *a)
{
  return {a[0], a[1], a[2]};
}

// Region keeps its rotation point and unit axis protected; a pointer to the member taken in a
// derived class reads them without changing LAMMPS (never instantiated)
struct RegionPivot : Region {
  static Vec3 unit_axis(const Region *r) { return vec(r->*(&RegionPivot::runit)); }
  static Vec3 pivot(const Region *r) { return vec(r->*(&RegionPivot::point)); }
};

/* a particle near the region is searched for surfaces within this many radii of its centre:
   the touching ones and those it has just left (a particle moves by far less than half a
   radius in a step), whose geometry closes their records */
constexpr double SEARCH_RADII = 1.5;
}    // namespace

/* ----------------------------------------------------------------------
   fix ID group wall/gran/region/kuhn kn kt mu [keywords] region REGION-ID [keywords]
   fix ID group wall/gran/region/jaeger E nu mu [keywords] region REGION-ID [keywords]
------------------------------------------------------------------------- */

// (the law's constructor has checked the region: an error after it would leave its callbacks)
template <class Law>
FixWallGranRegion<Law>::FixWallGranRegion(LAMMPS *lmp, int narg, char **arg) :
    Law(lmp, narg, arg), region(nullptr), last{{0.0, 0.0, 0.0}, 0.0}, placed(false),
    axis{0.0, 0.0, 0.0}, pivot{0.0, 0.0, 0.0}, reference{0.0, 0.0, 0.0}, step_move{0.0, 0.0, 0.0},
    step_turn(0.0)
{
  region = find_region();
  this->size_vector = FixWallGranDemc::V_REGION_SIZE;
  this->maxexchange_dynamic = 1;
  this->maxexchange = 1;
  FixWallGranRegion::grow_arrays(this->atom->nmax);
  for (int i = 0; i < this->atom->nlocal; i++) FixWallGranRegion::set_arrays(i);
}

template <class Law> FixWallGranRegion<Law>::~FixWallGranRegion() = default;

template <class Law> Region *FixWallGranRegion<Law>::find_region() const
{
  Region *r = this->domain->get_region_by_id(this->region_id);
  if (!r) this->error->all(FLERR, this->law_error("region {} does not exist"), this->region_id);
  if (r->varshape)
    this->error->all(FLERR, this->law_error("region {} changes its shape with variables"),
                     this->region_id);
  if (r->dynamic && r->reglist)
    this->error->all(FLERR, this->law_error("region {} joins regions that move"), this->region_id);
  return r;
}

// the region again (it may have been redefined between runs): its axis and rotation point
template <class Law> void FixWallGranRegion<Law>::init()
{
  Law::init();
  init_lists_from_restart();
  region = find_region();
  axis = region->rotateflag ? RegionPivot::unit_axis(region) : Vec3{0.0, 0.0, 0.0};
  pivot = region->rotateflag ? RegionPivot::pivot(region) : Vec3{0.0, 0.0, 0.0};
  placed = false;    // the next setup takes its placement afresh
}

/* ----------------------------------------------------------------------
   the region's placement now (its variables at the end of the step) and
   its movement over the step from the last one; at setup nothing moves
------------------------------------------------------------------------- */

template <class Law> void FixWallGranRegion<Law>::place_region(bool advance)
{
  if (region->dynamic) {
    this->modify->clearstep_compute();
    region->prematch();
    this->modify->addstep_compute(this->update->ntimestep + 1);
  }
  const Placement now = {{region->dx, region->dy, region->dz}, region->theta};
  if (!advance || !placed) last = now;
  step_move = now.d - last.d;
  step_turn = now.theta - last.theta;
  reference = pivot + now.d;
  last = now;
  placed = true;
}

// v turned by angle about the region's axis (right hand)
template <class Law> Vec3 FixWallGranRegion<Law>::turned(const Vec3 &v, double angle) const
{
  return demc::rotate_about(v, axis, angle);
}

/* ----------------------------------------------------------------------
   particle i (p) and the region's surface rc (q) over the step: the
   normal from the region's contact (from the particle to the surface),
   the movements of Eq. 5 with the region's rigid movement
------------------------------------------------------------------------- */

template <class Law>
typename FixWallGranRegion<Law>::Contact
FixWallGranRegion<Law>::region_contact(int i, const Region::Contact &rc, bool advance)
{
  Atom *atom = this->atom;
  const double radius = atom->radius[i], step = advance ? this->dt : 0.0;
  const Vec3 x = vec(atom->x[i]);
  Contact c;
  c.p = i;
  c.q = -1;
  c.r = rc.r;
  c.overlap = radius - rc.r;
  c.n = (-1.0 / rc.r) * Vec3{rc.delx, rc.dely, rc.delz};
  c.du_p = step * vec(atom->v[i]);
  c.dth_p = step * vec(atom->omega[i]);
  c.du_q = advance ? step_move : Vec3{0.0, 0.0, 0.0};
  c.dth_q = (advance ? step_turn : 0.0) * axis;
  c.r_p = (radius - 0.5 * c.overlap) * c.n;
  c.r_q = x + c.r_p - reference;
  c.n_old = advance ? start_normal(i, rc, x - c.du_p, c.n) : c.n;
  c.du = c.du_q - c.du_p + demc::cross(c.dth_q, c.r_q) - demc::cross(c.dth_p, c.r_p);
  return c;
}

/* the normal at the start of the step: the particle's place then, x_old, carried with the
   region's movement over the step to the region's present place, gives the region's normal
   there, turned back by the step's rotation; n (the present one) if the surface is not found
   there (the particle was outside the region) */
template <class Law>
Vec3 FixWallGranRegion<Law>::start_normal(int i, const Region::Contact &rc, const Vec3 &x_old,
                                          const Vec3 &n)
{
  // (without rotation x_old + du_q, exactly: a static region sees x_old itself)
  const Vec3 carried = step_turn == 0.0
      ? x_old + step_move
      : reference + turned(x_old - (reference - step_move), step_turn);
  const double reach = rc.r + demc::norm(carried - vec(this->atom->x[i])) + this->atom->radius[i];
  const int nc = region->surface(carried.x, carried.y, carried.z, reach);
  for (int k = 0; k < nc; k++) {
    const Region::Contact &old = region->contact[k];
    if (old.iwall != rc.iwall || !(old.r > 0.0)) continue;
    return turned((-1.0 / old.r) * Vec3{old.delx, old.dely, old.delz}, -step_turn);
  }
  return n;
}

/* ----------------------------------------------------------------------
   one step: each particle's contacts with the region's surfaces
------------------------------------------------------------------------- */

template <class Law> void FixWallGranRegion<Law>::post_force(int)
{
  // at setup the particles have not moved since the last step: no history changes
  const bool advance = (this->update->setupflag == 0);
  place_region(advance);
  this->begin_tallies();
  const int *mask = this->atom->mask;
  for (int i = 0; i < this->atom->nlocal; i++)
    if (mask[i] & this->groupbit) contacts_of(i, advance);
  this->end_tallies();
  this->maxexchange = largest_list() + 1;
}

/* particle i: the region's surfaces within reach; each touched one steps its record (a fresh
   one if none) in the law's slot of the particle and keeps it; the records of surfaces no
   longer touched are closed */
template <class Law> void FixWallGranRegion<Law>::contacts_of(int i, bool advance)
{
  Atom *atom = this->atom;
  const double *x = atom->x[i];
  const double radius = atom->radius[i];
  int nc = 0;
  if (region->match(x[0], x[1], x[2]))
    nc = region->surface(x[0], x[1], x[2], SEARCH_RADII * radius);
  std::vector<double> &list = lists[i];
  if (nc == 0 && list.empty()) return;
  near.assign(region->contact, region->contact + nc);    // (start_normal() calls surface())

  next.clear();
  for (const Region::Contact &rc : near) {
    if (!(rc.r < radius) || !(rc.r > 0.0)) continue;
    const Contact c = region_contact(i, rc, advance);
    const int at = find_entry(list, rc.iwall);
    if (at >= 0) {
      Law::unpack_exchange(i, &list[at + E_RECORD]);
      list[at + E_IWALL] = -1.0;    // (taken: not parted below)
    } else {
      Law::set_arrays(i);
    }
    this->apply(i, c, this->touch(c, FixWallGranDemc::LO_SIDE, advance));
    if (this->history_side(i) == FixWallGranDemc::NO_SIDE) continue;    // (fresh, at setup)
    packed.resize(Law::exchange_size(i));
    const int n = Law::pack_exchange(i, packed.data());
    next.push_back(rc.iwall);
    next.push_back(n);
    next.insert(next.end(), packed.begin(), packed.begin() + n);
  }
  for (size_t at = 0; at < list.size(); at += E_RECORD + static_cast<size_t>(list[at + E_LENGTH]))
    if (list[at + E_IWALL] >= 0.0) part_record(i, &list[at], advance);
  Law::set_arrays(i);    // (the slot is scratch: the lists hold the records)
  list.swap(next);
}

/* a record whose surface particle i no longer touches: the law closes it with the contact's
   geometry (the surface is within reach: a particle moves by far less than half a radius in a
   step), or without a last step if the surface is out of reach */
template <class Law> void FixWallGranRegion<Law>::part_record(int i, double *entry, bool advance)
{
  Law::unpack_exchange(i, entry + E_RECORD);
  const int iwall = static_cast<int>(entry[E_IWALL]);
  for (const Region::Contact &rc : near)
    if (rc.iwall == iwall && rc.r > 0.0) {
      this->part(region_contact(i, rc, advance), advance);
      return;
    }
  Contact far{};
  far.p = i;
  far.q = -1;
  this->part(far, false);
}

// the start of the entry of surface iwall in a list, -1 if none
template <class Law>
int FixWallGranRegion<Law>::find_entry(const std::vector<double> &list, int iwall) const
{
  for (size_t at = 0; at < list.size(); at += E_RECORD + static_cast<size_t>(list[at + E_LENGTH]))
    if (static_cast<int>(list[at + E_IWALL]) == iwall) return static_cast<int>(at);
  return -1;
}

template <class Law> int FixWallGranRegion<Law>::largest_list() const
{
  size_t largest = 0;
  for (int i = 0; i < this->atom->nlocal; i++) largest = std::max(largest, lists[i].size());
  return static_cast<int>(largest);
}

/* ----------------------------------------------------------------------
   per-atom lists: grow, move and migrate with the atoms
------------------------------------------------------------------------- */

template <class Law> void FixWallGranRegion<Law>::grow_arrays(int nmax)
{
  Law::grow_arrays(nmax);    // (the law's slot per atom)
  lists.resize(nmax);
}

template <class Law> void FixWallGranRegion<Law>::copy_arrays(int i, int j, int)
{
  if (i != j) lists[j] = lists[i];
}

template <class Law> void FixWallGranRegion<Law>::set_arrays(int i)
{
  Law::set_arrays(i);
  lists[i].clear();
}

template <class Law> int FixWallGranRegion<Law>::pack_exchange(int i, double *buf)
{
  const std::vector<double> &list = lists[i];
  buf[0] = static_cast<double>(list.size());
  std::copy(list.begin(), list.end(), buf + 1);
  return static_cast<int>(list.size()) + 1;
}

template <class Law> int FixWallGranRegion<Law>::unpack_exchange(int nlocal, double *buf)
{
  const int n = static_cast<int>(buf[0]);
  lists[nlocal].assign(buf + 1, buf + 1 + n);
  check_list(nlocal);
  this->maxexchange = std::max(this->maxexchange, n + 1);
  return n + 1;
}

// a list read from a restart file or another rank must be entries that fill it exactly
template <class Law> void FixWallGranRegion<Law>::check_list(int i) const
{
  const std::vector<double> &list = lists[i];
  size_t at = 0;
  while (at + E_RECORD <= list.size() && list[at + E_LENGTH] >= 0.0)
    at += E_RECORD + static_cast<size_t>(list[at + E_LENGTH]);
  if (at != list.size())
    this->error->one(FLERR, "Fix {}: a region wall contact list of {} values is not valid",
                     this->style, list.size());
}

/* ----------------------------------------------------------------------
   restart: each atom's list as a payload [the law's record version, list],
   spread evenly over the atoms' restart slots (format version
   RECORD_VERSION; demc_restart_records.h), so that reading a file back needs
   memory for the mean list, not the longest. Files written before the
   records had a marker hold each atom's own [list size, list] with the
   law's records of that time (law_version_before_markers()).
------------------------------------------------------------------------- */

namespace {
// the law's record version inside the lists of region wall restart files written before
// their records had a marker: wall/gran/kuhn's 1, wall/gran/jaeger's 3
template <class Law> constexpr int law_version_before_markers()
{
  return std::is_same<Law, FixWallGranJaeger>::value ? 3 : 1;
}
}    // namespace

template <class Law> std::string FixWallGranRegion<Law>::restart_who() const
{
  return this->law_error("region wall contact list");
}

template <class Law> int FixWallGranRegion<Law>::maxsize_restart()
{
  // called by Modify::write_restart() on every rank before the atoms' records are packed
  // (lists of a file read since, not yet taken by an init(): write_restart noinit)
  init_lists_from_restart();
  // (the writer reads one atom's payload before it asks for the next one)
  restart_out.build(this->lmp, RECORD_VERSION, [this](int i) {
    if (lists[i].empty()) return std::make_pair((const double *) nullptr, 0L);
    payload.assign(1, (double) Law::RECORD_VERSION);
    payload.insert(payload.end(), lists[i].begin(), lists[i].end());
    return std::make_pair((const double *) payload.data(), (long) payload.size());
  });
  return restart_out.max_record_size(this->lmp);
}

template <class Law> int FixWallGranRegion<Law>::size_restart(int nlocal)
{
  return restart_out.record_size(this->lmp, nlocal);
}

template <class Law> int FixWallGranRegion<Law>::pack_restart(int i, double *buf)
{
  const int n = restart_out.pack(i, buf);
  if (i == this->atom->nlocal - 1) restart_out.clear();
  return n;
}

template <class Law> void FixWallGranRegion<Law>::unpack_restart(int nlocal, int nth)
{
  double **extra = this->atom->extra;
  int m = 0;
  for (int k = 0; k < nth; k++) m += static_cast<int>(extra[nlocal][m]);
  const double *record = &extra[nlocal][m + 1];
  if (demc_restart::is_versioned(record)) {
    restart_in.take(this->lmp, record, RECORD_VERSION, restart_who());
    return;
  }
  // a record of a file written before markers: [list size, list]
  const long n = demc_restart::checked_int(
      this->lmp, record[0], 0, this->atom->nextra_store - m - 2, restart_who() + " size");
  restore_list(nlocal, record + 1, n, law_version_before_markers<Law>());
}

// the lists of a restart file that sit with other atoms, to their atoms (collective)
template <class Law> void FixWallGranRegion<Law>::init_lists_from_restart()
{
  restart_in.assemble(
      this->lmp,
      [this](int i, std::vector<double> &values, int) {
        const int law_version = demc_restart::checked_version(
            this->lmp, values[0], Law::RECORD_VERSION, restart_who() + " (the law's records)");
        restore_list(i, values.data() + 1, (long) values.size() - 1, law_version);
      },
      restart_who());
  this->maxexchange = std::max(this->maxexchange, largest_list() + 1);
}

/* a list of n values read from a restart file into atom i's: each entry's surface ID and
   record length checked before they are used, its record taken by the law (upgraded to the
   law's present layout) and packed again */
template <class Law>
void FixWallGranRegion<Law>::restore_list(int i, const double *values, long n, int law_version)
{
  using demc_restart::checked_int;
  std::vector<double> list;
  for (long at = 0; at < n;) {
    checked_int(this->lmp, (double) (n - at), E_RECORD + 1, n, restart_who() + ": values left");
    const long iwall =
        checked_int(this->lmp, values[at + E_IWALL], 0, INT_MAX, restart_who() + ": surface ID");
    const long length = checked_int(this->lmp, values[at + E_LENGTH], 1, n - at - E_RECORD,
                                    restart_who() + ": record length");
    restore_law_record(i, values + at + E_RECORD, length, law_version);
    packed.resize(Law::exchange_size(i));
    const int size = Law::pack_exchange(i, packed.data());
    list.insert(list.end(), {(double) iwall, (double) size});
    list.insert(list.end(), packed.begin(), packed.begin() + size);
    at += E_RECORD + length;
  }
  Law::set_arrays(i);    // (the slot is scratch: the lists hold the records)
  lists[i].swap(list);
}

/* an entry's record into the law's slot of atom i, checked and upgraded: wall/gran/jaeger's
   [size, record] is read as its restart records are (restore_record()); wall/gran/kuhn's is
   its history (H_SIZE values, version 1) */
template <class Law>
void FixWallGranRegion<Law>::restore_law_record(int i, const double *record, long n, int version)
{
  using demc_restart::checked_int;
  LAMMPS *lmp = this->lmp;
  if constexpr (std::is_same<Law, FixWallGranJaeger>::value) {
    checked_int(lmp, (double) n, 2, INT_MAX, restart_who() + ": record size");
    checked_int(lmp, record[0], n - 1, n - 1, restart_who() + ": record size");
    std::vector<double> rec(record + 1, record + n);
    this->restore_record(i, rec, version);
  } else {
    if (version != Law::RECORD_VERSION)
      this->error->one(FLERR, this->law_error("no reader for wall record version {}"), version);
    checked_int(lmp, (double) n, Law::H_SIZE, Law::H_SIZE, restart_who() + ": record size");
    checked_int(lmp, record[Law::H_SIDE], FixWallGranDemc::LO_SIDE, FixWallGranDemc::HI_SIDE,
                restart_who() + ": wall side of a contact");
    Law::unpack_exchange(i, const_cast<double *>(record));
  }
}

template <class Law> double FixWallGranRegion<Law>::memory_usage()
{
  double bytes = Law::memory_usage() + (double) lists.capacity() * sizeof(std::vector<double>);
  for (const auto &list : lists) bytes += (double) list.capacity() * sizeof(double);
  return bytes;
}

namespace LAMMPS_NS {
template class FixWallGranRegion<FixWallGranKuhn>;
template class FixWallGranRegion<FixWallGranJaeger>;
}    // namespace LAMMPS_NS
