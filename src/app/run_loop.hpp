// The time loop of `streamcfd run` and how a run ends. After every step all ranks agree on one
// verdict, so no rank stops alone and none waits for ever in a collective:
//  - the step failed on some rank (a solver broke down, the run diverged, a file that only rank
//    0 writes could not be written): the state of the last good step is restored, written and
//    checkpointed, status "failed", exit code 1;
//  - a stop was requested (Ctrl-C, SIGTERM from mpirun or a batch system) while the step ran:
//    the solvers abandoned the step; its state is restored, written, checkpointed, status
//    "interrupted", exit code 128 + the signal (130 SIGINT, 143 SIGTERM);
//  - a stop was requested and the step finished: that step is written and checkpointed,
//    "interrupted", 130 or 143;
//  - else the step is kept as the new good state, reported, written at the output interval and
//    at the end, checkpointed when [checkpoint] says so ("completed", 0).
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "app/checkpoints.hpp"
#include "app/run_summary.hpp"
#include "output/series_writer.hpp"
#include "output/vtkhdf_writer.hpp"
#include "physics/model.hpp"
#include "physics/plugins/plugin.hpp"

namespace scfd::app {

using Plugins = std::vector<std::unique_ptr<physics::Plugin>>;

struct OutputSettings {
  std::filesystem::path directory;
  int interval = 0;
  std::vector<std::string> fields;  // output.fields (empty: the mesh alone, no field)
  // output.format = "vtkhdf": the fields go to this writer instead of the .vtu series (the
  // boundary file stays a .vtu).
  bool vtkhdf_format = false;
  output::Compression compression = output::Compression::lz4;  // output.compression (.vtu)
  output::VtkHdfWriter* vtkhdf = nullptr;
};

// Writes the model's fields of its current step (collective; InputError on every rank when a
// rank cannot write).
void write_fields(output::SeriesWriter& writer, physics::Model& model, const OutputSettings& o);

// Runs the steps left; returns the exit code and sets summary.status and summary.message.
int step_loop(physics::Model& model, const Plugins& plugins, output::SeriesWriter& writer,
              const OutputSettings& out, Checkpoints& checkpoints, RunSummary& summary);

}  // namespace scfd::app
