/* main() for the tests that run LAMMPS: MPI is set up once for all tests;
   only rank 0 reports. */
#include <gtest/gtest.h>
#include <mpi.h>

#include "library.h"

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me != 0) {
    auto &listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  const int failed = RUN_ALL_TESTS();
  int any_failed = 0;
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (lammps_config_has_package("KOKKOS")) lammps_kokkos_finalize();
  MPI_Finalize();
  return any_failed;
}
