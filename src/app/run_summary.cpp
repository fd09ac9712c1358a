// JSON run summary (see run_summary.hpp).
#include "app/run_summary.hpp"

#include "core/json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace scfd::app {

void RunSummary::add_step(const physics::StepReport& r) {
  ++steps;
  iterations += r.iterations;
  max_iterations = std::max(max_iterations, r.iterations);
  last_residual = r.residual;
}

std::string RunSummary::to_json(const std::string& case_file, const topology::Mesh& mesh,
                                const physics::Model& model, const std::string& backend) const {
  std::string figures, phases;
  for (const auto& [name, value] : model.figures())
    figures += fmt::format("{}\n    {}: {}", figures.empty() ? "" : ",", json::string(name),
                           json::number(value));
  for (const auto& [name, seconds] : timers.phases())
    phases +=
        fmt::format("{}\n    {}: {:.6f}", phases.empty() ? "" : ",", json::string(name), seconds);
  return fmt::format(
      "{{\n  \"case\": {},\n  \"status\": {},\n  \"message\": {},\n  \"model\": {},\n"
      "  \"backend\": {},\n  \"ranks\": 1,\n"
      "  \"mesh\": {{\"file\": {}, \"dim\": {}, \"nodes\": {}, \"cells\": {}, \"faces\": {}}},\n"
      "  \"steps\": {},\n  \"time\": {},\n"
      "  \"solver\": {{\"iterations_total\": {}, \"iterations_mean\": {}, "
      "\"iterations_max\": {}, \"last_relative_residual\": {}}},\n"
      "  \"figures\": {{{}\n  }},\n  \"seconds\": {{{}\n  }}\n}}\n",
      json::string(case_file), json::string(status), json::string(message),
      json::string(model.name()), json::string(backend), json::string(mesh.source), mesh.dim,
      mesh.n_nodes, mesh.n_cells, mesh.n_faces, steps, json::number(model.time()), iterations,
      json::number(steps > 0 ? static_cast<double>(iterations) / steps : 0.0), max_iterations,
      json::number(last_residual), figures, phases);
}

}  // namespace scfd::app
