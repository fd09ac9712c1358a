// Always-on invariant checks: report and abort all ranks.
#include "core/error.hpp"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>

#include "core/log.hpp"

namespace scfd {

void check_failed(const char* expr, const char* file, int line, const std::string& message) {
  std::fprintf(stderr, "streamcfd: internal check failed on rank %d: %s at %s:%d%s%s\n",
               log::rank(), expr, file, line, message.empty() ? "" : ": ", message.c_str());
  std::fflush(stderr);
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) MPI_Abort(MPI_COMM_WORLD, 3);
  std::abort();
}

}  // namespace scfd
