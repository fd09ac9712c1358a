// Wall-clock timers. PhaseTimers accumulates seconds per named phase (read mesh, topology,
// solve, output...) for progress lines and the JSON run summary; ScopedPhase times a block.
#pragma once

#include <chrono>
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

}  // namespace scfd
