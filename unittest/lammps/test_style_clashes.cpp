/* Layer (b): styles that do not fit together, inside LAMMPS.
   - a restart file whose contact histories were written by another style (gran/kuhn,
     gran/jaeger, LAMMPS's gran/hooke/history; wall/gran/kuhn and wall/gran/jaeger under one
     fix ID) ends in an error naming the fix and its style, not in a run whose contacts all
     start afresh (LAMMPS drops such records at the first run with a line in the log only);
   - two contact laws on one type pair (pair_style hybrid/overlay) end in an error;
   - a command that fails writes no output file (write_restart, write_data);
   - what does fit still works: a restart read back with the style that wrote it (also with
     new keywords), pair hybrid with gran/kuhn and gran/jaeger on different type pairs (both
     keep neighbor histories; a restart continues the run), a contact law overlaid with a
     style that is not one, and the way out the error message gives (write_data nocoeff,
     read_data, another pair style);
   - restitution damping with rigid bodies ends in an error (the effective mass would be the
     particle's, not its body's), while constant dashpots run with them. */
#include "lammps_session.h"

#include "compute.h"
#include "exceptions.h"
#include "lammps.h"
#include "modify.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

using namespace demc_test;

namespace {

bool file_exists(const std::string &name)
{
  return std::ifstream(name).good();
}

const std::vector<std::string> KUHN = {"pair_style gran/kuhn", "pair_coeff * * 2e3 2e3 0.5"};
const std::vector<std::string> JAEGER = {"pair_style gran/jaeger", "pair_coeff * * 1e7 0.3 0.5"};
const std::vector<std::string> HOOKE = {"pair_style gran/hooke/history 2000 NULL 0 NULL 0.5 1",
                                        "pair_coeff * *"};

std::vector<std::string> plus(std::vector<std::string> a, const std::vector<std::string> &b)
{
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// a layer of spheres resting on a wall at z = 0 (gravity), under the given pair and wall lines
std::vector<std::string> layer_on_wall(const std::vector<std::string> &pair,
                                       const std::string &wall)
{
  return plus({"units si", "atom_style sphere", "atom_modify map array", "boundary p p f",
               "comm_modify vel yes", "region box block 0 0.0084 0 0.0084 0 0.008 units box",
               "create_box 1 box", "lattice sc 0.0021 origin 0.5 0.5 0.47",
               "region slab block 0 0.0084 0 0.0084 0 0.0021 units box",
               "create_atoms 1 region slab", "set group all diameter 0.002",
               "set region slab z 0.00099995", "set group all density 2650",
               "velocity all create 1e14 87287 loop geom", "neighbor 0.0003 bin",
               "neigh_modify delay 0", "fix grav all gravity 9.81 vector 0 0 -1"},
              plus(pair,
                   {"fix w all " + wall + " zplane 0 NULL", "fix integrate all nve/sphere",
                    "timestep 1e-5"}));
}

// the runs that write the restart files the cases read back
const std::map<std::string, std::vector<std::string>> WRITERS = {
    {"kuhn.rst", plus(dense_packing_input(KUHN, true), {"run 100"})},
    {"jaeger.rst", plus(dense_packing_input(JAEGER, true), {"run 100"})},
    {"hooke.rst", plus(dense_packing_input(HOOKE, true), {"run 100"})},
    {"wall_kuhn.rst", plus(layer_on_wall(KUHN, "wall/gran/kuhn 2e3 1.5e3 0.4"), {"run 100"})},
    {"wall_jaeger.rst", plus(layer_on_wall(JAEGER, "wall/gran/jaeger 2e7 0.25 0.4"), {"run 100"})},
};

std::string restart_file(const std::string &name)
{
  static std::map<std::string, bool> written;
  const std::string file = "clash_" + name;
  if (!written[name]) {
    LammpsSession s;
    s.load_plugin();
    s.commands(WRITERS.at(name));
    s.command("write_restart " + file);
    written[name] = true;
  }
  return file;
}

// the restart files are shared by the tests: removed after the last one
struct RemoveRestartFiles : ::testing::Environment {
  void TearDown() override
  {
    for (const auto &w : WRITERS) std::remove(("clash_" + w.first).c_str());
  }
};
const auto *const remove_restart_files =
    ::testing::AddGlobalTestEnvironment(new RemoveRestartFiles);

struct Clash {
  std::string restart;                  // a WRITERS file read first ("": none)
  std::vector<std::string> setup;       // then these commands
  std::string bad;                      // the command that must fail
  std::vector<std::string> expected;    // parts of the error message
  std::string output;    // a file `bad` would write: it must not exist after the error
};

// after read_restart: the settings a restart file does not keep, then the given pair lines
std::vector<std::string> resumed(const std::string &restart, const std::vector<std::string> &pair)
{
  return plus(
      {"read_restart " + restart_file(restart), "neighbor 0.0003 bin", "neigh_modify delay 0"},
      plus(pair, {"fix integrate all nve/sphere", "timestep 1e-5"}));
}

}    // namespace

// every clash ends in a LAMMPS error whose text names the problem; no output file is left
TEST(StyleClashes, GiveClearErrors)
{
  const std::string by_other = "restart file holds contact histories written by another pair style";
  const std::string two_laws = "two contact laws in pair_style hybrid/overlay";
  const std::vector<std::string> overlay_base = dense_packing_input({}, true);
  auto overlay = [&](const std::vector<std::string> &lines) {
    return plus(overlay_base, lines);
  };
  // clang-format off
  const std::vector<Clash> cases = {
      // restart files written by another pair style: the histories would be lost
      {"kuhn.rst", JAEGER, "run 0", {by_other, "DEMC_GRAN_KUHN_HISTORY0", "DEMC/NEIGH_HISTORY", "Pair gran/jaeger"}, ""},
      {"jaeger.rst", KUHN, "run 0", {by_other, "DEMC_GRAN_JAEGER_HISTORY0", "DEMC/JAEGER_HISTORY", "Pair gran/kuhn"}, ""},
      {"hooke.rst", KUHN, "run 0", {by_other, "fix ID NEIGH_HISTORY_HH", "fix style NEIGH_HISTORY"}, ""},
      {"hooke.rst", JAEGER, "write_restart clash_out.rst", {by_other, "NEIGH_HISTORY_HH"}, "clash_out.rst"},
      {"kuhn.rst", JAEGER, "write_data clash_out.data", {by_other, "DEMC_GRAN_KUHN_HISTORY0"}, "clash_out.data"},
      {"jaeger.rst", {"pair_style hybrid gran/kuhn zero 0.003", "pair_coeff * * gran/kuhn 2e3 2e3 0.5", "pair_coeff 2 2 zero"},
       "run 0", {by_other, "DEMC_GRAN_JAEGER_HISTORY0"}, ""},
      // a wall fix ID reused with the other wall law: its wall contact histories would be lost
      {"wall_kuhn.rst", {}, "fix w all wall/gran/jaeger 2e7 0.25 0.4 zplane 0 NULL",
       {"wall contact histories of fix w written by fix style wall/gran/kuhn", "fix wall/gran/jaeger cannot read"}, ""},
      {"wall_jaeger.rst", {}, "fix w all wall/gran/kuhn 2e3 1.5e3 0.4 zplane 0 NULL",
       {"wall contact histories of fix w written by fix style wall/gran/jaeger"}, ""},
      // two contact laws on one type pair count every contact twice
      {"", overlay({"pair_style hybrid/overlay gran/kuhn gran/jaeger", "pair_coeff * * gran/kuhn 2e3 2e3 0.5",
                    "pair_coeff * * gran/jaeger 1e7 0.3 0.5"}),
       "run 0", {two_laws, "atom types 1 1", "(gran/kuhn and gran/jaeger)"}, ""},
      {"", overlay({"pair_style hybrid/overlay gran/kuhn gran/hooke/history 2000 NULL 0 NULL 0.5 1",
                    "pair_coeff * * gran/kuhn 2e3 2e3 0.5", "pair_coeff * * gran/hooke/history"}),
       "run 0", {two_laws, "(gran/kuhn and gran/hooke/history)"}, ""},
      {"", overlay({"pair_style hybrid/overlay gran/jaeger gran/jaeger", "pair_coeff * * gran/jaeger 1 1e7 0.3 0.5",
                    "pair_coeff 2 2 gran/jaeger 2 1e7 0.3 0.5"}),
       "write_restart clash_out.rst", {two_laws, "atom types 2 2", "(gran/jaeger and gran/jaeger)"}, "clash_out.rst"},
      {"", overlay({"pair_style hybrid/overlay granular gran/kuhn", "pair_coeff * * granular hooke 2000 0 tangential linear_history 1500 0 0.5",
                    "pair_coeff 1 2 gran/kuhn 2e3 2e3 0.5"}),
       "run 0", {two_laws, "atom types 1 2", "(gran/kuhn and granular)"}, ""},
      // a failing write_data / write_restart leaves no file behind
      {"", plus(dense_packing_input(KUHN, true), {"comm_modify vel no"}), "write_data clash_out.data",
       {"requires ghost atoms store velocity: use comm_modify vel yes"}, "clash_out.data"},
      {"", overlay({"pair_style gran/jaeger", "pair_coeff 1 1 1e7 0.3 0.5"}), "write_restart clash_out.rst",
       {"All pair coeffs are not set"}, "clash_out.rst"},
  };
  // clang-format on
  for (const auto &c : cases) {
    if (!c.output.empty()) std::remove(c.output.c_str());
    LammpsSession s;
    s.load_plugin();
    if (!c.restart.empty())
      s.commands(resumed(c.restart, c.setup));
    else
      s.commands(c.setup);
    try {
      s.command(c.bad);
      ADD_FAILURE() << "no error for: " << c.bad << " (restart " << c.restart << ")";
    } catch (LAMMPS_NS::LAMMPSException &e) {
      for (const auto &part : c.expected)
        EXPECT_NE(std::string(e.what()).find(part), std::string::npos)
            << "command: " << c.bad << " (restart " << c.restart << ")\n  error: " << e.what()
            << "\n  expected: " << part;
    }
    if (!c.output.empty()) {
      EXPECT_FALSE(file_exists(c.output)) << c.bad << ": a failed command left " << c.output;
      std::remove(c.output.c_str());
    }
  }
}

// what fits still works: the restart read back by the style that wrote it (also with new
// keywords); a contact law overlaid with a style that is not one; two instances of a law in
// plain hybrid
TEST(StyleClashes, CompatibleCombinationsRun)
{
  const std::vector<std::vector<std::string>> inputs = {
      resumed("kuhn.rst", {}),
      resumed("kuhn.rst", {"pair_style gran/kuhn twirl no", "pair_coeff * * 2e3 2e3 0.5"}),
      resumed("jaeger.rst", {"pair_style gran/jaeger history/max 8", "pair_coeff * * 1e7 0.3 0.5"}),
      resumed("wall_kuhn.rst", {"fix w all wall/gran/kuhn 2e3 1.5e3 0.4 zplane 0 NULL"}),
      dense_packing_input({"pair_style hybrid/overlay gran/kuhn zero 0.003",
                           "pair_coeff * * gran/kuhn 2e3 2e3 0.5", "pair_coeff * * zero"},
                          true),
      // plain hybrid maps one sub-style to a type pair: the second instance takes 2 2 over
      // (the first keeps coefficients there, which must not read as two laws)
      dense_packing_input({"pair_style hybrid gran/jaeger gran/jaeger",
                           "pair_coeff * * gran/jaeger 1 1e7 0.3 0.5",
                           "pair_coeff 2 2 gran/jaeger 2 2e7 0.3 0.5"},
                          true),
  };
  for (const auto &in : inputs) {
    LammpsSession s;
    s.load_plugin();
    try {
      s.commands(in);
      s.command("run 10");
    } catch (LAMMPS_NS::LAMMPSException &e) {
      ADD_FAILURE() << "error: " << e.what() << "\n  input after: " << in[0];
    }
  }
}

// the way the error message gives to leave a restart file's histories behind on purpose:
// write_data nocoeff right after read_restart, read_data, then the new pair style
TEST(StyleClashes, DataFileDropsHistoriesOnPurpose)
{
  const std::string data = "clash_convert.data";
  {
    LammpsSession s;
    s.load_plugin();
    s.commands({"read_restart " + restart_file("kuhn.rst"), "write_data " + data + " nocoeff"});
  }
  LammpsSession s;
  s.load_plugin();
  try {
    s.commands({"units si", "atom_style sphere", "atom_modify map array", "comm_modify vel yes",
                "read_data " + data});
    s.commands(JAEGER);
    s.commands({"neighbor 0.0003 bin", "fix integrate all nve/sphere", "timestep 1e-5", "run 10"});
  } catch (LAMMPS_NS::LAMMPSException &e) {
    ADD_FAILURE() << "error: " << e.what();
  }
  std::remove(data.c_str());
}

// gran/kuhn and gran/jaeger in one pair hybrid, each on its own type pairs: both keep neighbor
// histories (two history fixes, two lists) and a restart file continues the run exactly:
// N + M steps straight = N steps, write_restart, read_restart, M steps
TEST(StyleClashes, HybridOfBothStylesRestarts)
{
  const std::string file = "clash_hybrid.rst";
  const std::vector<std::string> coeffs = {"pair_coeff * * gran/kuhn 2e3 2e3 0.5",
                                           "pair_coeff 2 2 gran/jaeger 1e7 0.3 0.5"};
  PerAtom straight, resumed_forces;
  double contacts_kuhn = 0.0, contacts_jaeger = 0.0;
  {
    LammpsSession s;
    s.load_plugin();
    s.commands(
        dense_packing_input(plus({"pair_style hybrid gran/kuhn gran/jaeger"}, coeffs), true));
    s.commands({"compute ek all pair gran/kuhn", "compute ej all pair gran/jaeger",
                "thermo_style custom step c_ek[5] c_ej[5]", "run 150", "write_restart " + file,
                "run 50"});
    straight = s.forces();
    auto contacts = [&](const char *id) {
      auto *c = s.lmp->modify->get_compute_by_id(id);
      c->compute_vector();
      return c->vector[4];
    };
    contacts_kuhn = contacts("ek");
    contacts_jaeger = contacts("ej");
  }
  {
    LammpsSession s;
    s.load_plugin();
    // pair hybrid keeps no coefficients in restart files: they are given again
    s.commands(
        plus({"read_restart " + file, "neighbor 0.0003 bin", "neigh_modify delay 0"}, coeffs));
    s.commands({"fix integrate all nve/sphere", "timestep 1e-5", "run 50"});
    resumed_forces = s.forces();
  }
  std::remove(file.c_str());
  EXPECT_GT(contacts_kuhn, 10.0);
  EXPECT_GT(contacts_jaeger, 10.0);
  EXPECT_LT(max_relative_difference(straight, resumed_forces), 1e-12);
}

// restitution dashpots need the pair's effective mass, which for particles in rigid bodies is not
// the particles' own: each style that forms it refuses a rigid-body fix, naming it; the same
// input with constant dashpots runs (the Kokkos pair styles: in their tests)
TEST(StyleClashes, RestitutionRefusesRigidBodies)
{
  const std::string wall = "fix w all wall/gran/";
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"Pair gran/kuhn", {"pair_style gran/kuhn", "pair_coeff * * 1e7 1e7 0.5 {}"}},
      {"Pair gran/jaeger", {"pair_style gran/jaeger", "pair_coeff * * 1e7 0.3 0.5 {}"}},
      {"Fix wall/gran/kuhn",
       {"pair_style gran/kuhn", "pair_coeff * * 1e7 1e7 0.5",
        wall + "kuhn 1e7 1e7 0.5 {} zplane 0 NULL"}},
      {"Fix wall/gran/jaeger",
       {"pair_style gran/jaeger", "pair_coeff * * 1e7 0.3 0.5",
        wall + "jaeger 1e7 0.3 0.5 {} zplane 0 NULL"}},
  };
  for (const auto &c : cases) expect_restitution_refuses_rigid_bodies({}, c.first, c.second);
}
