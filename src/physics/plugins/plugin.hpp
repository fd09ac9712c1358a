// Post-processing components of a run, in the manner of PyFR's plugins: each owns its case-file
// section, its sampling and its output file, and reads the flow only through FlowAccess, so a
// model only advances the state. The run loop makes them after the model (which reads their
// sections and locates their points, writing nothing), calls start() before the first step (which
// creates their files; after a restart, a history file keeps its rows up to the restart step),
// after_step() after every step, finish() once when the run ends (with the state it ends on), and
// adds their figures() to the run summary. Every method is collective.
//
//   section              plugin    writes                              figures
//   [probes]             probes    OUTPUT/probes.csv, every step       probeN_ux, ..., probeN_p
//   [forces]             forces    OUTPUT/forces.csv, every step       force_x, ...,
//   lift_coefficient [output.lines.NAME]  lines     OUTPUT/lines/NAME.csv, at the end   -
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "config/case.hpp"
#include "physics/model.hpp"

namespace scfd::physics {

class Plugin {
 public:
  virtual ~Plugin() = default;
  virtual void start(bool /*restarted*/) {}
  virtual void after_step() {}
  virtual void finish() {}
  virtual std::vector<std::pair<std::string, double>> figures() { return {}; }
};

// The plugins of the sections the case has, in the order of the table above. InputError for
// bad values, a file that cannot be created, or a section given to a model without a flow
// (heat). `output_dir` is the run's output folder.
std::vector<std::unique_ptr<Plugin>> make_plugins(const config::Case& c, Model& model,
                                                  const std::filesystem::path& output_dir);

}  // namespace scfd::physics
