/* Layer (c): pair_style gran/coulomb under mpirun. The dense, colliding packing of the other
   styles' rank-invariance test on sub-communicators of 1, 2 and 4 ranks:
   - the direct treatment decides every contact from the same forces on any decomposition:
     forces and torques after 200 steps agree to 1e-9 (newton on and off);
   - with iterate, the global sweeps update all contacts from the previous sweep's forces
     (Jacobi), but the local relaxation takes each rank's contacts one by one (Gauss-Seidel, in
     the order of their particles' IDs), so the iterates depend on the decomposition, and on the
     atoms' order through the sums' round-off; every run stops
     within the same tolerance (no force would change by 1e-10 of the largest mu F_N), after 50
     steps they agree to ITERATED_AGREEMENT (derived below), on 2 and 4 ranks, with newton on
     and off, and on one rank with the atoms sorted every 7 steps or never;
   - each run's last step: the direct treatment makes one pass, the iterated solver reaches its
     tolerance below the sweep cap. */
#include "lammps_session.h"

#include "atom.h"
#include "force.h"
#include "lammps.h"
#include "pair.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace demc_test;

namespace {

/* Iterated runs stop anywhere within the tolerance (1e-10 of the largest mu F_N): two runs
   relax other sets of contacts, and their sweeps may stop at different counts, or take
   a restart or a backtrack of the momentum on either side of a sum that is zero to round-off.
   Each of an atom's contacts (up to 12) then differs by about the tolerance (the residual bounds each
   contact's own step, not the distance to the exact forces: an estimate, not a bound), so its
   friction total by 12 x 0.5 x 1e-10 = 6e-10 of the largest force (at least the largest F_N)
   at each step. Such a difference grows with the packing's collisions: the direct runs
   (decided from the same forces) turn round-off into 4e-12 over 200 steps, (4e4)^(1/4), about
   14, over the 50 steps here. Hence about 8e-9, rounded to 1e-8. */
const double ITERATED_AGREEMENT = 1e-8;

struct Outcome {
  PerAtom forces, torques;
  double sweeps = 0.0, residual = 0.0;    // of the last step
};

Outcome run_on(int nranks, const std::vector<std::string> &input, int steps)
{
  Outcome out;
  on_first_ranks(nranks, [&](LammpsSession &s) {
    s.commands(input);
    s.command("run " + std::to_string(steps));
    out.forces = s.forces();
    out.torques = s.torques();
    out.sweeps = s.pair_extra()[6];
    out.residual = s.pair_extra()[7];
  });
  return out;
}

// the solver's report of the serial run's last step: direct, one pass; iterated, converged
void expect_solver_report(const Outcome &serial, double tolerance, int cap)
{
  if (tolerance == 0.0) {
    EXPECT_EQ(serial.sweeps, 1.0);
    return;
  }
  EXPECT_LE(serial.residual, tolerance);
  EXPECT_LT(serial.sweeps, cap);
}

/* The run of `style` on 1 rank against 2 and 4: forces and torques after `steps` steps agree
   to `agreement` of the largest; solver_tolerance and cap: iterate's (0: direct). */
void expect_rank_invariant(const std::string &style, bool newton, double agreement, int steps,
                           double solver_tolerance = 0.0, int cap = 0,
                           const std::string &coeff_extra = "")
{
  int world, me;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  const auto input = dense_packing_input(
      {style, "pair_coeff * * hooke 2.0e3 0.5 damping 0.002 0" + coeff_extra}, newton);
  const Outcome serial = run_on(1, input, steps);
  for (int n : {2, 4}) {
    if (n > world) continue;
    const Outcome par = run_on(n, input, steps);
    if (me == 0) {
      std::printf("[ ranks    ] %s, %d ranks: forces differ by %.1e, torques by %.1e\n",
                  style.c_str(), n, max_relative_difference(serial.forces, par.forces),
                  max_relative_difference(serial.torques, par.torques));
      EXPECT_LT(max_relative_difference(serial.forces, par.forces), agreement) << n << " ranks";
      EXPECT_LT(max_relative_difference(serial.torques, par.torques), agreement) << n << " ranks";
      expect_solver_report(par, solver_tolerance, cap);
    }
  }
  if (me == 0) {
    double largest = 0.0;
    for (const auto &f : serial.torques)
      largest = std::max({largest, std::fabs(f[0]), std::fabs(f[1])});
    EXPECT_GT(largest, 0.0) << "the friction must have acted";
    expect_solver_report(serial, solver_tolerance, cap);
  }
}

}    // namespace

TEST(CoulombRankInvariance, DirectNewtonOn)
{
  expect_rank_invariant("pair_style gran/coulomb", true, 1e-9, 200);
}

TEST(CoulombRankInvariance, DirectNewtonOff)
{
  expect_rank_invariant("pair_style gran/coulomb", false, 1e-9, 200);
}

// with rolling and twisting resistance (their torques on ghost atoms, newton off: each rank
// computes a pair with a ghost and applies its own atom's share)
TEST(CoulombRankInvariance, DirectWithRollingAndTwistingNewtonOff)
{
  expect_rank_invariant("pair_style gran/coulomb", false, 1e-9, 200, 0.0, 0,
                        " rolling sds 2.0e3 0.01 0.1 twisting sds 1e-5 1e-10 3e-5");
}

/* Iterated: each run stops once its residual is within 1e-10 of the largest mu F_N, wherever
   the order of its contacts and relaxations led it. AGREEMENT: see above (derived from the
   tolerance, not from a measurement). */
TEST(CoulombRankInvariance, IteratedNewtonOn)
{
  expect_rank_invariant("pair_style gran/coulomb iterate 1e-10 300", true, ITERATED_AGREEMENT, 50,
                        1e-10, 300);
}

TEST(CoulombRankInvariance, IteratedNewtonOff)
{
  expect_rank_invariant("pair_style gran/coulomb iterate 1e-10 300", false, ITERATED_AGREEMENT, 50,
                        1e-10, 300);
}

/* The same run with the atoms (and so the contacts) in another order: atom_modify sort every
   7 steps against never, on one rank. The relaxation's order is the particles' IDs in both, but
   the sums' round-off differs, and a sweep count or a momentum restart decided on a sum that is
   zero to round-off parts the runs within the tolerance: the bound of the other ranks. */
TEST(CoulombRankInvariance, IteratedShuffledContacts)
{
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  auto input = dense_packing_input(
      {"pair_style gran/coulomb iterate 1e-10 300",
       "pair_coeff * * hooke 2.0e3 0.5 damping 0.002 0"},
      true);
  input.push_back("neigh_modify every 1 delay 0 check no");
  auto sorted = input, unsorted = input;
  sorted.push_back("atom_modify sort 7 0.005");
  unsorted.push_back("atom_modify sort 0 0.005");
  const Outcome a = run_on(1, sorted, 50), b = run_on(1, unsorted, 50);
  if (me != 0) return;
  std::printf("[ shuffle  ] forces differ by %.1e, torques by %.1e\n",
              max_relative_difference(a.forces, b.forces),
              max_relative_difference(a.torques, b.torques));
  EXPECT_LT(max_relative_difference(a.forces, b.forces), ITERATED_AGREEMENT);
  EXPECT_LT(max_relative_difference(a.torques, b.torques), ITERATED_AGREEMENT);
  expect_solver_report(a, 1e-10, 300);
  expect_solver_report(b, 1e-10, 300);
}
