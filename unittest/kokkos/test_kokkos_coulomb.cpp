/* Layer (c), Kokkos: pair_style gran/coulomb/kk against the CPU style gran/coulomb.
   The dense, colliding packing (with damping) from the same initial state, run for 100 steps
   through the CPU style and through the Kokkos style (-k on t N -sf kk) in one process, the
   atoms re-sorted every 20 steps (fix neigh/history/kk then hands many histories over, negated):
     - direct friction (decided on the device, PairGranCoulombKokkos::decide_friction(), where
       no wall contact joins; on the host by the friction fix otherwise, and when iterated):
       per-atom forces and torques agree to 1e-10 of the largest value, the
       pvector energies to 1e-10 relative, the contact count exactly, and so do the pair
       energy, the global and per-atom virial (compute stress/atom: the friction fix tallies
       the friction forces into the pair style's arrays), the per-atom energy (compute
       pe/atom) and compute pair/local's sums (single());
     - iterated friction (iterate tol n): the same, to bounds set by the solver's tolerance;
     - both with rolling and twisting resistance on;
     - against the CPU style with newton on (the Kokkos style needs newton off);
     - a run continues from a restart file written during it (direct and iterated, with and
       without rolling and twisting);
     - particles that do not rotate (norotate) and frozen ones (fix freeze) as in the CPU style;
     - fix wall/gran/coulomb next to it (the friction decided on the host with the walls');
     - settings the Kokkos style does not support give clear errors, and the CPU style under
       Kokkos names the Kokkos variant.
   The thread count comes from DEMC_KOKKOS_THREADS (CTest runs 1 and 2).
   KokkosCoulombMpi.* runs under mpirun -np 2: the Kokkos style on 2 ranks agrees with the
   CPU style and the Kokkos style on 1 rank. */
#include "kokkos_test_support.h"
#include "lammps_session.h"

#include "exceptions.h"
#include "lammps.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

using namespace demc_test;

#ifndef DEMC_TEST_OUTPUT_DIR
#define DEMC_TEST_OUTPUT_DIR "."
#endif

namespace {

const int STEPS = 100;
const std::string ROLLING = " rolling sds 200 0.001 0.01 twisting sds 1e-6 1e-10 3e-6";
// the iterated runs' solver: tolerance 1e-10 of the largest mu F_N, room enough that every
// step reaches it (checked: a step that stops short warns, and the last residual is read)
const double TOLERANCE = 1e-10;
const std::string ITERATE = " iterate 1e-10 400";

// style_args: pair_style's keywords; coeff_args: pair_coeff's after the dashpot
std::vector<std::string> pair_lines(const std::string &style_args = "",
                                    const std::string &coeff_args = "")
{
  return {"pair_style gran/coulomb" + style_args,
          "pair_coeff * * hooke 2.0e3 0.5 damping 0.002 0" + coeff_args};
}

using Outcome = PackingOutcome;

/* The iterated solver runs in the friction fix on one host thread whatever the thread count;
   the pair loop's threads are what the direct runs compare. The iterated comparisons (a few
   seconds each, most of this test's time) run with one thread only. */
bool skip_iterated()
{
  return threads() != "1";
}

// the packing, STEPS steps, histories handed over by the sorts (see run_packing); compute
// pair/local's p1..p7: the friction force, its magnitude, F_N, the mobilised friction, state
Outcome run(MPI_Comm comm, const std::vector<std::string> &args, const std::string &style_args = "",
            const std::string &coeff_args = "")
{
  return run_packing<Outcome>(comm, args, pair_lines(style_args, coeff_args), "gran/coulomb", 7,
                              STEPS);
}

/* The Kokkos run against the CPU run: forces, torques, energies, virials, compute pair/local
   sums, each as a relative difference below `bound`; the contact count exactly. */
void expect_same_physics(const Outcome &cpu, const Outcome &kk, double bound, const char *what)
{
  const double df = max_relative_difference(cpu.forces, kk.forces);
  const double dt = max_relative_difference(cpu.torques, kk.torques);
  EXPECT_LT(df, bound) << what;
  EXPECT_LT(dt, bound) << what;
  ASSERT_EQ(cpu.pvector.size(), kk.pvector.size());
  double dp = 0.0;
  for (size_t k = 0; k < 4; k++) dp = std::max(dp, relative(cpu.pvector[k], kk.pvector[k]));
  EXPECT_LT(dp, bound) << what << ": pvector energies";
  EXPECT_GT(cpu.pvector[2], 0.0) << "the friction dissipated";
  EXPECT_GT(cpu.pvector[3], 0.0) << "the dashpots dissipated";
  EXPECT_EQ(cpu.pvector[4], kk.pvector[4]) << what << ": contacts";
  EXPECT_GT(cpu.pvector[4], 100.0);
  // a contact on the edge between sticking and sliding can be counted either way by round-off
  EXPECT_LE(std::fabs(cpu.pvector[5] - kk.pvector[5]), 1.0) << what << ": sliding contacts";
  EXPECT_GT(cpu.pvector[5], 10.0) << "sliding contacts";
  EXPECT_LT(relative(cpu.pair_energy, kk.pair_energy), bound) << what;
  double dv = 0.0, vscale = 0.0;
  for (int k = 0; k < 6; k++) vscale = std::max(vscale, std::fabs(cpu.virial[k]));
  for (int k = 0; k < 6; k++) dv = std::max(dv, std::fabs(cpu.virial[k] - kk.virial[k]) / vscale);
  EXPECT_LT(dv, bound) << what << ": global virial";
  const double ds = max_relative_difference_n(cpu.stress, kk.stress);
  const double de = max_relative_difference_n(cpu.energy, kk.energy);
  EXPECT_LT(ds, bound) << what << ": per-atom virial";
  EXPECT_LT(de, bound) << what << ": per-atom energy";
  ASSERT_EQ(cpu.contact_sums.size(), kk.contact_sums.size());
  double dc = 0.0;
  const double fn_sum = cpu.contact_sums[4];    // p5: the normal forces
  for (size_t k = 0; k < cpu.contact_sums.size(); k++) {
    const double scale = std::max(std::fabs(cpu.contact_sums[k]), 1e-12 * std::fabs(fn_sum));
    dc = std::max(dc, std::fabs(cpu.contact_sums[k] - kk.contact_sums[k]) / scale);
  }
  // (p7, the states, sum to an integer: a contact on the edge moves it by 1 of about 1300)
  EXPECT_LT(dc, std::max(bound, 1.0 / cpu.contact_sums[6])) << what << ": compute pair/local sums";
  EXPECT_GT(kk.neighbor_builds, 2) << "no re-neighboring: the history hand-over was not exercised";
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me == 0)
    printf("[ measured ] %s: forces %.3g torques %.3g pvector %.3g virial %.3g per-atom virial "
           "%.3g per-atom energy %.3g pair/local %.3g (max relative differences)\n",
           what, df, dt, dp, dv, ds, de, dc);
}

// the iterated runs reached the tolerance at the last step (pvector: sweeps, residual)
void expect_converged(const Outcome &o)
{
  ASSERT_GE(o.pvector.size(), 8u);
  EXPECT_GT(o.pvector[6], 1.0) << "sweeps";
  EXPECT_LE(o.pvector[7], TOLERANCE) << "residual";
}

}    // namespace

// the paper's direct decision: every contact decided alone, from the same numbers (round-off)
TEST(KokkosCoulomb, DirectMatchesCpuStyle)
{
  const Outcome cpu = run(MPI_COMM_WORLD, {});
  const Outcome kk = run(MPI_COMM_WORLD, kokkos_args());
  expect_same_physics(cpu, kk, 1e-10, "direct");
  expect_consistent_tallies(cpu);
  expect_consistent_tallies(kk);
}

/* Iterated: the solver stops at a residual below the tolerance (1e-10 of the largest mu F_N)
   on a path that the contacts left to the sweeps (with a ghost atom: the relaxation's, newton
   off in /kk) and round-off (the sweeps' count) can change, so the two styles' friction
   forces of a step may differ by the tolerance's order: 1e-10 of the largest friction limit,
   itself half the largest normal force (mu = 0.5). Over 100 steps of the colliding packing such
   differences grow as round-off does in the direct runs (measured there: below 1e-12); bound
   1e-8, a hundred times the tolerance. */
TEST(KokkosCoulomb, IteratedMatchesCpuStyle)
{
  if (skip_iterated()) GTEST_SKIP() << "iterated: 1 thread only";
  const Outcome cpu = run(MPI_COMM_WORLD, {}, ITERATE);
  const Outcome kk = run(MPI_COMM_WORLD, kokkos_args(), ITERATE);
  expect_converged(cpu);
  expect_converged(kk);
  expect_same_physics(cpu, kk, 1e-8, "iterated");
  expect_consistent_tallies(kk);
}

// rolling and twisting (with their dashpots) in the packing: springs in the records, their
// energy in the pvector, their torques in the loop; direct and iterated
TEST(KokkosCoulomb, RollingTwistingMatchesCpuStyle)
{
  const Outcome cpu = run(MPI_COMM_WORLD, {}, "", ROLLING);
  const Outcome kk = run(MPI_COMM_WORLD, kokkos_args(), "", ROLLING);
  EXPECT_GT(cpu.pvector[1], 0.0) << "the rolling and twisting springs hold energy";
  expect_same_physics(cpu, kk, 1e-10, "direct, rolling and twisting");
  if (skip_iterated()) return;
  const Outcome cpu_it = run(MPI_COMM_WORLD, {}, ITERATE, ROLLING);
  const Outcome kk_it = run(MPI_COMM_WORLD, kokkos_args(), ITERATE, ROLLING);
  expect_converged(kk_it);
  expect_same_physics(cpu_it, kk_it, 1e-8, "iterated, rolling and twisting");
}

/* The CPU style with newton on (each pair once, ghosts' forces sent back) against the Kokkos
   style (newton off, each pair with a ghost on both sides): the same forces and torques, direct
   friction with rolling and twisting (the iterated solver's sums are weighted alike). */
TEST(KokkosCoulomb, MatchesCpuStyleWithNewtonOn)
{
  auto forces_after = [&](const std::vector<std::string> &args, bool newton) {
    LammpsSession s(MPI_COMM_WORLD, args);
    s.load_plugin();
    s.commands(dense_packing_input(pair_lines("", ROLLING), newton));
    s.commands({"atom_modify sort 20 0.0", "run " + std::to_string(STEPS)});
    return std::make_pair(s.forces(), s.torques());
  };
  const auto cpu = forces_after({}, true), kk = forces_after(kokkos_args(), false);
  const double df = max_relative_difference(cpu.first, kk.first);
  const double dt = max_relative_difference(cpu.second, kk.second);
  printf("[ measured ] newton on (cpu) vs off (kk): forces %.3g torques %.3g\n", df, dt);
  EXPECT_LT(df, 1e-10);
  EXPECT_LT(dt, 1e-10);
}

/* N + M steps straight = N steps, restart file, M steps, as for the CPU style
   (GranCoulomb.RestartContinuity): the friction forces and states, the dashpot forces and the
   rolling and twisting springs and torques are in the contacts' histories, which the Kokkos
   history fix carries; the first setup after read_restart applies the last step's friction,
   dashpot and resistance forces. Direct and iterated (the sweeps start from the stored
   forces), with and without rolling and twisting. The CPU style continues to 1e-12; here the
   resumed run's neighbor list and the threads sum forces in another order, round-off that 50
   steps of the colliding packing amplify (gran/kuhn/kk: below 1e-10): bound 1e-10 for the
   direct decision. Iterated, that round-off can change the sweeps' count or a momentum
   restart, and the forces by the tolerance's order: bound 1e-8, as IteratedMatchesCpuStyle. */
TEST(KokkosCoulomb, RestartContinuity)
{
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", ""}, {"", ROLLING}, {ITERATE, ROLLING}};
  for (const auto &[style_args, coeff_args] : cases) {
    if (!style_args.empty() && skip_iterated()) continue;
      const std::string stem =
          std::string(DEMC_TEST_OUTPUT_DIR) + "/kokkos_coulomb_restart_t" + threads();
      PerAtom straight, resumed, straight_t, resumed_t;
      {
        LammpsSession s(MPI_COMM_WORLD, kokkos_args());
        s.load_plugin();
        s.commands(dense_packing_input(pair_lines(style_args, coeff_args), false));
        s.commands({"restart 150 " + stem + ".*.bin", "run 200"});
        straight = s.forces();
        straight_t = s.torques();
      }
      {
        LammpsSession s(MPI_COMM_WORLD, kokkos_args());
        s.load_plugin();
        s.commands({"newton off", "read_restart " + stem + ".150.bin", "neighbor 0.0003 bin",
                    "neigh_modify delay 0", "fix integrate all nve/sphere", "timestep 1e-5",
                    "run 50"});
        resumed = s.forces();
        resumed_t = s.torques();
      }
      std::remove((stem + ".150.bin").c_str());
      const double df = max_relative_difference(straight, resumed);
      const double dt = max_relative_difference(straight_t, resumed_t);
      printf("[ measured ] restart%s%s: forces %.3g torques %.3g\n", style_args.c_str(),
             coeff_args.c_str(), df, dt);
      const double bound = style_args.empty() ? 1e-10 : 1e-8;
      EXPECT_LT(df, bound) << style_args << coeff_args;
      EXPECT_LT(dt, bound) << style_args << coeff_args;
    }
}

namespace {
struct BadSetting {
  std::vector<std::string> args;
  bool newton;
  std::vector<std::string> pair;
  std::string expected;
};
}    // namespace

TEST(KokkosCoulomb, UnsupportedSettingsGiveClearErrors)
{
  std::vector<std::string> cpu_style = {"suffix off"};
  for (const auto &line : pair_lines()) cpu_style.push_back(line);
  cpu_style.push_back("suffix on");
  const std::vector<BadSetting> cases = {
      {{"-k", "on", "t", threads(), "-sf", "kk", "-pk", "kokkos", "neigh", "half"},
       true,
       pair_lines(),
       "Pair style gran/coulomb/kk requires newton off"},
      {{"-k", "on", "t", threads(), "-sf", "kk", "-pk", "kokkos", "neigh", "full", "newton", "off"},
       false,
       pair_lines(),
       "Pair style gran/coulomb/kk requires a half neighbor list"},
      // the CPU style with Kokkos enabled names the variant to use
      {kokkos_args(), false, cpu_style, "use its Kokkos variant gran/coulomb/kk"},
  };
  for (const auto &c : cases) {
    LammpsSession s(MPI_COMM_WORLD, c.args);
    s.load_plugin();
    s.commands(dense_packing_input(c.pair, c.newton));
    try {
      s.command("run 0");
      ADD_FAILURE() << "no error, expected: " << c.expected;
    } catch (LAMMPS_NS::LAMMPSException &e) {
      EXPECT_NE(std::string(e.what()).find(c.expected), std::string::npos) << e.what();
    }
  }
  // the keywords the CPU style refuses, refused by the Kokkos style too
  for (const std::string bad : {"energy/atom yes", "limit_damping", "iterate 0 10"}) {
    LammpsSession s(MPI_COMM_WORLD, kokkos_args());
    s.load_plugin();
    try {
      s.commands(dense_packing_input(pair_lines(" " + bad), false));
      ADD_FAILURE() << "no error for " << bad;
    } catch (LAMMPS_NS::LAMMPSException &e) {
      EXPECT_NE(std::string(e.what()).find("gran/coulomb"), std::string::npos) << e.what();
    }
  }
}

// under mpirun -np 2: the Kokkos style on 2 ranks (ghost pairs on both sides, the friction
// totals exchanged) against the CPU style and the Kokkos style on 1 rank, direct friction
TEST(KokkosCoulombMpi, TwoRanksMatchSerial)
{
  int world, me;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (world < 2) GTEST_SKIP() << "needs 2 MPI ranks";
  Outcome cpu1, kk1, kk2;
  with_first_ranks(1, [&](MPI_Comm comm) {
    cpu1 = run(comm, {}, "", ROLLING);
    kk1 = run(comm, kokkos_args(), "", ROLLING);
  });
  with_first_ranks(2, [&](MPI_Comm comm) { kk2 = run(comm, kokkos_args(), "", ROLLING); });
  if (me != 0) return;
  expect_two_ranks_agree(cpu1, kk1, kk2);
}

/* fix wall/gran/coulomb (a host fix) next to the Kokkos style: its wall contacts join the
   pair's in the friction fix. A turning and a sliding wall give the CPU style's forces and
   wall vectors (kokkos_test_support.h). */
TEST(KokkosCoulomb, WallFixesAsWithCpuStyle)
{
  expect_walls_as_cpu_style(pair_lines(), "wall/gran/coulomb hooke 2e3 0.4 damping 0.002 0");
  // iterated: the solver stops anywhere within its tolerance, and the two styles' paths part
  // by round-off (bound as IteratedMatchesCpuStyle's, a hundred times the tolerance)
  expect_walls_as_cpu_style(pair_lines(ITERATE), "wall/gran/coulomb hooke 2e3 0.4 damping 0.002 0",
                            100 * TOLERANCE);
}

// the history fixes of gran/coulomb and gran/coulomb/kk have different styles, so neither
// reads the other's restart records: the first run after read_restart stops with an error
// that names them, instead of starting every contact afresh
TEST(KokkosCoulomb, RestartOfTheOtherVariantIsRefused)
{
  const std::string file =
      std::string(DEMC_TEST_OUTPUT_DIR) + "/kokkos_coulomb_other_t" + threads() + ".bin";
  for (bool written_by_kk : {false, true}) {
    const std::vector<std::string> cpu_args, kk_args = kokkos_args();
    {
      LammpsSession s(MPI_COMM_WORLD, written_by_kk ? kk_args : cpu_args);
      s.load_plugin();
      s.commands(dense_packing_input(pair_lines(), false));
      s.commands({"run 50", "write_restart " + file});
    }
    LammpsSession s(MPI_COMM_WORLD, written_by_kk ? cpu_args : kk_args);
    s.load_plugin();
    s.commands({"newton off", "read_restart " + file, "neighbor 0.0003 bin",
                "fix integrate all nve/sphere", "timestep 1e-5"});
    try {
      s.command("run 0");
      ADD_FAILURE() << "no error for a restart file written by the other variant";
    } catch (LAMMPS_NS::LAMMPSException &e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find("contact histories written by another pair style or variant"),
                std::string::npos)
          << msg;
      EXPECT_NE(msg.find(written_by_kk ? "Pair gran/coulomb:" : "Pair gran/coulomb/kk:"),
                std::string::npos)
          << msg;
    }
  }
  std::remove(file.c_str());
}

/* The friction pass's per-atom masses on the device as in the friction fix: particles that do
   not rotate (norotate: 1/I = 0; the odd atoms of the packing, integrated with fix nve) and
   particles held by fix freeze (1/m = 1/I = 0, no friction applied to them), in the colliding
   packing against the CPU style; with restitution damping, whose effective mass takes a frozen
   partner as infinitely heavy. */
TEST(KokkosCoulomb, FrozenAndNonRotatingParticlesAsCpuStyle)
{
  auto run_with = [&](const std::vector<std::string> &args) {
    LammpsSession s(MPI_COMM_WORLD, args);
    s.load_plugin();
    s.commands(dense_packing_input({"pair_style gran/coulomb norotate odd",
                                    "pair_coeff * * hooke 2.0e3 0.5 restitution 0.9 0"},
                                   false));
    s.commands({"set group odd omega 0 0 0", "group even subtract all odd", "unfix integrate",
                "region corner block 0 2 0 2 0 8", "group held region corner",
                "group moving subtract even held", "fix integrate moving nve/sphere",
                "fix block odd nve", "fix hold held freeze", "atom_modify sort 20 0.0",
                "compute e all pair gran/coulomb", "thermo_style custom step pe c_e[*]",
                "run " + std::to_string(STEPS)});
    return std::make_tuple(s.forces(), s.torques(), s.pair_extra());
  };
  const auto cpu = run_with({}), kk = run_with(kokkos_args());
  const double df = max_relative_difference(std::get<0>(cpu), std::get<0>(kk));
  const double dt = max_relative_difference(std::get<1>(cpu), std::get<1>(kk));
  const double dw = relative(std::get<2>(cpu)[2], std::get<2>(kk)[2]);
  printf("[ measured ] norotate and freeze: forces %.3g torques %.3g friction work %.3g\n", df, dt,
         dw);
  EXPECT_GT(std::get<2>(cpu)[2], 0.0) << "friction work";
  EXPECT_LT(df, 1e-10);
  EXPECT_LT(dt, 1e-10);
  EXPECT_LT(dw, 1e-10);
  EXPECT_GT(std::get<2>(cpu)[3], 0.0) << "restitution damping";
}
