/* Layer (b): fix wall/gran/region/kuhn and fix wall/gran/region/jaeger inside LAMMPS.
   A region wall must be the package's plane and cylinder walls where a region is one:
   - particles pressed, sliding, rolling and bouncing on a region plane (static, moving along
     and away from itself) and inside a region cylinder (static, rotating: a drum) follow the
     trajectories they follow with the zplane and zcylinder walls (static, translate, rotate)
     to round-off: forces, torques, places, the force and torque on the wall, energies, work;
   - a particle pressed into the edge of a block region (or of the intersection of two plane
     regions, or of the union of two blocks) touches two faces: the same as two plane walls,
     each face with its own history; particles on a union of two blocks seen from outside
     (side out) are on the zplane wall;
   - a mixer (a closed cylinder and two turning blades, LAMMPS's granregion mixer) as one
     intersection wall and as three walls, one per sub-region: the same trajectories while no
     sphere touches two faces at an edge; the energy balance in the closed turning mixer;
   - a union wall whose plane is deleted and defined again as moving after the wall was made
     moves as the moving plane's own wall;
     the torque on the region about its reference point is that of the two contacts' forces
     at their contact points;
   - a sphere sheared on a plane region, then turned with it by 90 degrees about an axis in
     the plane: its force turns with it (objectivity of a turning region);
   - particles in a closed cylinder region turning about its axis, with a pair style: the
     energy balance with the wall's work; atom sorting changes nothing;
   - N + M steps = N steps, restart file, M steps (several contacts, Jaeger stacks, a
     rotating region, the turning mixer);
   - bad input gives clear errors. */
#include "lammps_session.h"
#include "prescribed_motion.h"

#include "atom.h"
#include "compute.h"
#include "domain.h"
#include "exceptions.h"
#include "fix.h"
#include "lammps.h"
#include "modify.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using namespace demc_test;

namespace {

// the wall fixes' global vector (fix_wall_gran_demc.h); a region wall appends torque x, y
enum {
  V_FX,
  V_FY,
  V_FZ,
  V_NORMAL,
  V_TANGENTIAL,
  V_FRICTION,
  V_DAMPING,
  V_CONTACTS,
  V_SLIDING,
  V_TORQUE_Z,
  V_WALL_WORK,
  V_SIZE,
  V_TORQUE_X = V_SIZE,
  V_TORQUE_Y,
  V_REGION_SIZE
};

std::vector<double> fix_vector(LammpsSession &s, const std::string &id, int size = V_SIZE)
{
  auto *fix = s.lmp->modify->get_fix_by_id(id);
  std::vector<double> v;
  for (int k = 0; k < size; k++) v.push_back(fix ? fix->compute_vector(k) : NAN);
  return v;
}

// the two contact laws: the wall fix's law words, its region twin's style
struct Law {
  const char *name;
  std::string words;    // style and coefficients, without "fix ID group"
  std::string region_style;
};

const Law KUHN = {"kuhn", "1e7 8e6 0.4 damping 5e4 2e4", "wall/gran/region/kuhn"};
const Law JAEGER = {"jaeger", "1e8 0.3 0.4 damping 5e4 2e4", "wall/gran/region/jaeger"};
const Law COULOMB = {"coulomb", "hooke 1e7 0.4 damping 5e4 0", "wall/gran/region/coulomb"};

// the input with what the law's walls need: gran/coulomb's take the pair style's friction fix
// (the spheres do not touch each other)
std::vector<std::string> for_law(const Law &law, std::vector<std::string> in,
                                 const std::string &pair_style = "gran/coulomb")
{
  if (std::string(law.name) == "coulomb")
    in.insert(in.end(),
              {"comm_modify vel yes", "pair_style " + pair_style, "pair_coeff * * hooke 1e7 0.4"});
  return in;
}

std::string plain_fix(const Law &law, const std::string &id, const std::string &wall)
{
  return "fix " + id + " all wall/gran/" + law.name + " " + law.words + " " + wall;
}

std::string region_fix(const Law &law, const std::string &id, const std::string &region)
{
  return "fix " + id + " all " + law.region_style + " " + law.words + " region " + region;
}

/* spheres of radius 0.5 (atoms 1..n at `places`), thrown (unless `still`) with velocities and
   with spins that differ per atom, under a strong gravity `gravity` (x y z), integrated by
   nve/sphere; no pair style (the particles only meet the walls) */
std::vector<std::string> spheres(const std::vector<std::string> &places, const std::string &gravity,
                                 bool still = false)
{
  std::vector<std::string> in = {"units si",
                                 "atom_style sphere",
                                 "atom_modify map array",
                                 "boundary f f f",
                                 "region box block -4 4 -4 4 -4 4 units box",
                                 "create_box 1 box"};
  for (const auto &p : places) in.push_back("create_atoms 1 single " + p + " units box");
  const std::vector<std::string> rest = {"set group all diameter 1.0",
                                         "set group all density 1000",
                                         "variable vx atom 0.4*sin(3*id)",
                                         "variable vy atom 0.3*cos(5*id)",
                                         "variable vz atom 0.2*sin(7*id)",
                                         still ? "" : "velocity all set v_vx v_vy v_vz",
                                         "variable wx atom 3*sin(11*id)",
                                         "variable wy atom 2*cos(13*id)",
                                         "variable wz atom 4*sin(17*id)",
                                         "set group all omega v_wx v_wy v_wz",
                                         "fix g all gravity 60 vector " + gravity,
                                         "fix integrate all nve/sphere",
                                         "timestep 1e-4"};
  in.insert(in.end(), rest.begin(), rest.end());
  return in;
}

struct State {
  PerAtom x, f, t;
  std::vector<double> wall;
};

State state(LammpsSession &s, const std::vector<std::string> &fixes, int size)
{
  State st{s.positions(), s.forces(), s.torques(), std::vector<double>(size, 0.0)};
  for (const auto &id : fixes) {
    const auto w = fix_vector(s, id, size);
    for (int k = 0; k < size; k++) st.wall[k] += w[k];
  }
  return st;
}

/* The same spheres with the plain wall fixes (`plain`, IDs in plain_ids) and with the region
   wall (`region_lines`, fix ID "r"): after each of `chunks` runs of 100 steps the places,
   forces, torques and the walls' vectors (summed over the plain fixes) agree to 1e-9. */
void expect_same_as_plain_walls(const std::string &what, const std::vector<std::string> &input,
                                const std::vector<std::string> &plain,
                                const std::vector<std::string> &plain_ids,
                                const std::vector<std::string> &region_lines, int chunks = 4)
{
  // (a LAMMPS instance made after the plugin was loaded into another one has its styles)
  LammpsSession a;
  a.load_plugin();
  LammpsSession b;
  b.load_plugin();
  a.commands(input);
  b.commands(input);
  a.commands(plain);
  b.commands(region_lines);
  double contacts = 0.0, sliding = 0.0, largest_x = 0.0, largest_f = 0.0;
  for (int k = 0; k < chunks; k++) {
    a.command("run 100");
    b.command("run 100");
    const State p = state(a, plain_ids, V_SIZE), r = state(b, {"r"}, V_SIZE);
    const std::string at = what + ", after " + std::to_string(100 * (k + 1)) + " steps";
    EXPECT_LT(max_relative_difference(p.x, r.x), 1e-12) << at;
    EXPECT_LT(max_relative_difference(p.f, r.f), 1e-9) << at;
    EXPECT_LT(max_relative_difference(p.t, r.t), 1e-9) << at;
    largest_x = std::max(largest_x, max_relative_difference(p.x, r.x));
    largest_f =
        std::max({largest_f, max_relative_difference(p.f, r.f), max_relative_difference(p.t, r.t)});
    double scale = 1e-12;
    for (int c = V_FX; c <= V_FZ; c++) scale = std::max(scale, std::fabs(p.wall[c]));
    for (int c : {V_FX, V_FY, V_FZ})
      EXPECT_NEAR(r.wall[c], p.wall[c], 1e-9 * scale) << at << ", vector " << c;
    for (int c : {V_NORMAL, V_TANGENTIAL, V_FRICTION, V_DAMPING, V_WALL_WORK, V_TORQUE_Z})
      EXPECT_NEAR(r.wall[c], p.wall[c], 1e-9 * std::max(std::fabs(p.wall[c]), 1e-9))
          << at << ", vector " << c;
    EXPECT_EQ(r.wall[V_CONTACTS], p.wall[V_CONTACTS]) << at;
    EXPECT_EQ(r.wall[V_SLIDING], p.wall[V_SLIDING]) << at;
    contacts += p.wall[V_CONTACTS];
    sliding += p.wall[V_SLIDING];
  }
  std::printf("%s: places differ by %.2g, forces and torques by %.2g (relative)\n", what.c_str(),
              largest_x, largest_f);
  // the comparison proves something only if the walls were touched and slid on
  EXPECT_GE(contacts, 6.0) << what;
  EXPECT_GE(sliding, 1.0) << what;
  const auto w = fix_vector(a, plain_ids[0]);
  EXPECT_GT(w[V_FRICTION], 0.0) << what;
  EXPECT_GT(w[V_DAMPING], 0.0) << what;
}

const std::vector<std::string> ON_PLANE = {"-1.5 0.2 0.497", "0.3 -0.7 0.505", "1.2 1.1 0.55",
                                           "-0.4 -1.9 0.7"};
const std::vector<std::string> IN_CYLINDER = {"2.5 0.1 0", "2.3 -0.9 1.2", "2.1 1.3 -1.0",
                                              "2.45 0.2 -2.5"};
const std::string CORNER = "-2.503 0.1 -2.504", CYLINDER_GRAVITY = "1 0.3 0.4",
                  CORNER_GRAVITY = "-1 1.2 -0.8";
}    // namespace

TEST(WallGranRegion, StaticPlaneIsTheZplaneWall)
{
  for (const Law &law : {KUHN, JAEGER})
    expect_same_as_plain_walls(
        std::string(law.name) + " static plane", spheres(ON_PLANE, "1.6 0.3 -1"),
        {plain_fix(law, "w", "zplane 0 NULL")}, {"w"},
        {"region p plane 0 0 0 0 0 1 side in units box", region_fix(law, "r", "p")});
}

// the plane moves along itself (x) and away from itself (z): du_q of the wall
TEST(WallGranRegion, MovingPlaneIsTheTranslatingZplaneWall)
{
  for (const Law &law : {KUHN, JAEGER})
    expect_same_as_plain_walls(std::string(law.name) + " moving plane",
                               spheres(ON_PLANE, "0.2 0.1 -1"),
                               {plain_fix(law, "w", "zplane 0 NULL translate 1.5 0 0.05")}, {"w"},
                               {"variable mx equal 1.5*time", "variable mz equal 0.05*time",
                                "region p plane 0 0 0 0 0 1 side in move v_mx NULL v_mz units box",
                                region_fix(law, "r", "p")});
}

TEST(WallGranRegion, StaticCylinderIsTheZcylinderWall)
{
  for (const Law &law : {KUHN, JAEGER})
    expect_same_as_plain_walls(
        std::string(law.name) + " static cylinder", spheres(IN_CYLINDER, CYLINDER_GRAVITY),
        {plain_fix(law, "w", "zcylinder 3")}, {"w"},
        {"region c cylinder z 0 0 3 INF INF side in units box", region_fix(law, "r", "c")});
}

// a drum: the cylinder region turns about its axis (region rotate by a variable angle) as the
// zcylinder wall with rotate does; the region's axis need not be a unit vector (the angle is
// about the unit axis, as the region turns)
TEST(WallGranRegion, RotatingCylinderIsTheRotatingDrumWall)
{
  for (const Law &law : {KUHN, JAEGER})
    for (const char *axis : {"0 0 1", "0 0 2.5"})
      expect_same_as_plain_walls(
          std::string(law.name) + " drum, axis " + axis, spheres(IN_CYLINDER, CYLINDER_GRAVITY),
          {plain_fix(law, "w", "zcylinder 3 rotate 2.5")}, {"w"},
          {"variable theta equal 2.5*time",
           std::string("region c cylinder z 0 0 3 INF INF side in rotate v_theta 0 0 0 ") + axis +
               " units box",
           region_fix(law, "r", "c")});
}

/* gran/coulomb's region wall: its contacts join the pair style's friction fix, which decides
   their friction after every other force from the records the region wall keeps per surface
   (kept there otherwise, the friction works and the wall's vector differ by O(1)). A plane
   (static, moving) and a cylinder (static, turning) are the plain walls, with hooke and hertz,
   direct and iterated friction. (Two faces at once: TwoFacesOfABlockAreTwoPlaneWalls.) */
TEST(WallGranRegion, CoulombAsThePlainWalls)
{
  const Law hooke = COULOMB;
  const Law hertz = {"coulomb", "hertz 1e8 0.3 0.4 restitution 0.5 0 rolling sds 1e6 1e3 0.05",
                     "wall/gran/region/coulomb"};
  expect_same_as_plain_walls(
      "coulomb static plane", for_law(hooke, spheres(ON_PLANE, "1.6 0.3 -1")),
      {plain_fix(hooke, "w", "zplane 0 NULL")}, {"w"},
      {"region p plane 0 0 0 0 0 1 side in units box", region_fix(hooke, "r", "p")});
  expect_same_as_plain_walls(
      "coulomb hertz iterated, moving plane",
      for_law(hertz, spheres(ON_PLANE, "0.2 0.1 -1"), "gran/coulomb iterate 1e-12 100"),
      {plain_fix(hertz, "w", "zplane 0 NULL translate 1.5 0 0.05")}, {"w"},
      {"variable mx equal 1.5*time", "variable mz equal 0.05*time",
       "region p plane 0 0 0 0 0 1 side in move v_mx NULL v_mz units box",
       region_fix(hertz, "r", "p")});
  expect_same_as_plain_walls(
      "coulomb static cylinder", for_law(hooke, spheres(IN_CYLINDER, CYLINDER_GRAVITY)),
      {plain_fix(hooke, "w", "zcylinder 3")}, {"w"},
      {"region c cylinder z 0 0 3 INF INF side in units box", region_fix(hooke, "r", "c")});
  expect_same_as_plain_walls(
      "coulomb hertz drum", for_law(hertz, spheres(IN_CYLINDER, CYLINDER_GRAVITY)),
      {plain_fix(hertz, "w", "zcylinder 3 rotate 2.5")}, {"w"},
      {"variable theta equal 2.5*time",
       "region c cylinder z 0 0 3 INF INF side in rotate v_theta 0 0 0 0 0 1 units box",
       region_fix(hertz, "r", "c")});
}

/* rolling and twisting resistance (the same contact step): a region plane and a turning
   region cylinder are the zplane and the rotating drum wall (the wall's spin enters the
   relative rotation in both) */
namespace {
void expect_rolling_as_plain_walls(const Law &law)
{
  const std::string name = law.name;
  expect_same_as_plain_walls(
      name + " rolling, static plane", spheres(ON_PLANE, "1.6 0.3 -1"),
      {plain_fix(law, "w", "zplane 0 NULL")}, {"w"},
      {"region p plane 0 0 0 0 0 1 side in units box", region_fix(law, "r", "p")});
  expect_same_as_plain_walls(name + " rolling, drum", spheres(IN_CYLINDER, CYLINDER_GRAVITY),
                             {plain_fix(law, "w", "zcylinder 3 rotate 2.5")}, {"w"},
                             {"variable theta equal 2.5*time",
                              "region c cylinder z 0 0 3 INF INF side in rotate v_theta 0 0 0 "
                              "0 0 1 units box",
                              region_fix(law, "r", "c")});
}
}    // namespace

TEST(WallGranRegion, RollingTwistingAsThePlainWalls)
{
  expect_rolling_as_plain_walls(
      {"kuhn", "1e7 8e6 0.4 damping 5e4 2e4 rolling sds 1e6 1e3 0.05 twisting marshall",
       "wall/gran/region/kuhn"});
}

// the same for the Jaeger walls (the resistance's slots in the records the region lists hold)
TEST(WallGranRegion, JaegerRollingTwistingAsThePlainWalls)
{
  expect_rolling_as_plain_walls(
      {"jaeger", "1e8 0.3 0.4 damping 5e4 2e4 rolling sds 1e6 1e3 0.05 twisting marshall",
       "wall/gran/region/jaeger"});
}

/* a sphere pushed into the edge of a block region (faces x = -3 and z = -3), or of the
   intersection of two plane regions, and dragged along it: two contacts, each with its own
   history, as the xplane and zplane walls give them; the torque on the region (static: about
   the origin) is the sum of r x F over the two contacts, the contact points at the middle of
   each overlap */
TEST(WallGranRegion, TwoFacesOfABlockAreTwoPlaneWalls)
{
  for (const Law &law : {KUHN, JAEGER, COULOMB}) {
    const auto input = for_law(law, spheres({CORNER}, CORNER_GRAVITY));
    expect_same_as_plain_walls(
        std::string(law.name) + " block edge", input,
        {plain_fix(law, "wx", "xplane -3 NULL"), plain_fix(law, "wz", "zplane -3 NULL")},
        {"wx", "wz"},
        {"region b block -3 3 -3 3 -3 3 side in units box", region_fix(law, "r", "b")});
    // the same edge as the intersection of two half-spaces (the sub-regions' surfaces)
    expect_same_as_plain_walls(
        std::string(law.name) + " intersection of two planes", input,
        {plain_fix(law, "wx", "xplane -3 NULL"), plain_fix(law, "wz", "zplane -3 NULL")},
        {"wx", "wz"},
        {"region px plane -3 0 0 1 0 0 side in units box",
         "region pz plane 0 0 -3 0 0 1 side in units box", "region b intersect 2 px pz",
         region_fix(law, "r", "b")});
    // and as the union of two blocks that make the block (faces of the union from one of them)
    expect_same_as_plain_walls(
        std::string(law.name) + " union of two blocks", input,
        {plain_fix(law, "wx", "xplane -3 NULL"), plain_fix(law, "wz", "zplane -3 NULL")},
        {"wx", "wz"},
        {"region a block -3 0 -3 3 -3 3 side in units box",
         "region c block 0 3 -3 3 -3 3 side in units box", "region b union 2 a c",
         region_fix(law, "r", "b")});

    LammpsSession s;
    s.load_plugin();
    s.commands(input);
    s.commands(
        {"region b block -3 3 -3 3 -3 3 side in units box", region_fix(law, "r", "b"), "run 250"});
    const auto w = fix_vector(s, "r", V_REGION_SIZE);
    EXPECT_EQ(w[V_CONTACTS], 2.0) << law.name;
    // per face: the force on the wall from the particle's force balance is not separable, so
    // the faces' forces come from two plane walls in a twin session
    LammpsSession t;
    t.load_plugin();
    t.commands(input);
    t.commands({plain_fix(law, "wx", "xplane -3 NULL"), plain_fix(law, "wz", "zplane -3 NULL"),
                "run 250"});
    const auto fx = fix_vector(t, "wx"), fz = fix_vector(t, "wz");
    const auto x = t.positions()[1];
    const double R = 0.5;
    // contact points: the middle of each overlap, on the face's normal through the centre
    const double ox = R - (x[0] + 3.0), oz = R - (x[2] + 3.0);
    const double cx[3] = {x[0] - (R - 0.5 * ox), x[1], x[2]};
    const double cz[3] = {x[0], x[1], x[2] - (R - 0.5 * oz)};
    const double Fx[3] = {fx[V_FX], fx[V_FY], fx[V_FZ]}, Fz[3] = {fz[V_FX], fz[V_FY], fz[V_FZ]};
    auto torque = [&](int k) {
      const int a = (k + 1) % 3, b = (k + 2) % 3;
      return cx[a] * Fx[b] - cx[b] * Fx[a] + cz[a] * Fz[b] - cz[b] * Fz[a];
    };
    const double scale = 3.0 * std::hypot(Fx[0], Fx[1], Fx[2]);
    EXPECT_NEAR(w[V_TORQUE_X], torque(0), 1e-9 * scale) << law.name;
    EXPECT_NEAR(w[V_TORQUE_Y], torque(1), 1e-9 * scale) << law.name;
    EXPECT_NEAR(w[V_TORQUE_Z], torque(2), 1e-9 * scale) << law.name;
    EXPECT_GT(std::fabs(torque(0)) + std::fabs(torque(1)), 0.1 * scale) << law.name;
  }
}

/* spheres on the top of two blocks side by side, seen from outside (a union, side out): the
   union's top face is the zplane wall; LAMMPS's RegUnion::surface_exterior() keeps a block's
   face only where it lies inside the other block, so that the spheres would meet no wall. And
   on the top of the intersection of two blocks, seen from outside. */
TEST(WallGranRegion, UnionSeenFromOutsideIsTheZplaneWall)
{
  const std::vector<std::string> on_top = {"-1.5 0.2 1.497", "0.3 -0.7 1.505", "1.2 1.1 1.55",
                                           "-0.4 -1.9 1.7"};
  for (const Law &law : {KUHN, JAEGER}) {
    expect_same_as_plain_walls(std::string(law.name) + " union side out",
                               spheres(on_top, "1.6 0.3 -1"), {plain_fix(law, "w", "zplane 1 NULL")},
                               {"w"},
                               {"region a block -3 0 -3 3 -3 1 units box",
                                "region c block 0 3 -3 3 -3 1 units box",
                                "region b union 2 a c side out", region_fix(law, "r", "b")});
    // the top of a block cut from a taller one: the intersection seen from outside
    expect_same_as_plain_walls(std::string(law.name) + " intersection side out",
                               spheres(on_top, "1.6 0.3 -1"), {plain_fix(law, "w", "zplane 1 NULL")},
                               {"w"},
                               {"region a block -3 3 -3 3 -3 1 units box",
                                "region c block -3.5 3.5 -3.5 3.5 -3.5 3.5 units box",
                                "region b intersect 2 a c side out", region_fix(law, "r", "b")});
  }
}

/* ----------------------------------------------------------------------
   LAMMPS's granregion mixer, small: a closed cylinder (radius 3.5) and two
   crossed blades (blocks seen from outside, side out) turning about the
   cylinder's axis, as `region mixer intersect 3 cyl b1 b2`. Spheres on the
   floor are pushed by the blades' faces and slide on the floor: each
   contact moves with its own sub-region (the cylinder at rest, a blade
   turning). The same as three walls (cylinder, b1, b2: the reference point
   of all is the axis through the origin) while no sphere touches a face
   where another sub-region cuts it off (the blades' crossing, their ends).
------------------------------------------------------------------------- */

namespace {
std::vector<std::string> mixer_regions(const std::string &theta)
{
  return {"variable theta equal " + theta,
          "region cyl cylinder z 0 0 3.5 -3 3 side in units box",
          "region b1 block -3.6 3.6 -0.3 0.3 -3.1 -2 side out rotate v_theta 0 0 0 0 0 1 units box",
          "region b2 block -0.3 0.3 -3.6 3.6 -3.1 -2.00001 side out rotate v_theta 0 0 0 0 0 1 "
          "units box"};
}
// spheres on the floor against the blades' leading faces, one free
const std::vector<std::string> IN_MIXER = {"2.0 0.795 -2.497", "-2.0 -0.795 -2.497",
                                           "0.795 -2.0 -2.45", "-1.6 1.5 -2.3"};
}    // namespace

TEST(WallGranRegion, MixerAsOneIntersectionIsThreeWalls)
{
  for (const Law &law : {KUHN, JAEGER}) {
    auto regions = mixer_regions("2*time");
    auto input = spheres(IN_MIXER, "0.3 0.2 -1");
    input.insert(input.end(), regions.begin(), regions.end());
    expect_same_as_plain_walls(
        std::string(law.name) + " mixer", input,
        {region_fix(law, "w", "cyl"), region_fix(law, "w1", "b1"), region_fix(law, "w2", "b2")},
        {"w", "w1", "w2"}, {"region mixer intersect 3 cyl b1 b2", region_fix(law, "r", "mixer")});
  }
}

/* a union of two planes (the floor and a plane far below it) made while the floor is at rest;
   then the floor is deleted and defined again, moving along itself and away from itself (the
   union keeps the `dynamic` of its sub-regions at its definition): the union's wall must move
   with the new floor, as the floor's own wall does */
TEST(WallGranRegion, UnionFollowsASubRegionRedefinedAsMoving)
{
  for (const Law &law : {KUHN, JAEGER}) {
    State st[2];
    double contacts = 0.0;
    for (int as_union = 0; as_union < 2; as_union++) {
      LammpsSession s;
      s.load_plugin();
      s.commands(spheres(ON_PLANE, "0.2 0.1 -1"));
      s.commands({"region p plane 0 0 0 0 0 1 side in units box",
                  "region q plane 0 0 -10 0 0 -1 side in units box", "region u union 2 p q",
                  region_fix(law, "r", as_union ? "u" : "p"), "run 100", "region p delete",
                  "variable mx equal 1.5*(time-0.01)", "variable mz equal 0.05*(time-0.01)",
                  "region p plane 0 0 0 0 0 1 side in move v_mx NULL v_mz units box", "run 300"});
      st[as_union] = state(s, {"r"}, V_REGION_SIZE);
      contacts = st[as_union].wall[V_CONTACTS];
    }
    EXPECT_LT(max_relative_difference(st[0].x, st[1].x), 1e-12) << law.name;
    EXPECT_LT(max_relative_difference(st[0].f, st[1].f), 1e-9) << law.name;
    for (int c : {V_FX, V_FY, V_FZ, V_WALL_WORK})
      EXPECT_NEAR(st[1].wall[c], st[0].wall[c], 1e-9 * std::max(std::fabs(st[0].wall[c]), 1e-9))
          << law.name << ", vector " << c;
    // the floor must have carried the spheres: work done on them by its movement along itself
    EXPECT_GE(contacts, 2.0) << law.name;
    EXPECT_GT(std::fabs(st[0].wall[V_WALL_WORK]), 0.0) << law.name;
  }
}

/* ----------------------------------------------------------------------
   particles bouncing in a closed cylinder region (lateral surface and two
   caps: particles at the rims touch two surfaces) that turns about its
   axis, with a pair style: kinetic + stored + dissipated energy of the pair
   style and the wall minus the wall's work stays constant over 4000 steps;
   and atom sorting (which moves the atoms and their contact lists in memory)
   changes nothing over 1500 steps
------------------------------------------------------------------------- */

namespace {
struct PairLaw {
  const char *name;
  std::vector<std::string> pair;
  std::string wall;
};
const PairLaw PAIR_LAWS[] = {
    {"kuhn",
     {"pair_style gran/kuhn", "pair_coeff * * 2e3 2e3 0.5 damping 0.002 0.001"},
     "wall/gran/region/kuhn 3e3 2e3 0.4 damping 0.002 0.001"},
    {"jaeger",
     {"pair_style gran/jaeger", "pair_coeff * * 1e7 0.3 0.5 damping 0.002 0.001"},
     "wall/gran/region/jaeger 1e7 0.3 0.4 damping 0.002 0.001"},
};

/* the drum; or (mixer) a closed cylinder at rest with two crossed blades turning inside it
   (an intersection), the spheres between the blades */
std::vector<std::string> turning_drum(const PairLaw &law, bool mixer = false)
{
  std::vector<std::string> in = {"units si",
                                 "atom_style sphere",
                                 "atom_modify map array",
                                 "boundary f f f",
                                 "comm_modify vel yes",
                                 "region box block -0.006 0.006 -0.006 0.006 0 0.01 units box",
                                 "create_box 1 box",
                                 mixer ? "lattice sc 0.0024 origin 0.5 0.5 0.5"
                                       : "lattice sc 0.0021 origin 0.5 0.5 0.5",
                                 "region cyl cylinder z 0 0 0.0048 0.0008 0.0092 units box",
                                 "create_atoms 1 region cyl",
                                 mixer ? "variable d atom 0.0018+0.0001*((id*7919)%101)/101"
                                       : "variable d atom 0.00196+0.00018*((id*7919)%101)/101",
                                 "set group all diameter v_d",
                                 "set group all density 2650",
                                 "velocity all create 3e17 87287 loop geom",
                                 "variable wx atom 200*sin(id)",
                                 "variable wy atom 200*cos(3*id)",
                                 "set group all omega v_wx v_wy 0",
                                 "neighbor 0.0003 bin",
                                 "neigh_modify delay 0"};
  in.insert(in.end(), law.pair.begin(), law.pair.end());
  const std::string blade = " side out rotate v_theta 0 0 0 0 0 1 units box";
  const std::vector<std::string> drum =
      mixer ? std::vector<std::string>{"region mixcyl cylinder z 0 0 0.0058 0 0.01 units box",
                                       "region b1 block -0.006 0.006 -1e-4 1e-4 -0.001 0.011" +
                                           blade,
                                       "region b2 block -1e-4 1e-4 -0.006 0.006 -0.001 0.011" +
                                           blade,
                                       "region drum intersect 3 mixcyl b1 b2"}
            : std::vector<std::string>{"region drum cylinder z 0 0 0.0058 0 0.01 side in rotate "
                                       "v_theta 0 0 0 0 0 1 units box"};
  in.push_back("variable theta equal -200*time");
  in.insert(in.end(), drum.begin(), drum.end());
  const std::vector<std::string> rest = {
      "fix w all " + law.wall + " region drum",
      "fix integrate all nve/sphere",
      "timestep 2e-7",
      "compute ke all ke",
      "compute erot all erotate/sphere",
      // (the pair's energies as a user reads them: gran/jaeger integrates its work in runs in
      // which a compute pair can read it, work auto)
      "compute e all pair gran/" + std::string(law.name),
      "thermo_style custom step c_ke c_erot pe"};
  in.insert(in.end(), rest.begin(), rest.end());
  return in;
}
}    // namespace

namespace {
void expect_energy_balance(bool mixer)
{
  for (const PairLaw &law : PAIR_LAWS) {
    LammpsSession s;
    s.load_plugin();
    s.commands(turning_drum(law, mixer));
    auto total = [&]() {
      s.command("run 0 post no");
      double e = s.lmp->modify->get_compute_by_id("ke")->compute_scalar() +
          s.lmp->modify->get_compute_by_id("erot")->compute_scalar();
      const auto p = s.pair_extra();
      for (int k = 0; k < 4; k++) e += p[k];
      const auto w = fix_vector(s, "w");
      return e + w[V_NORMAL] + w[V_TANGENTIAL] + w[V_FRICTION] + w[V_DAMPING] - w[V_WALL_WORK];
    };
    const double e0 = total();
    const int atoms0 = static_cast<int>(s.lmp->atom->natoms);
    s.command("run 4000");
    const double e1 = total();
    const auto w = fix_vector(s, "w");
    std::printf("%s %s: energy balance %.2g of the initial energy, wall work %.2g, friction "
                "%.2g, %g contacts at the end, %g atoms of %d\n",
                mixer ? "mixer" : "drum", law.name, (e1 - e0) / e0, w[V_WALL_WORK] / e0,
                w[V_FRICTION] / e0, w[V_CONTACTS], (double) s.lmp->atom->natoms, atoms0);
    EXPECT_NEAR(e1, e0, 3e-4 * e0) << law.name;
    // the drum must have taken part: worked on the particles, dissipated by friction
    EXPECT_GT(std::fabs(w[V_WALL_WORK]), 0.01 * e0) << law.name;
    EXPECT_GT(w[V_FRICTION], 0.01 * e0) << law.name;
    EXPECT_GT(w[V_DAMPING], 0.0) << law.name;
    EXPECT_EQ(s.lmp->atom->natoms, atoms0) << law.name;
  }
}
}    // namespace

TEST(WallGranRegion, EnergyBalanceInATurningClosedDrum)
{
  expect_energy_balance(false);
}

// the blades turn, the cylinder is at rest: the wall's work is the blades'
TEST(WallGranRegion, EnergyBalanceInATurningClosedMixer)
{
  expect_energy_balance(true);
}

TEST(WallGranRegion, AtomSortingCarriesContactLists)
{
  for (const PairLaw &law : PAIR_LAWS) {
    State st[2];
    for (int sorted = 0; sorted < 2; sorted++) {
      LammpsSession s;
      s.load_plugin();
      s.commands(turning_drum(law));
      s.commands({"neigh_modify every 1 delay 0 check no",
                  sorted ? "atom_modify sort 7 0.001" : "atom_modify sort 0 0.0", "run 1500"});
      st[sorted] = state(s, {"w"}, V_REGION_SIZE);
    }
    EXPECT_LT(max_relative_difference(st[0].f, st[1].f), 1e-9) << law.name;
    EXPECT_LT(max_relative_difference(st[0].t, st[1].t), 1e-9) << law.name;
    for (int k = 0; k < V_REGION_SIZE; k++)
      EXPECT_NEAR(st[0].wall[k], st[1].wall[k], 1e-9 * std::max(std::fabs(st[0].wall[k]), 1e-12))
          << law.name << " " << k;
    EXPECT_GE(st[0].wall[V_CONTACTS], 4.0) << law.name;
  }
}

/* ----------------------------------------------------------------------
   objectivity of a turning region: a sphere pressed on a plane region and
   sheared (it sticks: a tangential force builds up), then the plane turns
   by 90 degrees about the x axis (region rotate) and the sphere turns with
   it as a rigid body (placed at R x, with velocity omega x x and spin
   omega): nothing moves relative to the plane, so the force on the sphere
   must turn with it, R f, normal and tangential part alike. The plane's
   normal turns: the normal at the start of each step comes from the
   region's place then. No integrator: the motion is prescribed.
------------------------------------------------------------------------- */

namespace {
demc::Vec3 turned_about_x(const demc::Vec3 &v, double angle)
{
  return {v.x, std::cos(angle) * v.y - std::sin(angle) * v.z,
          std::sin(angle) * v.y + std::cos(angle) * v.z};
}
}    // namespace

TEST(WallGranRegion, ForceTurnsWithATurningPlane)
{
  const double dt = 1e-4, vy = 0.02, turn = 0.5 * 3.14159265358979323846;
  const int shear_steps = 100, turn_steps = 1000;
  const double dth = turn / turn_steps;
  for (const Law &law : {Law{"kuhn", "1e5 8e4 0.4", "wall/gran/region/kuhn"},
                         Law{"jaeger", "1e7 0.3 0.4", "wall/gran/region/jaeger"}}) {
    const double overlap = law.name == std::string("kuhn") ? 1e-3 : 2e-3;
    LammpsSession s;
    s.load_plugin();
    s.commands(
        {"units si", "atom_style sphere", "atom_modify map array", "boundary f f f",
         "region box block -4 4 -4 4 -4 4 units box", "create_box 1 box",
         fmt::format("create_atoms 1 single 0 0 {:.17g} units box", 0.5 - overlap),
         "set group all diameter 1.0", "set group all density 1000", fmt::format("timestep {}", dt),
         fmt::format("variable theta equal {:.17g}*((step>{})*(step-{})-(step>{})*(step-{}))", dth,
                     shear_steps, shear_steps, shear_steps + turn_steps, shear_steps + turn_steps),
         "region p plane 0 0 0 0 0 1 side in rotate v_theta 0 0 0 1 0 0 units box",
         region_fix(law, "r", "p"), "run 0 post no"});
    auto *atom = s.lmp->atom;
    demc::Vec3 hold{0, 0, 0};
    std::array<double, 3> f_hold{};
    for (int k = 1; k <= shear_steps + turn_steps; k++) {
      const int i = atom->map(1);
      if (k <= shear_steps) {
        put(atom->x[i], get(atom->x[i]) + demc::Vec3{0.0, vy * dt, 0.0});
        put(atom->v[i], {0.0, vy, 0.0});
        put(atom->omega[i], {0.0, 0.0, 0.0});
      } else {
        const demc::Vec3 x = turned_about_x(hold, (k - shear_steps) * dth);
        const demc::Vec3 w = {dth / dt, 0.0, 0.0};
        put(atom->x[i], x);
        put(atom->v[i], demc::cross(w, x));
        put(atom->omega[i], w);
      }
      s.command("run 1 pre no post no");
      if (k == shear_steps) {
        hold = get(atom->x[atom->map(1)]);
        f_hold = s.forces()[1];
      }
    }
    const demc::Vec3 expected = turned_about_x({f_hold[0], f_hold[1], f_hold[2]}, turn);
    const auto f = s.forces()[1];
    const double scale = std::hypot(f_hold[0], f_hold[1], f_hold[2]);
    std::printf("%s: force turned with the plane to %.2g relative (tangential %.3g of normal)\n",
                law.name,
                std::hypot(f[0] - expected.x, f[1] - expected.y, f[2] - expected.z) / scale,
                std::fabs(f_hold[1] / f_hold[2]));
    EXPECT_NEAR(f[0], expected.x, 1e-9 * scale) << law.name;
    EXPECT_NEAR(f[1], expected.y, 1e-9 * scale) << law.name;
    EXPECT_NEAR(f[2], expected.z, 1e-9 * scale) << law.name;
    // the sphere must have been sheared (a tangential force of a fair share of the normal)
    EXPECT_GT(std::fabs(f_hold[1]), 0.1 * std::fabs(f_hold[2])) << law.name;
    EXPECT_LT(std::fabs(f_hold[1]), 0.4 * std::fabs(f_hold[2])) << law.name;
  }
}

/* ----------------------------------------------------------------------
   N + M steps straight = N steps, write_restart, read_restart, M steps:
   the contact lists (two faces of a block; a rotating drum) come back
   (no damping: it depends on half-step velocities a restart file does not hold)
------------------------------------------------------------------------- */

TEST(WallGranRegion, RestartContinuity)
{
  const Law kuhn = {"kuhn", "1e7 8e6 0.4", "wall/gran/region/kuhn"};
  const Law jaeger = {"jaeger", "1e8 0.3 0.4", "wall/gran/region/jaeger"};
  struct Case {
    Law law;
    std::vector<std::string> places, region;
    std::string gravity;
  };
  const std::vector<std::string> block = {"region b block -3 3 -3 3 -3 3 side in units box"};
  const std::vector<std::string> drum = {
      "variable theta equal 2.5*time",
      "region b cylinder z 0 0 3 INF INF side in rotate v_theta 0 0 0 0 0 1 units box"};
  // at rest where gravity presses them into an edge of the block (a corner and an edge),
  // spinning; in the drum, thrown
  const std::vector<std::string> pressed = {"-2.50314 0.1 -2.50251", "-2.50314 2.50377 0.5"};
  auto mixer = mixer_regions("2*time");
  mixer.push_back("region b intersect 3 cyl b1 b2");
  const std::vector<Case> cases = {{kuhn, pressed, block, CORNER_GRAVITY},
                                   {jaeger, pressed, block, CORNER_GRAVITY},
                                   {jaeger, IN_CYLINDER, drum, CYLINDER_GRAVITY},
                                   {kuhn, IN_MIXER, mixer, "0.3 0.2 -1"}};
  for (const auto &c : cases) {
    const std::string file = std::string("wall_region_restart_") + c.law.name +
        std::to_string(&c - cases.data()) + ".bin";
    const std::string what = std::string(c.law.name) + " " + c.region.back();
    State straight, resumed;
    double contacts_at_restart = 0.0;
    {
      LammpsSession s;
      s.load_plugin();
      s.commands(spheres(c.places, c.gravity, c.region == block));
      s.commands(c.region);
      s.commands({region_fix(c.law, "r", "b"), "run 150", "write_restart " + file});
      contacts_at_restart = fix_vector(s, "r")[V_CONTACTS];
      s.command("run 100");
      straight = state(s, {"r"}, V_REGION_SIZE);
    }
    {
      LammpsSession s;
      s.load_plugin();
      s.command("read_restart " + file);
      if (!s.lmp->domain->get_region_by_id("b")) s.commands(c.region);
      s.commands({"fix g all gravity 60 vector " + c.gravity, "fix integrate all nve/sphere",
                  region_fix(c.law, "r", "b"), "run 100"});
      resumed = state(s, {"r"}, V_REGION_SIZE);
    }
    std::remove(file.c_str());
    EXPECT_LT(max_relative_difference(straight.x, resumed.x), 1e-14) << what;
    EXPECT_LT(max_relative_difference(straight.f, resumed.f), 1e-12) << what;
    EXPECT_LT(max_relative_difference(straight.t, resumed.t), 1e-12) << what;
    for (int k = 0; k < V_REGION_SIZE; k++)
      EXPECT_NEAR(straight.wall[k], resumed.wall[k],
                  1e-10 * std::max(std::fabs(straight.wall[k]), 1e-9))
          << what << " " << k;
    // several contacts of a particle (3 for the block's 2 particles, 3 for the spheres on the
    // mixer's floor against its blades) went through the file
    EXPECT_GE(contacts_at_restart, c.region == drum ? 1.0 : 3.0) << what;
    EXPECT_GE(straight.wall[V_CONTACTS], 1.0) << what;
    EXPECT_GT(straight.wall[V_FRICTION], 0.0) << what;
  }
}

/* ----------------------------------------------------------------------
   every malformed command ends in a LAMMPS error naming the problem
------------------------------------------------------------------------- */

TEST(WallGranRegion, BadInputGivesClearErrors)
{
  const std::vector<std::string> sphere = {
      "units si",
      "atom_style sphere",
      "boundary f f f",
      "region box block 0 1 0 1 0 1",
      "create_box 1 box",
      "create_atoms 1 single 0.5 0.5 0.5",
      "region p plane 0 0 0 0 0 1",
      "variable r equal 0.4+0.1*step",
      "region s sphere 0.5 0.5 0.5 v_r",
      "region u union 2 p s"};
  const std::string k = "fix w all wall/gran/region/kuhn 1 1 0.5 ",
                    j = "fix w all wall/gran/region/jaeger 1e7 0.3 0.5 ",
                    c = "fix w all wall/gran/region/coulomb hooke 1e5 0.5 ";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {k + "region none", "region none does not exist"},
      {k + "region", "missing argument"},
      {k + "damping 1 1", "expects: region REGION-ID"},
      {k + "zplane 0 NULL", "the wall is a region (region REGION-ID), got zplane"},
      {j + "region p rotate 1",
       "moves with its region (region move, rotate), not with keyword rotate"},
      {j + "region p wiggle z 1 1", "not with keyword wiggle"},
      {j + "region p translate 1 0 0", "not with keyword translate"},
      {k + "region p shear x 1", "not supported: the region's own move and rotate keywords"},
      {j + "region s", "region s changes its shape with variables"},
      {k + "damping 1 1 region u", "region u changes its shape with variables"},
      {j + "region p beta 3", "beta must be within [0, 2]"},
      {"fix w all wall/gran/kuhn 1 1 0.5 region p", "a region wall is fix wall/gran/region/kuhn"},
      {"fix w all wall/gran/jaeger 1e7 0.3 0.5 region p",
       "a region wall is fix wall/gran/region/jaeger"},
      {"fix w all wall/gran/coulomb hooke 1e5 0.5 region p",
       "a region wall is fix wall/gran/region/coulomb"},
      {c + "twisting marshall region p", "twisting marshall takes its stiffness"},
      {c + "damping 1 1 region p", "the tangential dashpot must be 0"},
      {c + "region p damping_cap no", "damping_cap"},
  };
  for (const auto &c : cases) {
    LammpsSession s;
    s.load_plugin();
    s.commands(sphere);
    try {
      s.command(c.first);
      ADD_FAILURE() << "no error for: " << c.first;
    } catch (LAMMPS_NS::LAMMPSException &e) {
      EXPECT_NE(std::string(e.what()).find(c.second), std::string::npos)
          << "command: " << c.first << "\n  error: " << e.what() << "\n  expected: " << c.second;
    }
  }
}
