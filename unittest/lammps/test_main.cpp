/* main() for the tests that run LAMMPS: MPI is set up once for all tests;
   rank 0 reports, and the other ranks print only their failures. A test that fails on some
   ranks only (an error on one rank, an assertion that returns early) leaves the others waiting
   in a collective call of that test or of the next: instead of hanging until ctest's timeout,
   a rank whose test failed ends the job with MPI_Abort once its failure is printed. */
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>

#include "library.h"

namespace {

class AbortOnFailure : public ::testing::EmptyTestEventListener {
 public:
  explicit AbortOnFailure(int me) : me_(me) {}
  void OnTestPartResult(const ::testing::TestPartResult &result) override
  {
    if (me_ == 0 || !result.failed()) return;    // rank 0's printer shows its own
    std::fprintf(stderr, "rank %d: %s:%d: Failure\n%s\n", me_,
                 result.file_name() ? result.file_name() : "?", result.line_number(),
                 result.message());
  }
  void OnTestEnd(const ::testing::TestInfo &info) override
  {
    if (!info.result()->Failed()) return;
    std::fprintf(stderr, "rank %d: test %s.%s failed: MPI_Abort (the other ranks may wait)\n", me_,
                 info.test_suite_name(), info.name());
    std::fflush(stdout);
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }

 private:
  int me_;
};

}    // namespace

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  int me, nprocs;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  auto &listeners = ::testing::UnitTest::GetInstance()->listeners();
  if (me != 0) delete listeners.Release(listeners.default_result_printer());
  // on one rank nobody can wait for it: the run goes on and reports every failure
  if (nprocs > 1) listeners.Append(new AbortOnFailure(me));
  const int failed = RUN_ALL_TESTS();
  int any_failed = 0;
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (lammps_config_has_package("KOKKOS")) lammps_kokkos_finalize();
  MPI_Finalize();
  return any_failed;
}
