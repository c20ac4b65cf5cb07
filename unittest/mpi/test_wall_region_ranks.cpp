/* Layer (c): the region wall fixes under mpirun.
   - A layer of spheres squeezed between two region planes drifts across the subdomains (atoms
     and their lists of region contacts migrate between ranks): the lower plane moves along
     itself by displacement variables, the upper one turns about a vertical axis through the
     box's middle. On sub-communicators of 1, 2 and 4 ranks in one job, per-atom forces and
     torques and the fixes' global vectors after 300 steps agree to 1e-9 of the largest value.
     The same with both planes as one wall (their intersection: each contact moves with its
     own plane), which is also the two walls on one rank.
   - Restart files written on all ranks continue the run on all ranks and on one (the two
     walls, and the two planes as one intersection wall).
   - A cone hopper discharges through its open outlet (324 spheres, gran/kuhn between them
     and wall/gran/region/kuhn on the cone): the flow is chaotic (the sums' round-off alone,
     which differs with the number of ranks, sends particles other ways), so the mass still
     in the hopper after a fixed time on 4 ranks must differ from the 1-rank run by no more
     than 3 times the noise floor: the largest difference between the 1-rank run and four
     1-rank runs whose initial velocities differ by +-1e-6 and +-2e-6 relative (at least one
     particle's mass). */
#include "lammps_session.h"

#include "atom.h"
#include "compute.h"
#include "fix.h"
#include "lammps.h"
#include "modify.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace demc_test;

namespace {

const int STEPS = 300, REGION_VECTOR_SIZE = 13, CONTACTS = 7, FRICTION = 5, WALL_WORK = 10;

struct Outcome {
  PerAtom forces, torques, start, end;
  std::vector<double> wall;    // the global vectors of the two fixes
};

/* the lower plane slides along itself, back and forth; the upper one turns; the integrator.
   Each plane a wall of its own, or (intersection) both one wall: the intersection of the two
   planes, each of its surfaces moving with its own sub-region */
std::vector<std::string> region_walls(const std::string &wall, bool intersection = false)
{
  std::vector<std::string> in = {
      "variable dx equal 0.002*sin(300*time)",
      "variable dy equal 0.001*(1-cos(200*time))",
      "variable theta equal 0.3*sin(400*time)",
      "region lo plane 0 0 0 0 0 1 side in move v_dx v_dy NULL units box",
      "region hi plane 0 0 0.00198 0 0 -1 side in rotate v_theta 0.0063 0.0063 0 0 0 1 units box"};
  if (intersection) {
    in.push_back("region both intersect 2 lo hi");
    in.push_back("fix w all " + wall + " region both");
  } else {
    in.push_back("fix w all " + wall + " region lo");
    in.push_back("fix w2 all " + wall + " region hi");
  }
  in.push_back("fix integrate all nve/sphere");
  in.push_back("timestep 1e-5");
  return in;
}

std::vector<std::string> squeezed_layer(const std::vector<std::string> &pair_lines,
                                        const std::string &wall, bool intersection = false)
{
  std::vector<std::string> in = {"units si",
                                 "atom_style sphere",
                                 "atom_modify map array",
                                 "boundary p p f",
                                 "processors * * 1",
                                 "comm_modify vel yes",
                                 "region box block 0 0.0126 0 0.0126 -0.001 0.003 units box",
                                 "create_box 1 box",
                                 "lattice sc 0.0021 origin 0.5 0.5 0.0",
                                 "region slab block 0 0.0126 0 0.0126 -0.0005 0.0005 units box",
                                 "create_atoms 1 region slab",
                                 "reset_atoms id sort yes",
                                 "variable d atom 0.00200+0.00015*((id*7919)%101)/101",
                                 "set group all diameter v_d",
                                 "set group all z 0.00099",
                                 "set group all density 2650",
                                 "velocity all create 1e14 87287 loop geom",
                                 "velocity all set 1.0 0.7 0 units box",
                                 "variable wx atom 20*sin(id)",
                                 "variable wy atom 20*cos(3*id)",
                                 "variable wz atom 20*sin(7*id)",
                                 "set group all omega v_wx v_wy v_wz",
                                 "neighbor 0.0003 bin",
                                 "neigh_modify delay 0"};
  in.insert(in.end(), pair_lines.begin(), pair_lines.end());
  const auto walls = region_walls(wall, intersection);
  in.insert(in.end(), walls.begin(), walls.end());
  return in;
}

Outcome run_on(int nranks, const std::vector<std::string> &input)
{
  Outcome out;
  on_first_ranks(nranks, [&](LammpsSession &s) {
    s.commands(input);
    s.command("run 0 post no");
    out.start = s.positions();
    s.command("run " + std::to_string(STEPS));
    out.forces = s.forces();
    out.torques = s.torques();
    out.end = s.positions();
    for (const char *id : {"w", "w2"}) {
      auto *fix = s.lmp->modify->get_fix_by_id(id);
      for (int k = 0; fix && k < REGION_VECTOR_SIZE; k++) out.wall.push_back(fix->compute_vector(k));
    }
  });
  return out;
}

void expect_rank_invariant(const std::vector<std::string> &pair_lines, const std::string &wall,
                           bool intersection = false)
{
  int world, me;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  const auto input = squeezed_layer(pair_lines, wall, intersection);
  const Outcome serial = run_on(1, input);
  if (intersection) {
    // one rank: the intersection is the two walls, each contact on the face of its plane
    const Outcome two_walls = run_on(1, squeezed_layer(pair_lines, wall));
    if (me == 0) {
      std::printf("intersection against two walls: places differ by %.2g, forces by %.2g\n",
                  max_relative_difference(two_walls.end, serial.end),
                  max_relative_difference(two_walls.forces, serial.forces));
      EXPECT_LT(max_relative_difference(two_walls.end, serial.end), 1e-12);
      EXPECT_LT(max_relative_difference(two_walls.forces, serial.forces), 1e-9);
      EXPECT_LT(max_relative_difference(two_walls.torques, serial.torques), 1e-9);
      for (int k : {0, 1, 2, FRICTION, CONTACTS, WALL_WORK}) {
        const double sum = two_walls.wall[k] + two_walls.wall[REGION_VECTOR_SIZE + k];
        EXPECT_NEAR(serial.wall[k], sum, 1e-9 * std::max(std::fabs(sum), 1e-12))
            << "wall vector " << k;
      }
    }
  }
  for (int n : {2, 4}) {
    if (n > world) continue;
    const Outcome par = run_on(n, input);
    if (me != 0) continue;
    std::printf("%s: %d ranks against 1: forces differ by %.2g, torques by %.2g (relative)\n",
                intersection ? "intersection" : "two walls", n,
                max_relative_difference(serial.forces, par.forces),
                max_relative_difference(serial.torques, par.torques));
    EXPECT_LT(max_relative_difference(serial.forces, par.forces), 1e-9) << n << " ranks";
    EXPECT_LT(max_relative_difference(serial.torques, par.torques), 1e-9) << n << " ranks";
    for (size_t k = 0; k < serial.wall.size(); k++)
      EXPECT_NEAR(serial.wall[k], par.wall[k], 1e-9 * std::max(std::fabs(serial.wall[k]), 1e-12))
          << n << " ranks, wall vector " << k;
  }
  if (me == 0) {
    for (size_t w = 0; w < serial.wall.size(); w += REGION_VECTOR_SIZE) {
      EXPECT_GE(serial.wall[w + CONTACTS], 20.0);
      EXPECT_GT(serial.wall[w + FRICTION], 0.0);
    }
    double travelled = 0.0;
    for (size_t i = 1; i < serial.start.size(); i++)
      travelled = std::max(travelled, std::fabs(serial.end[i][0] - serial.start[i][0]));
    EXPECT_GT(travelled, 0.0021);
  }
}

/* ----------------------------------------------------------------------
   the hopper of examples/hopper without its gate: a cone (outlet radius
   6 mm at z = 0, 20 mm at z = 30 mm, both caps open) holding 324 spheres
   of 2 mm on a lattice, which start to fall at once; the mass still above
   the outlet after `steps` steps (what has fallen through leaves the box)
------------------------------------------------------------------------- */

std::vector<std::string> hopper(double perturbation)
{
  return {"units si",
          "atom_style sphere",
          "atom_modify map array",
          "boundary f f f",
          "comm_modify vel yes",
          "region box block -0.024 0.024 -0.024 0.024 -0.01 0.035 units box",
          "create_box 1 box",
          "region cone cone z 0 0 0.006 0.02 0 0.03 side in open 1 open 2 units box",
          "lattice sc 0.0024 origin 0.5 0.5 0.5",
          "region fill cone z 0 0 0.0045 0.0135 0.002 0.02 side in units box",
          "create_atoms 1 region fill",
          "variable d atom 0.0019+0.0002*((id*7919)%101)/101",
          "set group all diameter v_d",
          "set group all density 2500",
          fmt::format("variable vx atom 0.01*sin(id)*(1+{})", perturbation),
          "variable vy atom 0.01*cos(3*id)",
          "velocity all set v_vx v_vy 0",
          "neighbor 0.0004 bin",
          "neigh_modify delay 0",
          "pair_style gran/kuhn",
          "pair_coeff * * 1e3 750 0.5 restitution 0.5 0",
          "fix hopper all wall/gran/region/kuhn 1e3 750 0.5 restitution 0.5 0 region cone",
          "fix g all gravity 9.81 vector 0 0 -1",
          "fix integrate all nve/sphere",
          "timestep 3e-5",
          "thermo_modify lost ignore",
          "variable held atom mass*(z>0)",
          "compute held all reduce sum v_held"};
}

struct Discharge {
  double held, total;    // mass above the outlet at the end, and at the start
};

Discharge discharge_on(int nranks, double perturbation, int steps)
{
  Discharge out{0.0, 0.0};
  on_first_ranks(nranks, [&](LammpsSession &s) {
    s.commands(hopper(perturbation));
    s.command("run 0 post no");
    auto *held = s.lmp->modify->get_compute_by_id("held");
    out.total = held->compute_scalar();
    s.command("run " + std::to_string(steps) + " post no");
    out.held = held->compute_scalar();
  });
  return out;
}

}    // namespace

TEST(WallRegionRanks, KuhnPlanesMovingAndTurning)
{
  expect_rank_invariant({"pair_style gran/kuhn", "pair_coeff * * 2e3 2e3 0.5 damping 0.002 0.001"},
                        "wall/gran/region/kuhn 2e3 1.5e3 0.4 damping 0.002 0.001");
}

TEST(WallRegionRanks, JaegerPlanesMovingAndTurning)
{
  expect_rank_invariant(
      {"pair_style gran/jaeger", "pair_coeff * * 1e7 0.3 0.5 damping 0.002 0.001"},
      "wall/gran/region/jaeger 2e7 0.25 0.4 damping 0.002 0.001");
}

// rolling and twisting at the region wall (the law's keywords on its fix line)
TEST(WallRegionRanks, JaegerPlanesWithRolling)
{
  expect_rank_invariant(
      {"pair_style gran/jaeger", "pair_coeff * * 1e7 0.3 0.5 damping 0.002 0.001"},
      "wall/gran/region/jaeger 2e7 0.25 0.4 damping 0.002 0.001 rolling sds 1e3 0.001 0.1 "
      "twisting marshall");
}

// the two planes as one wall: an intersection of a moving and a turning region
TEST(WallRegionRanks, KuhnIntersectionOfAMovingAndATurningPlane)
{
  expect_rank_invariant({"pair_style gran/kuhn", "pair_coeff * * 2e3 2e3 0.5 damping 0.002 0.001"},
                        "wall/gran/region/kuhn 2e3 1.5e3 0.4 damping 0.002 0.001", true);
}

TEST(WallRegionRanks, JaegerIntersectionOfAMovingAndATurningPlane)
{
  expect_rank_invariant(
      {"pair_style gran/jaeger", "pair_coeff * * 1e7 0.3 0.5 damping 0.002 0.001"},
      "wall/gran/region/jaeger 2e7 0.25 0.4 damping 0.002 0.001", true);
}

// gran/coulomb: the wall contacts' friction decided with the particles' by the friction fix,
// direct and iterated (a Jacobi-type method: independent of the ranks)
TEST(WallRegionRanks, CoulombPlanesMovingAndTurning)
{
  expect_rank_invariant({"pair_style gran/coulomb", "pair_coeff * * hooke 2e3 0.5 damping 0.002 0"},
                        "wall/gran/region/coulomb hooke 2e3 0.4 damping 0.002 0");
  expect_rank_invariant({"pair_style gran/coulomb iterate 1e-12 100",
                         "pair_coeff * * hooke 2e3 0.5 damping 0.002 0"},
                        "wall/gran/region/coulomb hertz 2e7 0.25 0.4 damping 0.002 0", true);
}

TEST(WallRegionRanks, HopperDischargesAlikeOnOneAndFourRanks)
{
  int world, me;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (world < 4) GTEST_SKIP() << "needs 4 ranks";
  const int steps = 2500;
  const Discharge one = discharge_on(1, 0.0, steps), four = discharge_on(4, 0.0, steps);
  double noise = 0.0;
  for (double p : {1e-6, -1e-6, 2e-6, -2e-6})
    noise = std::max(noise, std::fabs(discharge_on(1, p, steps).held - one.held));
  if (me != 0) return;
  const double particle = one.total / 324.0;    // (about one particle's mass)
  std::printf("hopper: mass held after %d steps (of %.6g kg): 1 rank %.6g, 4 ranks %.6g, "
              "noise floor %.3g\n",
              steps, one.total, one.held, four.held, noise);
  EXPECT_LE(std::fabs(four.held - one.held), 3.0 * std::max(noise, particle))
      << "held on 1 rank " << one.held << ", on 4 " << four.held << ", noise " << noise;
  // the hopper must have been discharging, not empty
  EXPECT_LT(one.held, 0.8 * one.total);
  EXPECT_GT(one.held, 0.1 * one.total);
}

/* ----------------------------------------------------------------------
   restart files under MPI: N + M steps straight = N steps, write_restart
   on all ranks, read_restart on all ranks, M steps (forces to 1e-12, the
   walls' vectors to 1e-10); the same file read on one rank (forces to
   1e-9: 1 against N ranks). No damping (a restart file keeps the full-step
   velocities, not the half-step ones a dashpot saw).
------------------------------------------------------------------------- */

TEST(WallRegionRanks, RestartWrittenOnAllRanksReadOnAllAndOnOne)
{
  int me, nprocs;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  struct Case {
    const char *name;
    std::vector<std::string> pair;
    std::string wall;
    bool intersection;    // both planes one wall (their intersection)
  };
  const std::vector<Case> cases = {
      {"kuhn", {"pair_style gran/kuhn", "pair_coeff * * 2e3 2e3 0.5"},
       "wall/gran/region/kuhn 2e3 1.5e3 0.4", false},
      {"jaeger", {"pair_style gran/jaeger", "pair_coeff * * 1e7 0.3 0.5"},
       "wall/gran/region/jaeger 2e7 0.25 0.4", false},
      {"jaeger_intersection", {"pair_style gran/jaeger", "pair_coeff * * 1e7 0.3 0.5"},
       "wall/gran/region/jaeger 2e7 0.25 0.4", true}};
  auto outcome = [](LammpsSession &s) {
    Outcome out;
    out.forces = s.forces();
    for (const char *id : {"w", "w2"}) {
      auto *fix = s.lmp->modify->get_fix_by_id(id);
      for (int k = 0; fix && k < REGION_VECTOR_SIZE; k++) out.wall.push_back(fix->compute_vector(k));
    }
    return out;
  };
  for (const auto &c : cases) {
    const std::string file =
        std::string("region_restart_np") + std::to_string(nprocs) + "_" + c.name + ".bin";
    Outcome straight;
    {
      LammpsSession s;
      s.load_plugin();
      s.commands(squeezed_layer(c.pair, c.wall, c.intersection));
      s.commands({"run 150", "write_restart " + file, "run 100"});
      straight = outcome(s);
    }
    auto resume = [&](MPI_Comm comm) {
      LammpsSession s(comm);
      s.load_plugin();
      s.commands({"read_restart " + file, "neighbor 0.0003 bin", "neigh_modify delay 0"});
      s.commands(region_walls(c.wall, c.intersection));
      s.command("run 100");
      return outcome(s);
    };
    const Outcome resumed = resume(MPI_COMM_WORLD);
    if (me == 0) {
      EXPECT_LT(max_relative_difference(straight.forces, resumed.forces), 1e-12) << c.name;
      for (size_t k = 0; k < straight.wall.size(); k++)
        EXPECT_NEAR(resumed.wall[k], straight.wall[k],
                    1e-10 * std::max(std::fabs(straight.wall[k]), 1e-12))
            << c.name << ", wall vector " << k;
      EXPECT_GE(straight.wall[CONTACTS], 20.0) << c.name;
      EXPECT_GT(straight.wall[FRICTION], 0.0) << c.name;
    }
    MPI_Comm one;
    MPI_Comm_split(MPI_COMM_WORLD, me == 0 ? 0 : MPI_UNDEFINED, me, &one);
    if (one != MPI_COMM_NULL) {
      const Outcome serial = resume(one);
      EXPECT_LT(max_relative_difference(straight.forces, serial.forces), 1e-9)
          << c.name << " on 1 rank";
      MPI_Comm_free(&one);
      std::remove(file.c_str());
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
}
