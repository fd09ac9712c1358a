// Wall-clock timers. PhaseTimers accumulates seconds per named phase (read mesh, topology,
// solve, output...) for progress lines and the JSON run summary; ScopedPhase times a block;
// SetupPart times a part of a model's set-up.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace scfd {

class Timer {
 public:
  Timer() : start_(Clock::now()) {}
  void reset() { start_ = Clock::now(); }
  double seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point start_;
};

class PhaseTimers {
 public:
  void add(const std::string& phase, double seconds);
  double get(const std::string& phase) const;
  // Phases in the order they were first added.
  const std::vector<std::pair<std::string, double>>& phases() const { return phases_; }

 private:
  std::vector<std::pair<std::string, double>> phases_;
};

class ScopedPhase {
 public:
  ScopedPhase(PhaseTimers& timers, std::string phase) : timers_(timers), phase_(std::move(phase)) {}
  ~ScopedPhase() { timers_.add(phase_, timer_.seconds()); }
  ScopedPhase(const ScopedPhase&) = delete;
  ScopedPhase& operator=(const ScopedPhase&) = delete;

 private:
  PhaseTimers& timers_;
  std::string phase_;
  Timer timer_;
};

// The set-up's parts, timed so that a user sees where the set-up of a large mesh goes: the code
// that builds a part times itself with a SetupPart, and the run reports the seconds of each after
// the set-up (a log line, and `setup_<part>` in the summary). Each part's time is its own: a part
// started inside another on the same thread pauses the outer one. A part is timed on the thread
// that runs it (the loops inside it may use host threads); a part run on a thread of its own
// beside the set-up's thread (SetupBeside) overlaps the set-up's other parts.
enum class Part : std::uint8_t {
  geometry,         // the mesh factors of the flow models, less the parts below
  edge_star,        // the 3D edge star W_mp and its wall term
  face_mass,        // the 3D face mass M_RT
  projection_mass,  // the 3D pressure projection's diagonal
  mass_curl,        // M C and the viscous diagonal
  face_blocks,      // the 3D momentum solve's preconditioner (ns/hodge.hpp, face_block_inverse)
  pressure_matrix,  // the assembled pressure Laplacian
  multigrid,        // the AMG hierarchies (pressure, stream), less their device matrices
  device_mesh,      // the GPU's copy of the mesh
  device_matrices,  // Backend::make_matrix: a matrix's copy in the backend's layout
};
inline constexpr std::size_t kParts = 10;
const char* name(Part p);

// The seconds of each part so far (by Part), and back to zero: in all, and those timed on a
// thread marked by SetupBeside (which overlapped the set-up's own thread).
struct SetupPartSeconds {
  std::array<double, kParts> total{}, beside{};
};
SetupPartSeconds take_setup_parts();

// While it lives, the parts the calling thread times ran beside the set-up's own thread (the
// pressure solve's host work, ns/flow.cpp): the report counts them apart.
class SetupBeside {
 public:
  SetupBeside();
  ~SetupBeside();
  SetupBeside(const SetupBeside&) = delete;
  SetupBeside& operator=(const SetupBeside&) = delete;
};

class SetupPart {
 public:
  explicit SetupPart(Part part);
  ~SetupPart();
  SetupPart(const SetupPart&) = delete;
  SetupPart& operator=(const SetupPart&) = delete;

 private:
  Part part_;
  Timer timer_;
  SetupPart* outer_;
};

}  // namespace scfd
