// Which backend a run uses (docs/architecture.md §3): `auto` takes gl-compute on a hardware GPU
// with GL 4.3+ (and fp64 where fp64 is asked for) and cpu where the only EGL device is a software
// renderer such as llvmpipe, or where there is none. Every rank decides the same: the choice is
// agreed over MPI, and an error on any rank reaches every rank as the same InputError.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backend/backend.hpp"

namespace scfd::app {

struct BackendRequest {
  std::string name = "auto";  // auto | cpu | gl-compute
  backend::BackendOptions options;
};

struct ChosenBackend {
  std::unique_ptr<backend::Backend> backend;
  std::string description;  // one line for the log: backend, precision, device and why
  // The EGL device of every rank (-1: none, the cpu backend), and the ranks that share a GPU
  // with a lower rank on the same host (by host name): the rank -> GPU map the log and the run
  // summary report, so a scaling study shows that each rank had a GPU of its own.
  std::vector<int> rank_devices;
  std::vector<int> sharing_ranks;
};

// Collective over MPI_COMM_WORLD.
ChosenBackend make_chosen_backend(const BackendRequest& request);

// Whether halo exchanges overlap inner work on `be` unless the case says (parallel.overlap): on
// for gl-compute, whose pack runs on the GPU behind the inner rows (measured faster on 2 and 4
// H100s); off for the cpu, where it measured slower without asynchronous MPI progress, and for
// gl-raster, whose pack reads back at once (docs/scaling.md). The benchmarks exchange as a run.
inline bool overlap_by_default(const backend::Backend& be) {
  return be.name() == "gl-compute";
}

}  // namespace scfd::app
