// The time loop of `streamcfd run` (see run_loop.hpp).
#include "app/run_loop.hpp"

#include <fmt/format.h>
#include <mpi.h>

#include <csignal>

#include "core/collectives.hpp"
#include "core/counters.hpp"
#include "core/error.hpp"
#include "core/failure.hpp"
#include "core/log.hpp"
#include "core/stop.hpp"
#include "core/timer.hpp"

namespace scfd::app {
namespace {

// Seconds in the unit a person reads best: 850 µs, 12.3 ms, 4.56 s, 3.2 min, 1.5 h.
std::string human_seconds(double s) {
  if (s < 1e-3) return fmt::format("{:.0f} µs", s * 1e6);
  if (s < 1) return fmt::format("{:.1f} ms", s * 1e3);
  if (s < 120) return fmt::format("{:.2f} s", s);
  if (s < 7200) return fmt::format("{:.1f} min", s / 60);
  return fmt::format("{:.1f} h", s / 3600);
}

// The iterations of a step's solves when it has several: " (momentum 12, pressure 9)".
std::string solve_breakdown(const physics::StepReport& r) {
  if (r.solves.size() < 2) return {};
  std::string parts;
  for (const auto& [name, n] : r.solves)
    parts += fmt::format("{}{} {}", parts.empty() ? "" : ", ", name, n);
  return " (" + parts + ")";
}

// One progress line for a finished step.
void print_step(const physics::StepReport& r, const physics::Model& model, double step_seconds,
                double stepping_seconds, int steps_taken) {
  const int left = model.total_steps() - model.step();
  const std::string eta =
      left > 0 ? "ETA " + human_seconds(left * stepping_seconds / steps_taken) : "done";
  log::info("step {:>{}}/{}  t = {:<11.5g} it {:>4}{}  res {:.2e}  {}{}/step  {}", r.step,
            fmt::formatted_size("{}", model.total_steps()), model.total_steps(), r.time,
            r.iterations, solve_breakdown(r), r.residual, r.detail.empty() ? "" : r.detail + "  ",
            human_seconds(step_seconds), eta);
}

// What one rank saw of a step.
struct StepOutcome {
  physics::StepReport report;
  std::string failure;     // SolveError, or a failure recorded by a rank-0-only write
  bool abandoned = false;  // a solver stopped on a stop request
};

StepOutcome run_step(physics::Model& model, const Plugins& plugins, RunSummary& summary) {
  StepOutcome o;
  try {
    model.take_other_solves();  // the output's, counted in its phase
    {
      ScopedPhase p(summary.timers, "solve");
      o.report = model.advance();
    }
    ScopedPhase p(summary.timers, "sampling");
    for (const auto& plugin : plugins) plugin->after_step();
    for (const auto& [name, n] : model.take_other_solves()) {  // the plugins' (the forces')
      o.report.solves.emplace_back(name, n);
      o.report.iterations += n;
    }
  } catch (const physics::SolveError& e) {
    o.failure = e.what();
  } catch (const physics::Interrupted&) {
    o.abandoned = true;
  }
  if (o.failure.empty()) o.failure = take_recorded_failure();
  return o;
}

// The output of the model's current state and the plugins' end-of-run files; a failure to write
// (a full disk, say) is reported and returned, it does not throw.
std::string write_final_state(physics::Model& model, const Plugins& plugins,
                              output::SeriesWriter& writer, const OutputSettings& out) {
  std::string failure;
  try {
    write_fields(writer, model, out);
    for (const auto& plugin : plugins) plugin->finish();
  } catch (const InputError& e) {
    failure = e.what();
  } catch (const physics::SolveError& e) {
    failure = e.what();
  }
  if (failure.empty()) failure = take_recorded_failure();
  return first_message(failure);
}

// The output of the model's current state at an output interval; the failure, or "".
std::string write_state(physics::Model& model, output::SeriesWriter& writer,
                        const OutputSettings& out) {
  try {
    write_fields(writer, model, out);
  } catch (const InputError& e) {
    return e.what();  // the writer's protocol: every rank throws alike
  }
  return {};
}

// 128 + the signal that stopped the run on any rank (130 for SIGINT, 143 for SIGTERM).
int interrupted_exit_code() {
  const int signal = static_cast<int>(global_max(static_cast<real>(stop_signal())));
  return 128 + (signal > 0 ? signal : SIGINT);
}

// The checkpoint of the current state, as a clause for the last log line.
std::string checkpoint_clause(physics::Model& model, Checkpoints& checkpoints) {
  std::filesystem::path path;
  const std::string failure = checkpoints.write_now(model, path);
  if (!failure.empty()) return "; " + failure;
  return fmt::format("; continue with --restart {}", path.string());
}

// Ends the run after a failed or abandoned step: back to the last good state, written and
// checkpointed.
int end_early(physics::Model& model, const Plugins& plugins, output::SeriesWriter& writer,
              const OutputSettings& out, Checkpoints& checkpoints, RunSummary& summary,
              bool interrupted, const std::string& why) {
  if (interrupted) honour_stop_request();  // the last state's solves must run to the end
  model.restore_state();
  summary.status = interrupted ? "interrupted" : "failed";
  summary.message = why;
  const std::string failure = write_final_state(model, plugins, writer, out);
  const std::string state =
      (failure.empty()
           ? fmt::format("the state of step {} (t = {:.6g}), the last good one, is written",
                         model.step(), model.time())
           : fmt::format("the state of step {} could not be written: {}", model.step(), failure)) +
      checkpoint_clause(model, checkpoints);
  if (interrupted)
    log::warn("{}; {}", why, state);
  else
    log::error("{}; {}", why, state);
  return interrupted ? interrupted_exit_code() : 1;
}

}  // namespace

void write_fields(output::SeriesWriter& writer, physics::Model& model, const OutputSettings& o) {
  // output.fields = []: the mesh alone (the model reads an empty list as all of its fields).
  const std::vector<physics::HostField> fields =
      o.fields.empty() ? std::vector<physics::HostField>{} : model.fields(o.fields);
  std::vector<output::Field> points, cells;
  for (const auto& f : fields)
    (f.at_cells ? cells : points).push_back({f.name, f.components, f.data});
  if (o.vtkhdf)
    o.vtkhdf->write(model.time(), model.step(), points, cells);
  else
    writer.write(model.time(), model.step(), points, cells, first_message);
}

int step_loop(physics::Model& model, const Plugins& plugins, output::SeriesWriter& writer,
              const OutputSettings& out, Checkpoints& checkpoints, RunSummary& summary) {
  model.keep_state();  // the initial state is the first good one
  Timer stepping;
  const int first_step = model.step();
  while (model.step() < model.total_steps()) {
    Timer step_timer;
    const counters::Snapshot counted = counters::snapshot();
    const double t_before = model.time();
    const StepOutcome o = run_step(model, plugins, summary);
    const std::string failure = first_message(o.failure);
    if (!failure.empty())
      return end_early(model, plugins, writer, out, checkpoints, summary, false, failure);
    const bool stop = any_rank(o.abandoned || stop_requested());
    if (stop) honour_stop_request();  // the last state's solves must run to the end
    if (any_rank(o.abandoned))
      return end_early(
          model, plugins, writer, out, checkpoints, summary, true,
          fmt::format("interrupted during step {}: the step is abandoned", model.step() + 1));
    model.keep_state();
    // The step's synchronisations: the model's, the plugins', the verdict's and keep_state's
    // (output and checkpoints, at intervals, are not a step's).
    summary.add_synchronisations(counters::snapshot() - counted);
    summary.add_step(o.report);
    print_step(o.report, model, step_timer.seconds(), stepping.seconds(),
               model.step() - first_step);
    const bool last = model.step() == model.total_steps();
    if (last || stop || (out.interval > 0 && model.step() % out.interval == 0)) {
      ScopedPhase p(summary.timers, "output");
      const std::string written = (last || stop) ? write_final_state(model, plugins, writer, out)
                                                 : write_state(model, writer, out);
      if (!written.empty()) {
        summary.status = "failed";
        summary.message = "step " + std::to_string(model.step()) + ": " + written;
        log::error("{}", summary.message);
        return 1;
      }
    }
    if (stop && !last) {
      summary.status = "interrupted";
      summary.message = fmt::format("interrupted (Ctrl-C or SIGTERM) after step {}", model.step());
      log::warn("{}: state written{}", summary.message, checkpoint_clause(model, checkpoints));
      return interrupted_exit_code();
    }
    if (const std::string failed = checkpoints.after_step(model, t_before, last); !failed.empty()) {
      summary.status = "failed";
      summary.message = "step " + std::to_string(model.step()) + ": " + failed;
      log::error("{}", summary.message);
      return 1;
    }
  }
  return 0;
}

}  // namespace scfd::app
