/* Test helper: restart files written by an earlier version of the package (unittest/data).
   For each, a text file holds what that version's run gave 200 steps after write_restart:
   lines "pair v..." (compute pair's vector), "wall v..." (the wall fix's first 9 values) and
   "force id fx fy fz". A session that reads the file back must continue that run. */

#ifndef DEMC_TEST_EARLIER_VERSION_H
#define DEMC_TEST_EARLIER_VERSION_H

#include "lammps_session.h"

#include "fix.h"
#include "lammps.h"
#include "modify.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace demc_test {

struct EarlierRun {
  std::vector<double> pair, wall;
  std::map<std::string, std::vector<double>> vectors;    // every line but "force", by its kind
  PerAtom forces;
};

inline EarlierRun read_earlier_run(const std::string &path)
{
  EarlierRun run;
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "missing fixture " << path;
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string kind;
    words >> kind;
    std::vector<double> values;
    for (double v; words >> v;) values.push_back(v);
    if (kind != "force") run.vectors[kind] = values;
    if (kind == "pair") run.pair = values;
    if (kind == "wall") run.wall = values;
    if (kind == "force") {
      const auto id = static_cast<size_t>(values[0]);
      if (run.forces.size() <= id) run.forces.resize(id + 1, {0.0, 0.0, 0.0});
      run.forces[id] = {values[1], values[2], values[3]};
    }
  }
  return run;
}

// forces, the pair's vector and (unless wall_fix is empty) the wall fix's first 9 values as the
// earlier run's, to 1e-10
inline void expect_continues_earlier_run(LammpsSession &s, const EarlierRun &earlier,
                                         const std::string &wall_fix)
{
  if (!wall_fix.empty()) ASSERT_EQ(earlier.wall.size(), 9u);
  ASSERT_EQ(s.forces().size(), earlier.forces.size());
  EXPECT_LT(max_relative_difference(earlier.forces, s.forces()), 1e-10);
  const auto pair = s.pair_extra();
  ASSERT_GE(pair.size(), earlier.pair.size());
  for (size_t k = 0; k < earlier.pair.size(); k++)
    EXPECT_NEAR(pair[k], earlier.pair[k], 1e-10 * std::fabs(earlier.pair[k])) << "pvector " << k;
  if (wall_fix.empty()) return;
  auto *wall = s.lmp->modify->get_fix_by_id(wall_fix);
  ASSERT_NE(wall, nullptr);
  for (int k = 0; k < 9; k++)
    EXPECT_NEAR(wall->compute_vector(k), earlier.wall[k], 1e-10 * std::fabs(earlier.wall[k]))
        << "wall vector " << k;
}

/* read back unittest/data/restart_<version>_<law>_wall.bin (version: the commit of the plugin
   that wrote it, de0f446 by default), give the fixes the file does not hold (gravity, the wall
   `wall_fix_args` as fix w translating by v_vx, the integrator) and run the 200 steps; returns
   the earlier run for checks of its own */
inline EarlierRun continue_earlier_run(const std::string &law, const std::string &wall_fix_args,
                                       const std::string &version = "de0f446")
{
  const std::string dir = DEMC_TEST_DATA_DIR, stem = dir + "/restart_" + version + "_" + law;
  const EarlierRun earlier = read_earlier_run(stem + "_expected.txt");
  LammpsSession s;
  s.load_plugin();
  s.commands({"read_restart " + stem + "_wall.bin", "neighbor 0.0003 bin", "neigh_modify delay 0",
              "fix grav all gravity 9.81 vector 0 0 -1", "variable vx equal 0.05*sin(0.05*step)",
              "fix w all " + wall_fix_args + " zplane 0 NULL translate v_vx 0 0",
              "fix integrate all nve/sphere", "timestep 1e-5", "run 200"});
  expect_continues_earlier_run(s, earlier, "w");
  return earlier;
}

/* read back unittest/data/<stem>.bin, a restart of unittest/data/restart_80af862_jaeger.in (no
   wall), give the commands the file does not hold and run the 200 steps: forces and the pair's
   vector as <stem>_expected.txt has them, to 1e-10; returns the earlier run */
inline EarlierRun continue_earlier_pair_run(LammpsSession &s, const std::string &stem)
{
  const std::string dir = DEMC_TEST_DATA_DIR;
  const EarlierRun earlier = read_earlier_run(dir + "/" + stem + "_expected.txt");
  s.commands({"read_restart " + dir + "/" + stem + ".bin", "neighbor 0.0003 bin",
              "neigh_modify delay 0", "fix integrate all nve/sphere", "timestep 1e-5", "run 200"});
  expect_continues_earlier_run(s, earlier, "");
  return earlier;
}

}    // namespace demc_test

#endif
