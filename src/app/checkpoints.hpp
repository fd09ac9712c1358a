// The checkpoints of `streamcfd run` ([checkpoint] in the case file, docs/restart.md): when they
// are due, their names, keeping the last K, the one a fault or a stop writes, and the restart.
#pragma once

#include <deque>
#include <filesystem>
#include <string>

#include "backend/backend.hpp"
#include "checkpoint/checkpoint.hpp"
#include "config/case.hpp"
#include "core/timer.hpp"
#include "physics/model.hpp"
#include "topology/mesh.hpp"

namespace scfd::app {

struct CheckpointSettings {
  int every_steps = 0;            // checkpoint.every_steps: every N steps (0: off)
  double every_time = 0;          // checkpoint.every_time: each time t passes a multiple of T
  double every_minutes = 0;       // checkpoint.every_minutes: W minutes of wall time after the last
  int keep = 2;                   // checkpoint.keep: the periodic ones kept (older ones removed)
  std::filesystem::path restart;  // --restart FILE or checkpoint.restart: continue from it
  bool periodic() const { return every_steps > 0 || every_time > 0 || every_minutes > 0; }
};

// Reads [checkpoint]; RESTART_OPTION (--restart, relative to the working folder) wins over
// checkpoint.restart (relative to the case file). InputError naming the key for a bad value.
CheckpointSettings read_checkpoint_settings(const config::Case& c,
                                            const std::string& restart_option);

class Checkpoints {
 public:
  // DIRECTORY: the output folder; CASE_TEXT: the effective case file, saved in each checkpoint.
  Checkpoints(CheckpointSettings settings, const topology::Mesh& mesh,
              const backend::Backend& backend, std::filesystem::path directory,
              std::string case_text);

  // DIR/<model>_checkpoint_<step:06>.h5
  std::filesystem::path path_for(const physics::Model& model) const;

  // Loads settings.restart into the model when it is set (InputError on every rank, naming the
  // file and the problem); logs what it restarts from. Returns whether it did.
  bool restart(physics::Model& model);

  // After a finished step whose time was T_BEFORE at its start: writes a checkpoint when one is
  // due (or at the LAST step of a run with periodic checkpoints) and removes the periodic ones
  // beyond `keep`. Collective. The failure's message, or "".
  std::string after_step(physics::Model& model, double t_before, bool last);

  // The checkpoint of the model's current state whatever the settings (a fault, a stop):
  // its path in `written`, or the failure's message. Prints nothing: after a Ctrl-C under
  // mpirun, whose forwarding of stdout may have stopped, a print could block the rank until its
  // SIGKILL (the caller names the file in its last line on stderr, after the summary's data).
  std::string write_now(physics::Model& model, std::filesystem::path& written);

 private:
  std::string write(physics::Model& model, std::filesystem::path& written);

  CheckpointSettings settings_;
  checkpoint::Checkpointer checkpointer_;
  std::filesystem::path directory_;
  std::string case_text_;
  Timer since_last_;
  std::deque<std::filesystem::path> periodic_;  // written by this run, oldest first
};

}  // namespace scfd::app
