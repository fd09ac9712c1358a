// Failures of one rank, recorded for the next agreement (see failure.hpp).
#include "core/failure.hpp"

#include <utility>

namespace scfd {
namespace {
std::string g_failure;
}

void record_failure(std::string message) {
  if (g_failure.empty()) g_failure = std::move(message);
}

std::string take_recorded_failure() {
  return std::exchange(g_failure, std::string());
}

}  // namespace scfd
