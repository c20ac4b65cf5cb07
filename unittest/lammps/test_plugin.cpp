/* Layer (b): LAMMPS in-process. The plugin loads and registers its styles, and
   forces read back through the session match closed forms. */
#include "lammps_session.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace demc_test;

namespace {
const char *const PACKAGE_PAIR_STYLES[] = {"gran/kuhn", "gran/jaeger"};
}

TEST(Plugin, RegistersItsStylesOnlyWhenLoaded)
{
  LammpsSession s;
  for (const char *style : PACKAGE_PAIR_STYLES) EXPECT_FALSE(s.has_style("pair", style)) << style;
  s.load_plugin();
  for (const char *style : PACKAGE_PAIR_STYLES) EXPECT_TRUE(s.has_style("pair", style)) << style;
}

// two touching spheres at rest under LAMMPS's own gran/hooke/history:
// the normal force is kn * overlap, equal and opposite, along the line of centres
TEST(LammpsSession, ReadsHookeForcesOfTwoSpheres)
{
  LammpsSession s;
  const double kn = 2.0e5, overlap = 1.0e-3, radius = 0.5;
  s.commands({"units si", "atom_style sphere", "atom_modify map array", "boundary f f f",
              "comm_modify vel yes", "region box block -2 2 -2 2 -2 2", "create_box 1 box",
              "create_atoms 1 single 0 0 0", "create_atoms 1 single 0.6 0.8 0",
              "set group all diameter 1.0", "set group all density 1000",
              "pair_style gran/hooke/history 2.0e5 NULL 0 NULL 0.5 0", "pair_coeff * *",
              "fix integrate all nve/sphere", "timestep 1e-6", "run 0"});
  // move atom 2 so that the overlap is exactly `overlap`
  const double d = 2 * radius - overlap;
  s.commands({"set atom 2 x " + std::to_string(0.6 * d) + " y " + std::to_string(0.8 * d),
              "run 0"});
  auto f = s.forces();
  const double fmag = kn * overlap;
  EXPECT_NEAR(f[1][0], -0.6 * fmag, 1e-9 * fmag);
  EXPECT_NEAR(f[1][1], -0.8 * fmag, 1e-9 * fmag);
  EXPECT_NEAR(f[2][0], 0.6 * fmag, 1e-9 * fmag);
  EXPECT_NEAR(f[2][1], 0.8 * fmag, 1e-9 * fmag);
  EXPECT_EQ(f[1][2], 0.0);
}
