// Checkpoint policy of `streamcfd run` (see checkpoints.hpp).
#include "app/checkpoints.hpp"

#include <fmt/format.h>

#include <cmath>

#include "core/collectives.hpp"
#include "core/error.hpp"
#include "core/log.hpp"

namespace scfd::app {

CheckpointSettings read_checkpoint_settings(const config::Case& c,
                                            const std::string& restart_option) {
  CheckpointSettings s;
  const long long steps = c.get<long long>("checkpoint.every_steps", 0);
  if (steps < 0 || steps > 1'000'000'000)
    c.fail("checkpoint.every_steps", "must be between 0 (off) and 1000000000");
  s.every_steps = static_cast<int>(steps);
  s.every_time = c.get<double>("checkpoint.every_time", 0.0);
  if (!(s.every_time >= 0) || !std::isfinite(s.every_time))
    c.fail("checkpoint.every_time", "must be a time >= 0 (0: off)");
  s.every_minutes = c.get<double>("checkpoint.every_minutes", 0.0);
  if (!(s.every_minutes >= 0) || !std::isfinite(s.every_minutes))
    c.fail("checkpoint.every_minutes", "must be a number of minutes >= 0 (0: off)");
  const long long keep = c.get<long long>("checkpoint.keep", 2);
  if (keep < 1 || keep > 1'000'000) c.fail("checkpoint.keep", "must be between 1 and 1000000");
  s.keep = static_cast<int>(keep);
  if (!restart_option.empty())
    s.restart = restart_option;
  else if (c.has("checkpoint.restart"))
    s.restart = c.directory() / c.require<std::string>("checkpoint.restart");
  return s;
}

Checkpoints::Checkpoints(CheckpointSettings settings, const topology::Mesh& mesh,
                         const backend::Backend& backend, std::filesystem::path directory,
                         std::string case_text)
    : settings_(std::move(settings)),
      checkpointer_(mesh, backend),
      directory_(std::move(directory)),
      case_text_(std::move(case_text)) {}

std::filesystem::path Checkpoints::path_for(const physics::Model& model) const {
  return directory_ / fmt::format("{}_checkpoint_{:06}.h5", model.name(), model.step());
}

bool Checkpoints::restart(physics::Model& model) {
  if (settings_.restart.empty()) return false;
  const Timer t;
  const checkpoint::Header h = checkpointer_.read(settings_.restart, model);
  const int left = model.total_steps() - model.step();
  log::info(
      "restart: {} (step {}, t = {:.6g}, written on {} rank{}; read in {:.2f} s); {} step{} "
      "left",
      settings_.restart.string(), h.step, h.time, h.ranks, h.ranks == 1 ? "" : "s", t.seconds(),
      left, left == 1 ? "" : "s");
  if (left <= 0)
    log::warn(
        "restart: the case ends at step {} (t = {:.6g}), where the checkpoint is: raise "
        "time.steps or time.end to go on",
        model.total_steps(), model.time());
  return true;
}

std::string Checkpoints::after_step(physics::Model& model, double t_before, bool last) {
  const auto& s = settings_;
  bool due = last && s.periodic();
  if (s.every_steps > 0 && model.step() % s.every_steps == 0) due = true;
  // Multiples of every_time passed, up to round-off in the accumulated time (0.01 added three
  // times is a hair off 0.03).
  const auto passed = [&](double t) { return std::floor(t / s.every_time + 1e-9); };
  if (s.every_time > 0 && passed(model.time()) > passed(t_before)) due = true;
  // Rank 0's clock decides for all.
  if (s.every_minutes > 0)
    due = any_rank(world_rank() == 0 && since_last_.seconds() >= 60 * s.every_minutes) || due;
  if (!due) return {};
  std::filesystem::path written;
  const Timer t;
  std::string failure = write(model, written);
  if (!failure.empty()) return failure;
  log::info("checkpoint: {} ({:.2f} s)", written.string(), t.seconds());
  periodic_.push_back(written);
  while (static_cast<int>(periodic_.size()) > s.keep) {
    if (world_rank() == 0) {
      std::error_code ec;
      std::filesystem::remove(periodic_.front(), ec);
    }
    periodic_.pop_front();
  }
  return {};
}

std::string Checkpoints::write_now(physics::Model& model, std::filesystem::path& written) {
  return write(model, written);
}

std::string Checkpoints::write(physics::Model& model, std::filesystem::path& written) {
  written = path_for(model);
  try {
    checkpointer_.write(written, model, case_text_);
  } catch (const InputError& e) {
    return e.what();
  }
  since_last_.reset();
  return {};
}

}  // namespace scfd::app
