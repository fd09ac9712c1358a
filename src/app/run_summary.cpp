// JSON run summary (see run_summary.hpp).
#include "app/run_summary.hpp"

#include "core/collectives.hpp"
#include "core/json.hpp"
#include "core/threads.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <span>
#include <tuple>

namespace scfd::app {

void RunSummary::add_step(const physics::StepReport& r) {
  ++steps;
  iterations += r.iterations;
  max_iterations = std::max(max_iterations, r.iterations);
  last_residual = r.residual;
  for (const auto& [phase, seconds] : r.seconds) timers.add(phase, seconds);
  for (const auto& solve : r.solves) {
    auto it = std::find_if(solves.begin(), solves.end(),
                           [&](const SolveIterations& s) { return s.name == solve.first; });
    if (it == solves.end()) it = solves.insert(solves.end(), SolveIterations{solve.first, 0, 0});
    it->total += solve.second;
    it->max = std::max(it->max, solve.second);
  }
}

void RunSummary::add_synchronisations(const counters::Snapshot& step) {
  ++counted_steps;
  for (std::size_t k = 0; k < counters::kinds; ++k) {
    sync_total[k] += step.value[k];
    sync_max[k] = std::max(sync_max[k], step.value[k]);
  }
}

namespace {

// The solver's per-solve iterations: "name": {"total", "mean", "max"}.
std::string solves_json(const std::vector<RunSummary::SolveIterations>& solves, int steps) {
  std::string out;
  for (const auto& s : solves)
    out += fmt::format("{}{}: {{\"total\": {}, \"mean\": {}, \"max\": {}}}",
                       out.empty() ? "" : ", ", json::string(s.name), s.total,
                       json::number(steps > 0 ? static_cast<double>(s.total) / steps : 0.0), s.max);
  return out;
}

// The synchronisations per step: for each kind rank 0's mean and maximum, and the largest of
// each over the ranks; and the bytes of an average halo exchange.
std::string synchronisations_json(const RunSummary& s) {
  std::string out = fmt::format("\"steps_counted\": {}", s.counted_steps);
  for (const counters::Kind kind : counters::all_kinds()) {
    const auto k = static_cast<std::size_t>(kind);
    const double mean =
        s.counted_steps > 0 ? static_cast<double>(s.sync_total[k]) / s.counted_steps : 0.0;
    out += fmt::format(
        ",\n    {}: {{\"mean\": {}, \"max\": {}, \"mean_ranks_max\": {}, "
        "\"max_ranks_max\": {}}}",
        json::string(counters::name(kind)), json::number(mean), s.sync_max[k],
        json::number(s.sync_mean_ranks_max[k]), json::number(s.sync_max_ranks_max[k]));
  }
  const auto exchanges = s.sync_total[static_cast<std::size_t>(counters::Kind::halo_exchange)];
  const auto bytes = s.sync_total[static_cast<std::size_t>(counters::Kind::halo_bytes_sent)];
  out += fmt::format(
      ",\n    \"halo_bytes_per_exchange\": {}",
      json::number(exchanges > 0 ? static_cast<double>(bytes) / static_cast<double>(exchanges)
                                 : 0.0));
  return out;
}

}  // namespace

void RunSummary::gather() {
  ranks = world_size();
  const auto& phases = timers.phases();
  std::vector<double> lo, hi, sum;
  for (const auto& p : phases) lo.push_back(p.second);
  hi = sum = lo;
  global_min(std::span<double>(lo));
  global_max(std::span<double>(hi));
  global_sum(std::span<double>(sum));
  phase_stats.clear();
  for (std::size_t i = 0; i < lo.size(); ++i) phase_stats.push_back({lo[i], sum[i] / ranks, hi[i]});

  std::tie(halo_comm, halo_wait) = global_sum(std::pair<real, real>(halo_comm, halo_wait));

  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const double peak = 1024.0 * static_cast<double>(usage.ru_maxrss);  // KiB on Linux
  const double other = world_rank() == 0 ? 0.0 : peak;
  peak_others_max = global_max(other);
  const double sum_other = global_sum(other);
  peak_rank0 = peak;
  broadcast(std::span<double>(&peak_rank0, 1));
  peak_others_mean = ranks > 1 ? sum_other / (ranks - 1) : 0.0;

  // Each rank's per-step mean and maximum of every counter, the largest over the ranks: the one
  // collective of the counters, at the end of the run (a step adds none).
  std::array<double, 2 * counters::kinds> sync{};
  for (std::size_t k = 0; k < counters::kinds; ++k) {
    sync[k] = counted_steps > 0 ? static_cast<double>(sync_total[k]) / counted_steps : 0.0;
    sync[counters::kinds + k] = static_cast<double>(sync_max[k]);
  }
  global_max(std::span<double>(sync));
  for (std::size_t k = 0; k < counters::kinds; ++k) {
    sync_mean_ranks_max[k] = sync[k];
    sync_max_ranks_max[k] = sync[counters::kinds + k];
  }
}

std::string RunSummary::to_json(const std::string& case_file, const MeshInfo& mesh,
                                const physics::Model& model,
                                const std::vector<std::pair<std::string, double>>& figures,
                                const BackendInfo& backend) const {
  std::string figure_list, phases;
  for (const auto& [name, value] : figures)
    figure_list += fmt::format("{}\n    {}: {}", figure_list.empty() ? "" : ",", json::string(name),
                               json::number(value));
  // Seconds per phase: rank 0's value, and min/mean/max over the ranks after gather().
  for (std::size_t i = 0; i < timers.phases().size(); ++i) {
    const auto& [name, seconds] = timers.phases()[i];
    phases +=
        fmt::format("{}\n    {}: {:.6f}", phases.empty() ? "" : ",", json::string(name), seconds);
    if (i < phase_stats.size())
      phases += fmt::format(",\n    {}: {{\"min\": {:.6f}, \"mean\": {:.6f}, \"max\": {:.6f}}}",
                            json::string(name + "_ranks"), phase_stats[i][0], phase_stats[i][1],
                            phase_stats[i][2]);
  }
  const partition::PartitionQuality& q = mesh.partition;
  // The share of the exchange time not spent waiting: 1 when every message had arrived by end().
  const double hidden = halo_comm > 0 ? 1 - halo_wait / halo_comm : 0.0;
  return fmt::format(
      "{{\n  \"case\": {},\n  \"status\": {},\n  \"message\": {},\n  \"model\": {},\n"
      "  \"backend\": {},\n  \"precision\": {},\n  \"backend_detail\": {},\n"
      "  \"device_bytes\": {},\n  \"ranks\": {},\n  \"host_threads\": {},\n"
      "  \"rank_devices\": [{}],\n"
      "  \"mesh\": {{\"file\": {}, \"dim\": {}, \"nodes\": {}, \"cells\": {}, \"faces\": {}}},\n"
      "  \"partition\": {{\"parts\": {}, \"edge_cut\": {}, \"cut_fraction\": {}, "
      "\"imbalance\": {}, \"min_cells\": {}, \"max_cells\": {}}},\n"
      "  \"halo\": {{\"comm_seconds\": {:.6f}, \"wait_seconds\": {:.6f}, "
      "\"hidden_fraction\": {}}},\n"
      "  \"memory\": {{\"peak_rank0_bytes\": {:.0f}, \"peak_others_max_bytes\": {:.0f}, "
      "\"peak_others_mean_bytes\": {:.0f}}},\n"
      "  \"steps\": {},\n  \"time\": {},\n"
      "  \"solver\": {{\"iterations_total\": {}, \"iterations_mean\": {}, "
      "\"iterations_max\": {}, \"last_relative_residual\": {},\n"
      "    \"solves\": {{{}}}}},\n"
      "  \"synchronisations\": {{{}\n  }},\n"
      "  \"figures\": {{{}\n  }},\n  \"seconds\": {{{}\n  }}\n}}\n",
      json::string(case_file), json::string(status), json::string(message),
      json::string(model.name()), json::string(backend.name), json::string(backend.precision),
      json::string(backend.description), backend.device_bytes, ranks, host_threads(),
      fmt::format("{}", fmt::join(backend.rank_devices, ", ")), json::string(mesh.source), mesh.dim,
      mesh.nodes, mesh.cells, mesh.faces, q.parts, q.edge_cut, json::number(q.cut_fraction),
      json::number(q.imbalance), q.min_cells, q.max_cells, halo_comm, halo_wait,
      json::number(hidden), peak_rank0, peak_others_max, peak_others_mean, steps,
      json::number(model.time()), iterations,
      json::number(steps > 0 ? static_cast<double>(iterations) / steps : 0.0), max_iterations,
      json::number(last_residual), solves_json(solves, steps), synchronisations_json(*this),
      figure_list, phases);
}

}  // namespace scfd::app
