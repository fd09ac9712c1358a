// The JSON summary written at the end of every run: the case, the mesh, the settings, the steps
// with their solver iterations, the figures of the model and the wall time per phase.
#pragma once

#include <string>

#include "core/timer.hpp"
#include "physics/model.hpp"
#include "topology/mesh.hpp"

namespace scfd::app {

struct RunSummary {
  PhaseTimers timers;
  std::string status = "completed";  // completed | failed | interrupted
  std::string message;
  int steps = 0;
  long long iterations = 0;
  int max_iterations = 0;
  double last_residual = 0;

  void add_step(const physics::StepReport& r);
  std::string to_json(const std::string& case_file, const topology::Mesh& mesh,
                      const physics::Model& model, const std::string& backend) const;
};

}  // namespace scfd::app
