/* ----------------------------------------------------------------------
   dem-contact: faithful DEM contact laws for LAMMPS (plugin package)
   fix wall/gran/region/kuhn, fix wall/gran/region/jaeger,
   fix wall/gran/region/coulomb: a LAMMPS region's surfaces as walls with
   the package's contact laws (see header).
------------------------------------------------------------------------- */

#include "fix_wall_gran_region.h"

#include "demc_exchange_room.h"

#include "atom.h"
#include "comm.h"
#include "domain.h"
#include "error.h"
#include "math_const.h"
#include "modify.h"
#include "update.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>

using namespace LAMMPS_NS;
using demc::Vec3;

namespace {
Vec3 vec(const double *a)
{
  return {a[0], a[1], a[2]};
}

/* a particle near the region is searched for surfaces within this many radii of its centre:
   the touching ones and those it has just left (a particle moves by far less than half a
   radius in a step), whose geometry closes their records */
constexpr double SEARCH_RADII = 1.5;

// a union or an intersection (the regions with a list of sub-regions)
bool is_composite(const Region *r)
{
  return r->reglist != nullptr;
}

// the primitive regions of r
int leaf_count(const Region *r)
{
  if (!is_composite(r)) return 1;
  int n = 0;
  for (int k = 0; k < r->nregion; k++) n += leaf_count(r->reglist[k]);
  return n;
}

// the surface IDs r may give (LAMMPS's cmax, summed anew: a sub-region may have been redefined)
int surface_ids(const Region *r)
{
  if (!is_composite(r)) return r->cmax;
  int n = 0;
  for (int k = 0; k < r->nregion; k++) n += surface_ids(r->reglist[k]);
  return n;
}

/* a turning region's unit axis and the point of its axis nearest the origin (Region keeps its
   rotation point and axis protected): its public forward_transform() at the angle 90 degrees
   without displacement is R (x - P) + P with R = e e^T + [e]x, whose antisymmetric part is
   [e]x, and whose image of the origin is o = (I - R) P, so P = (o + e x o) / 2 on the plane
   normal to e; the region's placement is put back as it was */
void turning_axis(Region *r, Vec3 &axis, Vec3 &pivot)
{
  const double saved[4] = {r->dx, r->dy, r->dz, r->theta};
  r->dx = r->dy = r->dz = 0.0;
  r->theta = MathConst::MY_PI2;
  auto image = [r](Vec3 p) {
    r->forward_transform(p.x, p.y, p.z);
    return p;
  };
  const Vec3 o = image({0.0, 0.0, 0.0});
  const Vec3 col[3] = {image({1.0, 0.0, 0.0}) - o, image({0.0, 1.0, 0.0}) - o,
                       image({0.0, 0.0, 1.0}) - o};
  r->dx = saved[0];
  r->dy = saved[1];
  r->dz = saved[2];
  r->theta = saved[3];
  const Vec3 e = {col[1].z - col[2].y, col[2].x - col[0].z, col[0].y - col[1].x};
  axis = (1.0 / demc::norm(e)) * e;
  pivot = 0.5 * (o + demc::cross(axis, o));
}
}    // namespace

/* ----------------------------------------------------------------------
   fix ID group wall/gran/region/kuhn kn kt mu [keywords] region REGION-ID [keywords]
   fix ID group wall/gran/region/jaeger E nu mu [keywords] region REGION-ID [keywords]
   fix ID group wall/gran/region/coulomb hooke|hertz ... [keywords] region REGION-ID [keywords]
------------------------------------------------------------------------- */

// (the law's constructor has checked the region: an error after it would leave its callbacks)
template <class Law>
FixWallGranRegion<Law>::FixWallGranRegion(LAMMPS *lmp, int narg, char **arg) :
    Law(lmp, narg, arg), region(nullptr), placed(false), moving(false),
    reference{0.0, 0.0, 0.0}
{
  region = find_region();
  find_leaves(region);
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
  return r;
}

/* the primitive regions of r, depth first (a union's or intersection's list is the one its
   init() took: their regions again after a redefinition), each with its axis and pivot */
template <class Law> void FixWallGranRegion<Law>::find_leaves(Region *r)
{
  if (r == region) leaves.clear();
  if (is_composite(r)) {
    for (int k = 0; k < r->nregion; k++) find_leaves(r->reglist[k]);
  } else {
    Leaf leaf{};
    leaf.region = r;
    if (r->rotateflag) turning_axis(r, leaf.axis, leaf.pivot);
    leaves.push_back(leaf);
  }
  if (r == region) check_leaves();
}

// shapes that change with variables are refused; whether the region moves is its leaves'
// (a union or intersection sets its `dynamic` once, from its sub-regions of that time)
template <class Law> void FixWallGranRegion<Law>::check_leaves() const
{
  for (const Leaf &leaf : leaves)
    if (leaf.region->varshape) {
      if (leaf.region == region)
        this->error->all(FLERR, this->law_error("region {} changes its shape with variables"),
                         this->region_id);
      this->error->all(FLERR,
                       this->law_error("region {} joins region {}, whose shape changes with "
                                       "variables"),
                       this->region_id, leaf.region->id);
    }
}

// the region again (it or its sub-regions may have been redefined between runs)
template <class Law> void FixWallGranRegion<Law>::init()
{
  Law::init();
  init_lists_from_restart();
  region = find_region();
  find_leaves(region);
  moving = false;
  for (const Leaf &leaf : leaves) moving = moving || leaf.region->dynamic;
  placed = false;    // the next setup takes the placements afresh
}

/* ----------------------------------------------------------------------
   the leaves' placements now (their variables at the end of the step) and
   their movements over the step from the last ones; at setup nothing moves;
   the torque's reference point: the centre of the first leaf that turns,
   else of the first that moves, else the origin
------------------------------------------------------------------------- */

template <class Law> void FixWallGranRegion<Law>::place_leaves(bool advance)
{
  if (moving) {
    this->modify->clearstep_compute();
    region->prematch();
    this->modify->addstep_compute(this->update->ntimestep + 1);
  }
  const Leaf *turning = nullptr, *translating = nullptr;
  for (Leaf &leaf : leaves) {
    const Region *r = leaf.region;
    const Placement now = {{r->dx, r->dy, r->dz}, r->theta};
    if (!advance || !placed) leaf.last = now;
    leaf.step_move = now.d - leaf.last.d;
    leaf.step_turn = now.theta - leaf.last.theta;
    leaf.centre = leaf.pivot + now.d;
    leaf.last = now;
    if (r->rotateflag && !turning) turning = &leaf;
    if (r->moveflag && !translating) translating = &leaf;
  }
  placed = true;
  const Leaf *first = turning ? turning : translating;
  reference = first ? first->centre : Vec3{0.0, 0.0, 0.0};
}

/* ----------------------------------------------------------------------
   the surfaces of region r near x, appended to out, each with its leaf
   (r's first leaf is first_leaf) and an ID unique over the whole region
   (r's IDs start at offset): a primitive region's are its surface()'s; a
   union's or intersection's are those of its sub-regions that lie on its
   surface, walked as LAMMPS's RegUnion and RegIntersect walk them
------------------------------------------------------------------------- */

template <class Law>
void FixWallGranRegion<Law>::surfaces(Region *r, const Vec3 &x, double cutoff, int offset,
                                      int first_leaf, std::vector<Near> &out)
{
  if (is_composite(r)) {
    // (an open union or intersection: one of the two walks finds nothing, as in LAMMPS)
    if (r->openflag) {
      composite_surfaces(r, false, x, cutoff, offset, first_leaf, out);
      composite_surfaces(r, true, x, cutoff, offset, first_leaf, out);
    } else {
      composite_surfaces(r, r->interior != 0, x, cutoff, offset, first_leaf, out);
    }
    return;
  }
  const int n = r->surface(x.x, x.y, x.z, cutoff);
  for (int m = 0; m < n; m++) {
    Near s{r->contact[m], first_leaf, r->contact[m].iwall, r->interior};
    s.contact.iwall += offset;
    out.push_back(s);
  }
}

/* the surfaces of union or intersection r: each sub-region's (its sides flipped for the
   outside of r), kept where the surface point is on r's surface: for the inside of an
   intersection, inside all other sub-regions; for the inside of a union, inside none of the
   others (open ones aside, as RegUnion); for the outside of either, a sub-region's flipped
   surface kept where the other flipped ones (the outsides of the others) do not hold it
   (intersection) or all hold it (union: the outside of a union is the intersection of the
   outsides; LAMMPS's RegUnion::surface_exterior() keeps those none holds) */
template <class Law>
void FixWallGranRegion<Law>::composite_surfaces(Region *r, bool interior, const Vec3 &x,
                                                double cutoff, int offset, int first_leaf,
                                                std::vector<Near> &out)
{
  const bool is_union = std::strcmp(r->style, "union") == 0;
  const int nsub = r->nregion;
  Region **sub = r->reglist;
  if (!interior)
    for (int k = 0; k < nsub; k++) sub[k]->interior ^= 1;
  auto on_surface = [&](int k, const Vec3 &xs) {
    for (int j = 0; j < nsub; j++) {
      if (j == k) continue;
      const bool holds = sub[j]->match(xs.x, xs.y, xs.z) != 0;
      if (interior && is_union && holds && !sub[j]->openflag) return false;
      if (interior && !is_union && !holds) return false;
      if (!interior && is_union && !holds) return false;
      if (!interior && !is_union && holds) return false;
    }
    return true;
  };
  for (int k = 0; k < nsub; k++) {
    const size_t start = out.size();
    surfaces(sub[k], x, cutoff, offset, first_leaf, out);
    size_t kept = start;
    for (size_t m = start; m < out.size(); m++) {
      const Region::Contact &c = out[m].contact;
      if (on_surface(k, x - Vec3{c.delx, c.dely, c.delz})) out[kept++] = out[m];
    }
    out.resize(kept);
    offset += surface_ids(sub[k]);
    first_leaf += leaf_count(sub[k]);
  }
  if (!interior)
    for (int k = 0; k < nsub; k++) sub[k]->interior ^= 1;
}

/* ----------------------------------------------------------------------
   particle i (p) and surface s (q) over the step: the normal from the
   region's contact (from the particle to the surface), the movements of
   Eq. 5 with the rigid movement of the surface's leaf, expressed about the
   reference point (the leaf's centre moves by du, so the reference point,
   carried with the leaf, moves by du + dth x (reference - centre))
------------------------------------------------------------------------- */

template <class Law>
typename FixWallGranRegion<Law>::Contact
FixWallGranRegion<Law>::region_contact(int i, const Near &s, bool advance)
{
  Atom *atom = this->atom;
  const Region::Contact &rc = s.contact;
  const Leaf &leaf = leaves[s.leaf];
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
  c.dth_q = (advance ? leaf.step_turn : 0.0) * leaf.axis;
  c.du_q = advance ? leaf.step_move + demc::cross(c.dth_q, reference - leaf.centre)
                   : Vec3{0.0, 0.0, 0.0};
  c.r_p = (radius - 0.5 * c.overlap) * c.n;
  c.r_q = x + c.r_p - reference;
  c.n_old = advance ? start_normal(i, s, x - c.du_p, c.n) : c.n;
  c.du = c.du_q - c.du_p + demc::cross(c.dth_q, c.r_q) - demc::cross(c.dth_p, c.r_p);
  return c;
}

/* the normal at the start of the step: the particle's place then, x_old, carried with the
   leaf's movement over the step to the leaf's present place, gives the leaf's normal there
   (on the side the leaf had in the walk), turned back by the step's rotation; n (the present
   one) if the surface is not found there (the particle was outside the leaf) */
template <class Law>
Vec3 FixWallGranRegion<Law>::start_normal(int i, const Near &s, const Vec3 &x_old, const Vec3 &n)
{
  const Leaf &leaf = leaves[s.leaf];
  Region *r = leaf.region;
  // (without rotation x_old + du, exactly: a static region sees x_old itself)
  const Vec3 carried = leaf.step_turn == 0.0
      ? x_old + leaf.step_move
      : leaf.centre +
          demc::rotate_about(x_old - (leaf.centre - leaf.step_move), leaf.axis, leaf.step_turn);
  const double reach =
      s.contact.r + demc::norm(carried - vec(this->atom->x[i])) + this->atom->radius[i];
  const int side = r->interior;
  r->interior = s.interior;
  const int nc = r->surface(carried.x, carried.y, carried.z, reach);
  r->interior = side;
  for (int k = 0; k < nc; k++) {
    const Region::Contact &old = r->contact[k];
    if (old.iwall != s.leaf_iwall || !(old.r > 0.0)) continue;
    return demc::rotate_about((-1.0 / old.r) * Vec3{old.delx, old.dely, old.delz}, leaf.axis,
                              -leaf.step_turn);
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
  place_leaves(advance);
  this->begin_tallies();
  const int *mask = this->atom->mask;
  for (int i = 0; i < this->atom->nlocal; i++)
    if (mask[i] & this->groupbit) contacts_of(i, advance);
  this->end_tallies();
  this->maxexchange = demc_exchange::exchange_room(largest_list() + 1, this->maxexchange);
}

/* "longest_list": this rank's longest contact list now, in values (the room asked of
   Comm::exchange() only grows, so it does not tell); else the law's wall fix's */
template <class Law> void *FixWallGranRegion<Law>::extract(const char *str, int &dim)
{
  if (strcmp(str, "longest_list") == 0) {
    dim = 0;
    longest_list = largest_list();
    return (void *) &longest_list;
  }
  return Law::extract(str, dim);
}

/* particle i: the region's surfaces within reach; each touched one steps its record (a fresh
   one if none) in the law's slot of the particle and keeps it; the records of surfaces no
   longer touched are closed */
template <class Law> void FixWallGranRegion<Law>::contacts_of(int i, bool advance)
{
  Atom *atom = this->atom;
  const double *x = atom->x[i];
  const double radius = atom->radius[i];
  near.clear();
  if (region->match(x[0], x[1], x[2])) surfaces(region, vec(x), SEARCH_RADII * radius, 0, 0, near);
  std::vector<double> &list = lists[i];
  if (near.empty() && list.empty()) return;

  next.clear();
  moved_records.clear();
  for (const Near &s : near) {
    const Region::Contact &rc = s.contact;
    if (!(rc.r < radius) || !(rc.r > 0.0)) continue;
    const Contact c = region_contact(i, s, advance);
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
    const int handle = this->record_handle();
    if (handle >= 0) moved_records.push_back({handle, next.size()});
    next.insert(next.end(), packed.begin(), packed.begin() + n);
  }
  for (size_t at = 0; at < list.size(); at += E_RECORD + static_cast<size_t>(list[at + E_LENGTH]))
    if (list[at + E_IWALL] >= 0.0) part_record(i, &list[at], advance);
  Law::set_arrays(i);    // (the slot is scratch: the lists hold the records)
  list.swap(next);
  for (const auto &m : moved_records) this->record_moved(m.first, &list[m.second]);
}

/* a record whose surface particle i no longer touches: the law closes it with the contact's
   geometry (the surface is within reach: a particle moves by far less than half a radius in a
   step), or without a last step if the surface is out of reach */
template <class Law> void FixWallGranRegion<Law>::part_record(int i, double *entry, bool advance)
{
  Law::unpack_exchange(i, entry + E_RECORD);
  const int iwall = static_cast<int>(entry[E_IWALL]);
  for (const Near &s : near)
    if (s.contact.iwall == iwall && s.contact.r > 0.0) {
      this->part(region_contact(i, s, advance), advance);
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
  this->maxexchange = demc_exchange::exchange_room(n + 1, this->maxexchange);
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
   restart: each atom's list spread evenly over the atoms' restart slots
   (demc_restart_records.h), so that reading a file back needs memory for
   the mean list, not the longest
------------------------------------------------------------------------- */

template <class Law> std::string FixWallGranRegion<Law>::restart_who() const
{
  return this->law_error("region wall contact list");
}

template <class Law> int FixWallGranRegion<Law>::maxsize_restart()
{
  // called by Modify::write_restart() on every rank before the atoms' records are packed
  // (lists of a file read since, not yet taken by an init(): write_restart noinit)
  init_lists_from_restart();
  restart_out.build(this->lmp, [this](int i) {
    return std::make_pair((const double *) lists[i].data(), (long) lists[i].size());
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
  restart_in.take(this->lmp, nlocal, nth, restart_who());
}

// the lists of a restart file that sit with other atoms, to their atoms (collective)
template <class Law> void FixWallGranRegion<Law>::init_lists_from_restart()
{
  restart_in.assemble(
      this->lmp,
      [this](int i, std::vector<double> &values) {
        restore_list(i, values.data(), (long) values.size());
      },
      restart_who());
  this->maxexchange = demc_exchange::exchange_room(largest_list() + 1, this->maxexchange);
}

/* a list of n values read from a restart file into atom i's: each entry's surface ID and
   record length checked before they are used, its record taken by the law (checked as its
   restart records are) and packed again */
template <class Law>
void FixWallGranRegion<Law>::restore_list(int i, const double *values, long n)
{
  using demc_restart::checked_int;
  std::vector<double> list;
  for (long at = 0; at < n;) {
    checked_int(this->lmp, (double) (n - at), E_RECORD + 1, n, restart_who() + ": values left");
    const long iwall =
        checked_int(this->lmp, values[at + E_IWALL], 0, INT_MAX, restart_who() + ": surface ID");
    const long length = checked_int(this->lmp, values[at + E_LENGTH], 1, n - at - E_RECORD,
                                    restart_who() + ": record length");
    Law::restore_exchanged(i, values + at + E_RECORD, length);
    packed.resize(Law::exchange_size(i));
    const int size = Law::pack_exchange(i, packed.data());
    list.insert(list.end(), {(double) iwall, (double) size});
    list.insert(list.end(), packed.begin(), packed.begin() + size);
    at += E_RECORD + length;
  }
  Law::set_arrays(i);    // (the slot is scratch: the lists hold the records)
  lists[i].swap(list);
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
template class FixWallGranRegion<FixWallGranCoulomb>;
}    // namespace LAMMPS_NS
