// Accumulating phase timers (see timer.hpp).
#include "core/timer.hpp"

#include <mutex>
#include <utility>

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
std::mutex part_mutex;  // guards part_seconds
SetupPartSeconds part_seconds;
thread_local SetupPart* innermost_part = nullptr;  // the part timing now on this thread
thread_local bool beside = false;                  // this thread runs beside the set-up's

void add_part_seconds(Part p, double seconds) {
  const std::scoped_lock lock(part_mutex);
  part_seconds.total[static_cast<std::size_t>(p)] += seconds;
  if (beside) part_seconds.beside[static_cast<std::size_t>(p)] += seconds;
}
}  // namespace

const char* name(Part p) {
  static constexpr std::array<const char*, kParts> names = {
      "geometry",    "edge_star",       "face_mass", "projection_mass", "mass_curl",
      "face_blocks", "pressure_matrix", "multigrid", "device_mesh",     "device_matrices"};
  return names[static_cast<std::size_t>(p)];
}

SetupPartSeconds take_setup_parts() {
  const std::scoped_lock lock(part_mutex);
  return std::exchange(part_seconds, SetupPartSeconds{});
}

SetupBeside::SetupBeside() {
  beside = true;
}

SetupBeside::~SetupBeside() {
  beside = false;
}

SetupPart::SetupPart(Part part) : part_(part), outer_(innermost_part) {
  if (outer_ != nullptr) add_part_seconds(outer_->part_, outer_->timer_.seconds());
  innermost_part = this;
}

SetupPart::~SetupPart() {
  add_part_seconds(part_, timer_.seconds());
  innermost_part = outer_;
  if (outer_ != nullptr) outer_->timer_.reset();
}

}  // namespace scfd
