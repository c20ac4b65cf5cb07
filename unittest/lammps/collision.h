/* Test helper: restitution damping against LAMMPS's own pair_style granular (damping
   coeff_restitution), an independent implementation. A head-on collision of two unlike
   spheres (radii 0.5 and 0.4, densities 1000 and 2500; or a sphere thrown at one held by fix
   freeze, which LAMMPS counts as infinitely heavy) gives, every 50 steps, the same force in
   both styles, and the spheres part with e times their approach speed (what the model is built
   for; within 1e-3, the time step's error). */

#ifndef DEMC_TEST_COLLISION_H
#define DEMC_TEST_COLLISION_H

#include "lammps_session.h"
#include "prescribed_motion.h"

#include "atom.h"
#include "force.h"
#include "lammps.h"
#include "pair.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace demc_test {

struct Collision {
  std::vector<double> forces;    // x force on atom 1 every 50 steps
  double restitution;            // relative velocity after / before
};

inline Collision head_on(const std::vector<std::string> &pair_lines, bool frozen_target)
{
  LammpsSession s;
  s.load_plugin();
  s.commands({"units si", "atom_style sphere", "atom_modify map array", "boundary f f f",
              "comm_modify vel yes", "region box block -2 2 -2 2 -2 2 units box",
              "create_box 2 box", "create_atoms 1 single -0.5001 0 0 units box",
              "create_atoms 2 single 0.4001 0 0 units box", "set atom 1 diameter 1.0",
              "set atom 2 diameter 0.8", "set atom 1 density 1000", "set atom 2 density 2500",
              "velocity all set 0 0 0", "set atom 1 vx 0.5", "set atom 2 vx -0.3"});
  s.commands(pair_lines);
  if (frozen_target) {
    s.commands({"group target id 2", "group moving id 1", "set atom 2 vx 0",
                "fix hold target freeze", "fix integrate moving nve/sphere"});
  } else {
    s.command("fix integrate all nve/sphere");
  }
  s.commands({"timestep 1e-5", "run 0 post no"});
  Collision c;
  auto *atom = s.lmp->atom;
  for (int k = 0; k < 600; k++) {
    s.command("run 50 pre no post no");
    c.forces.push_back(s.forces()[1][0]);
  }
  const double v1 = atom->v[atom->map(1)][0], v2 = atom->v[atom->map(2)][0];
  c.restitution = (v2 - v1) / (frozen_target ? 0.5 : 0.8);
  EXPECT_EQ(s.forces()[1][0], 0.0) << "the spheres should have parted";
  return c;
}

// style: this package's pair style (gran/kuhn, gran/jaeger) with the pair_coeff line ours_coeff
inline void expect_collision_as_lammps(const std::string &style, const std::string &ours_coeff,
                                       const std::string &granular_coeff, double e,
                                       bool frozen_target)
{
  const Collision ours = head_on({"pair_style " + style, ours_coeff}, frozen_target);
  const Collision lammps = head_on({"pair_style granular", granular_coeff}, frozen_target);
  double scale = 0.0, diff = 0.0;
  for (size_t k = 0; k < ours.forces.size(); k++) {
    scale = std::max(scale, std::fabs(lammps.forces[k]));
    diff = std::max(diff, std::fabs(ours.forces[k] - lammps.forces[k]));
  }
  EXPECT_GT(scale, 1e3) << style << " e " << e << ": no collision";
  EXPECT_LT(diff, 1e-10 * scale) << style << " e " << e;
  EXPECT_NEAR(ours.restitution, e, 1e-3) << style;
}

/* restitution coefficients of two types (e 0.7, 0.4; x_t 0.5, 0.2; law1, law2: the values before
   "restitution") survive a restart file, with the contact histories (a resumed run continues the
   straight one), and write_data ... pair ij (read back: the same values, the mixed pair the
   geometric means) */
inline void expect_restitution_survives_restart_and_data(const std::string &style,
                                                         const std::string &law1,
                                                         const std::string &law2)
{
  const std::string file = "restitution_" + style.substr(style.find('/') + 1);
  const std::vector<std::string> pair = {"pair_style " + style,
                                         "pair_coeff 1 1 " + law1 + " restitution 0.7 0.5",
                                         "pair_coeff 2 2 " + law2 + " restitution 0.4 0.2"};
  PerAtom straight, resumed;
  {
    LammpsSession s;
    s.load_plugin();
    s.commands(dense_packing_input(pair, true));
    // the restart file is written during the run: the straight run has no setup at step 100,
    // the resumed one two (run 0, run 50), each of which must repeat the last step's dashpot
    // forces
    s.commands({"restart 100 " + file + ".*.bin", "run 150"});
    straight = s.forces();
    s.command("write_data " + file + ".data pair ij");
  }
  {
    LammpsSession s;
    s.load_plugin();
    s.commands({"read_restart " + file + ".100.bin", "neighbor 0.0003 bin", "neigh_modify delay 0",
                "fix integrate all nve/sphere", "timestep 1e-5", "run 0", "run 50"});
    resumed = s.forces();
  }
  std::remove((file + ".100.bin").c_str());
  EXPECT_LT(max_relative_difference(straight, resumed), 1e-12) << style;
  for (const std::string name : {"restitution", "restitution_t"}) {
    LammpsSession s;
    s.load_plugin();
    s.commands({"units si", "atom_style sphere", "comm_modify vel yes", "pair_style " + style,
                "read_data " + file + ".data", "run 0"});
    int dim;
    auto **a = (double **) s.lmp->force->pair->extract(name.c_str(), dim);
    ASSERT_NE(a, nullptr) << style << " " << name;
    const double expect11 = name == "restitution" ? 0.7 : 0.5;
    const double expect22 = name == "restitution" ? 0.4 : 0.2;
    EXPECT_DOUBLE_EQ(a[1][1], expect11) << style << " " << name;
    EXPECT_DOUBLE_EQ(a[2][2], expect22) << style << " " << name;
    EXPECT_NEAR(a[1][2], std::sqrt(expect11 * expect22), 1e-15) << style << " " << name;
  }
  std::remove((file + ".data").c_str());
}

}    // namespace demc_test

#endif
