/* Layer (c): the particle-wall fixes under mpirun. Two layers of spheres drift across
   the subdomains (so atoms and their wall histories migrate between ranks) over a wall
   whose translation velocity reverses (so the Jaeger records grow long), under a wall
   that also turns about z by a variable. The same input runs on sub-communicators of 1, 2
   and 4 ranks in one job; per-atom forces and torques and the fix's global vector (force
   and torque on the wall, energies, the wall's work) after 300 steps must agree to 1e-9 of
   the largest value. */
#include "lammps_session.h"

#include "fix.h"
#include "lammps.h"
#include "modify.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace demc_test;

namespace {

const int STEPS = 300, VECTOR_SIZE = 11, CONTACTS = 7, FRICTION = 5;

struct Outcome {
  PerAtom forces, torques, start, end;
  std::vector<double> wall;    // the global vectors of the two fixes
};

// a layer squeezed between two walls that drag it across the subdomains; neighbours
// overlap from the start, so particles collide all the time
std::vector<std::string> squeezed_layer(const std::vector<std::string> &pair_lines,
                                        const std::string &wall, bool newton)
{
  std::vector<std::string> in = {
      "units si", "atom_style sphere", "atom_modify map array",
      std::string("newton ") + (newton ? "on" : "off"), "boundary p p f", "processors * * 1",
      "comm_modify vel yes", "region box block 0 0.0126 0 0.0126 -0.001 0.003 units box",
      "create_box 1 box", "lattice sc 0.0021 origin 0.5 0.5 0.0",
      "region slab block 0 0.0126 0 0.0126 -0.0005 0.0005 units box", "create_atoms 1 region slab",
      // IDs, radii, velocities and spins that do not depend on the number of ranks
      "reset_atoms id sort yes", "variable d atom 0.00200+0.00015*((id*7919)%101)/101",
      "set group all diameter v_d", "set group all z 0.00099", "set group all density 2650",
      "velocity all create 1e14 87287 loop geom", "velocity all set 1.0 0.7 0 units box",
      "variable wx atom 20*sin(id)", "variable wy atom 20*cos(3*id)",
      "variable wz atom 20*sin(7*id)", "set group all omega v_wx v_wy v_wz", "neighbor 0.0003 bin",
      "neigh_modify delay 0", "variable vx equal 1.0+0.3*sin(0.07*step)",
      "variable vy equal 0.7+0.3*cos(0.05*step)", "variable ux equal 1.0+0.2*cos(0.11*step)",
      "variable uy equal 0.7-0.2*sin(0.06*step)", "variable spin equal 30*sin(0.04*step)"};
  in.insert(in.end(), pair_lines.begin(), pair_lines.end());
  in.push_back("fix w all " + wall + " zplane 0 NULL translate v_vx v_vy 0");
  in.push_back("fix w2 all " + wall + " zplane NULL 0.00198 translate v_ux v_uy 0 rotate v_spin");
  for (const auto &l : {"fix integrate all nve/sphere", "timestep 1e-5"}) in.emplace_back(l);
  return in;
}

// run the input on the first `nranks` ranks of the world; results valid on world rank 0
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
      for (int k = 0; k < VECTOR_SIZE; k++) out.wall.push_back(fix->compute_vector(k));
    }
  });
  return out;
}

void expect_rank_invariant(const std::vector<std::string> &pair_lines, const std::string &wall,
                           bool newton)
{
  int world, me;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  const auto input = squeezed_layer(pair_lines, wall, newton);
  const Outcome serial = run_on(1, input);
  for (int n : {2, 4}) {
    if (n > world) continue;
    const Outcome par = run_on(n, input);
    if (me != 0) continue;
    EXPECT_LT(max_relative_difference(serial.forces, par.forces), 1e-9) << n << " ranks";
    EXPECT_LT(max_relative_difference(serial.torques, par.torques), 1e-9) << n << " ranks";
    for (size_t k = 0; k < serial.wall.size(); k++)
      EXPECT_NEAR(serial.wall[k], par.wall[k], 1e-9 * std::max(std::fabs(serial.wall[k]), 1e-12))
          << n << " ranks, wall vector " << k;
  }
  if (me == 0) {
    // the comparison proves something only if particles touched the wall and moved
    // across the subdomains (half the box: every atom changes rank at 2 and 4 ranks)
    for (int w : {0, VECTOR_SIZE}) {
      EXPECT_GE(serial.wall[w + CONTACTS], 20.0);
      EXPECT_GT(serial.wall[w + FRICTION], 0.0);
    }
    double travelled = 0.0;
    for (size_t i = 1; i < serial.start.size(); i++)
      travelled = std::max(travelled, std::fabs(serial.end[i][0] - serial.start[i][0]));
    EXPECT_GT(travelled, 0.0021);
  }
}

}    // namespace

namespace {
const std::vector<std::string> KUHN = {"pair_style gran/kuhn",
                                       "pair_coeff * * 2e3 2e3 0.5 damping 0.002 0.001"};
const std::string KUHN_WALL = "wall/gran/kuhn 2e3 1.5e3 0.4 damping 0.002 0.001";
const std::vector<std::string> JAEGER = {"pair_style gran/jaeger",
                                         "pair_coeff * * 1e7 0.3 0.5 damping 0.002 0.001"};
const std::string JAEGER_WALL = "wall/gran/jaeger 2e7 0.25 0.4 damping 0.002 0.001";
}    // namespace

TEST(WallRankInvariance, KuhnNewtonOn)
{
  expect_rank_invariant(KUHN, KUHN_WALL, true);
}

TEST(WallRankInvariance, KuhnNewtonOff)
{
  expect_rank_invariant(KUHN, KUHN_WALL, false);
}

/* rolling and twisting resistance at the walls (the pair without: the walls' springs alone
   migrate with the atoms); the layer's spins load both springs */
TEST(WallRankInvariance, KuhnRollingTwisting)
{
  expect_rank_invariant(KUHN,
                        "wall/gran/kuhn 2e3 1.5e3 0.4 damping 0.002 0.001 rolling sds 1e3 0.001 "
                        "0.1 twisting marshall",
                        true);
}

TEST(WallRankInvariance, JaegerNewtonOn)
{
  expect_rank_invariant(JAEGER, JAEGER_WALL, true);
}

// the same at fix wall/gran/jaeger (keywords on the fix line; the pair with them too)
TEST(WallRankInvariance, JaegerRollingTwisting)
{
  expect_rank_invariant({"pair_style gran/jaeger",
                         "pair_coeff * * 1e7 0.3 0.5 damping 0.002 0.001 rolling sds 2.0e3 0.01 "
                         "0.1 twisting sds 1e-5 1e-10 3e-5"},
                        "wall/gran/jaeger 2e7 0.25 0.4 damping 0.002 0.001 rolling sds 1e3 0.001 "
                        "0.1 twisting marshall",
                        true);
}

TEST(WallRankInvariance, JaegerBoundedHistory)
{
  expect_rank_invariant(
      {"pair_style gran/jaeger beta 0.1 history/max 6", "pair_coeff * * 1e7 0.3 0.5"},
      "wall/gran/jaeger 2e7 0.25 0.4 beta 0.1 history/max 6", true);
}
