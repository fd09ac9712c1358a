// Process-wide counters of the synchronisations a rank takes part in (issue 39, "measure
// first"): halo exchanges and the bytes they send, the allreduce-type collectives, the AMG's
// gathered coarse solves, the other collectives, the times the host waits for the GPU, the
// commands it queues there, and the time it waits in MPI. The places that synchronise or queue
// increment them (halo/, core/collectives.cpp, solvers/amg.cpp, gl/); the run loop takes a snapshot
// before and after each step, and the run summary reports the per-step mean and maximum of each
// (docs/architecture.md §5). Counting touches no other rank: a counter is this process's alone, and
// reading one is not a collective.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>

namespace scfd::counters {

enum class Kind : std::uint8_t {
  halo_exchange,     // a field or host exchange of a HaloPlan with neighbours (halo/)
  halo_round,        // a wait for halo messages: one exchange, or several in flight together
                     // (halo::overlap_together), which the host waits for about once
  halo_bytes_sent,   // the bytes those exchanges sent to the neighbours
  reduction,         // an MPI_Allreduce through core/collectives (sums, minima, maxima, votes)
  coarse_gather,     // the multigrid's gathered coarse solve (solvers/amg.cpp)
  other_collective,  // the other MPI collectives of core/collectives (gathers, broadcasts, ...)
  gpu_wait,          // a host wait for the GPU: a fence not yet passed, glFinish or a read-back
                     // (gl/)
  gpu_drain,         // of those, the ones that empty the GL queue: glFinish or a read-back (about
                     // 0.45 ms each on NVIDIA's driver 580, where a fence costs tens of us)
  gpu_wait_us,       // the microseconds the host spent in those waits
  gpu_dispatch,      // a command queued on the GPU that runs work: a compute dispatch, a draw, a
                     // copy, a blit or a clear (gl/); not a synchronisation, but each dependent
                     // one has a fixed cost that no number of GPUs divides
  mpi_wait_us,       // the microseconds the host spent blocked in MPI: waits for halo messages
                     // and the collectives of core/collectives (with gpu_wait_us, what of a
                     // step is neither: the host's own work and the commands it queues)
};
inline constexpr std::size_t kinds = 11;

// The name of a kind in the run summary ("halo_exchanges", "reductions", ...).
const char* name(Kind k);
// Every kind, in the enum's order.
std::array<Kind, kinds> all_kinds();

// Adds n to the counter of k (relaxed atomic: cheap, and safe should a thread count too).
void add(Kind k, std::uint64_t n = 1);

// One blocking wait for the GPU, counted when made (gpu_wait, and gpu_drain unless it is a fence's)
// and timed until destroyed (gpu_wait_us): declared just before the blocking call, in the scope
// that ends with it.
class GpuWait {
 public:
  enum class Through : std::uint8_t { drain, fence };
  explicit GpuWait(Through how = Through::drain);
  ~GpuWait();
  GpuWait(const GpuWait&) = delete;
  GpuWait& operator=(const GpuWait&) = delete;

 private:
  std::chrono::steady_clock::time_point start_;
};

// The microseconds from construction to destruction added to mpi_wait_us: declared just before a
// blocking MPI call, in the scope that ends with it.
class MpiWait {
 public:
  MpiWait();
  ~MpiWait();
  MpiWait(const MpiWait&) = delete;
  MpiWait& operator=(const MpiWait&) = delete;

 private:
  std::chrono::steady_clock::time_point start_;
};

// The counters at one moment; the difference of two is what happened between them.
struct Snapshot {
  std::array<std::uint64_t, kinds> value{};
  std::uint64_t operator[](Kind k) const { return value[static_cast<std::size_t>(k)]; }
  Snapshot operator-(const Snapshot& earlier) const;
};
Snapshot snapshot();

}  // namespace scfd::counters
