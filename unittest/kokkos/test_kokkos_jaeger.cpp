/* Layer (c), Kokkos: pair_style gran/jaeger/kk against the CPU style gran/jaeger.
   The same dense, colliding packing (with damping) from the same initial state, run
   for 100 steps through the CPU style and through the Kokkos style (-k on t N -sf kk)
   in one process, atoms re-sorted every 20 steps (so fix neigh/history/kk hands many
   records from one atom of a pair to the other, negating them):
     - with a capacity (history/max) that no stack reaches (the Kokkos style's merge
       counters stay 0, as the CPU style's without history/max): per-atom forces and
       torques agree to 1e-10 of the largest value, so do the pvector energies, the pair
       energy, global and per-atom virial, per-atom energy and the compute pair/local
       sums; contact counts and the history statistics (records, mean and longest stack)
       are equal;
     - with a small capacity, both styles with the same history/max: the kernel merges
       when a stack is full, the same merges in both (same kernel), forces agree;
     - with 18 contacts per atom (more than fix neigh/history/kk's initial room for 8)
       the styles agree across a run boundary;
     - 1 and 2 threads give the same forces (the 1-thread run writes its result to the
       build folder, the 2-thread run compares: CTest fixture);
     - write_restart between runs and read_restart continue the run (default capacity);
       a restart file read with a smaller history/max has its longer histories shortened
       (forces unchanged); a change of history/max between runs gives a clear error; so do
       newton on, full neighbor lists and energy/atom yes;
     - a run whose histories reach the capacity ends with a warning that gives the merges (N - C
       for a contact that pushes a point every step, as the CPU style counts them) and the
       contacts they touched; none where nothing merged;
     - with restitution damping (pair_coeff ... restitution e x_t) the styles agree;
     - fix wall/gran/jaeger (a host fix) next to the Kokkos style: a turning and a sliding
       wall give the CPU style's forces and wall vectors.
   KokkosJaegerMpi.* runs under mpirun -np 2: the Kokkos style on 2 ranks agrees with the
   CPU style and the Kokkos style on 1 rank. */
#include "contact_paths.h"
#include "incline.h"
#include "kokkos_test_support.h"
#include "lammps_session.h"
#include "relaxing_packing.h"

#include "atom.h"
#include "compute.h"
#include "exceptions.h"
#include "fix.h"
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
#include <iterator>
#include <string>
#include <tuple>

using namespace demc_test;

#ifndef DEMC_TEST_OUTPUT_DIR
#define DEMC_TEST_OUTPUT_DIR "."
#endif

namespace {

const int STEPS = 100;
// no stack of the test packing reaches this in 100 steps (the longest has < 20 points)
const std::string ROOMY = " history/max 24";
const char *HISTORY_FIX = "DEMC_GRAN_JAEGER_HISTORY0";
// history fix vector: records, mean length, longest, bytes per record, merges (all),
// then for the Kokkos fix only: merges forced by the capacity
enum { S_CONTACTS, S_MEAN, S_LONGEST, S_BYTES, S_MERGES, S_FORCED };

std::vector<std::string> pair_lines(const std::string &style_args)
{
  return {"pair_style gran/jaeger" + style_args, "pair_coeff * * 1e7 0.3 0.5 damping 0.002 0.001"};
}

// the history fix's global vector (collective over the ranks of the session)
std::vector<double> history_stats(LammpsSession &s)
{
  auto *fix = s.lmp->modify->get_fix_by_id(HISTORY_FIX);
  std::vector<double> v;
  if (fix)
    for (int k = 0; k < fix->size_vector; k++) v.push_back(fix->compute_vector(k));
  return v;
}

struct Outcome : PackingOutcome {
  std::vector<double> stats;    // the history fix's vector
};

// the packing, STEPS steps, records re-oriented by the sorts (see run_packing)
Outcome run(MPI_Comm comm, const std::vector<std::string> &args, const std::string &style_args,
            const std::string &damping = "damping 0.002 0.001")
{
  const std::vector<std::string> pair = {"pair_style gran/jaeger" + style_args,
                                         "pair_coeff * * 1e7 0.3 0.5 " + damping};
  return run_packing<Outcome>(comm, args, pair, "gran/jaeger", 9, STEPS,
                              [](LammpsSession &s, Outcome &o) {
                                o.stats = history_stats(s);
                              });
}

// with_work: the friction dissipation (pvector 2) is known and > 0 (pair_style keyword work)
void expect_same_physics(const Outcome &cpu, const Outcome &kk, double tol = 1e-10,
                         bool with_work = true)
{
  const double df = max_relative_difference(cpu.forces, kk.forces);
  const double dt = max_relative_difference(cpu.torques, kk.torques);
  EXPECT_LT(df, tol);
  EXPECT_LT(dt, tol);
  ASSERT_EQ(cpu.pvector.size(), kk.pvector.size());
  double dp = 0.0;
  for (size_t k = 0; k < 4; k++) {
    if (k != 2 || with_work)
      EXPECT_GT(cpu.pvector[k], 0.0) << "pvector " << k;    // stored, dissipated
    dp = std::max(dp, relative(cpu.pvector[k], kk.pvector[k]));
    EXPECT_LT(relative(cpu.pvector[k], kk.pvector[k]), tol) << "pvector " << k;
  }
  EXPECT_EQ(cpu.pvector[4], kk.pvector[4]) << "contacts";
  // a contact exactly on the friction cone can be counted as sliding or not by round-off
  EXPECT_LE(std::fabs(cpu.pvector[5] - kk.pvector[5]), 1.0) << "sliding contacts";
  EXPECT_GT(cpu.pvector[4], 100.0);
  EXPECT_GT(cpu.pvector[5], 10.0) << "sliding contacts";
  EXPECT_LT(relative(cpu.pair_energy, kk.pair_energy), tol);
  double dv = 0.0, vscale = 0.0;
  for (int k = 0; k < 6; k++) vscale = std::max(vscale, std::fabs(cpu.virial[k]));
  for (int k = 0; k < 6; k++) dv = std::max(dv, std::fabs(cpu.virial[k] - kk.virial[k]) / vscale);
  EXPECT_LT(dv, tol) << "global virial";
  const double ds = max_relative_difference_n(cpu.stress, kk.stress);
  const double de = max_relative_difference_n(cpu.energy, kk.energy);
  EXPECT_LT(ds, tol) << "per-atom virial";
  EXPECT_LT(de, tol) << "per-atom energy";
  ASSERT_EQ(cpu.contact_sums.size(), kk.contact_sums.size());
  double dc = 0.0;
  const double fn_sum = cpu.contact_sums[4];    // p5: the normal forces
  for (size_t k = 0; k < cpu.contact_sums.size(); k++) {
    const double scale = std::max(std::fabs(cpu.contact_sums[k]), 1e-12 * std::fabs(fn_sum));
    dc = std::max(dc, std::fabs(cpu.contact_sums[k] - kk.contact_sums[k]) / scale);
  }
  EXPECT_LT(dc, tol) << "compute pair/local sums";
  EXPECT_GE(kk.neighbor_builds, 2) << "no re-neighboring during the run";
  // history statistics: the same records and stacks
  ASSERT_GE(cpu.stats.size(), 5u);
  ASSERT_GE(kk.stats.size(), 6u);
  EXPECT_EQ(cpu.stats[S_CONTACTS], kk.stats[S_CONTACTS]) << "records";
  EXPECT_NEAR(cpu.stats[S_MEAN], kk.stats[S_MEAN], 1e-12 * cpu.stats[S_MEAN])
      << "mean stack length";
  EXPECT_EQ(cpu.stats[S_LONGEST], kk.stats[S_LONGEST]) << "longest stack";
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me == 0)
    printf("[ measured ] forces %.3g torques %.3g pvector %.3g virial %.3g per-atom virial %.3g "
           "per-atom energy %.3g pair/local %.3g (max relative differences); records %g, longest "
           "stack %g, "
           "merges cpu %g kk %g (forced by the capacity %g)\n",
           df, dt, dp, dv, ds, de, dc, kk.stats[S_CONTACTS], kk.stats[S_LONGEST],
           cpu.stats[S_MERGES], kk.stats[S_MERGES], kk.stats[S_FORCED]);
}

std::string thread_file()
{
  return std::string(DEMC_TEST_OUTPUT_DIR) + "/kokkos_jaeger_t1_result.txt";
}

// the message of the error a command raises, or "" if none
std::string error_of(LammpsSession &s, const std::string &command)
{
  try {
    s.command(command);
  } catch (LAMMPS_NS::LAMMPSException &e) {
    return e.what();
  }
  return "";
}

}    // namespace

// the CPU style without history/max (stacks grow as needed) against the Kokkos style with
// room to spare: no merges on either side, the same physics
TEST(KokkosJaeger, MatchesCpuStyle)
{
  const Outcome cpu = run(MPI_COMM_WORLD, {}, "");
  const Outcome kk = run(MPI_COMM_WORLD, kokkos_args(), ROOMY);
  expect_same_physics(cpu, kk);
  expect_consistent_tallies(cpu);
  expect_consistent_tallies(kk);
  EXPECT_EQ(cpu.stats[S_MERGES], 0.0);
  EXPECT_EQ(kk.stats[S_MERGES], 0.0) << "a stack reached the capacity";
  EXPECT_EQ(kk.stats[S_FORCED], 0.0) << "a stack reached the capacity";
  EXPECT_GT(kk.stats[S_LONGEST], 8.0) << "the packing should build long stacks";
  EXPECT_LT(kk.stats[S_LONGEST], 24.0);
}

/* One contact step for both styles (demc::jaeger::contact_step()): on host spaces a random
   path as those of WallGranJaeger.SameStepAsPairWithHugePartner (a sphere pressed, sheared and
   spun against a frozen sphere, here of its own size, then lifted off) gives bitwise the forces,
   torques, energies, work and history lengths of the CPU style, with a history/max the history
   reaches (merges forced by the bound). */
namespace {
// the path for both styles, pair_coeff's law and keywords `coeff`; the CPU style's reports
std::vector<Reported> expect_same_step_bitwise(const std::string &coeff)
{
  const double dt = 1e-4;
  const std::vector<PathStep> path = random_path(14u, 30, dt);
  const std::vector<std::string> partner = {
      "create_atoms 1 single 0.1 -0.2 -0.5 units box", "set atom 2 diameter 1.0",
      "neighbor 0.5 bin", "neigh_modify every 1 delay 0 check no",
      "pair_style gran/jaeger history/max 6", "pair_coeff * * " + coeff,
      "compute e all pair gran/jaeger", "thermo_style custom step c_e[*]"};
  const auto cpu = drive_path(partner, path, dt, read_pair, "-2");
  const auto kk = drive_path(partner, path, dt, read_pair, "-2", kokkos_args());
  EXPECT_EQ(cpu.size(), kk.size());
  double longest = 0.0, friction = 0.0;
  for (size_t k = 0; k < cpu.size() && k < kk.size(); k++) {
    const Reported &a = cpu[k], &b = kk[k];
    const double va[] = {a.f.x, a.f.y, a.f.z, a.t.x, a.t.y, a.t.z, a.normal, a.tangential,
                         a.friction, a.damping, a.contacts, a.longest};
    const double vb[] = {b.f.x, b.f.y, b.f.z, b.t.x, b.t.y, b.t.z, b.normal, b.tangential,
                         b.friction, b.damping, b.contacts, b.longest};
    for (int m = 0; m < 12; m++) EXPECT_EQ(va[m], vb[m]) << coeff << ": step " << k << " value " << m;
    longest = std::max(longest, a.longest);
    friction = std::max(friction, a.friction);
  }
  EXPECT_GT(friction, 0.0) << "the path slides";
  EXPECT_EQ(longest, 6.0) << "the history reaches the bound";
  EXPECT_EQ(cpu.back().contacts, 0.0) << "the path ends apart (parting)";
  return cpu;
}
}    // namespace

TEST(KokkosJaeger, SameContactStepAsCpuStyleBitwise)
{
  expect_same_step_bitwise("1e7 0.3 0.4 damping 2 1");
}

/* the same with rolling and twisting resistance (the records' slots, the springs carried with
   the frame, twisting marshall from the contact's tangential spring and dashpot): bitwise too,
   and the resistance acts (the torques differ from those without it) */
TEST(KokkosJaeger, SameContactStepWithRollingAsCpuStyleBitwise)
{
  const auto plain = expect_same_step_bitwise("1e7 0.3 0.4 damping 2 1");
  const auto resisting =
      expect_same_step_bitwise("1e7 0.3 0.4 damping 2 1 rolling sds 2e4 1 0.05 twisting marshall");
  double largest = 0.0, change = 0.0;
  for (size_t k = 0; k < plain.size() && k < resisting.size(); k++) {
    const demc::Vec3 d = resisting[k].t - plain[k].t;
    change = std::max(change, std::sqrt(dot(d, d)));
    largest = std::max(largest, std::sqrt(dot(plain[k].t, plain[k].t)));
  }
  EXPECT_GT(change, 0.01 * largest) << "the resistance's torques (measured 0.14 of the largest)";
}

/* Two pairs of spheres, one at rest and one whose sphere 2 approaches sphere 1 along x while it
   moves sideways in a direction that turns by half a radian each step (fix move, tangential
   speed a fifth of the normal one, inside the friction cone): each step of that pair pushes
   one elastic point of a new slope, so with history/max C a run of N steps from a fresh contact
   merges N - C times for the capacity, a following run of M steps M times, all in that one
   contact of the two. The warning at the end of each run must say so, agree with the CPU
   style's merge count for the same history/max, and not appear when nothing merged. The moving
   pair straddles x = 0, where 2 ranks split the box (`processors`: "2 1 1"): each rank then
   computes it (newton off) and the counts must still be those of one contact. */
std::vector<std::string> turning_pair_input(int capacity, const std::string &processors = "")
{
  const std::string cap = " history/max " + std::to_string(capacity);
  std::vector<std::string> lines = {"units si",
                                    "atom_style sphere",
                                    "boundary p p p",
                                    "comm_modify vel yes",
                                    "region box block -0.1 0.1 -0.1 0.1 -0.1 0.1",
                                    "create_box 1 box",
                                    "create_atoms 1 single -0.00495 0 0",
                                    "create_atoms 1 single 0.00495 0 0",
                                    "create_atoms 1 single 0.05 0.05 0",
                                    "create_atoms 1 single 0.05 0.05 0.0099",
                                    "set atom * diameter 0.01",
                                    "set atom * density 2500",
                                    "pair_style gran/jaeger" + cap,
                                    "pair_coeff * * 1e7 0.3 0.5",
                                    "neighbor 0.002 bin",
                                    "timestep 1e-6",
                                    "group mover id 2",
                                    "variable vx equal -1e-2",
                                    "variable vy equal 2e-3*cos(0.5*step)",
                                    "variable vz equal 2e-3*sin(0.5*step)",
                                    "fix drive mover move variable NULL NULL NULL v_vx v_vy v_vz"};
  if (!processors.empty()) lines.insert(lines.begin() + 1, "processors " + processors);
  return lines;
}

// the log of `lines` run in s (warnings go to the log file only: the session has no screen)
std::string logged(LammpsSession &s, const std::vector<std::string> &lines, const std::string &tag)
{
  const std::string file =
      std::string(DEMC_TEST_OUTPUT_DIR) + "/kokkos_jaeger_" + tag + "_t" + threads() + ".log";
  s.command("log " + file);
  s.commands(lines);
  s.command("log none");
  std::ifstream in(file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // every rank has read it before the first removes it (a rank that removed it early left
  // rank 0 an empty log now and then)
  int me;
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me == 0) std::remove(file.c_str());
  return text;
}

std::string capacity_warning(int merges, int capacity)
{
  return "Pair gran/jaeger/kk: " + std::to_string(merges) +
      " history points merged in this run because histories reached their capacity "
      "(history/max " +
      std::to_string(capacity) + "), in 1 of 2 contacts (50%)";
}

TEST(KokkosJaeger, WarnsOfMergesForcedByTheCapacity)
{
  const int C = 4, N = 30, M = 10;
  double cpu_merges = 0.0;
  {
    LammpsSession s(MPI_COMM_WORLD);
    s.load_plugin();
    s.commands(turning_pair_input(C));
    s.command("run " + std::to_string(N));
    cpu_merges = history_stats(s)[S_MERGES];
  }
  EXPECT_EQ(cpu_merges, N - C) << "one push per step of the turning pair";
  LammpsSession s(MPI_COMM_WORLD, kokkos_args());
  s.load_plugin();
  s.commands(turning_pair_input(C));
  const std::string first = logged(s, {"run " + std::to_string(N)}, "first");
  EXPECT_NE(first.find(capacity_warning(N - C, C)), std::string::npos) << first;
  EXPECT_EQ(history_stats(s)[S_FORCED], cpu_merges) << "the CPU style's merges";
  const std::string second = logged(s, {"run " + std::to_string(M)}, "second");
  EXPECT_NE(second.find(capacity_warning(M, C)), std::string::npos) << second;

  LammpsSession roomy(MPI_COMM_WORLD, kokkos_args());
  roomy.load_plugin();
  roomy.commands(turning_pair_input(N + M + 2));
  const std::string none = logged(roomy, {"run " + std::to_string(N)}, "none");
  EXPECT_EQ(none.find("history points merged"), std::string::npos) << none;
  EXPECT_EQ(history_stats(roomy)[S_LONGEST], N) << "the turning pair's history: one point a step";
}

TEST(KokkosJaegerMpi, WarnsOfMergesForcedByTheCapacityOnceOverRanks)
{
  int world, me;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (world != 2) GTEST_SKIP() << "needs 2 MPI ranks";
  const int C = 4, N = 30;
  LammpsSession s(MPI_COMM_WORLD, kokkos_args());
  s.load_plugin();
  s.commands(turning_pair_input(C, "2 1 1"));
  const std::string log = logged(s, {"run " + std::to_string(N)}, "ranks");
  if (me == 0) EXPECT_NE(log.find(capacity_warning(N - C, C)), std::string::npos) << log;
}

// a capacity the stacks exceed, the same in both styles: the kernel merges when a stack is
// full (force-preserving), the same merges in the CPU arena and in the Kokkos slot
/* The default pruning in both styles: the vibrating lattice (relaxing_packing.h; a prescribed
   decaying vibration whose contacts gain a point at every reversal) run 1500 steps, past the
   rule's length (72 points), where the rule prunes back to 64 (kernels/jaeger_contact.h,
   prune_points()); the Kokkos style with room for 128 points (no merge forced): the same
   histories (mean and longest equal, the mean to round-off of its sum) and forces to 1e-10. */
TEST(KokkosJaeger, DefaultPruningAsCpuStyle)
{
  const auto run_lattice = [](const std::vector<std::string> &args, const std::string &pair) {
    LammpsSession s(MPI_COMM_WORLD, args);
    s.load_plugin();
    // (newton off in both, as the Kokkos style needs: contacts with ghosts counted alike)
    s.command("newton off");
    s.commands(vibrating_lattice(pair));
    s.command("run 1500");
    return std::make_pair(s.forces(), history_stats(s));
  };
  const auto cpu = run_lattice({}, ""), kk = run_lattice(kokkos_args(), " history/max 128");
  const double df = max_relative_difference(cpu.first, kk.first);
  std::printf("[ measured ] pruned lattice: forces %.3g, mean %.2f/%.2f, longest %g/%g, merges "
              "forced %g\n",
              df, cpu.second[S_MEAN], kk.second[S_MEAN], cpu.second[S_LONGEST],
              kk.second[S_LONGEST], kk.second[S_FORCED]);
  EXPECT_GT(cpu.second[5], 0.0) << "points pruned (the CPU fix's count)";
  EXPECT_EQ(kk.second[S_FORCED], 0.0);
  EXPECT_EQ(cpu.second[S_LONGEST], kk.second[S_LONGEST]);
  EXPECT_LE(kk.second[S_LONGEST], 72.0);
  EXPECT_NEAR(cpu.second[S_MEAN], kk.second[S_MEAN], 1e-12 * cpu.second[S_MEAN]);
  EXPECT_LT(df, 1e-10);
}

TEST(KokkosJaeger, SmallCapacityMatchesCpuStyle)
{
  const Outcome cpu = run(MPI_COMM_WORLD, {}, " history/max 4");
  const Outcome kk = run(MPI_COMM_WORLD, kokkos_args(), " history/max 4");
  expect_same_physics(cpu, kk);
  EXPECT_EQ(kk.stats[S_LONGEST], 4.0);
  EXPECT_GT(kk.stats[S_FORCED], 100.0) << "the capacity should force merges";
  EXPECT_EQ(kk.stats[S_FORCED], kk.stats[S_MERGES])
      << "beta = 0: all merges are forced by the capacity";
  EXPECT_EQ(cpu.stats[S_MERGES], kk.stats[S_MERGES]) << "merges";
}

// work no in both styles: the same physics, and no friction dissipation reported
TEST(KokkosJaeger, WorkNoMatchesCpuStyle)
{
  const Outcome cpu = run(MPI_COMM_WORLD, {}, " work no");
  const Outcome kk = run(MPI_COMM_WORLD, kokkos_args(), ROOMY + " work no");
  expect_same_physics(cpu, kk, 1e-10, false);
  EXPECT_EQ(cpu.pvector[2], 0.0) << "friction dissipation with work no";
  EXPECT_EQ(kk.pvector[2], 0.0) << "friction dissipation with work no";
  EXPECT_GT(kk.pvector[1], 0.0) << "stored tangential energy";
}

// restitution damping: the effective mass comes from the device's copy of the masses (the
// collisions are less damped than with the other tests' dashpots: longer stacks, more room)
TEST(KokkosJaeger, RestitutionDampingAsCpuStyle)
{
  const Outcome cpu = run(MPI_COMM_WORLD, {}, "", "restitution 0.6 0.4");
  const Outcome kk = run(MPI_COMM_WORLD, kokkos_args(), " history/max 64", "restitution 0.6 0.4");
  expect_same_physics(cpu, kk);
  EXPECT_GT(cpu.pvector[3], 0.0) << "damping dissipation";
}

// restitution damping against a particle held by fix freeze (it counts as infinitely heavy)
TEST(KokkosJaeger, RestitutionAgainstAFrozenParticleAsCpuStyle)
{
  expect_frozen_restitution_as_cpu_style("gran/jaeger", "1e7 0.3 0.5");
}

/* the dashpots' limits in the Kokkos style as in the CPU style: limit_damping, and damping_cap
   no (the default, the cap, is in every other comparison); and the sphere of the incline test
   slides down the frozen sphere at g (sin - mu cos) with tangential damping (incline.h) */
TEST(KokkosJaeger, DashpotLimitsAsCpuStyle)
{
  for (const std::string keywords : {" limit_damping", " damping_cap no"}) {
    const Outcome cpu = run(MPI_COMM_WORLD, {}, keywords, "restitution 0.6 0.4");
    const Outcome kk =
        run(MPI_COMM_WORLD, kokkos_args(), " history/max 64" + keywords, "restitution 0.6 0.4");
    expect_same_physics(cpu, kk);
  }
  for (const std::string damping : {"restitution 0.3 1", "damping 5 0.05"}) {
    const InclineRun r = run_incline({"jaeger", false, 70.0, damping, ""}, kokkos_args());
    const double expected = incline_acceleration(70.0);
    for (double a : r.a) EXPECT_NEAR(a, expected, 1e-4 * expected) << damping;
  }
}

// pair_write cannot tabulate a force with history
TEST(KokkosJaeger, PairWriteIsRefused)
{
  expect_pair_write_refused(kokkos_args(), "gran/jaeger/kk",
                            {"pair_style gran/jaeger", "pair_coeff * * 1e7 0.3 0.5"});
}

// restitution damping refuses rigid bodies (their effective mass is not the particles')
TEST(KokkosJaeger, RestitutionRefusesRigidBodies)
{
  expect_restitution_refuses_rigid_bodies(
      kokkos_args(), "Pair gran/jaeger/kk",
      {"pair_style gran/jaeger", "pair_coeff * * 1e7 0.3 0.5 {}"});
}

TEST(KokkosJaeger, ThreadCountDoesNotMatter)
{
  compare_with_one_thread(run(MPI_COMM_WORLD, kokkos_args(), ROOMY), thread_file(),
                          "kokkos.test_kokkos_jaeger.t1");
}

// with dashpots: a run continues from a restart file written during it to round-off
TEST(KokkosJaeger, DashpotsContinueFromARestartFile)
{
  expect_dashpots_continue_from_a_restart_file(
      {"pair_style gran/jaeger", "pair_coeff * * 1e7 0.3 0.5 restitution 0.7 0.5"},
      "kokkos_jaeger_dashpots");
}

// N + M steps straight = N steps, write_restart, M steps = read_restart, M steps (no
// damping: a restart file does not hold the half-step velocities it needs), with the
// default capacity. A restart file of another capacity is refused with a clear error.
namespace {
void expect_restart_continuity(const std::string &coeff)
{
  const std::string file =
      std::string(DEMC_TEST_OUTPUT_DIR) + "/kokkos_jaeger_restart_t" + threads() + ".bin";
  const auto input = dense_packing_input({"pair_style gran/jaeger", "pair_coeff * * " + coeff}, false);
  auto with = [&](std::vector<std::string> extra) {
    auto v = input;
    v.insert(v.end(), extra.begin(), extra.end());
    return v;
  };
  const std::vector<std::string> resume = {"read_restart " + file, "neighbor 0.0003 bin",
                                           "neigh_modify delay 0", "fix integrate all nve/sphere",
                                           "timestep 1e-5"};
  PerAtom straight, written, resumed;
  double longest = 0.0;
  {
    LammpsSession s(MPI_COMM_WORLD, kokkos_args());
    s.load_plugin();
    s.commands(with({"run 150", "run 50"}));
    straight = s.forces();
    longest = history_stats(s)[S_LONGEST];
  }
  {
    LammpsSession s(MPI_COMM_WORLD, kokkos_args());
    s.load_plugin();
    s.commands(with({"run 150", "write_restart " + file, "run 50"}));
    written = s.forces();
  }
  {
    LammpsSession s(MPI_COMM_WORLD, kokkos_args());
    s.load_plugin();
    s.commands(resume);
    s.command("run 50");
    resumed = s.forces();
  }
  PerAtom at_restart, shortened;
  double shortened_longest = 0.0;
  {
    LammpsSession s(MPI_COMM_WORLD, kokkos_args());
    s.load_plugin();
    s.commands(resume);
    s.command("run 0");
    at_restart = s.forces();
  }
  {
    // a smaller history/max: the longer histories are shortened by the kernel's merges, which
    // keep the force (as gran/jaeger and the walls shorten theirs), and the run goes on
    LammpsSession s(MPI_COMM_WORLD, kokkos_args());
    s.load_plugin();
    s.commands(resume);
    s.commands({"pair_style gran/jaeger history/max 4", "run 0"});
    shortened = s.forces();
    shortened_longest = history_stats(s)[S_LONGEST];
    s.command("run 5");
  }
  EXPECT_EQ(shortened_longest, 4.0);
  EXPECT_LT(max_relative_difference(at_restart, shortened), 1e-12)
      << "shortening a history changed its force";
  std::remove(file.c_str());
  const double dw = max_relative_difference(straight, written);
  const double dr = max_relative_difference(straight, resumed);
  printf("[ measured ] restart: write_restart between runs %.3g, read_restart %.3g (longest stack "
         "%g)\n",
         dw, dr, longest);
  EXPECT_GT(longest, 8.0);
  EXPECT_LT(dw, 1e-10) << coeff << ": write_restart between runs changed the run";
  EXPECT_LT(dr, 1e-10) << coeff << ": the run resumed from the restart file differs";
}
}    // namespace

TEST(KokkosJaeger, RestartContinuity)
{
  expect_restart_continuity("1e7 0.3 0.5");
}

/* a restart file read with both a smaller history/max and other coefficients (E x 0.2, mu 0.5
   -> 0.3: the smaller friction cone makes the order matter, 0.37 of the forces): each
   longer history is shortened with the material it was made with, then moved to the new one,
   by both styles (gran/jaeger/kk has no room for the longer history, so it shortens it as it
   reads it); the forces at run 0 and 20 steps on are the CPU style's */
TEST(KokkosJaeger, ShorterHistoriesAndNewCoefficientsThroughRestartAsCpuStyle)
{
  // each style reads its own file (of the same run: as the CPU style's to 1e-12)
  double longest = 0.0;
  auto resumed = [&](const std::vector<std::string> &args) {
    const std::string file = std::string(DEMC_TEST_OUTPUT_DIR) + "/kokkos_jaeger_shorter_" +
        (args.empty() ? "cpu" : "kk") + "_t" + threads() + ".bin";
    {
      LammpsSession s(MPI_COMM_WORLD, args);
      s.load_plugin();
      s.commands(
          dense_packing_input({"pair_style gran/jaeger", "pair_coeff * * 1e7 0.3 0.5"}, false));
      s.commands({"run 150", "write_restart " + file});
      longest = history_stats(s)[S_LONGEST];
    }
    LammpsSession s(MPI_COMM_WORLD, args);
    s.load_plugin();
    s.commands({"read_restart " + file, "neighbor 0.0003 bin", "neigh_modify delay 0",
                "fix integrate all nve/sphere", "timestep 1e-5",
                "pair_style gran/jaeger history/max 4", "pair_coeff * * 2e6 0.3 0.3", "run 0"});
    const PerAtom at_start = s.forces();
    s.command("run 20");
    std::remove(file.c_str());
    return std::make_pair(at_start, s.forces());
  };
  const auto cpu = resumed({}), kk = resumed(kokkos_args());
  const double d0 = max_relative_difference(cpu.first, kk.first),
               d20 = max_relative_difference(cpu.second, kk.second);
  printf("[ measured ] shorter histories (longest %g -> 4), E x 0.2 and mu 0.3 through a restart: "
         "kk vs cpu %.3g at run 0, %.3g 20 steps on\n",
         longest, d0, d20);
  EXPECT_GT(longest, 8.0);
  EXPECT_LT(d0, 1e-10);
  EXPECT_LT(d20, 1e-10);
}

// with rolling and twisting: the records' resistance slots through the file, the pools (small
// and big records) and the shortening to a smaller history/max
TEST(KokkosJaeger, RestartContinuityWithRolling)
{
  expect_restart_continuity("1e7 0.3 0.5 damping 0.002 0.001 rolling sds 2.0e3 0.01 0.1 twisting "
                            "marshall");
}

/* the packing with rolling and twisting (the dashpots too): the physics of the CPU style, with
   small and big records (history/max 48: with rolling a stack reached 24 in these 100 steps) */
TEST(KokkosJaeger, RollingMatchesCpuStyle)
{
  const std::string damping =
      "damping 0.002 0.001 rolling sds 2.0e3 0.01 0.1 twisting marshall";
  const Outcome cpu = run(MPI_COMM_WORLD, {}, "", damping);
  const Outcome kk = run(MPI_COMM_WORLD, kokkos_args(), " history/max 48", damping);
  expect_same_physics(cpu, kk);
  expect_consistent_tallies(kk);
  EXPECT_EQ(kk.stats[S_FORCED], 0.0) << "a stack reached the capacity";
  EXPECT_GT(kk.stats[S_LONGEST], 8.0) << "big records";
}

// 18 contacts per atom (every face and edge neighbor of the lattice overlaps): more
// partners per atom than fix neigh/history/kk's initial room for 8 (FixNeighHistoryDemcKokkos
// makes room). Two runs (all records handed over at the run boundary) and atom sorting every
// 5 steps; a small capacity keeps the slots small.
TEST(KokkosJaeger, MoreThanEightContactsPerAtom)
{
  auto dense = [](const std::vector<std::string> &args) {
    LammpsSession s(MPI_COMM_WORLD, args);
    s.load_plugin();
    s.commands(dense_packing_input(pair_lines(" history/max 6"), false));
    s.commands({"set group all diameter 0.0028", "atom_modify sort 5 0.0",
                "compute e all pair gran/jaeger", "thermo_style custom step pe c_e[*]", "run 15",
                "run 15"});
    Outcome o;
    o.forces = s.forces();
    o.torques = s.torques();
    o.pvector = s.pair_extra();
    o.stats = history_stats(s);
    return o;
  };
  const Outcome cpu = dense({}), kk = dense(kokkos_args());
  const double df = max_relative_difference(cpu.forces, kk.forces);
  const double dt = max_relative_difference(cpu.torques, kk.torques);
  const double de = relative(cpu.pvector[1], kk.pvector[1]);
  printf("[ measured ] 18 contacts per atom: forces %.3g torques %.3g tangential energy %.3g\n",
         df, dt, de);
  EXPECT_GT(cpu.pvector[4], 4000.0);    // 9 contacts per atom
  EXPECT_LT(df, 1e-10);
  EXPECT_LT(dt, 1e-10);
  EXPECT_LT(de, 1e-10);
  EXPECT_EQ(cpu.stats[S_MERGES], kk.stats[S_MERGES]);
}

/* Records are kept for contacts, not for neighbor-list entries, and sized to their
   histories: a 5x larger neighbor skin (the list grows several times) leaves the record
   memory per record (value 4 of the history fix's vector) as it is, and it stays within
   twice the CPU style's arena per record in the same run (the earlier design kept a record
   of history/max points in every neighbor slot and every partner slot of every atom: 40x). */
TEST(KokkosJaeger, MemoryPerContactDoesNotFollowTheNeighborList)
{
  auto stats_with = [](const std::vector<std::string> &args, const std::string &skin) {
    LammpsSession s(MPI_COMM_WORLD, args);
    s.load_plugin();
    s.commands(dense_packing_input(pair_lines(""), false));
    s.commands({"neighbor " + skin + " bin", "run 40"});
    return history_stats(s);
  };
  const auto near = stats_with(kokkos_args(), "0.0003"), far = stats_with(kokkos_args(), "0.0015");
  const auto cpu = stats_with({}, "0.0003");
  printf("[ measured ] bytes per record: skin 0.0003 %.0f (%g records), skin 0.0015 %.0f (%g "
         "records); CPU style %.0f (%g records)\n",
         near[S_BYTES], near[S_CONTACTS], far[S_BYTES], far[S_CONTACTS], cpu[S_BYTES],
         cpu[S_CONTACTS]);
  EXPECT_GT(near[S_CONTACTS], 500.0);
  EXPECT_GT(far[S_CONTACTS], 500.0);
  EXPECT_EQ(near[S_CONTACTS], cpu[S_CONTACTS]);
  EXPECT_LT(far[S_BYTES], 1.3 * near[S_BYTES]);
  EXPECT_LT(near[S_BYTES], 2.0 * cpu[S_BYTES]);
}

/* Between re-neighborings the records of contacts that part (and the small records that a
   history leaves for a big one) serve the contacts that open later, as the CPU style's arena
   recycles its records through free lists: in the packing released from its overlaps, with
   the neighbor list rebuilt every 200 steps only (a wide skin), most first contacts part and
   new ones open within the list's life, and the record memory per record stays within twice
   the CPU style's (with a new record for every new contact: 3.0 times), forces as the CPU
   style's. */
TEST(KokkosJaeger, FreedRecordsServeNewContacts)
{
  auto churn = [](const std::vector<std::string> &args) {
    LammpsSession s(MPI_COMM_WORLD, args);
    s.load_plugin();
    s.commands(dense_packing_input(pair_lines(""), false));
    s.commands({"neighbor 0.002 bin", "neigh_modify every 200 delay 0 check no", "run 199"});
    Outcome o;
    o.forces = s.forces();
    o.torques = s.torques();
    o.stats = history_stats(s);
    o.neighbor_builds = s.lmp->neighbor->ncalls;
    return o;
  };
  const Outcome cpu = churn({}), kk = churn(kokkos_args());
  const double df = max_relative_difference(cpu.forces, kk.forces);
  const double dt = max_relative_difference(cpu.torques, kk.torques);
  printf("[ measured ] bytes per record after 199 steps of one neighbor list: Kokkos %.0f, CPU "
         "%.0f (%g records); forces %.3g torques %.3g\n",
         kk.stats[S_BYTES], cpu.stats[S_BYTES], kk.stats[S_CONTACTS], df, dt);
  EXPECT_EQ(kk.neighbor_builds, 0) << "the list of the run's setup only";
  EXPECT_GT(kk.stats[S_CONTACTS], 500.0);
  EXPECT_EQ(kk.stats[S_CONTACTS], cpu.stats[S_CONTACTS]);
  EXPECT_LT(kk.stats[S_BYTES], 2.0 * cpu.stats[S_BYTES]);
  EXPECT_LT(df, 1e-10);
  EXPECT_LT(dt, 1e-10);
}

/* The first setup of a moving packing finds the record pools without room for its contacts
   (they start with a few spare records): those contacts wait for the pools to grow and take
   their step then, still a setup's step (nothing moved since the last step): the forces and
   torques of run 0 are the CPU style's */
TEST(KokkosJaeger, ContactsWaitingAtSetupAreNotAdvanced)
{
  auto forces = [](const std::vector<std::string> &args) {
    LammpsSession s(MPI_COMM_WORLD, args);
    s.load_plugin();
    s.commands(dense_packing_input(pair_lines(ROOMY), false));
    s.command("run 0");
    return std::make_pair(s.forces(), s.torques());
  };
  const auto cpu = forces({}), kk = forces(kokkos_args());
  EXPECT_LT(max_relative_difference(cpu.first, kk.first), 1e-12);
  EXPECT_LT(max_relative_difference(cpu.second, kk.second), 1e-12);
}

// pair_coeff changed between runs (E x 0.2, then mu 0.5 -> 0.1): the Kokkos style moves its
// records to the new material in its pair loop as the CPU style does in a pass of its own
TEST(KokkosJaeger, ChangedCoefficientsAsCpuStyle)
{
  // forces, and the friction dissipation (the work the changes did booked apart from it)
  auto outcome = [](const std::vector<std::string> &args) {
    LammpsSession s(MPI_COMM_WORLD, args);
    s.load_plugin();
    s.commands(dense_packing_input(pair_lines(ROOMY), false));
    s.commands({"compute e all pair gran/jaeger", "thermo_style custom step c_e[3]",
                "thermo_modify norm no", "run 100",
                "pair_coeff * * 2e6 0.3 0.5 damping 0.002 0.001", "run 10",
                "pair_coeff * * 2e6 0.3 0.1 damping 0.002 0.001", "run 10"});
    return std::make_pair(s.forces(), s.lmp->modify->get_compute_by_id("e")->vector[2]);
  };
  const auto cpu = outcome({}), kk = outcome(kokkos_args());
  EXPECT_LT(max_relative_difference(cpu.first, kk.first), 1e-10);
  EXPECT_GT(cpu.second, 0.0);
  EXPECT_LT(relative(cpu.second, kk.second), 1e-10);
}

// atoms changed type between runs (type 1 -> 2, the materials 1e7/0.5 and 2e6/0.1 mixed in 1-2
// pairs before): the Kokkos style moves each record to its new type pair's material, as the CPU
// style does (GranJaeger.ChangedTypesMoveTheHistories has the oracle)
TEST(KokkosJaeger, ChangedTypesAsCpuStyle)
{
  auto outcome = [](const std::vector<std::string> &args) {
    LammpsSession s(MPI_COMM_WORLD, args);
    s.load_plugin();
    s.commands(dense_packing_input({"pair_style gran/jaeger" + ROOMY,
                                    "pair_coeff 1 1 1e7 0.3 0.5 damping 0.002 0.001",
                                    "pair_coeff 2 2 2e6 0.3 0.1 damping 0.002 0.001"},
                                   false));
    s.commands({"compute e all pair gran/jaeger", "thermo_style custom step c_e[3]",
                "thermo_modify norm no", "run 100", "set group all type 2", "run 0"});
    auto first = s.forces();
    s.command("run 10");
    return std::make_tuple(first, s.forces(), s.lmp->modify->get_compute_by_id("e")->vector[2]);
  };
  const auto cpu = outcome({}), kk = outcome(kokkos_args());
  EXPECT_LT(max_relative_difference(std::get<0>(cpu), std::get<0>(kk)), 1e-10);
  EXPECT_LT(max_relative_difference(std::get<1>(cpu), std::get<1>(kk)), 1e-10);
  EXPECT_GT(std::get<2>(cpu), 0.0);
  EXPECT_LT(relative(std::get<2>(cpu), std::get<2>(kk)), 1e-10);
}

// the same through a restart file: the Kokkos style reads the histories' materials from it
// and moves its records; at run 0 after E x 0.2 every force is 0.2 of what it was (without
// dashpots: a run's setup repeats each contact's last dashpot force, made with the old E)
TEST(KokkosJaeger, ChangedCoefficientsThroughRestart)
{
  const std::string file =
      std::string(DEMC_TEST_OUTPUT_DIR) + "/kokkos_jaeger_changed_t" + threads() + ".bin";
  PerAtom before;
  {
    LammpsSession s(MPI_COMM_WORLD, kokkos_args());
    s.load_plugin();
    s.commands(dense_packing_input({"pair_style gran/jaeger" + ROOMY, "pair_coeff * * 1e7 0.3 0.5"},
                                   false));
    s.commands({"run 100", "run 0"});
    before = s.forces();
    s.command("write_restart " + file);
  }
  LammpsSession s(MPI_COMM_WORLD, kokkos_args());
  s.load_plugin();
  s.commands({"newton off", "read_restart " + file, "neighbor 0.0003 bin", "neigh_modify delay 0",
              "fix integrate all nve/sphere", "timestep 1e-5", "pair_coeff * * 2e6 0.3 0.5",
              "run 0"});
  for (auto &f : before)
    for (double &c : f) c *= 0.2;
  EXPECT_LT(max_relative_difference(before, s.forces()), 1e-12);
  std::remove(file.c_str());
}

TEST(KokkosJaeger, UnsupportedSettingsGiveClearErrors)
{
  struct Case {
    std::vector<std::string> args;
    bool newton;
    std::string style_args, expected;
  };
  const std::vector<Case> cases = {
      {{"-k", "on", "t", threads(), "-sf", "kk", "-pk", "kokkos", "neigh", "half"},
       true,
       "",
       "requires newton off"},
      {{"-k", "on", "t", threads(), "-sf", "kk", "-pk", "kokkos", "neigh", "full", "newton", "off"},
       false,
       "",
       "requires a half neighbor list"},
      {kokkos_args(), false, " energy/atom yes", "does not keep per-atom energies"},
  };
  for (const auto &c : cases) {
    LammpsSession s(MPI_COMM_WORLD, c.args);
    s.load_plugin();
    s.commands(dense_packing_input(pair_lines(c.style_args + " history/max 4"), c.newton));
    const std::string msg = error_of(s, "run 0");
    EXPECT_NE(msg.find(c.expected), std::string::npos) << "newton " << c.newton << ": " << msg;
  }
  // records of room for two billion points overflow an int (and used to end the program:
  // LAMMPS cannot clean up a history fix whose constructor failed)
  {
    LammpsSession s(MPI_COMM_WORLD, kokkos_args());
    s.load_plugin();
    s.commands(dense_packing_input(pair_lines(" history/max 2000000000"), false));
    const std::string msg = error_of(s, "run 0");
    EXPECT_NE(msg.find("too large to index"), std::string::npos) << msg;
  }
  // the capacity is the size of a slot of fix neigh/history/kk: fixed once histories exist
  LammpsSession s(MPI_COMM_WORLD, kokkos_args());
  s.load_plugin();
  s.commands(dense_packing_input(pair_lines(" history/max 4"), false));
  s.commands({"run 10", "pair_style gran/jaeger history/max 8"});
  const std::string msg = error_of(s, "run 10");
  EXPECT_NE(msg.find("history/max cannot change"), std::string::npos) << msg;
}

// under mpirun -np 2: the Kokkos style on 2 ranks against the CPU style and the Kokkos
// style on 1 rank (sub-communicator of rank 0)
TEST(KokkosJaegerMpi, TwoRanksMatchSerial)
{
  int world, me;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (world < 2) GTEST_SKIP() << "needs 2 MPI ranks";
  Outcome cpu1, kk1, kk2;
  with_first_ranks(1, [&](MPI_Comm comm) {
    cpu1 = run(comm, {}, "");
    kk1 = run(comm, kokkos_args(), ROOMY);
  });
  with_first_ranks(2, [&](MPI_Comm comm) { kk2 = run(comm, kokkos_args(), ROOMY); });
  if (me != 0) return;
  EXPECT_EQ(kk2.stats[S_FORCED], 0.0);
  expect_two_ranks_agree(cpu1, kk1, kk2);
}

// the wall fixes run on the host next to the Kokkos pair style (a turning and a translating wall)
TEST(KokkosJaeger, WallFixesAsWithCpuStyle)
{
  expect_walls_as_cpu_style(pair_lines(ROOMY), "wall/gran/jaeger 2e7 0.25 0.4 damping 0.002 0.001");
}

TEST(KokkosJaeger, DeleteAtomsKeepsHistoriesOrStops)
{
  expect_delete_atoms_handled(pair_lines(""));
}

// the same on 2 ranks: partners owned by the other process
TEST(KokkosJaegerMpi, NewAtomWithADeletedAtomsIdAsCpuStyle)
{
  expect_reused_id_as_cpu_style(pair_lines(""));
}

// balance between runs moves atoms and their saved histories to the other process
TEST(KokkosJaegerMpi, BalanceBetweenRunsAsCpuStyle)
{
  expect_balance_as_cpu_style(pair_lines(""));
}
