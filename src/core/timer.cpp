// Accumulating phase timers (see timer.hpp).
#include "core/timer.hpp"

namespace scfd {

void PhaseTimers::add(const std::string& phase, double seconds) {
  for (auto& [name, total] : phases_) {
    if (name == phase) {
      total += seconds;
      return;
    }
  }
  phases_.emplace_back(phase, seconds);
}

double PhaseTimers::get(const std::string& phase) const {
  for (const auto& [name, total] : phases_)
    if (name == phase) return total;
  return 0.0;
}

}  // namespace scfd
