// main() for MPI test binaries (label mpi): initialises MPI, lets only rank 0 print GoogleTest's
// report, and fails the process on every rank if any rank failed, so `mpirun -np N test` exits
// non-zero exactly when a test failed somewhere.
#include <gtest/gtest.h>
#include <mpi.h>

#include "core/log.hpp"

int main(int argc, char** argv) {
  int provided = 0;  // as src/app/main.cpp: host threads beside the main thread's MPI calls
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  scfd::log::set_rank(rank);
  ::testing::InitGoogleTest(&argc, argv);
  if (rank != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  const int local = RUN_ALL_TESTS();
  int global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return global;
}
