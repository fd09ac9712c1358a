// Always-on invariant checks: report and abort all ranks.
#include "core/error.hpp"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>

#include "core/log.hpp"

namespace scfd {

std::string printable(std::string_view text, std::size_t max) {
  std::string out;
  for (std::size_t i = 0; i < text.size() && i < max; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n')
      out += "\\n";
    else if (c == '\t')
      out += "\\t";
    else if (c < 0x20 || c == 0x7f)
      out += fmt::format("\\x{:02x}", c);
    else
      out += static_cast<char>(c);
  }
  if (text.size() > max) out += fmt::format("... ({} characters)", text.size());
  return out;
}

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
