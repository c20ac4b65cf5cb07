/* Layer (c): run under mpirun. The same dense, colliding packing is run on
   sub-communicators of 1, 2 and 4 ranks (as many as the launch provides) in one
   job; per-atom forces and torques after 200 steps must agree to 1e-9 of the
   largest value (LAMMPS's own noise floor between rank counts is ~2e-11). */
#include "lammps_session.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>

using namespace demc_test;

namespace {

struct Outcome {
  PerAtom forces, torques;
};

// run the input on the first `nranks` ranks of the world; results valid on world rank 0
Outcome run_on(int nranks, const std::vector<std::string> &input, int steps)
{
  Outcome out;
  on_first_ranks(nranks, [&](LammpsSession &s) {
    s.commands(input);
    s.command("run " + std::to_string(steps));
    out.forces = s.forces();
    out.torques = s.torques();
  });
  return out;
}

void expect_rank_invariant(const std::vector<std::string> &pair_lines, bool newton)
{
  int world, me;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  const auto input = dense_packing_input(pair_lines, newton);
  const Outcome serial = run_on(1, input, 200);
  for (int n : {2, 4}) {
    if (n > world) continue;
    const Outcome par = run_on(n, input, 200);
    if (me == 0) {
      EXPECT_LT(max_relative_difference(serial.forces, par.forces), 1e-9) << n << " ranks";
      EXPECT_LT(max_relative_difference(serial.torques, par.torques), 1e-9) << n << " ranks";
    }
  }
  if (me == 0) {
    // the run must have produced contacts, or the comparison proves nothing
    double largest = 0.0;
    for (const auto &f : serial.forces)
      largest = std::max({largest, std::fabs(f[0]), std::fabs(f[1])});
    EXPECT_GT(largest, 0.0);
  }
}

}    // namespace

TEST(RankInvariance, HookeHistoryNewtonOn)
{
  expect_rank_invariant(
      {"pair_style gran/hooke/history 2.0e3 NULL 50.0 NULL 0.5 1", "pair_coeff * *"}, true);
}

TEST(RankInvariance, HookeHistoryNewtonOff)
{
  expect_rank_invariant(
      {"pair_style gran/hooke/history 2.0e3 NULL 50.0 NULL 0.5 1", "pair_coeff * *"}, false);
}

TEST(RankInvariance, GranKuhnNewtonOn)
{
  expect_rank_invariant(
      {"pair_style gran/kuhn", "pair_coeff * * 2.0e3 2.0e3 0.5 damping 0.002 0.001"}, true);
}

TEST(RankInvariance, GranKuhnNewtonOff)
{
  expect_rank_invariant(
      {"pair_style gran/kuhn", "pair_coeff * * 2.0e3 2.0e3 0.5 damping 0.002 0.001"}, false);
}

TEST(RankInvariance, GranJaegerNewtonOn)
{
  expect_rank_invariant(
      {"pair_style gran/jaeger", "pair_coeff * * 1e7 0.3 0.5 damping 0.002 0.001"}, true);
}

TEST(RankInvariance, GranJaegerNewtonOff)
{
  expect_rank_invariant(
      {"pair_style gran/jaeger", "pair_coeff * * 1e7 0.3 0.5 damping 0.002 0.001"}, false);
}

TEST(RankInvariance, GranJaegerBoundedHistory)
{
  expect_rank_invariant(
      {"pair_style gran/jaeger beta 0.1 history/max 6", "pair_coeff * * 1e7 0.3 0.5"}, true);
}

// per-atom energies of contacts across rank boundaries (ghost shares sent to their owners
// with newton on) still sum to the system's energies
TEST(RankInvariance, PerAtomEnergiesAcrossRanks)
{
  for (bool newton : {true, false})
    for (const std::string style : {"gran/kuhn", "gran/jaeger"}) {
      const std::string coeff = style == "gran/kuhn"
          ? "pair_coeff * * 2.0e3 2.0e3 0.5 damping 0.002 0.001"
          : "pair_coeff * * 1e7 0.3 0.5 damping 0.002 0.001";
      LammpsSession s;
      s.load_plugin();
      s.commands(dense_packing_input({"pair_style " + style + " energy/atom yes", coeff}, newton));
      s.commands(energy_computes(style));
      s.command("run 200");
      std::string id = "DEMC_" + style + "_HISTORY0";
      for (char &ch : id) ch = (ch == '/') ? '_' : (char) toupper(ch);
      const double mismatch = atom_energy_mismatch(s, id);
      int me;
      MPI_Comm_rank(MPI_COMM_WORLD, &me);
      if (me == 0) EXPECT_LT(mismatch, 1e-10) << style << " newton " << newton;
    }
}
