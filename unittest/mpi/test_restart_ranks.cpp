/* Layer (c): restart continuity under MPI. On the ranks of the launch (1, 2 or 4):
   N + M steps straight = N steps, write_restart, read_restart, M steps, for both pair
   styles, newton on and off: per-atom forces identical to 1e-12 of the largest (the
   histories, Jaeger's whole stacks, come back on whichever rank holds the atoms). Also a
   file written on all ranks and read back on one. No damping: a restart file keeps the
   full-step velocities, not the half-step ones a dashpot saw. */
#include "lammps_session.h"
#include "long_history.h"
#include "relaxing_packing.h"

#include "atom.h"
#include "domain.h"
#include "lammps.h"
#include "modify.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

using namespace demc_test;

namespace {

struct Style {
  const char *pair, *coeff;
};
const Style STYLES[] = {{"gran/kuhn", "pair_coeff * * 2.0e3 2.0e3 0.5"},
                        {"gran/jaeger", "pair_coeff * * 1e7 0.3 0.5"}};

struct Outcome {
  PerAtom forces;
  double friction;    // the system's cumulative friction dissipation (compute pair, entry 3)
};

Outcome resume(MPI_Comm comm, const Style &style, const std::string &file, bool newton, int steps)
{
  LammpsSession s(comm);
  s.load_plugin();
  s.commands({std::string("newton ") + (newton ? "on" : "off"), "read_restart " + file,
              "neighbor 0.0003 bin", "neigh_modify delay 0", "fix integrate all nve/sphere",
              "timestep 1e-5"});
  s.commands(energy_computes(style.pair));
  s.command("run " + std::to_string(steps));
  return {s.forces(), s.pair_extra()[2]};
}

}    // namespace

TEST(RestartRanks, ContinuityOnTheSameRanks)
{
  int me, nprocs;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  for (const auto &style : STYLES)
    for (bool newton : {true, false}) {
      // named by the rank count: under ctest -j the 2- and 4-rank jobs run at once in one folder
      const std::string file =
          "restart_ranks_np" + std::to_string(nprocs) + (newton ? "_on" : "_off") + ".bin";
      Outcome straight;
      {
        LammpsSession s;
        s.load_plugin();
        s.commands(
            dense_packing_input({std::string("pair_style ") + style.pair, style.coeff}, newton));
        s.commands(energy_computes(style.pair));
        s.commands({"run 150", "write_restart " + file, "run 50"});
        straight = {s.forces(), s.pair_extra()[2]};
      }
      const Outcome resumed = resume(MPI_COMM_WORLD, style, file, newton, 50);
      EXPECT_LT(max_relative_difference(straight.forces, resumed.forces), 1e-12)
          << style.pair << " newton " << newton;
      // the cumulative dissipation continues from where it was (kept by fix DEMC/ATOM_ENERGY)
      EXPECT_GT(straight.friction, 0.0);
      EXPECT_NEAR(resumed.friction, straight.friction, 1e-9 * straight.friction) << style.pair;
      // the same file read on one rank: the run then sums forces in another order, so the
      // agreement is that of 1 against N ranks (round-off amplified over 50 steps)
      MPI_Comm one;
      MPI_Comm_split(MPI_COMM_WORLD, me == 0 ? 0 : MPI_UNDEFINED, me, &one);
      if (one != MPI_COMM_NULL) {
        const Outcome serial = resume(one, style, file, newton, 50);
        EXPECT_LT(max_relative_difference(straight.forces, serial.forces), 1e-9)
            << style.pair << " on 1 rank";
        MPI_Comm_free(&one);
        std::remove(file.c_str());
      }
      MPI_Barrier(MPI_COMM_WORLD);
    }
}

namespace {

/* `input` run for `before` steps, write_restart, `after` more steps, on all ranks and on one;
   read back on one and on all, `redefine(session)` gives the commands the file does not hold,
   `after` steps: the forces must be those of the run that went straight on. The readers' per-atom
   restart slots must hold about the mean data, under 200 values, not one long record. */
void expect_continuation_across_rank_counts(const std::string &name,
                                            const std::vector<std::string> &input, int before,
                                            int after,
                                            const std::function<void(LammpsSession &)> &redefine)
{
  int me, nprocs;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  for (int writers : {nprocs, 1}) {
    const int readers = writers == 1 ? nprocs : 1;
    const std::string file =
        name + "_np" + std::to_string(nprocs) + "_w" + std::to_string(writers) + ".bin";
    PerAtom straight, resumed;
    on_first_ranks(writers, [&](LammpsSession &s) {
      s.commands(input);
      s.commands({"run " + std::to_string(before), "write_restart " + file,
                  "run " + std::to_string(after)});
      straight = s.forces();
    });
    MPI_Barrier(MPI_COMM_WORLD);
    on_first_ranks(readers, [&](LammpsSession &s) {
      s.command("read_restart " + file);
      EXPECT_LT(s.lmp->atom->nextra_store, 200) << writers << " -> " << readers << " ranks";
      redefine(s);
      s.command("run " + std::to_string(after));
      resumed = s.forces();
    });
    if (me == 0) {
      EXPECT_LE(max_relative_difference(straight, resumed), 1e-12)
          << name << " written on " << writers << " ranks, read on " << readers;
      std::remove(file.c_str());
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

}    // namespace

/* Long histories (a pair and a wall contact with thousands of points among 1000 atoms without
   contacts, unittest/lammps/long_history.h), whose restart records are spread over all atoms:
   written on all ranks and read back on one, and written on one rank and read back on all, the
   run goes on as the one that went straight on (the fragments of a history that sit with atoms
   now on other ranks are brought to its atom). One contact each: no summation order differs,
   the continuation is exact. */
TEST(RestartRanks, LongHistoriesAcrossRankCounts)
{
  std::vector<std::string> redefine;
  // (prune 0: histories of a point a step)
  for (const auto &line : long_history_input(" prune 0", true))
    if (line.rfind("fix ", 0) == 0 || line.rfind("variable ", 0) == 0 ||
        line.rfind("neigh", 0) == 0 || line.rfind("timestep", 0) == 0)
      redefine.push_back(line);
  expect_continuation_across_rank_counts("long_history", long_history_input(" prune 0", true), 1500, 30,
                                         [&](LammpsSession &s) {
                                           s.commands(redefine);
                                         });
}

/* A region wall's contact lists with long Jaeger stacks (a particle in a corner of a block
   region, long_history.h), spread over all atoms' restart slots: written on all ranks and read
   back on one, and written on one and read back on all, the run goes on as the one that went
   straight on. */
TEST(RestartRanks, RegionWallLongHistoriesAcrossRankCounts)
{
  const std::vector<std::string> input = long_region_history_input("jaeger 1e7 0.3 0.5 prune 0");
  expect_continuation_across_rank_counts("region_long", input, 600, 30, [&](LammpsSession &s) {
    for (const auto &line : input)
      if (line.rfind("fix ", 0) == 0 || line.rfind("variable ", 0) == 0 ||
          line.rfind("timestep", 0) == 0 ||
          (line.rfind("region cage", 0) == 0 && !s.lmp->domain->get_region_by_id("cage")))
        s.command(line);
  });
}

/* Issue 54's capped restart with contact dashpots on the ranks of the launch: the relaxing
   packing (relaxing_packing.h) with dashpots on the pair and the wall and histories capped at 8,
   one run that writes its file at step N + M (restart output, after N steps in which the cap is
   reached and merges run) and goes on M steps, against the file read back on the same ranks and
   M steps on. The merge counter is read at the step of the file (fix ave/time). Tolerance 1e-12
   of the largest force: the run read back sums in another neighbor order, round-off amplified
   over M = 20 steps (as the uncapped continuity test above). */
TEST(RestartRanks, CappedHistoriesWithDashpotsContinue)
{
  int me, nprocs;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  const int relax = 1500, after = 20, file_step = relax + after;
  const std::string capped = " history/max 8";
  const std::vector<std::string> input = relaxing_packing(capped, capped, " damping 0.02 0.01");
  const std::string stem = "capped_dashpots_np" + std::to_string(nprocs);
  const FileAfterMerges straight = write_file_after_merges(input, relax, after, stem);
  EXPECT_EQ(straight.longest, 8.0);
  EXPECT_GT(straight.merges_at_file, straight.merges_before);
  EXPECT_GT(straight.merges_before, 1000.0);
  const std::string file = stem + "." + std::to_string(file_step) + ".bin";
  LammpsSession r;
  resume_after_merges(r, file, input, after);
  const double df = max_relative_difference(straight.forces, r.forces());
  if (me == 0) {
    std::printf("[ measure  ] %d ranks, history/max 8 with dashpots, %d steps after the file: "
                "forces %.3g (merges %.0f, %.0f at the file)\n",
                nprocs, after, df, straight.merges_before, straight.merges_at_file);
    std::remove(file.c_str());
  }
  EXPECT_LE(df, 1e-12);
}
