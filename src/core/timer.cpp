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

namespace {
std::array<double, kParts> part_seconds{};
SetupPart* innermost_part = nullptr;  // the part timing now; the set-up's thread only
}  // namespace

const char* name(Part p) {
  static constexpr std::array<const char*, kParts> names = {
      "geometry",    "edge_star",       "face_mass", "projection_mass", "mass_curl",
      "face_blocks", "pressure_matrix", "multigrid", "device_mesh",     "device_matrices"};
  return names[static_cast<std::size_t>(p)];
}

std::array<double, kParts> take_setup_parts() {
  const std::array<double, kParts> out = part_seconds;
  part_seconds.fill(0);
  return out;
}

SetupPart::SetupPart(Part part) : part_(part), outer_(innermost_part) {
  if (outer_ != nullptr)
    part_seconds[static_cast<std::size_t>(outer_->part_)] += outer_->timer_.seconds();
  innermost_part = this;
}

SetupPart::~SetupPart() {
  part_seconds[static_cast<std::size_t>(part_)] += timer_.seconds();
  innermost_part = outer_;
  if (outer_ != nullptr) outer_->timer_.reset();
}

}  // namespace scfd
