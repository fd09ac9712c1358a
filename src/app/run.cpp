// `streamcfd run CASE [--set key=value]... [--quiet] [--log FILE]`: the run loop shared by every
// model. Reads the case and the mesh, makes the backend and the model, prints the effective
// configuration, then advances step by step with one progress line per step (rank 0), writing
// VTK output at the output interval and at the end, and a JSON summary. Ctrl-C stops after the
// current step and writes that state; a solver failure stops the run with the message, the
// output already written stays valid.
// Exit codes: 0 done, 1 solver failure, 2 bad input, 130 interrupted.
#include <fmt/format.h>
#include <mpi.h>

#include <array>
#include <csignal>
#include <filesystem>
#include <string_view>

#include "app/backend_choice.hpp"
#include "app/commands.hpp"
#include "app/mesh_loading.hpp"
#include "app/run_summary.hpp"
#include "backend/registry.hpp"
#include "config/case.hpp"
#include "config/suggest.hpp"
#include "core/error.hpp"
#include "core/log.hpp"
#include "core/timer.hpp"
#include "halo/halo.hpp"
#include "output/atomic_file.hpp"
#include "output/series_writer.hpp"
#include "physics/model.hpp"
#include "physics/plugins/plugin.hpp"

namespace scfd::app {
namespace {

volatile std::sig_atomic_t g_interrupted = 0;
// First Ctrl-C: finish the step, write the state, stop. A second one kills the run at once.
extern "C" void on_sigint(int) {
  g_interrupted = 1;
  std::signal(SIGINT, SIG_DFL);
}

struct RunOptions {
  std::string case_file;
  std::vector<std::string> overrides;
  bool quiet = false;
  std::string log_file;
};

struct OutputSettings {
  std::filesystem::path directory;
  int interval = 0;
  std::vector<std::string> fields;
};

BackendRequest read_backend_request(const config::Case& c) {
  static constexpr std::array<std::string_view, 2> precisions = {"fp64", "fp32"};
  BackendRequest r;
  r.name = c.choice("solver.backend", backend::backend_choices(), "auto");
  r.options.precision = c.choice("solver.precision", precisions, "fp64");
  if (r.name == "cpu" && r.options.precision != "fp64")
    c.fail("solver.precision", "the cpu backend computes in fp64 only (fp32 is a GPU option)");
  const long long device = c.get<long long>("solver.device", -1);
  if (device < -1 || device > 1023)
    c.fail("solver.device", "must be an EGL device index >= 0, or -1 for automatic");
  r.options.device = static_cast<int>(device);
  r.options.debug = c.get<bool>("solver.gl_debug", false);
  return r;
}

OutputSettings read_output(const config::Case& c, const physics::Model& model) {
  OutputSettings o;
  o.directory = c.directory() / c.get<std::string>("output.directory", "output");
  o.interval = static_cast<int>(c.get<long long>("output.interval", 10));
  if (o.interval < 0) c.fail("output.interval", "must be >= 0 (0: only the first and last step)");
  const std::vector<std::string> valid = model.field_names();
  o.fields = c.get<std::vector<std::string>>("output.fields", valid);
  for (const auto& f : o.fields)
    if (std::find(valid.begin(), valid.end(), f) == valid.end())
      c.fail("output.fields", fmt::format("unknown field '{}' (valid: {}){}", f,
                                          config::join(valid), config::did_you_mean(f, valid)));
  return o;
}

bool all_ranks_ok(bool ok) {
  int v = ok ? 1 : 0, all = 0;
  MPI_Allreduce(&v, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return all != 0;
}

// Ctrl-C reaches the ranks at slightly different moments: they agree after each step.
bool any_rank_interrupted() {
  int v = g_interrupted ? 1 : 0, any = 0;
  MPI_Allreduce(&v, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return any != 0;
}

std::filesystem::path write_fields(output::SeriesWriter& writer, physics::Model& model,
                                   const OutputSettings& o) {
  const std::vector<physics::HostField> fields = model.fields(o.fields);
  std::vector<output::Field> points, cells;
  for (const auto& f : fields)
    (f.at_cells ? cells : points).push_back({f.name, f.components, f.data});
  return writer.write(model.time(), model.step(), points, cells, all_ranks_ok);
}

// Seconds in the unit a person reads best: 850 µs, 12.3 ms, 4.56 s, 3.2 min, 1.5 h.
std::string human_seconds(double s) {
  if (s < 1e-3) return fmt::format("{:.0f} µs", s * 1e6);
  if (s < 1) return fmt::format("{:.1f} ms", s * 1e3);
  if (s < 120) return fmt::format("{:.2f} s", s);
  if (s < 7200) return fmt::format("{:.1f} min", s / 60);
  return fmt::format("{:.1f} h", s / 3600);
}

// The figures of the model and its plugins for the summary. After a failed step the state may
// be unusable: a figure that needs a solve then gives up instead of failing again.
std::vector<std::pair<std::string, double>> run_figures(
    physics::Model& model, const std::vector<std::unique_ptr<physics::Plugin>>& plugins,
    int status) {
  std::vector<std::pair<std::string, double>> figures;
  try {
    figures = model.figures();
    for (const auto& plugin : plugins) {
      auto more = plugin->figures();
      figures.insert(figures.end(), more.begin(), more.end());
    }
  } catch (const physics::SolveError& e) {
    if (status == 0) throw;
    log::warn("figures of the failed run left out: {}", e.what());
  }
  return figures;
}

using Plugins = std::vector<std::unique_ptr<physics::Plugin>>;

// One progress line for a finished step.
void print_step(const physics::StepReport& r, const physics::Model& model, double step_seconds,
                double stepping_seconds) {
  const int left = model.total_steps() - model.step();
  const std::string eta =
      left > 0 ? "ETA " + human_seconds(left * stepping_seconds / model.step()) : "done";
  log::info("step {:>{}}/{}  t = {:<11.5g} CG {:>4} it  res {:.2e}  {}{}/step  {}", r.step,
            fmt::formatted_size("{}", model.total_steps()), model.total_steps(), r.time,
            r.iterations, r.residual, r.detail.empty() ? "" : r.detail + "  ",
            human_seconds(step_seconds), eta);
}

// The time loop: advance, sample, report, write at the output interval and at the end. Ctrl-C
// (on any rank) ends it after the current step with that state written. Returns the exit code
// (0 done, 1 a solve failed, 130 interrupted) and fills the summary's status.
int step_loop(physics::Model& model, const Plugins& plugins, output::SeriesWriter& writer,
              const OutputSettings& out, RunSummary& summary) {
  Timer stepping;
  int status = 0;
  while (model.step() < model.total_steps()) {
    Timer step_timer;
    physics::StepReport r;
    try {
      {
        ScopedPhase p(summary.timers, "solve");
        r = model.advance();
      }
      ScopedPhase p(summary.timers, "sampling");
      for (const auto& plugin : plugins) plugin->after_step();
    } catch (const physics::SolveError& e) {
      log::warn("{} (the output written so far is complete)", e.what());
      summary.status = "failed";
      summary.message = e.what();
      status = 1;
      break;
    }
    summary.add_step(r);
    print_step(r, model, step_timer.seconds(), stepping.seconds());
    const bool last = model.step() == model.total_steps();
    const bool interrupted = any_rank_interrupted();
    if (last || interrupted || (out.interval > 0 && model.step() % out.interval == 0)) {
      ScopedPhase p(summary.timers, "output");
      write_fields(writer, model, out);
      if (last || interrupted)
        for (const auto& plugin : plugins) plugin->finish();
    }
    if (interrupted && !last) {
      summary.status = "interrupted";
      summary.message = fmt::format("interrupted by Ctrl-C after step {}", model.step());
      log::warn("{}: state written", summary.message);
      status = 130;
      break;
    }
  }
  return status;
}

int run_case(const RunOptions& opt) {
  // From the start: a Ctrl-C during the set-up stops the run after its first step.
  g_interrupted = 0;
  std::signal(SIGINT, on_sigint);
  if (!opt.log_file.empty()) log::set_file(opt.log_file);
  log::set_quiet(opt.quiet);
  int nranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  RunSummary summary;
  Timer total;
  const config::Case c = config::Case::load(opt.case_file, opt.overrides);
  MeshInfo mesh_info;
  topology::Mesh mesh;
  {
    ScopedPhase phase(summary.timers, "mesh");
    mesh = load_mesh(mesh_file(c.resolve_path("mesh.file").string()), mesh_info);
  }
  const ChosenBackend chosen = make_chosen_backend(read_backend_request(c));
  const backend::Backend& be = *chosen.backend;
  halo::Halo halo = halo::Halo::build(mesh, MPI_COMM_WORLD);
  std::unique_ptr<physics::Model> model;
  {
    ScopedPhase p(summary.timers, "setup");
    model = physics::make_model(c, mesh, be, halo);
  }
  const OutputSettings out = read_output(c, *model);
  const Plugins plugins = physics::make_plugins(c, *model, out.directory);
  c.check_all_used();

  log::info("streamcfd run {}", opt.case_file);
  log::info("effective configuration:\n{}", c.effective_toml());
  log::info("mesh: {} ({}D, {} nodes, {} cells, {} patches), {} rank{}", mesh_info.source,
            mesh_info.dim, mesh_info.nodes, mesh_info.cells, mesh.patches.size(), nranks,
            nranks == 1 ? "" : "s");
  log::info("model: {}, {} step{}", model->name(), model->total_steps(),
            model->total_steps() == 1 ? "" : "s");
  for (const std::string& line : model->notes()) log::info("{}", line);
  log::info("backend: {}", chosen.description);
  output::SeriesWriter writer(mesh, out.directory, model->name(), log::rank(), nranks);
  if (log::rank() == 0)
    output::write_text_atomic(out.directory / "case.effective.toml", c.effective_toml());
  writer.write_boundary(all_ranks_ok);
  if (!model->steady()) write_fields(writer, *model, out);

  const int status = step_loop(*model, plugins, writer, out, summary);
  std::signal(SIGINT, SIG_DFL);
  const halo::HaloStats comm = halo.total();
  summary.timers.add("halo_comm", comm.comm_seconds);
  summary.timers.add("halo_wait", comm.wait_seconds);
  summary.timers.add("total", total.seconds());
  summary.gather(MPI_COMM_WORLD);
  const std::string json_text =
      summary.to_json(opt.case_file, mesh_info, *model, run_figures(*model, plugins, status),
                      {be.name(), be.precision(), chosen.description});
  const std::filesystem::path json = out.directory / (model->name() + "_summary.json");
  if (log::rank() == 0) output::write_text_atomic(json, json_text);
  log::info("results: {} (open in ParaView), summary: {}", writer.pvd_path().string(),
            json.string());
  return status;
}

}  // namespace

Command add_run_command(CLI::App& app) {
  auto opt = std::make_shared<RunOptions>();
  CLI::App* sub = app.add_subcommand("run", "Run a case file");
  sub->add_option("case", opt->case_file, "Case file (.toml)")->required();
  sub->add_option("--set", opt->overrides, "Override a case-file key: --set solver.tolerance=1e-8")
      ->type_name("KEY=VALUE");
  sub->add_flag("--quiet", opt->quiet, "Print nothing but errors");
  sub->add_option("--log", opt->log_file, "Also write everything printed to FILE");
  return [opt] { return run_case(*opt); };
}

}  // namespace scfd::app
