/* Layer (c), Kokkos: pair_style gran/kuhn/kk against the CPU style gran/kuhn.
   The same dense, colliding packing (with damping) from the same initial state, run
   for 100 steps through the CPU style and through the Kokkos style (-k on t N -sf kk)
   in one process:
     - per-atom forces and torques agree to 1e-10 of the largest value;
     - the pvector energies (compute pair gran/kuhn) agree to 1e-10 relative, the
       contact and sliding counts exactly, and so does the pair energy;
     - per-atom virial (compute stress/atom) and per-atom energy (compute pe/atom)
       agree with the CPU style's (it tallies the pair force, not the force
       accumulated on an atom), and their sums are the global virial and energy;
     - the per-contact values of compute pair/local (single()) agree;
     - the Kokkos runs re-built the neighbor lists and re-sorted the atoms, so the
       hand-over of histories by fix neigh/history/kk (which negates them) was exercised;
     - the same with elastic_slip off (a contact's friction work can be negative);
     - write_restart between runs does not change the run, and a run resumed from the
       restart file continues it (both fail with LAMMPS's own fix neigh/history/kk);
     - with 18 contacts per atom (more than fix neigh/history/kk's initial room for 8)
       the Kokkos style still agrees with the CPU style across a run boundary;
     - newton on and full neighbor lists give clear errors, and so does a restart file of
       the CPU style read by the Kokkos style and the other way round;
     - fix wall/gran/kuhn (a host fix) next to the Kokkos style: a turning and a sliding
       wall give the CPU style's forces and wall vectors;
     - with restitution damping (also against a particle held by fix freeze) the styles agree.
   With schedule static two runs give the same forces bit for bit (and the CPU style's).
   The thread count comes from DEMC_KOKKOS_THREADS (CTest runs 1 and 2). The 1-thread
   run writes its forces and torques to a file in the build folder; the 2-thread run
   (after it: CTest fixture) compares with them.
   KokkosKuhnMpi.* runs under mpirun -np 2: the Kokkos style on 2 ranks agrees with the
   CPU style and the Kokkos style on 1 rank (also with 18 contacts per atom). */
#include "incline.h"
#include "kernel_common.h"
#include "kokkos_test_support.h"
#include "lammps_session.h"

#include "atom.h"
#include "compute.h"
#include "exceptions.h"
#include "fix_neigh_history_kokkos.h"
#include "force.h"
#include "lammps.h"
#include "modify.h"
#include "neighbor.h"
#include "pair.h"
#include "update.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iomanip>
#include <random>
#include <string>

using namespace demc_test;

#ifndef DEMC_TEST_OUTPUT_DIR
#define DEMC_TEST_OUTPUT_DIR "."
#endif

namespace {

const int STEPS = 100;

// style_args: pair_style's keywords; coeff_args: pair_coeff's after the dashpots
std::vector<std::string> pair_lines(const std::string &style_args = "",
                                    const std::string &coeff_args = "")
{
  return {"pair_style gran/kuhn" + style_args,
          "pair_coeff * * 2.0e3 2.0e3 0.5 damping 0.002 0.001" + coeff_args};
}

using Outcome = PackingOutcome;

// the packing, STEPS steps, histories handed over by the sorts (see run_packing)
Outcome run(MPI_Comm comm, const std::vector<std::string> &args, const std::string &style_args = "",
            const std::string &coeff_args = "")
{
  return run_packing<Outcome>(comm, args, pair_lines(style_args, coeff_args), "gran/kuhn", 9,
                              STEPS);
}

void expect_same_physics(const Outcome &cpu, const Outcome &kk)
{
  const double df = max_relative_difference(cpu.forces, kk.forces);
  const double dt = max_relative_difference(cpu.torques, kk.torques);
  EXPECT_LT(df, 1e-10);
  EXPECT_LT(dt, 1e-10);
  ASSERT_EQ(cpu.pvector.size(), kk.pvector.size());
  double dp = 0.0;
  for (size_t k = 0; k < 4; k++) {
    EXPECT_GT(cpu.pvector[k], 0.0) << "pvector " << k;    // the run stored and dissipated energy
    dp = std::max(dp, relative(cpu.pvector[k], kk.pvector[k]));
    EXPECT_LT(relative(cpu.pvector[k], kk.pvector[k]), 1e-10) << "pvector " << k;
  }
  EXPECT_EQ(cpu.pvector[4], kk.pvector[4]) << "contacts";
  // a contact exactly on the friction cone can be counted as sliding or not by round-off
  EXPECT_LE(std::fabs(cpu.pvector[5] - kk.pvector[5]), 1.0) << "sliding contacts";
  EXPECT_GT(cpu.pvector[4], 100.0);
  EXPECT_LT(relative(cpu.pair_energy, kk.pair_energy), 1e-10);
  double dv = 0.0, vscale = 0.0;
  for (int k = 0; k < 6; k++) vscale = std::max(vscale, std::fabs(cpu.virial[k]));
  for (int k = 0; k < 6; k++) dv = std::max(dv, std::fabs(cpu.virial[k] - kk.virial[k]) / vscale);
  EXPECT_LT(dv, 1e-10) << "global virial";
  const double ds = max_relative_difference_n(cpu.stress, kk.stress);
  const double de = max_relative_difference_n(cpu.energy, kk.energy);
  EXPECT_LT(ds, 1e-10) << "per-atom virial";
  EXPECT_LT(de, 1e-10) << "per-atom energy";
  ASSERT_EQ(cpu.contact_sums.size(), kk.contact_sums.size());
  double dc = 0.0;
  const double fn_sum = cpu.contact_sums[4];    // p5: the normal forces
  for (size_t k = 0; k < cpu.contact_sums.size(); k++) {
    const double scale = std::max(std::fabs(cpu.contact_sums[k]), 1e-12 * std::fabs(fn_sum));
    dc = std::max(dc, std::fabs(cpu.contact_sums[k] - kk.contact_sums[k]) / scale);
  }
  EXPECT_LT(dc, 1e-10) << "compute pair/local sums";
  EXPECT_GT(kk.neighbor_builds, 2) << "no re-neighboring: the history hand-over was not exercised";
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me == 0)
    printf("[ measured ] forces %.3g torques %.3g pvector %.3g virial %.3g per-atom virial %.3g "
           "per-atom energy %.3g pair/local %.3g (max relative differences)\n",
           df, dt, dp, dv, ds, de, dc);
}

std::string thread_file()
{
  return std::string(DEMC_TEST_OUTPUT_DIR) + "/kokkos_kuhn_t1_result.txt";
}

}    // namespace

TEST(KokkosKuhn, MatchesCpuStyle)
{
  const Outcome cpu = run(MPI_COMM_WORLD, {});
  const Outcome kk = run(MPI_COMM_WORLD, kokkos_args());
  expect_same_physics(cpu, kk);
  expect_consistent_tallies(cpu);
  expect_consistent_tallies(kk);
}

// elastic_slip off: a contact's cumulative friction work can be negative; the Kokkos style
// must undo fix neigh/history/kk's negation of it (compute pair/local p8 sums it)
TEST(KokkosKuhn, MatchesCpuStyleWithoutElasticSlip)
{
  const Outcome cpu = run(MPI_COMM_WORLD, {}, " elastic_slip no");
  const Outcome kk = run(MPI_COMM_WORLD, kokkos_args(), " elastic_slip no");
  expect_same_physics(cpu, kk);
}

// restitution damping: the effective mass from the device's copy of the masses (e = 0.95: as
// damped as the other tests' dashpots, so that the packing moves enough to be re-neighbored);
// and against a particle held by fix freeze
TEST(KokkosKuhn, RestitutionDampingAsCpuStyle)
{
  const std::vector<std::string> pair = {"pair_style gran/kuhn",
                                         "pair_coeff * * 2.0e3 2.0e3 0.5 restitution 0.95 0.4"};
  const Outcome cpu = run_packing<Outcome>(MPI_COMM_WORLD, {}, pair, "gran/kuhn", 9, STEPS);
  const Outcome kk =
      run_packing<Outcome>(MPI_COMM_WORLD, kokkos_args(), pair, "gran/kuhn", 9, STEPS);
  expect_same_physics(cpu, kk);
  EXPECT_GT(cpu.pvector[3], 0.0) << "damping dissipation";
  expect_frozen_restitution_as_cpu_style("gran/kuhn", "1e7 1e7 0.5");
}

/* the dashpots' limits in the Kokkos style as in the CPU style: limit_damping, and damping_cap
   no (the default, the cap, is in every other comparison); and the sphere of the incline test
   slides down the frozen sphere at g (sin - mu cos) with tangential damping (incline.h) */
TEST(KokkosKuhn, DashpotLimitsAsCpuStyle)
{
  for (const std::string keywords : {" limit_damping", " damping_cap no"}) {
    const Outcome cpu = run(MPI_COMM_WORLD, {}, keywords);
    const Outcome kk = run(MPI_COMM_WORLD, kokkos_args(), keywords);
    expect_same_physics(cpu, kk);
  }
  for (const std::string damping : {"restitution 0.3 1", "damping 5 0.05"}) {
    const InclineRun r = run_incline({"kuhn", false, 70.0, damping, ""}, kokkos_args());
    const double expected = incline_acceleration(70.0);
    for (double a : r.a) EXPECT_NEAR(a, expected, 1e-4 * expected) << damping;
  }
}

// pair_write cannot tabulate a force with history
TEST(KokkosKuhn, PairWriteIsRefused)
{
  expect_pair_write_refused(kokkos_args(), "gran/kuhn/kk",
                            {"pair_style gran/kuhn", "pair_coeff * * 1e7 1e7 0.5"});
}

// restitution damping refuses rigid bodies (their effective mass is not the particles')
TEST(KokkosKuhn, RestitutionRefusesRigidBodies)
{
  expect_restitution_refuses_rigid_bodies(
      kokkos_args(), "Pair gran/kuhn/kk",
      {"pair_style gran/kuhn", "pair_coeff * * 1e7 1e7 0.5 {}"});
}

TEST(KokkosKuhn, ThreadCountDoesNotMatter)
{
  compare_with_one_thread(run(MPI_COMM_WORLD, kokkos_args()), thread_file(),
                          "kokkos.test_kokkos_kuhn.t1");
}

// schedule static: the threads take fixed shares of the neighbor list, so two runs form the
// same sums of forces in the same order (with 2 threads the default, dynamic, shares depend on
// timing and runs agree to round-off only: ThreadCountDoesNotMatter)
TEST(KokkosKuhn, StaticScheduleIsReproducible)
{
  const Outcome first = run(MPI_COMM_WORLD, kokkos_args(), " schedule static");
  const Outcome second = run(MPI_COMM_WORLD, kokkos_args(), " schedule static");
  EXPECT_EQ(max_relative_difference(first.forces, second.forces), 0.0);
  EXPECT_EQ(max_relative_difference(first.torques, second.torques), 0.0);
  EXPECT_EQ(first.pvector, second.pvector);
  const Outcome cpu = run(MPI_COMM_WORLD, {});
  expect_same_physics(cpu, first);
}

// with dashpots: a run continues from a restart file written during it to round-off
TEST(KokkosKuhn, DashpotsContinueFromARestartFile)
{
  expect_dashpots_continue_from_a_restart_file(
      {"pair_style gran/kuhn", "pair_coeff * * 2.0e3 2.0e3 0.5 damping 0.02 0.01"},
      "kokkos_kuhn_dashpots");
}

// N + M steps straight = N steps, write_restart, M steps = N steps, write_restart,
// read_restart, M steps (no damping: a restart file does not hold the half-step velocities
// it needs). Both need FixNeighHistoryDemcKokkos: with LAMMPS's fix neigh/history/kk the
// write_restart command between runs attaches histories to the wrong partners (O(1)
// differences) and read_restart restores no history at all.
namespace {
void expect_restart_continuity(const std::string &coeff_args, const std::string &name)
{
  const std::string file = std::string(DEMC_TEST_OUTPUT_DIR) + "/kokkos_kuhn_" + name + "_t" +
      threads() + ".bin";
  const auto input = dense_packing_input(
      {"pair_style gran/kuhn", "pair_coeff * * 2.0e3 2.0e3 0.5" + coeff_args}, false);
  auto forces_after = [&](const std::vector<std::string> &lines) {
    LammpsSession s(MPI_COMM_WORLD, kokkos_args());
    s.load_plugin();
    s.commands(lines);
    return s.forces();
  };
  auto with = [&](std::vector<std::string> extra) {
    auto v = input;
    v.insert(v.end(), extra.begin(), extra.end());
    return v;
  };
  const PerAtom straight = forces_after(with({"run 150", "run 50"}));
  const PerAtom written = forces_after(with({"run 150", "write_restart " + file, "run 50"}));
  const PerAtom resumed =
      forces_after({"read_restart " + file, "neighbor 0.0003 bin", "neigh_modify delay 0",
                    "fix integrate all nve/sphere", "timestep 1e-5", "run 50"});
  std::remove(file.c_str());
  const double dw = max_relative_difference(straight, written);
  const double dr = max_relative_difference(straight, resumed);
  printf("[ measured ] restart%s: write_restart between runs %.3g, read_restart %.3g\n",
         coeff_args.c_str(), dw, dr);
  EXPECT_LT(dw, 1e-10) << "write_restart between runs changed the run";
  EXPECT_LT(dr, 1e-10) << "the run resumed from the restart file differs";
}
}    // namespace

TEST(KokkosKuhn, RestartContinuity)
{
  expect_restart_continuity("", "restart");
}

// the rolling and twisting springs are part of the histories that restart files carry
TEST(KokkosKuhn, RestartContinuityWithRollingTwisting)
{
  expect_restart_continuity(" rolling sds 2.0e3 0.0 0.1 twisting sds 1e-5 0.0 3e-5", "rolling");
}

// rolling and twisting (with their dashpots) in a packing: as the CPU style
TEST(KokkosKuhn, RollingTwistingAsCpuStyle)
{
  // (weak enough that the packing still moves and is re-neighbored)
  const std::string options = " rolling sds 200 0.001 0.01 twisting sds 1e-6 1e-10 3e-6";
  expect_same_physics(run(MPI_COMM_WORLD, {}, "", options),
                      run(MPI_COMM_WORLD, kokkos_args(), "", options));
}

namespace {
// 18 contacts per atom (every face and edge neighbor of the lattice overlaps): more
// partners per atom than fix neigh/history/kk's initial 8. Two runs (a hand-over of all
// histories at the run boundary) and atom sorting every 5 steps (more hand-overs).
Outcome dense_run(MPI_Comm comm, const std::vector<std::string> &args)
{
  LammpsSession s(comm, args);
  s.load_plugin();
  s.commands(dense_packing_input(pair_lines(), false));
  s.commands({"set group all diameter 0.0028", "atom_modify sort 5 0.0",
              "compute e all pair gran/kuhn", "thermo_style custom step pe c_e[*]", "run 15",
              "run 15"});
  Outcome o;
  o.forces = s.forces();
  o.torques = s.torques();
  o.pvector = s.pair_extra();
  return o;
}

void expect_same_dense(const Outcome &cpu, const Outcome &kk, const char *what)
{
  const double df = max_relative_difference(cpu.forces, kk.forces);
  const double dt = max_relative_difference(cpu.torques, kk.torques);
  const double de = relative(cpu.pvector[1], kk.pvector[1]);
  printf("[ measured ] 18 contacts per atom, %s: forces %.3g torques %.3g tangential energy %.3g\n",
         what, df, dt, de);
  EXPECT_GT(cpu.pvector[4], 4000.0);    // 9 contacts per atom
  EXPECT_LT(df, 1e-10) << what;
  EXPECT_LT(dt, 1e-10) << what;
  EXPECT_LT(de, 1e-10) << what;
}
}    // namespace

// LAMMPS's fix neigh/history/kk scrambles histories (and writes beyond its arrays) when an
// atom has more than 8 partners; FixNeighHistoryDemcKokkos sizes the arrays beforehand
TEST(KokkosKuhn, MoreThanEightContactsPerAtom)
{
  expect_same_dense(dense_run(MPI_COMM_WORLD, {}), dense_run(MPI_COMM_WORLD, kokkos_args()),
                    "1 rank");
}

/* Atoms added while contacts hold histories: the atom arrays grow, and fix
   neigh/history/kk's per-atom partner arrays (which its subclass grows with 1/8 room to spare
   and only when needed) must follow, or the next re-neighboring writes the partner records of
   the new atoms beyond them. LAMMPS allocates atom arrays 16384 at a time, so the packing is
   20^3 spheres (8000, with ghosts about 11,000 slots); after 20 steps 8000 small spheres go
   into the cube centres (16,000 atoms, about 23,000 with ghosts), and 60 more steps
   re-neighbor with them in contact. The Kokkos style must still agree with the CPU style,
   and the partner arrays must have at least atom->nmax rows: both the rows the fix reports
   and the bytes LAMMPS's memory_usage() counts for them (its total less the slot arrays,
   whose sizes are public). */
TEST(KokkosKuhn, PartnerArraysFollowAtomGrowth)
{
  auto input = dense_packing_input(pair_lines(), false);
  std::replace(input.begin(), input.end(), std::string("region box block 0 8 0 8 0 8"),
               std::string("region box block 0 20 0 20 0 20"));
  const std::vector<std::string> add_atoms = {"lattice sc 0.0019 origin 0.5 0.5 0.5",
                                              "create_atoms 1 box",
                                              "group new id > 8000",
                                              "set group new diameter 0.0004",
                                              "set group new density 2650",
                                              "velocity new set 2.0 -1.5 1.0"};
  // forces and torques at the end; with Kokkos also the partner arrays' rows before and after
  // the growth, atom->nmax after it, and the bytes memory_usage() counts for the partner arrays
  struct Growth {
    std::vector<std::array<double, 3>> forces, torques;
    int rows_before = 0, rows_after = 0, nmax_after = 0;
    double partner_bytes = 0.0;
  };
  auto run_with_growth = [&](bool kokkos) {
    LammpsSession s(MPI_COMM_WORLD, kokkos ? kokkos_args() : std::vector<std::string>{});
    s.load_plugin();
    s.commands(input);
    s.command("run 20");
    Growth g;
    LAMMPS_NS::FixNeighHistoryKokkos<LMPDeviceType> *kk = nullptr;
    int dim = 0;
    if (kokkos) {
      auto history = s.lmp->modify->get_fix_by_style("^DEMC/NEIGH_HISTORY/KK");
      kk = dynamic_cast<LAMMPS_NS::FixNeighHistoryKokkos<LMPDeviceType> *>(history.at(0));
      EXPECT_NE(kk, nullptr);
      if (kk) g.rows_before = *static_cast<int *>(kk->extract("partner_rows", dim));
    }
    s.commands(add_atoms);
    EXPECT_EQ(s.lmp->atom->natoms, 16000);
    s.command("run 60");
    EXPECT_GE(s.lmp->neighbor->ncalls, 3);    // set-up and at least two during the run
    if (kk) {
      g.rows_after = *static_cast<int *>(kk->extract("partner_rows", dim));
      g.nmax_after = s.lmp->atom->nmax;
      const double slots = (double) kk->k_firstflag.view_host().span() * sizeof(int) +
          (double) kk->k_firstvalue.view_host().span() * sizeof(double);
      g.partner_bytes = kk->memory_usage() - slots;
    }
    g.forces = s.forces();
    g.torques = s.torques();
    return g;
  };
  const Growth cpu = run_with_growth(false), kk = run_with_growth(true);
  ASSERT_GT(kk.nmax_after, kk.rows_before)
      << "the atoms did not outgrow the partner arrays' first size";
  EXPECT_GE(kk.rows_after, kk.nmax_after);
  // d_partner (tagint) and d_valuepartner (dnum doubles) for at least 8 partners per row
  const double per_partner = sizeof(LAMMPS_NS::tagint) + 6.0 * sizeof(double);
  EXPECT_GE(kk.partner_bytes, (double) kk.nmax_after * 8 * per_partner);
  const double df = max_relative_difference(cpu.forces, kk.forces);
  const double dt = max_relative_difference(cpu.torques, kk.torques);
  EXPECT_LT(df, 1e-10);
  EXPECT_LT(dt, 1e-10);
  printf("[ measured ] partner rows %d -> %d for nmax %d; forces %.3g torques %.3g\n",
         kk.rows_before, kk.rows_after, kk.nmax_after, df, dt);
}

TEST(KokkosKuhn, UnsupportedSettingsGiveClearErrors)
{
  struct Case {
    std::vector<std::string> args;
    bool newton;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {{"-k", "on", "t", threads(), "-sf", "kk", "-pk", "kokkos", "neigh", "half"},
       true,
       "requires newton off"},
      {{"-k", "on", "t", threads(), "-sf", "kk", "-pk", "kokkos", "neigh", "full", "newton", "off"},
       false,
       "requires a half neighbor list"},
  };
  for (const auto &c : cases) {
    LammpsSession s(MPI_COMM_WORLD, c.args);
    s.load_plugin();
    s.commands(dense_packing_input(pair_lines(), c.newton));
    try {
      s.command("run 0");
      ADD_FAILURE() << "no error for newton " << c.newton;
    } catch (LAMMPS_NS::LAMMPSException &e) {
      EXPECT_NE(std::string(e.what()).find(c.expected), std::string::npos) << e.what();
    }
  }
}

// the history fixes of gran/kuhn and gran/kuhn/kk have different styles, so neither reads
// the other's restart records (LAMMPS would drop them and start every contact afresh): the
// first run after read_restart stops with an error that names the history fix and its style
TEST(KokkosKuhn, RestartOfTheOtherVariantIsRefused)
{
  const std::string file =
      std::string(DEMC_TEST_OUTPUT_DIR) + "/kokkos_kuhn_other_t" + threads() + ".bin";
  const std::vector<std::string> resume = {"newton off", "read_restart " + file,
                                           "neighbor 0.0003 bin", "fix integrate all nve/sphere",
                                           "timestep 1e-5"};
  for (bool written_by_kk : {false, true}) {
    {
      LammpsSession s(MPI_COMM_WORLD, written_by_kk ? kokkos_args() : std::vector<std::string>{});
      s.load_plugin();
      s.commands(dense_packing_input(pair_lines(), false));
      s.commands({"run 50", "write_restart " + file});
    }
    LammpsSession s(MPI_COMM_WORLD, written_by_kk ? std::vector<std::string>{} : kokkos_args());
    s.load_plugin();
    s.commands(resume);
    try {
      s.command("run 0");
      ADD_FAILURE() << "no error for a restart file written by "
                    << (written_by_kk ? "gran/kuhn/kk" : "gran/kuhn");
    } catch (LAMMPS_NS::LAMMPSException &e) {
      const std::string msg = e.what();
      EXPECT_NE(
          msg.find("restart file holds contact histories written by another pair style or variant"),
          std::string::npos)
          << msg;
      EXPECT_NE(msg.find(written_by_kk ? "fix style DEMC/NEIGH_HISTORY/KK/"
                                       : "fix style DEMC/NEIGH_HISTORY)"),
                std::string::npos)
          << msg;
      EXPECT_NE(msg.find(written_by_kk ? "Pair gran/kuhn:" : "Pair gran/kuhn/kk:"),
                std::string::npos)
          << msg;
    }
  }
  std::remove(file.c_str());
}

// under mpirun -np 2: the Kokkos style on 2 ranks against the CPU style and the Kokkos
// style on 1 rank (sub-communicator of rank 0)
TEST(KokkosKuhnMpi, TwoRanksMatchSerial)
{
  int world, me;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (world < 2) GTEST_SKIP() << "needs 2 MPI ranks";
  Outcome cpu1, kk1, kk2;
  with_first_ranks(1, [&](MPI_Comm comm) {
    cpu1 = run(comm, {});
    kk1 = run(comm, kokkos_args());
  });
  with_first_ranks(2, [&](MPI_Comm comm) { kk2 = run(comm, kokkos_args()); });
  if (me != 0) return;
  expect_two_ranks_agree(cpu1, kk1, kk2);
}

// histories of atoms with more than 8 partners migrate between the ranks
TEST(KokkosKuhnMpi, TwoRanksMatchSerialWithManyContacts)
{
  int world, me;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (world < 2) GTEST_SKIP() << "needs 2 MPI ranks";
  Outcome cpu1, kk2;
  with_first_ranks(1, [&](MPI_Comm comm) { cpu1 = dense_run(comm, {}); });
  with_first_ranks(2, [&](MPI_Comm comm) { kk2 = dense_run(comm, kokkos_args()); });
  if (me == 0) expect_same_dense(cpu1, kk2, "2 ranks kk vs 1 rank cpu");
}

// the wall fixes run on the host next to the Kokkos pair style (a turning and a translating wall)
TEST(KokkosKuhn, WallFixesAsWithCpuStyle)
{
  expect_walls_as_cpu_style(pair_lines(), "wall/gran/kuhn 2e3 1.5e3 0.4 damping 0.002 0.001");
}

TEST(KokkosKuhn, DeleteAtomsKeepsHistoriesOrStops)
{
  expect_delete_atoms_handled(pair_lines());
}

// the same on 2 ranks: partners owned by the other process
TEST(KokkosKuhnMpi, NewAtomWithADeletedAtomsIdAsCpuStyle)
{
  expect_reused_id_as_cpu_style(pair_lines());
}

// balance between runs moves atoms and their saved histories to the other process
TEST(KokkosKuhnMpi, BalanceBetweenRunsAsCpuStyle)
{
  expect_balance_as_cpu_style(pair_lines());
}

/* ----------------------------------------------------------------------
   one contact step: two spheres driven along random paths (fuzzed, seeded: pressed,
   sheared, spun, lifted off and touching again, re-neighbored every step so that fix
   neigh/history/kk hands the record over with its negation) give through gran/kuhn/kk on
   the host the same forces, torques, pair energy and pair vector as through gran/kuhn, to
   the bit: both call demc::kuhn::contact_step() on the same numbers, one contact leaves no
   sum whose order could differ.
------------------------------------------------------------------------- */

namespace {

struct PathStep {
  std::vector<double> values;    // forces and torques of both atoms, energy, pair vector
};

// pair: pair_style's arguments; coeff_args: pair_coeff's after the dashpots
std::vector<PathStep> driven_pair(const std::vector<std::string> &args, const std::string &pair,
                                  const std::string &coeff_args, unsigned seed, int &builds)
{
  const double dt = 1e-3, pi = 3.14159265358979323846;
  LammpsSession s(MPI_COMM_WORLD, args);
  s.load_plugin();
  s.commands({"units si", "atom_style sphere", "atom_modify map array", "boundary f f f",
              "newton off", "comm_modify vel yes", "region box block -5 5 -5 5 -5 5 units box",
              "create_box 1 box", "create_atoms 1 single 0 0 0 units box",
              "create_atoms 1 single 0.33 0.66 0.66 units box", "set group all diameter 1.0",
              "set group all density 1000", "neighbor 0.02 bin",
              "neigh_modify every 1 delay 0 check no", "pair_style " + pair,
              "pair_coeff * * 1e5 8e4 0.5 damping 20 10" + coeff_args,
              "compute e all pair gran/kuhn",
              fmt::format("timestep {}", dt), "thermo 1", "run 0 post no"});
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  demc::Vec3 v[2] = {}, w[2] = {};
  auto *atom = s.lmp->atom;
  const demc::Vec3 n = {1.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0};
  std::vector<PathStep> out;
  for (int k = 0; k < 300; k++) {
    // the overlap follows 0.01 + 0.013 sin(2 pi k / 100) m along n, the rest random walks
    const double approach = -0.013 * (std::sin(2.0 * pi * (k + 1) / 100.0) -
                                      std::sin(2.0 * pi * k / 100.0)) / dt;
    for (int a = 0; a < 2; a++) {
      v[a] = 0.9 * v[a] + 0.1 * demc::Vec3{0.6 * u(rng), 0.6 * u(rng), 0.6 * u(rng)};
      w[a] = 0.8 * w[a] + 0.2 * demc::Vec3{1.5 * u(rng), 1.5 * u(rng), 1.5 * u(rng)};
    }
    // (the normal part of the relative velocity is set by the overlap's path)
    demc::Vec3 vd[2] = {v[0], v[1]};
    const double rel = demc::dot(v[1] - v[0], n);
    vd[1] = vd[1] + (0.5 * (approach - rel)) * n;
    vd[0] = vd[0] - (0.5 * (approach - rel)) * n;
    for (int a = 0; a < 2; a++) {
      const int i = atom->map(a + 1);
      for (int c = 0; c < 3; c++) {
        atom->x[i][c] += dt * (&vd[a].x)[c];
        atom->v[i][c] = (&vd[a].x)[c];
        atom->omega[i][c] = (&w[a].x)[c];
      }
    }
    s.command("run 1 pre no post no");
    PathStep p;
    for (int a = 1; a <= 2; a++)
      for (double **arr : {atom->f, atom->torque})
        for (int c = 0; c < 3; c++) p.values.push_back(arr[atom->map(a)][c]);
    p.values.push_back(s.pair_energy());
    for (double e : s.pair_extra()) p.values.push_back(e);
    out.push_back(p);
  }
  builds = (int) s.lmp->neighbor->ncalls;
  return out;
}

void expect_bitwise_as_cpu_step(const std::string &style_args, const std::string &coeff_args,
                                unsigned seed)
{
  int builds_cpu = 0, builds_kk = 0;
  const std::string options = style_args + coeff_args;
  const auto cpu = driven_pair({}, "gran/kuhn" + style_args, coeff_args, seed, builds_cpu);
  const auto kk = driven_pair(kokkos_args(), "gran/kuhn" + style_args, coeff_args, seed, builds_kk);
  ASSERT_EQ(cpu.size(), kk.size());
  int differing = 0, first = -1, sliding = 0, apart = 0;
  for (size_t k = 0; k < cpu.size(); k++) {
    ASSERT_EQ(cpu[k].values.size(), kk[k].values.size());
    bool same = true;
    for (size_t q = 0; q < cpu[k].values.size(); q++)
      same = same && cpu[k].values[q] == kk[k].values[q];
    if (!same && first < 0) first = (int) k;
    differing += !same;
    const size_t pv = 13;    // the pair vector after 12 forces/torques and the energy
    sliding += cpu[k].values[pv + 5] > 0.0;
    apart += cpu[k].values[pv + 4] == 0.0;
  }
  std::printf("[ measured ] gran/kuhn/kk vs gran/kuhn (%s, seed %u): %d of %zu steps differ "
              "(first %d); %d sliding, %d apart, %d neighbor list builds\n",
              options.c_str(), seed, differing, cpu.size(), first, sliding, apart, builds_kk);
  EXPECT_EQ(differing, 0) << "first differing step " << first;
  EXPECT_GT(sliding, 10);
  EXPECT_GT(apart, 10);
  EXPECT_GT(builds_kk, 100) << "the lists were not rebuilt: no hand-over of the record";
}

}    // namespace

TEST(KokkosKuhn, StepBitwiseAsCpuStepAlongRandomPaths)
{
  expect_bitwise_as_cpu_step("", "", 11);
  expect_bitwise_as_cpu_step("", " rolling sds 1e4 5 0.05 twisting sds 50 0.5 0.02", 12);
  expect_bitwise_as_cpu_step(" limit_damping", " rolling sds 1e4 0 0.05 twisting marshall", 13);
  expect_bitwise_as_cpu_step(" conventional", " rolling sds 3e3 2 0.1", 14);
}

/* rolling resistance through gran/kuhn/kk: the closed form of the CPU style's test
   (test_rolling_twisting.cpp): a sphere rolling on a frozen sphere of radius 1000 m (1e-5 of a
   flat surface) decelerates at 5/7 mu_roll g; tolerance 1e-3 of it as there */
TEST(KokkosKuhn, RollingSphereDeceleratesAtFiveSeventhsMuRollG)
{
  const double mu_roll = 0.1, v0 = 0.02;
  LammpsSession s(MPI_COMM_WORLD, kokkos_args());
  s.load_plugin();
  s.commands(incline_input(
      {"kuhn", false, 0.0, fmt::format("restitution 0.3 1 rolling sds 1e5 60 {}", mu_roll), ""}));
  s.commands({fmt::format("velocity small set {} 0 0", v0),
              fmt::format("set type 1 omega 0 {} 0", v0 / INCLINE_RADIUS), "run 0 post no"});
  const double a = 5.0 / 7.0 * mu_roll * INCLINE_G * INCLINE_BIG / (INCLINE_BIG + INCLINE_RADIUS);
  auto *atom = s.lmp->atom;
  double st = 0, st2 = 0, sv = 0, stv = 0;
  int n = 0;
  for (int chunk = 1; chunk <= 44; chunk++) {    // 22 ms (the stop: 28.5 ms)
    s.command("run 50 pre no post no");
    const double t = chunk * 50 * 1e-5, v = atom->v[atom->map(1)][0];
    if (t < 0.002) continue;
    st += t;
    st2 += t * t;
    sv += v;
    stv += t * v;
    n++;
  }
  const double measured = -(n * stv - st * sv) / (n * st2 - st * st);
  std::printf("[ rolling  ] gran/kuhn/kk: deceleration %.6g m/s2, closed form %.6g (relative "
              "%.1e)\n",
              measured, a, measured / a - 1.0);
  EXPECT_NEAR(measured, a, 1e-3 * a);
}
