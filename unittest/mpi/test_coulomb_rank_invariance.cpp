/* Layer (c): pair_style gran/coulomb under mpirun. The dense, colliding packing of the other
   styles' rank-invariance test on sub-communicators of 1, 2 and 4 ranks:
   - the direct treatment decides every contact from the same forces on any decomposition:
     forces and torques after 200 steps agree to 1e-9 (newton on and off);
   - with iterate, the sweeps run Gauss-Seidel within a rank and exchange forces between ranks,
     so the order of the contacts differs with the decomposition; every decomposition stops
     within the same tolerance (no force would change by 1e-10 of the largest mu F_N): after
     50 steps they agree to 1e-7 (measured: 7e-10 forces, 8e-10 torques; the direct treatment
     4e-12). */
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

struct Outcome {
  PerAtom forces, torques;
  double sweeps = 0.0;
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
  });
  return out;
}

void expect_rank_invariant(const std::string &style, bool newton, double tolerance, int steps)
{
  int world, me;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  const auto input =
      dense_packing_input({style, "pair_coeff * * hooke 2.0e3 0.5 damping 0.002 0"}, newton);
  const Outcome serial = run_on(1, input, steps);
  for (int n : {2, 4}) {
    if (n > world) continue;
    const Outcome par = run_on(n, input, steps);
    if (me == 0) {
      std::printf("[ ranks    ] %s, %d ranks: forces differ by %.1e, torques by %.1e\n",
                  style.c_str(), n, max_relative_difference(serial.forces, par.forces),
                  max_relative_difference(serial.torques, par.torques));
      EXPECT_LT(max_relative_difference(serial.forces, par.forces), tolerance) << n << " ranks";
      EXPECT_LT(max_relative_difference(serial.torques, par.torques), tolerance) << n << " ranks";
    }
  }
  if (me == 0) {
    double largest = 0.0;
    for (const auto &f : serial.torques)
      largest = std::max({largest, std::fabs(f[0]), std::fabs(f[1])});
    EXPECT_GT(largest, 0.0) << "the friction must have acted";
    EXPECT_GE(serial.sweeps, 1.0);
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

TEST(CoulombRankInvariance, IteratedNewtonOn)
{
  expect_rank_invariant("pair_style gran/coulomb iterate 1e-10 300", true, 1e-7, 50);
}
