/* Layer (b): restart files with long contact histories read back with memory that follows the
   data (demc_restart_records.h), and continue the run that wrote them.
   - a pair contact and a wall contact with thousands of history points among 1000 atoms
     without contacts: read_restart's per-atom slots (atom->nextra_store) stay near the mean
     data per atom, far below one long history; the run continued from the file equals the run
     that went straight on, also through a write_restart made right after read_restart;
   - a record of a newer format version is refused with an error that says so. */
#include "lammps_session.h"
#include "long_history.h"

#include "atom.h"
#include "exceptions.h"
#include "fix.h"
#include "lammps.h"
#include "modify.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace demc_test;

namespace {

const int STEPS_BEFORE = 3000, STEPS_AFTER = 40;

double history_stat(LammpsSession &s, int index)
{
  auto *fix = s.lmp->modify->get_fix_by_id("DEMC_GRAN_JAEGER_HISTORY0");
  return fix ? fix->compute_vector(index) : -1.0;
}

struct Outcome {
  PerAtom forces, torques;
  std::vector<double> wall;    // the wall fix's force on the wall (3)
};

Outcome outcome(LammpsSession &s)
{
  auto *wall = s.lmp->modify->get_fix_by_id("wall");
  return {s.forces(),
          s.torques(),
          {wall->compute_vector(0), wall->compute_vector(1), wall->compute_vector(2)}};
}

void expect_same(const Outcome &a, const Outcome &b, double tolerance, const std::string &what)
{
  EXPECT_LE(max_relative_difference(a.forces, b.forces), tolerance) << what << ": forces";
  EXPECT_LE(max_relative_difference(a.torques, b.torques), tolerance) << what << ": torques";
  for (int k = 0; k < 3; k++)
    EXPECT_NEAR(a.wall[k], b.wall[k], tolerance * std::abs(a.wall[2])) << what << ": wall " << k;
}

// the restart file's commands after read_restart: the fixes as they were (their IDs take back
// their per-atom data), no run
std::vector<std::string> redefine_after_read(const std::string &pair_args)
{
  std::vector<std::string> all = long_history_input(pair_args, true), out;
  for (const auto &line : all)
    if (line.rfind("fix ", 0) == 0 || line.rfind("variable ", 0) == 0 ||
        line.rfind("neigh", 0) == 0 || line.rfind("timestep", 0) == 0)
      out.push_back(line);
  return out;
}

}    // namespace

TEST(RestartRecords, LongHistoriesReadBackWithMemoryOfTheMean)
{
  for (bool newton : {true, false}) {
    const std::string file = std::string("long_history_") + (newton ? "on" : "off") + ".bin";
    const std::string again = "again_" + file;
    Outcome straight;
    double longest = 0.0, mean = 0.0, records = 0.0;
    {
      LammpsSession s;
      s.load_plugin();
      s.commands(long_history_input("", newton));
      s.commands({"run " + std::to_string(STEPS_BEFORE), "write_restart " + file});
      records = history_stat(s, 0);
      mean = history_stat(s, 1);
      longest = history_stat(s, 2);
      s.command("run " + std::to_string(STEPS_AFTER));
      straight = outcome(s);
    }
    // the experiment is what it says: one long pair history (held on both sides with newton
    // off) and nothing else
    ASSERT_GT(longest, 0.9 * STEPS_BEFORE) << "a point per step";
    EXPECT_EQ(records, 1.0);
    EXPECT_EQ(mean, longest);

    LammpsSession r;
    r.load_plugin();
    r.command(std::string("newton ") + (newton ? "on" : "off"));
    r.command("read_restart " + file);
    /* the values the file holds for the histories: per side of the pair contact a store of
       2 + header + 4 points (header < 16), the wall record as long; spread over all atoms they
       come to about (3 records x 4 longest) / atoms, to which each record adds its headers
       (4 fragment values, 4 record values, 8 of slack) and fix move its 4. The old layout
       needed a whole history per atom: over 4 x longest. */
    const double atoms = (double) r.lmp->atom->natoms;
    const double mean_data = 3.0 * (16.0 + 4.0 * longest) / atoms;
    std::printf("newton %d: longest history %g points, per-atom restart slot %d values "
                "(mean data per atom %.1f)\n",
                (int) newton, longest, r.lmp->atom->nextra_store, mean_data);
    EXPECT_LE(r.lmp->atom->nextra_store, mean_data + 3 * 16 + 8) << "newton " << newton;
    EXPECT_LT(20 * r.lmp->atom->nextra_store, 4.0 * longest);
    r.commands(redefine_after_read(""));
    // straight back to a file (no run: the histories must still be written), then read that
    r.command("write_restart " + again);
    LammpsSession t;
    t.load_plugin();
    t.command(std::string("newton ") + (newton ? "on" : "off"));
    t.command("read_restart " + again);
    t.commands(redefine_after_read(""));
    t.command("run " + std::to_string(STEPS_AFTER));
    expect_same(straight, outcome(t), 1e-12, "newton " + std::to_string(newton));
    EXPECT_EQ(history_stat(t, 2), longest + STEPS_AFTER) << "the history went on growing";
    std::remove(file.c_str());
    std::remove(again.c_str());
  }
}

/* A restart file from a newer version of the package, whose records this version cannot know:
   the version of a kind of record raised in a file must stop read-back with an error naming
   the version, not go on with misread histories or settings. Records: the package's marker
   followed by its version; in this file (gran/jaeger, wall/gran/jaeger) version 4 marks the
   pair's per-atom history records, version 3 the wall's records (global and per atom),
   version 1 the pair's settings (read by read_restart) and its per-atom energy fix's records. */
TEST(RestartRecords, NewerRecordVersionIsRefused)
{
  const std::string file = "newer_records.bin";
  {
    LammpsSession s;
    s.load_plugin();
    s.commands(long_history_input("", true));
    s.commands({"run 20", "write_restart " + file});
  }
  std::vector<char> bytes;
  {
    std::ifstream in(file, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::remove(file.c_str());
  const uint64_t marker = 0x7ff8000000006465ULL;
  for (const double old_version : {4.0, 3.0, 2.0, 1.0}) {
    std::vector<char> patched_bytes = bytes;
    const double new_version = 99.0;
    int patched = 0;
    for (size_t k = 0; k + 16 <= patched_bytes.size(); k++) {
      if (memcmp(&patched_bytes[k], &marker, 8) != 0 ||
          memcmp(&patched_bytes[k + 8], &old_version, 8) != 0)
        continue;
      memcpy(&patched_bytes[k + 8], &new_version, 8);
      patched++;
    }
    ASSERT_GT(patched, 0) << "no record of version " << old_version;
    const std::string newer = "newer_records_v" + std::to_string((int) old_version) + ".bin";
    std::ofstream(newer, std::ios::binary)
        .write(patched_bytes.data(), (std::streamsize) patched_bytes.size());
    LammpsSession r;
    r.load_plugin();
    try {
      r.command("read_restart " + newer);
      r.commands(redefine_after_read(""));
      r.command("run 0");
      ADD_FAILURE() << "a record of version 99 was read (was " << old_version << ")";
    } catch (LAMMPS_NS::LAMMPSException &e) {
      EXPECT_NE(std::string(e.what()).find("format version 99"), std::string::npos) << e.what();
    }
    std::remove(newer.c_str());
  }
}

/* Continuation to round-off, option by option: one run of N + M steps that writes a restart
   file at step N against N steps read back from that file and M steps on, in the dense packing
   of the other restart tests (512 spheres, sliding and rolling contacts), on one rank (the
   same atom order, the same sums): forces and torques equal to round-off. With
   dashpots the first step after read_restart needs the damping force of the step before it,
   which the velocities of the file do not give; the straight run has no setup in between
   (two runs one after the other would both lack it). */
TEST(RestartRecords, EveryOptionContinuesToRoundOff)
{
  struct Case {
    std::vector<std::string> pair;
    std::string wall;    // a wall fix's arguments after its style (none: "")
  };
  const std::string jaeger = "1e7 0.3 0.5", kuhn = "2e3 2e3 0.5";
  const std::string planes = " zplane -0.0008 0.0141";
  const std::vector<Case> cases = {
      {{"pair_style gran/jaeger", "pair_coeff * * " + jaeger}, ""},
      {{"pair_style gran/jaeger history/max 4", "pair_coeff * * " + jaeger}, ""},
      {{"pair_style gran/jaeger beta 0.1", "pair_coeff * * " + jaeger}, ""},
      {{"pair_style gran/jaeger work no", "pair_coeff * * " + jaeger}, ""},
      {{"pair_style gran/jaeger", "pair_coeff * * " + jaeger + " damping 0.02 0.01"}, ""},
      {{"pair_style gran/jaeger beta 0.1", "pair_coeff * * " + jaeger + " restitution 0.7 0.5"},
       ""},
      {{"pair_style gran/kuhn", "pair_coeff * * " + kuhn}, ""},
      {{"pair_style gran/kuhn", "pair_coeff * * " + kuhn + " damping 0.02 0.01"}, ""},
      {{"pair_style gran/kuhn", "pair_coeff * * " + kuhn + " restitution 0.7 0.5"}, ""},
      {{"pair_style gran/jaeger", "pair_coeff * * " + jaeger},
       "wall/gran/jaeger " + jaeger + " history/max 4 damping 0.02 0.01" + planes},
      {{"pair_style gran/jaeger", "pair_coeff * * " + jaeger},
       "wall/gran/jaeger " + jaeger + " beta 0.1 restitution 0.7 0.5" + planes},
      {{"pair_style gran/kuhn", "pair_coeff * * " + kuhn},
       "wall/gran/kuhn " + kuhn + " damping 0.02 0.01" + planes},
      {{"pair_style gran/kuhn", "pair_coeff * * " + kuhn},
       "wall/gran/kuhn " + kuhn + " restitution 0.7 0.5" + planes},
  };
  for (const auto &c : cases) {
    const std::string what = c.pair[0] + " / " + c.pair[1] + (c.wall.empty() ? "" : " / " + c.wall);
    const std::string file = "every_option.150.bin";
    std::vector<std::string> setup = dense_packing_input(c.pair, true);
    std::vector<std::string> fixes = {"fix integrate all nve/sphere", "timestep 1e-5"};
    if (!c.wall.empty()) {
      for (auto &line : setup)
        if (line == "boundary p p p") line = "boundary p p m";
      setup.push_back("fix w all " + c.wall);
      fixes.push_back("fix w all " + c.wall);
    }
    for (int steps : {1, 20}) {
      PerAtom f_straight, t_straight, f_resumed, t_resumed;
      {
        LammpsSession s;
        s.load_plugin();
        s.commands(setup);
        // one run, the file written at its step 150 (restart output): no setup in between
        s.commands({"restart 150 every_option.*.bin", "run " + std::to_string(150 + steps)});
        f_straight = s.forces();
        t_straight = s.torques();
      }
      {
        LammpsSession s;
        s.load_plugin();
        s.commands({"read_restart " + file, "neighbor 0.0003 bin", "neigh_modify delay 0"});
        s.commands(fixes);
        s.command("run " + std::to_string(steps));
        f_resumed = s.forces();
        t_resumed = s.torques();
      }
      std::remove(file.c_str());
      const double df = max_relative_difference(f_straight, f_resumed);
      const double dt = max_relative_difference(t_straight, t_resumed);
      std::printf("%-90s %2d steps: forces %.3g torques %.3g\n", what.c_str(), steps, df, dt);
      // after one step the forces differ in their last bits (the positions read back are
      // wrapped into the box: x - L rounds); over 20 steps of colliding spheres that grows
      const double tolerance = steps == 1 ? 1e-14 : 1e-12;
      EXPECT_LE(df, tolerance) << what << ", " << steps << " steps";
      EXPECT_LE(dt, tolerance) << what << ", " << steps << " steps";
    }
  }
}

/* history/max caps the long histories of the same system: every step merges a point away
   (make_room()). One run of N + M steps that writes a restart file at step N equals N steps
   read back from it and M steps on: the capped histories, and the wall's, come back as they
   were. */
TEST(RestartRecords, CappedLongHistoriesContinue)
{
  const std::string file = "capped.1000.bin";
  const int after = 40;
  Outcome straight;
  double merges = 0.0;
  {
    LammpsSession s;
    s.load_plugin();
    s.commands(long_history_input(" history/max 64", true));
    s.commands({"restart 1000 capped.*.bin", "run " + std::to_string(1000 + after)});
    straight = outcome(s);
    merges = history_stat(s, 4);
    EXPECT_EQ(history_stat(s, 2), 64.0);
  }
  EXPECT_GT(merges, 900.0) << "a merge a step once the history is full";
  LammpsSession r;
  r.load_plugin();
  r.command("read_restart " + file);
  r.commands(redefine_after_read(" history/max 64"));
  r.command("run " + std::to_string(after));
  expect_same(straight, outcome(r), 1e-14, "history/max 64");
  std::remove(file.c_str());
}
