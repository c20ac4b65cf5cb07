/* Layer (b): restart files with long contact histories read back with memory that follows the
   data (demc_restart_records.h), and continue the run that wrote them.
   - a pair contact and a wall contact with thousands of history points among 1000 atoms
     without contacts: read_restart's per-atom slots (atom->nextra_store) stay near the mean
     data per atom, far below one long history; the run continued from the file equals the run
     that went straight on, also through a write_restart made right after read_restart;
   - the same for a region wall's contact lists (long Jaeger stacks, capped ones, Kuhn's);
   - a record of a newer format version is refused with an error that says so, as are region
     wall and gran/coulomb records of a newer version or damaged;
   - a record of a development version (an earlier format version, or one without the
     package's marker) is refused with an error that says so;
   - every option (pair styles, walls, gran/coulomb, region walls) continues to round-off. */
#include "lammps_session.h"
#include "long_history.h"
#include "relaxing_packing.h"

#include "atom.h"
#include "domain.h"
#include "exceptions.h"
#include "fix.h"
#include "force.h"
#include "lammps.h"
#include "modify.h"
#include "pair.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace demc_test;

namespace {

// the format version of every record of the files written here (demc_restart::FORMAT_VERSION,
// stated on its own: a change of it must be seen by these tests)
const double FORMAT_VERSION = 8.0;

const int STEPS_BEFORE = 3000, STEPS_AFTER = 40;

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
      // (prune 0: histories of a point a step, the length this test is about)
      s.commands(long_history_input(" prune 0", newton));
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
       2 + header + 4 points (header <= 16), the wall record as long; spread over all atoms they
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
    r.commands(redefine_after_read(" prune 0"));
    // straight back to a file (no run: the histories must still be written), then read that
    r.command("write_restart " + again);
    LammpsSession t;
    t.load_plugin();
    t.command(std::string("newton ") + (newton ? "on" : "off"));
    t.command("read_restart " + again);
    t.commands(redefine_after_read(" prune 0"));
    t.command("run " + std::to_string(STEPS_AFTER));
    expect_same(straight, outcome(t), 1e-12, "newton " + std::to_string(newton));
    EXPECT_EQ(history_stat(t, 2), longest + STEPS_AFTER) << "the history went on growing";
    std::remove(file.c_str());
    std::remove(again.c_str());
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

/* ----------------------------------------------------------------------
   region walls and gran/coulomb
------------------------------------------------------------------------- */

namespace {

// the region wall's global vector (force, energies, counts, torque z, work, torque x and y)
std::vector<double> wall_vector(LammpsSession &s, const std::string &id)
{
  auto *fix = s.lmp->modify->get_fix_by_id(id);
  std::vector<double> v;
  for (int k = 0; k < fix->size_vector; k++) v.push_back(fix->compute_vector(k));
  return v;
}

void expect_same_vectors(const std::vector<double> &a, const std::vector<double> &b,
                         double tolerance, const std::string &what)
{
  ASSERT_EQ(a.size(), b.size()) << what;
  for (size_t k = 0; k < a.size(); k++)
    EXPECT_NEAR(a[k], b[k], tolerance * std::max(std::abs(a[k]), 1e-12))
        << what << ": vector " << k;
}

// the commands after read_restart: the region and the fixes as they were
std::vector<std::string> redefine_region_after_read(LammpsSession &s, const std::string &wall)
{
  std::vector<std::string> out;
  for (const auto &line : long_region_history_input(wall))
    if (line.rfind("fix ", 0) == 0 || line.rfind("variable ", 0) == 0 ||
        line.rfind("timestep", 0) == 0 ||
        (line.rfind("region cage", 0) == 0 && !s.lmp->domain->get_region_by_id("cage")))
      out.push_back(line);
  return out;
}

}    // namespace

/* A region wall's contact lists with long Jaeger stacks (a particle pressed into a corner of a
   block region, three contacts, two of them growing a point a step; long_history.h), and the
   same capped by history/max, and gran/kuhn's records: one run of N + M steps that writes a
   restart file at step N equals N steps read back from it, written again at once, read back
   and M steps on, to round-off; the per-atom restart slots hold about the mean list, not the
   longest. */
TEST(RestartRecords, RegionWallLongHistoriesContinue)
{
  const int before = 1000, after = 40;
  for (const std::string wall :
       {"jaeger 1e7 0.3 0.5 prune 0", "jaeger 1e7 0.3 0.5 history/max 16", "kuhn 2e3 1.5e3 0.5"}) {
    const std::string file = "region_long." + std::to_string(before) + ".bin";
    PerAtom straight;
    std::vector<double> straight_wall;
    int longest_list = 0;
    {
      LammpsSession s;
      s.load_plugin();
      s.commands(long_region_history_input(wall));
      s.commands({"restart " + std::to_string(before) + " region_long.*.bin",
                  "run " + std::to_string(before + after)});
      straight = s.forces();
      straight_wall = wall_vector(s, "wall");
      int dim = -1;
      longest_list = *(int *) s.lmp->modify->get_fix_by_id("wall")->extract("longest_list", dim);
    }
    const bool jaeger = wall.rfind("jaeger", 0) == 0;
    const bool capped = wall.find("history/max") != std::string::npos;
    // three contacts; Jaeger's lists: two stacks of a point a step (4 values each), or capped
    std::printf("%-36s longest contact list %d values\n", wall.c_str(), longest_list);
    if (jaeger && !capped) EXPECT_GT(longest_list, 2 * 4 * before) << wall;
    if (capped) {
      EXPECT_GT(longest_list, 2 * 4 * 16) << wall << ": at the cap";
      EXPECT_LT(longest_list, 3 * (2 + 1 + 16 + 4 * 16)) << wall << ": at the cap";
    }
    EXPECT_EQ(straight_wall[7], 3.0) << wall << ": contacts";

    LammpsSession r;
    r.load_plugin();
    r.command("read_restart " + file);
    std::printf("%-36s per-atom restart slot %d values\n", wall.c_str(), r.lmp->atom->nextra_store);
    if (jaeger && !capped)
      EXPECT_LT(20 * r.lmp->atom->nextra_store, 2 * 4 * before) << wall << ": per-atom slot";
    r.commands(redefine_region_after_read(r, wall));
    // straight back to a file (no run: the lists must still be written), then read that
    r.command("write_restart region_again.bin");
    LammpsSession t;
    t.load_plugin();
    t.command("read_restart region_again.bin");
    t.commands(redefine_region_after_read(t, wall));
    t.command("run " + std::to_string(after));
    std::remove(file.c_str());
    std::remove("region_again.bin");
    EXPECT_LE(max_relative_difference(straight, t.forces()), 1e-13) << wall;
    expect_same_vectors(straight_wall, wall_vector(t, "wall"), 1e-12, wall);
  }
}

namespace {

std::vector<char> file_bytes(const std::string &file)
{
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/* every place k (a byte offset) where the package's marker begins and at(k, j), the j-th
   double after the marker's first byte (0: the marker), passes `is_target`: patch(k) changes
   the copy there. Returns the patched copy and the number of places (their offsets in
   `places`, when given). */
template <class Target, class Patch>
std::pair<std::vector<char>, int> patch_records(const std::vector<char> &bytes, Target is_target,
                                                Patch patch, std::vector<size_t> *places = nullptr)
{
  const uint64_t marker = 0x7ff8000000006465ULL;
  std::vector<char> out = bytes;
  int patched = 0;
  for (size_t k = 0; k + 8 <= out.size(); k++) {
    if (memcmp(&out[k], &marker, 8) != 0) continue;
    auto at = [&](int j) {
      double v = NAN;
      if (k + 8 * (size_t) (j + 1) <= out.size()) memcpy(&v, &out[k + 8 * (size_t) j], 8);
      return v;
    };
    if (!is_target(at)) continue;
    if (places) places->push_back(k);
    auto set = [&](int j, double v) {
      memcpy(&out[k + 8 * (size_t) j], &v, 8);
    };
    patch(set);
    patched++;
  }
  return {out, patched};
}

// read_restart of `bytes` (then `after` and a run) stops with an error holding `message`
void expect_refused(const std::vector<char> &bytes, const std::vector<std::string> &after,
                    const std::string &message, const std::string &what)
{
  const std::string file = "refused_records.bin";
  std::ofstream(file, std::ios::binary).write(bytes.data(), (std::streamsize) bytes.size());
  LammpsSession r;
  r.load_plugin();
  try {
    r.command("read_restart " + file);
    for (const auto &line : after) {
      // (a region the file holds already)
      std::istringstream words(line);
      std::string command, id;
      words >> command >> id;
      if (command == "region" && r.lmp->domain->get_region_by_id(id)) continue;
      r.command(line);
    }
    r.command("run 0");
    ADD_FAILURE() << what << ": read";
  } catch (LAMMPS_NS::LAMMPSException &e) {
    std::printf("%s: %s\n", what.c_str(), e.what());
    EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << what << ": " << e.what();
  }
  std::remove(file.c_str());
}

}    // namespace

/* A restart file whose records are of another format version than this package's is refused
   when a record is read, with an error that says why: a newer version's (a layout this version
   cannot know), or a development version's (written before the package's first release, whose
   layouts are not read): an earlier format version, or records without the package's marker
   (as all records were before markers). The records are made by hand from a file of this
   version (gran/jaeger, wall/gran/jaeger and their per-atom data): its s-th record gets the
   other version, or loses its marker to the number 1; s = 0 to 6 are the pair's settings and
   coefficients, the global records of the per-atom energy fix and of the wall fix, and the
   first atom's records of the three per-atom fixes (energies, contact histories, wall): the
   error names the reader of each. */
TEST(RestartRecords, RecordsOfAnotherFormatVersionAreRefused)
{
  const std::string file = "other_version_records.bin";
  {
    LammpsSession s;
    s.load_plugin();
    s.commands(long_history_input(" prune 0", true));
    s.commands({"run 20", "write_restart " + file});
  }
  const std::vector<char> bytes = file_bytes(file);
  std::remove(file.c_str());
  std::vector<size_t> places;            // where the file's records begin, in file order
  patch_records(
      bytes, [](auto) { return true; }, [](auto) {}, &places);
  ASSERT_GE(places.size(), 8u);
  for (size_t k : places) {
    double version = 0.0;
    memcpy(&version, &bytes[k + 8], 8);
    ASSERT_EQ(version, FORMAT_VERSION) << "a record at byte " << k;
  }
  const std::string readers[7] = {"Pair gran/jaeger settings",
                                  "Pair gran/jaeger coefficients",
                                  "Fix DEMC/ATOM_ENERGY",
                                  "Fix wall/gran/jaeger: wall record",
                                  "Fix DEMC/ATOM_ENERGY",
                                  "Fix DEMC/JAEGER_HISTORY",
                                  "Fix wall/gran/jaeger: wall contact history"};
  const std::string newer = ": the restart file's records have format version 99",
                    development =
                        ": the restart file was written by a development version of the package";
  struct Other {
    int place;              // the record changed
    bool unmark;            // the marker replaced by 1
    double version;         // else the version written
    std::string message;    // a part of the error
  };
  std::vector<Other> others;
  for (int place = 0; place < 7; place++) {
    others.push_back({place, false, 99.0, readers[place] + newer});
    others.push_back({place, false, 5.0, readers[place] + development});
    others.push_back({place, true, 0.0, readers[place] + development});
  }
  for (const auto &o : others) {
    std::vector<char> changed = bytes;
    const double value = o.unmark ? 1.0 : o.version;
    memcpy(&changed[places[o.place] + (o.unmark ? 0 : 8)], &value, 8);
    const std::string kind =
        o.unmark ? "without marker" : "of version " + std::to_string((int) o.version);
    expect_refused(changed, redefine_after_read(" prune 0"), o.message,
                   "record " + std::to_string(o.place) + " " + kind);
  }
}

/* A region wall's records from a newer version of the package and a damaged one (a surface ID
   that is no integer) are refused with an error that says so; so are gran/coulomb's settings
   and wall records of a newer version and a wall record whose side is no side. */
TEST(RestartRecords, RegionAndCoulombRecordsOfANewerVersionOrDamagedAreRefused)
{
  const std::string wall = "jaeger 1e7 0.3 0.5";
  {
    LammpsSession s;
    s.load_plugin();
    s.commands(long_region_history_input(wall));
    s.commands({"run 20", "write_restart region_newer.bin"});
  }
  const std::vector<char> region = file_bytes("region_newer.bin");
  std::remove("region_newer.bin");
  std::vector<std::string> fixes;
  for (const auto &line : long_region_history_input(wall))
    if (line.rfind("fix ", 0) == 0 || line.rfind("variable ", 0) == 0 ||
        line.rfind("timestep", 0) == 0 || line.rfind("region cage", 0) == 0)
      fixes.push_back(line);
  /* the per-atom records (the region wall's and the energy fix's): marker, version, length,
     then (the region wall's) fragments [owner ID, offset, count, size, values]; a list starts
     with its first entry [surface ID, length, record], a jaeger record [size, values] */
  auto payload_start = [](auto at) {
    return at(1) == FORMAT_VERSION && at(4) == 0.0 && at(8) >= 2.0 && at(9) == at(8) - 1.0;
  };
  const auto newer_list = patch_records(region, payload_start, [](auto set) {
    set(1, 99.0);
  });
  ASSERT_GT(newer_list.second, 0);
  expect_refused(newer_list.first, fixes, "format version 99", "region list version");
  const auto damaged = patch_records(region, payload_start, [](auto set) {
    set(7, 0.5);
  });
  expect_refused(damaged.first, fixes, "surface ID", "damaged surface ID");

  // gran/coulomb: spheres on a wall/gran/coulomb floor, pressed together
  const std::vector<std::string> pile = {"units si",
                                         "atom_style sphere",
                                         "atom_modify map array",
                                         "boundary f f f",
                                         "comm_modify vel yes",
                                         "region box block -2 2 -2 2 -1 3 units box",
                                         "create_box 1 box",
                                         "create_atoms 1 single 0 0 0.495 units box",
                                         "create_atoms 1 single 0.99 0 0.495 units box",
                                         "create_atoms 1 single 0.5 0 1.3 units box",
                                         "set group all diameter 1.0",
                                         "set group all density 1000",
                                         "velocity all set 0.1 0.05 0",
                                         "neighbor 0.1 bin",
                                         "neigh_modify delay 0",
                                         "pair_style gran/coulomb iterate 1e-6 20",
                                         "pair_coeff * * hooke 1e6 0.4"};
  const std::vector<std::string> coulomb_fixes = {
      "fix floor all wall/gran/coulomb hooke 1e6 0.4 zplane 0 NULL",
      "fix g all gravity 10 vector 0 0 -1", "fix integrate all nve/sphere", "timestep 1e-4"};
  {
    LammpsSession s;
    s.load_plugin();
    s.commands(pile);
    s.commands(coulomb_fixes);
    s.commands({"run 20", "write_restart coulomb_newer.bin"});
    EXPECT_EQ(s.lmp->modify->get_fix_by_id("floor")->compute_vector(7), 2.0) << "wall contacts";
  }
  const std::vector<char> coulomb = file_bytes("coulomb_newer.bin");
  std::remove("coulomb_newer.bin");
  // settings: marker, version, 12 values (keywords, tolerance, sweeps, no group name, the one
  // type pair's rolling and twisting: 8 values)
  auto settings = [](auto at) {
    return at(1) == FORMAT_VERSION && at(2) == 12.0 && at(4) == 1e-6 && at(5) == 20.0 &&
        at(6) == 0.0;
  };
  const auto newer_settings = patch_records(coulomb, settings, [](auto set) {
    set(1, 99.0);
  });
  ASSERT_EQ(newer_settings.second, 1);
  expect_refused(newer_settings.first, coulomb_fixes, "format version 99", "coulomb settings");
  const auto sweeps = patch_records(coulomb, settings, [](auto set) {
    set(5, 1e300);
  });
  expect_refused(sweeps.first, coulomb_fixes, "sweeps", "coulomb sweeps");
  // a wall record: marker, version, 14 values (friction force, state 1 or 2, work, side 1,
  // dashpot, rolling and twisting: 7 values)
  auto wall_record = [](auto at) {
    return at(1) == FORMAT_VERSION && at(2) == 14.0 && (at(6) == 1.0 || at(6) == 2.0) &&
        at(8) == 1.0;
  };
  const auto newer_wall = patch_records(coulomb, wall_record, [](auto set) {
    set(1, 99.0);
  });
  ASSERT_EQ(newer_wall.second, 2);
  expect_refused(newer_wall.first, coulomb_fixes, "format version 99", "coulomb wall version");
  const auto side = patch_records(coulomb, wall_record, [](auto set) {
    set(8, 3.0);
  });
  expect_refused(side.first, coulomb_fixes, "wall side of a contact", "coulomb wall side");
}

/* Continuation to round-off for the options of gran/coulomb (direct and iterated friction,
   hooke and hertz, dashpots, rolling and twisting; its wall and region wall) and of the region
   walls (dashpots, restitution, their limits, beta, history/max), as EveryOptionContinuesToRoundOff: one run of N + M steps that
   writes a restart file at step N against N steps read back from it and M steps on, in the
   dense packing (region walls: a plane region under it). */
TEST(RestartRecords, CoulombAndRegionWallOptionsContinueToRoundOff)
{
  struct Case {
    std::vector<std::string> pair;
    std::string wall;    // a wall fix's style and arguments (none: "")
  };
  const std::string kuhn = "2e3 2e3 0.5", jaeger = "1e7 0.3 0.5", region = " region floor";
  const std::vector<std::string> coulomb = {"pair_style gran/coulomb",
                                            "pair_coeff * * hooke 2e3 0.5"};
  const std::vector<Case> cases = {
      {coulomb, ""},
      {{"pair_style gran/coulomb iterate 1e-14 200", "pair_coeff * * hooke 2e3 0.5"}, ""},
      // (a tolerance at which the local relaxation decides many contacts: the resumed run's
      // atoms and lists are in another order, which must not change the relaxation's path)
      {{"pair_style gran/coulomb iterate 1e-8 300", "pair_coeff * * hooke 2e3 0.5"}, ""},
      {{"pair_style gran/coulomb", "pair_coeff * * hertz 1e7 0.3 0.5 damping 0.02 0"}, ""},
      {{"pair_style gran/coulomb iterate 1e-14 200",
        "pair_coeff * * hooke 2e3 0.5 restitution 0.7 0"},
       ""},
      {coulomb, "wall/gran/coulomb hooke 2e3 0.5 damping 0.02 0 zplane 0 NULL"},
      {coulomb, "wall/gran/coulomb hertz 1e7 0.3 0.5 restitution 0.7 0 zplane 0 NULL"},
      {{"pair_style gran/coulomb",
        "pair_coeff * * hooke 2e3 0.5 rolling sds 2e3 0.01 0.1 twisting sds 1e-5 1e-10 3e-5"},
       "wall/gran/coulomb hooke 2e3 0.5 rolling sds 2e3 0.01 0.1 twisting sds 1e-5 1e-10 3e-5 "
       "zplane 0 NULL"},
      {{"pair_style gran/kuhn", "pair_coeff * * " + kuhn},
       "wall/gran/region/kuhn " + kuhn + " damping 0.02 0.01" + region},
      {{"pair_style gran/kuhn", "pair_coeff * * " + kuhn},
       "wall/gran/region/kuhn " + kuhn + " restitution 0.7 0.5 damping_cap no" + region},
      {{"pair_style gran/jaeger", "pair_coeff * * " + jaeger},
       "wall/gran/region/jaeger " + jaeger + " history/max 4 damping 0.02 0.01" + region},
      {{"pair_style gran/jaeger", "pair_coeff * * " + jaeger},
       "wall/gran/region/jaeger " + jaeger + " beta 0.1 restitution 0.7 0.5 limit_damping" +
           region},
      {coulomb, "wall/gran/region/coulomb hooke 2e3 0.5 damping 0.02 0" + region},
      {{"pair_style gran/coulomb iterate 1e-14 200", "pair_coeff * * hooke 2e3 0.5"},
       "wall/gran/region/coulomb hertz 1e7 0.3 0.5 restitution 0.7 0 rolling sds 2e3 0.01 0.1 "
       "twisting sds 1e-5 1e-10 3e-5" +
           region},
  };
  const std::string floor = "region floor plane 0 0 0 0 0 1 side in units box";
  for (const auto &c : cases) {
    const std::string what = c.pair[0] + " / " + c.pair[1] + (c.wall.empty() ? "" : " / " + c.wall);
    const std::string file = "coulomb_region_option.150.bin";
    std::vector<std::string> setup = dense_packing_input(c.pair, true);
    std::vector<std::string> fixes = {"fix integrate all nve/sphere", "timestep 1e-5"};
    if (!c.wall.empty()) {
      for (auto &line : setup)
        if (line == "boundary p p p") line = "boundary p p m";
      setup.insert(setup.end(), {floor, "fix w all " + c.wall});
      fixes.push_back("fix w all " + c.wall);
    }
    const int steps = 20;
    PerAtom f_straight, t_straight, f_resumed, t_resumed;
    std::vector<double> wall_straight, wall_resumed;
    {
      LammpsSession s;
      s.load_plugin();
      s.commands(setup);
      s.commands({"restart 150 coulomb_region_option.*.bin", "run " + std::to_string(150 + steps)});
      f_straight = s.forces();
      t_straight = s.torques();
      if (!c.wall.empty()) wall_straight = wall_vector(s, "w");
    }
    {
      LammpsSession s;
      s.load_plugin();
      s.commands({"read_restart " + file, "neighbor 0.0003 bin", "neigh_modify delay 0"});
      if (!c.wall.empty() && !s.lmp->domain->get_region_by_id("floor")) s.command(floor);
      s.commands(fixes);
      s.command("run " + std::to_string(steps));
      f_resumed = s.forces();
      t_resumed = s.torques();
      if (!c.wall.empty()) wall_resumed = wall_vector(s, "w");
    }
    std::remove(file.c_str());
    const double df = max_relative_difference(f_straight, f_resumed);
    const double dt = max_relative_difference(t_straight, t_resumed);
    std::printf("%-100s forces %.3g torques %.3g\n", what.c_str(), df, dt);
    /* iterated friction (APGD, whose sweeps update every contact from the previous sweep's
       totals): the contacts' order after read_restart changes the sums' last bits, which the
       ill-conditioned friction problem of the packing amplifies along the iterates' path within
       the tolerance; measured 4e-13 to 2.2e-12 at iterate 1e-14 and 1e-15 alike, moving with
       the code's last bits (a floor of round-off times the problem's conditioning, not the
       tolerance): 1e-11 */
    const double bound = what.find("iterate") != std::string::npos ? 1e-11 : 1e-12;
    EXPECT_LE(df, bound) << what;
    EXPECT_LE(dt, bound) << what;
    if (c.wall.empty()) continue;
    EXPECT_GE(wall_straight[7], 3.0) << what << ": wall contacts";
    expect_same_vectors(wall_straight, wall_resumed, 1e-10, what);
  }
}

/* The experiment of issue 41 in small: a relaxing packing whose histories reach history/max
   (pair and wall; merges every step), one step straight on after write_restart against one step
   after read_restart (sum of x_i (x) F_i, relative Frobenius difference), and one run that
   writes its file at step N against the run read back, 20 steps on; also histories grown without
   bound, written, and capped after read_restart (the pair style's history/max set again) against
   the same change straight on (the first step shortens them by merges). */
TEST(RestartRecords, CappedHistoriesOfARelaxedPackingContinue)
{
  const int relax = 1500, after = 20;
  const std::string capped = " history/max 8";
  // (fix viscous is left out where the runs are compared: at a run's setup it takes the
  // full-step velocities, during a run the half-step ones)
  std::vector<std::string> fixes;
  for (const auto &line : relaxing_packing(capped, capped))
    if ((line.rfind("fix ", 0) == 0 || line.rfind("neigh", 0) == 0 ||
         line.rfind("timestep", 0) == 0) &&
        line.rfind("fix visc", 0) != 0)
      fixes.push_back(line);
  const std::string file = "relaxed." + std::to_string(relax + after) + ".bin";
  {
    std::array<double, 9> straight{}, straight_later{};
    PerAtom forces_later;
    double longest = 0.0, merges = 0.0;
    {
      LammpsSession s;
      s.load_plugin();
      s.commands(relaxing_packing(capped, capped));
      s.commands({"run " + std::to_string(relax), "unfix visc",
                  "restart " + std::to_string(relax + after) + " relaxed.*.bin",
                  "run " + std::to_string(2 * after)});
      forces_later = s.forces();
      longest = history_stat(s, 2);
      merges = history_stat(s, 4);
      s.commands({"write_restart relaxed_end.bin", "run 1"});
      straight = position_force_sum(s);
    }
    EXPECT_EQ(longest, 8.0) << "histories at the cap";
    EXPECT_GT(merges, 1000.0);
    {
      LammpsSession r;
      r.load_plugin();
      r.command("read_restart " + file);
      r.commands(fixes);
      r.command("run " + std::to_string(after));
      const double df = max_relative_difference(forces_later, r.forces());
      std::printf("history/max 8, %d steps after read_restart: forces %.3g\n", after, df);
      EXPECT_LE(df, 1e-12);
    }
    LammpsSession r;
    r.load_plugin();
    r.command("read_restart relaxed_end.bin");
    r.commands(fixes);
    r.command("run 1");
    const double d = relative_frobenius(straight, position_force_sum(r));
    std::printf("history/max 8, one step after read_restart: sum x (x) F differs by %.3g\n", d);
    EXPECT_LE(d, 1e-14);
    std::remove(file.c_str());
    std::remove("relaxed_end.bin");
  }
  // grown without bound, capped after the file
  std::array<double, 9> straight{};
  double longest = 0.0;
  {
    LammpsSession s;
    s.load_plugin();
    s.commands(relaxing_packing("", ""));
    s.commands({"run " + std::to_string(relax), "write_restart unbounded.bin"});
    longest = history_stat(s, 2);
    s.commands({"pair_style gran/jaeger" + capped, "run 1"});
    straight = position_force_sum(s);
  }
  EXPECT_GT(longest, 8.0) << "histories beyond the cap";
  LammpsSession r;
  r.load_plugin();
  r.command("read_restart unbounded.bin");
  for (const auto &line : relaxing_packing("", ""))
    if (line.rfind("fix ", 0) == 0 || line.rfind("neigh", 0) == 0 || line.rfind("timestep", 0) == 0)
      r.command(line);    // (fix viscous too: both runs have a setup before their step)
  r.commands({"pair_style gran/jaeger" + capped, "run 1"});
  const double d = relative_frobenius(straight, position_force_sum(r));
  std::printf("grown to %g points, capped to 8 after the file: sum x (x) F differs by %.3g\n",
              longest, d);
  EXPECT_LE(d, 1e-14);
  std::remove("unbounded.bin");
}

/* Issue 54's capped restart with contact dashpots, in small: the relaxing packing with dashpots
   on the pair and the wall and histories capped at 8, one run that writes its file at step N + M
   (restart M, after N steps) and goes on M more, against the file read back and M steps on. The
   file is written after merges are proven: the merge counter read at the step of the file (fix
   ave/time of the fix's vector there) exceeds the one at step N, which the cap has already
   reached. Tolerance 1e-12 of the largest force: the run read back sums the same forces in
   another neighbor order, round-off (1e-16) amplified over M = 20 steps of a packing (the
   uncapped cases above agree to the same bound). */
TEST(RestartRecords, CappedHistoriesWithDashpotsContinueFromAFileWrittenAfterMerges)
{
  const int relax = 1500, after = 20;
  const std::string capped = " history/max 8", dashpots = " damping 0.02 0.01";
  const std::vector<std::string> input = relaxing_packing(capped, capped, dashpots);
  const std::string file = "capped_dashpots." + std::to_string(relax + after) + ".bin";
  const FileAfterMerges straight = write_file_after_merges(input, relax, after, "capped_dashpots");
  EXPECT_EQ(straight.longest, 8.0) << "histories at the cap before the file";
  EXPECT_GT(straight.merges_before, 1000.0);
  EXPECT_GT(straight.merges_at_file, straight.merges_before) << "merges between cap and file";
  LammpsSession r;
  resume_after_merges(r, file, input, after);
  const double df = max_relative_difference(straight.forces, r.forces());
  const double dsum = relative_frobenius(straight.position_force, position_force_sum(r));
  std::printf("[ measure  ] history/max 8 with dashpots, %d steps after the file: forces %.3g, "
              "sum x (x) F %.3g (merges %.0f at step %d, %.0f at the file)\n",
              after, df, dsum, straight.merges_before, relax, straight.merges_at_file);
  EXPECT_LE(df, 1e-12);
  EXPECT_LE(dsum, 1e-12);
  std::remove(file.c_str());
}
