/* -*- c++ -*- ----------------------------------------------------------
   dem-contact: faithful DEM contact laws for LAMMPS (plugin package)
   fix wall/gran/region/kuhn, fix wall/gran/region/jaeger and
   fix wall/gran/region/coulomb: the surfaces of a LAMMPS region as
   frictional walls with the contact laws of fix wall/gran/kuhn,
   fix wall/gran/jaeger and fix wall/gran/coulomb (modelled on LAMMPS's
   fix wall/gran/region).

   FixWallGranRegion<Law> adds to a wall fix of the law (FixWallGranKuhn,
   FixWallGranJaeger) what a region wall needs:
   - the contacts: Region::surface() lists the region's surfaces near a
     particle, each with its own ID (iwall); a particle may touch several
     (a corner, a hopper's cone and outlet), each with its own history;
   - the histories: each particle keeps a list of records, one per surface
     it touches, keyed by iwall; a record is the law's one-wall record as
     the law's fix packs it for migration (its pack_exchange()), so the
     law's touch() and part() run unchanged on it: the record is unpacked
     into the law's per-atom slot of the particle, stepped, packed back;
     the lists migrate with the atoms and go to restart files;
   - the kinematics: each primitive region (the region itself, or each
     sub-region of a union or intersection, nested ones included) moves
     (region move) and turns (region rotate) as a rigid body of its own;
     over a step its centre (a point of its axis carried by its move, or
     its displacement) moves by du and it turns by dth about its unit axis,
     so that the wall's movement at a contact point c of its surface is
     du + dth x (c - centre) (Eq. 5). The contacts of a union or
     intersection are listed here, sub-region by sub-region, as LAMMPS's
     RegUnion and RegIntersect list them, so that each contact knows its
     sub-region and moves with it; their own surface() is not used: it
     turns a rotating sub-region's contacts a second time, and, for a union
     seen from outside, keeps the faces that lie inside the other
     sub-regions; whether anything moves is asked of the sub-regions at
     every init (a union's `dynamic` is its sub-regions' when it was
     defined). A contact that passes onto another sub-region's face is a
     new contact (a new surface ID), as in LAMMPS's fix wall/gran/region.
     The normal at the start of the step is the sub-region's normal at the
     particle's place then, seen from the sub-region's place then;
   - the force (x, y, z) and torque (x, y, z, about the reference point: the
     centre of the first sub-region that turns, else of the first that
     moves, else the origin) on the region in the global vector.
------------------------------------------------------------------------- */

#ifdef FIX_CLASS
// clang-format off
FixStyle(wall/gran/region/kuhn,FixWallGranRegionKuhn);
FixStyle(wall/gran/region/jaeger,FixWallGranRegionJaeger);
FixStyle(wall/gran/region/coulomb,FixWallGranRegionCoulomb);
// clang-format on
#else

#ifndef DEMC_FIX_WALL_GRAN_REGION_H
#define DEMC_FIX_WALL_GRAN_REGION_H

#include "demc_restart_records.h"
#include "fix_wall_gran_coulomb.h"
#include "fix_wall_gran_jaeger.h"
#include "fix_wall_gran_kuhn.h"

#include "region.h"

#include <string>
#include <utility>
#include <vector>

namespace LAMMPS_NS {

template <class Law> class FixWallGranRegion : public Law {
 public:
  FixWallGranRegion(class LAMMPS *, int, char **);
  ~FixWallGranRegion() override;
  void init() override;
  void post_force(int) override;
  double memory_usage() override;
  void *extract(const char *, int &) override;
  void grow_arrays(int) override;
  void copy_arrays(int, int, int) override;
  void set_arrays(int) override;
  int pack_exchange(int, double *) override;
  int unpack_exchange(int, double *) override;
  int pack_restart(int, double *) override;
  void unpack_restart(int, int) override;
  int size_restart(int) override;
  int maxsize_restart() override;

  using Contact = FixWallGranDemc::Contact;
  // a list entry: the surface's iwall, the record's length n, then the law's record (n values)
  enum Entry { E_IWALL, E_LENGTH, E_RECORD };

 private:
  Region *region;
  // per atom: the records of the surfaces it touches, entries one after the other
  std::vector<std::vector<double>> lists;
  std::vector<double> next, packed;    // a particle's list being built, one record
  // the law's handles of the records in next (Law::record_handle()) and their places in it
  std::vector<std::pair<int, size_t>> moved_records;

  // a primitive region and its rigid placement: displacement and angle about its unit axis
  struct Placement {
    demc::Vec3 d;
    double theta;
  };
  struct Leaf {
    Region *region;
    demc::Vec3 axis;     // unit rotation axis (zero if it does not turn)
    demc::Vec3 pivot;    // the point of its axis nearest the origin, at its definition
    Placement last;      // at the end of the last step
    demc::Vec3 centre;         // pivot + displacement now
    demc::Vec3 step_move;      // movement of the centre over the step
    double step_turn;          // rotation about axis over the step
  };
  std::vector<Leaf> leaves;    // depth first, in the order of the regions' lists
  bool placed;                 // the leaves' last placements are known
  bool moving;                 // a leaf moves or turns
  demc::Vec3 reference;        // the torque's reference point now

  // a surface near a particle: the region's contact (iwall unique over the whole region), its
  // leaf, the leaf's own ID of the surface and the side (interior) the leaf had in the walk
  struct Near {
    Region::Contact contact;
    int leaf, leaf_iwall, interior;
  };
  std::vector<Near> near;    // the surfaces near the particle at hand

  Region *find_region() const;
  void find_leaves(Region *r);
  void place_leaves(bool advance);
  void surfaces(Region *r, const demc::Vec3 &x, double cutoff, int offset, int first_leaf,
                std::vector<Near> &out);
  void composite_surfaces(Region *r, bool interior, const demc::Vec3 &x, double cutoff,
                          int offset, int first_leaf, std::vector<Near> &out);
  void check_leaves() const;
  Contact region_contact(int i, const Near &s, bool advance);
  demc::Vec3 start_normal(int i, const Near &s, const demc::Vec3 &x_old, const demc::Vec3 &n);
  void contacts_of(int i, bool advance);
  void part_record(int i, double *entry, bool advance);
  int find_entry(const std::vector<double> &list, int iwall) const;
  int largest_list() const;
  int longest_list = 0;    // what extract("longest_list") last found (values)
  void check_list(int i) const;

  // restart records: each atom's list, spread evenly over the atoms' restart slots
  // (demc_restart_records.h)
  demc_restart::SpreadWriter restart_out;
  demc_restart::SpreadReader restart_in;
  void init_lists_from_restart();
  void restore_list(int i, const double *values, long n);
  std::string restart_who() const;
};

using FixWallGranRegionKuhn = FixWallGranRegion<FixWallGranKuhn>;
using FixWallGranRegionJaeger = FixWallGranRegion<FixWallGranJaeger>;
using FixWallGranRegionCoulomb = FixWallGranRegion<FixWallGranCoulomb>;

extern template class FixWallGranRegion<FixWallGranKuhn>;
extern template class FixWallGranRegion<FixWallGranJaeger>;
extern template class FixWallGranRegion<FixWallGranCoulomb>;

}    // namespace LAMMPS_NS

#endif
#endif
