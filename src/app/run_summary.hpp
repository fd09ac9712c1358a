// The JSON summary written at the end of every run: the case, the mesh, the settings, the steps
// with their solver iterations, the figures of the model and the wall time per phase.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "app/mesh_loading.hpp"
#include "core/counters.hpp"
#include "core/timer.hpp"
#include "physics/model.hpp"

namespace scfd::app {

// The backend line of the summary: name ("cpu", "gl-compute"), precision, and the log's
// description (device and why it was chosen).
struct BackendInfo {
  std::string name, precision, description;
  std::size_t device_bytes = 0;   // GPU memory held at the end of the run (rank 0; 0 on the cpu)
  std::vector<int> rank_devices;  // the EGL device of each rank, -1 for none (ChosenBackend)
};

struct RunSummary {
  PhaseTimers timers;
  std::string status = "completed";  // completed | failed | interrupted
  std::string message;
  int steps = 0;
  long long iterations = 0;
  int max_iterations = 0;
  double last_residual = 0;
  // Per named solve (StepReport::solves), in the order first reported: total and largest
  // iterations of a step.
  struct SolveIterations {
    std::string name;
    long long total = 0;
    int max = 0;
  };
  std::vector<SolveIterations> solves;

  // The synchronisations of the steps (core/counters.hpp): this rank's total and largest per
  // step of each kind; after gather, the largest per-step mean and maximum over the ranks.
  int counted_steps = 0;
  std::array<std::uint64_t, counters::kinds> sync_total{}, sync_max{};
  std::array<double, counters::kinds> sync_mean_ranks_max{}, sync_max_ranks_max{};

  int ranks = 1;
  // Per phase over the ranks (filled by gather): min, mean, max seconds.
  std::vector<std::array<double, 3>> phase_stats;
  // Halo exchange time (halo::HaloStats: inside begin + end, and blocked in MPI_Waitall): this
  // rank's until gather, the sum over the ranks after it.
  double halo_comm = 0, halo_wait = 0;
  // Peak resident set size in bytes (getrusage), filled by gather: rank 0's (it reads and
  // partitions the whole mesh), and the largest and the mean of the other ranks' (0 when serial).
  double peak_rank0 = 0, peak_others_max = 0, peak_others_mean = 0;

  void add_step(const physics::StepReport& r);
  // The counters' change over one step (not collective).
  void add_synchronisations(const counters::Snapshot& step);
  // Collective: reduces every phase's time, the halo times and the peak memory over the ranks of
  // `comm` (each rank has the same phases in the same order). Call on every rank before to_json
  // on rank 0.
  void gather();
  // `figures`: the model's and its plugins' (name, value) pairs.
  std::string to_json(const std::string& case_file, const MeshInfo& mesh,
                      const physics::Model& model,
                      const std::vector<std::pair<std::string, double>>& figures,
                      const BackendInfo& backend) const;
};

}  // namespace scfd::app
