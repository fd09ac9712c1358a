// `streamcfd run CASE [--set key=value]... [--quiet] [--dry-run] [--log FILE]`: the run shared by
// every model. Reads the case and the mesh, makes the backend, the model and its plugins, prepares
// the output folder, prints the effective configuration, runs the time loop (run_loop.hpp: one
// progress line per step, output at the interval and at the end, one verdict of all ranks after
// every step) and writes the JSON summary.
// Exit codes: 0 done; 1 the run failed (a solver, divergence, a file that could not be written
// after the start); 2 bad input, found before step 1 (mesh, case file, command line, a
// checkpoint to restart from, an output folder or file that cannot be created); 130 interrupted
// by Ctrl-C (SIGINT), 143 by SIGTERM (what mpirun and batch systems send): each with one line on
// stderr, on every rank count. A run that stops early leaves a checkpoint of its last good step
// (app/checkpoints.hpp, docs/restart.md).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <mpi.h>

#include <array>
#include <filesystem>
#include <string_view>

#include "app/backend_choice.hpp"
#include "app/case_keys.hpp"
#include "app/commands.hpp"
#include "app/mesh_loading.hpp"
#include "app/run_loop.hpp"
#include "app/run_summary.hpp"
#include "backend/registry.hpp"
#include "config/case.hpp"
#include "config/suggest.hpp"
#include "core/collectives.hpp"
#include "core/error.hpp"
#include "core/log.hpp"
#include "core/stop.hpp"
#include "core/threads.hpp"
#include "core/timer.hpp"
#include "halo/halo.hpp"
#include "output/atomic_file.hpp"
#include "output/series_writer.hpp"
#include "physics/model.hpp"
#include "physics/plugins/plugin.hpp"

namespace scfd::app {
namespace {

struct RunOptions {
  std::string case_file;
  std::vector<std::string> overrides;
  bool quiet = false;
  bool dry_run = false;
  std::string log_file;
  std::string restart;
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
  r.options.device_origin = "solver.device";
  r.options.debug = c.get<bool>("solver.gl_debug", false);
  static constexpr std::array<std::string_view, 2> storages = {"buffer", "texture"};
  r.options.storage = c.choice("solver.storage", storages, "buffer");
  return r;
}

// The [output] keys but the fields, read before the mesh: a typo there costs no set-up.
OutputSettings read_output(const config::Case& c) {
  OutputSettings o;
  o.directory = c.directory() / c.get<std::string>("output.directory", "output");
  const long long interval = c.get<long long>("output.interval", 10);
  if (interval < 0 || interval > 1'000'000'000)
    c.fail("output.interval",
           fmt::format("must be between 0 (only the first and last step) and 1000000000, got {}",
                       interval));
  o.interval = static_cast<int>(interval);
  static constexpr std::array<std::string_view, 2> formats = {"vtu", "vtkhdf"};
  o.vtkhdf_format = c.choice("output.format", formats, "vtu") == "vtkhdf";
  static constexpr std::array<std::string_view, 3> compressions = {"lz4", "zlib", "none"};
  const std::string compression = c.choice("output.compression", compressions, "lz4");
  o.compression = compression == "zlib"   ? output::Compression::zlib
                  : compression == "none" ? output::Compression::none
                                          : output::Compression::lz4;
  return o;
}

// output.fields, checked against the model's names.
std::vector<std::string> read_output_fields(const config::Case& c, const physics::Model& model) {
  const std::vector<std::string> valid = model.field_names();
  std::vector<std::string> fields = c.get<std::vector<std::string>>("output.fields", valid);
  for (const auto& f : fields)
    if (std::find(valid.begin(), valid.end(), f) == valid.end())
      c.fail("output.fields", fmt::format("unknown field '{}' (valid: {}){}", f,
                                          config::join(valid), config::did_you_mean(f, valid)));
  return fields;
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

// The output folder, made by rank 0 before anything is written (a file in the way, a folder that
// cannot be made: one InputError on every rank, before step 1).
void prepare_output_directory(const config::Case& c, const std::filesystem::path& dir) {
  std::string error;
  if (log::rank() == 0) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    const std::string why =
        ec ? ec.message()
           : (std::filesystem::is_directory(dir) ? std::string() : std::string("not a folder"));
    if (!why.empty()) {
      try {
        c.fail("output.directory",
               fmt::format("cannot make the folder '{}': {}", dir.string(), why));
      } catch (const InputError& e) {
        error = e.what();
      }
    }
  }
  agree_on_input_error(error);
}

// A text file that rank 0 writes (the effective case file, the summary): the error, or "".
std::string write_on_rank0(const std::filesystem::path& path, const std::string& text) {
  std::string error;
  if (log::rank() == 0) {
    try {
      output::write_text_atomic(path, text);
    } catch (const InputError& e) {
      error = e.what();
    }
  }
  return first_message(error);
}

// [parallel] threads: the host threads of the set-up's loops (core/threads.hpp); 0 (the default):
// the cores this process may run on, shared among the ranks of its node.
int read_threads(const config::Case& c) {
  const long long n = c.get<long long>("parallel.threads", 0);
  if (n < 0 || n > 1024)
    c.fail("parallel.threads",
           fmt::format("must be 0 (automatic) or between 1 and 1024, got {}", n));
  return n == 0 ? default_host_threads() : static_cast<int>(n);
}

// The set-up's parts (core/timer.hpp) into the summary (`setup_<part>`), and the line that
// reports them: the parts some rank timed, the same list on every rank (one collective).
// A part that ran beside the set-up's own thread says how much of it did ("multigrid 2.19 (2.11
// beside)"), and only the rest of it counts against the set-up.
std::string report_setup_parts(RunSummary& summary) {
  const SetupPartSeconds seconds = take_setup_parts();
  std::array<double, kParts> most = seconds.total;
  global_max(std::span<double>(most));
  std::string line;
  double timed = 0, beside = 0;
  for (std::size_t i = 0; i < kParts; ++i) {
    if (!(most[i] > 0)) continue;
    const char* part = name(static_cast<Part>(i));
    summary.timers.add(fmt::format("setup_{}", part), seconds.total[i]);
    line += fmt::format(", {} {:.2f}", part, seconds.total[i]);
    if (seconds.beside[i] > 0) line += fmt::format(" ({:.2f} beside)", seconds.beside[i]);
    timed += seconds.total[i];
    beside += seconds.beside[i];
  }
  if (beside > 0) summary.timers.add("setup_beside", beside);
  timed -= beside;
  const double setup = summary.timers.get("setup");
  if (line.empty()) return fmt::format("set-up {:.2f} s", setup);
  return fmt::format("set-up {:.2f} s{}, the rest {:.2f} (rank 0's seconds)", setup, line,
                     std::max(0.0, setup - timed));
}

int run_case(const RunOptions& opt) {
  // From the start: a stop requested during the set-up ends the run after its first step.
  clear_stop_request();
  install_stop_handlers();
  if (!opt.log_file.empty()) log::set_file(opt.log_file);
  log::set_quiet(opt.quiet);
  const int nranks = world_size();
  RunSummary summary;
  Timer total;
  const config::Case c = config::Case::load(opt.case_file, opt.overrides);
  check_fixed_tables(c);
  physics::check_time(c);  // before minutes of mesh and set-up
  set_host_threads(read_threads(c));
  OutputSettings out = read_output(c);
  // The backend first: a device that is missing fails before minutes of mesh, and the GPU
  // driver compiles the kernels in its threads while the host builds the mesh.
  const ChosenBackend chosen = make_chosen_backend(read_backend_request(c));
  const backend::Backend& be = *chosen.backend;
  be.start_kernel_builds();
  MeshInfo mesh_info;
  topology::Mesh mesh;
  {
    ScopedPhase phase(summary.timers, "mesh");
    mesh = load_mesh(case_mesh(c), mesh_info);
  }
  halo::Halo halo = halo::Halo::build(mesh, MPI_COMM_WORLD);
  halo.set_overlap(c.get<bool>("parallel.overlap", overlap_by_default(be)));
  std::unique_ptr<physics::Model> model;
  {
    ScopedPhase p(summary.timers, "setup");
    model = physics::make_model(c, mesh, be, halo);
  }
  const std::string setup_line = report_setup_parts(summary);
  out.fields = read_output_fields(c, *model);
  const Plugins plugins = physics::make_plugins(c, *model, out.directory);
  const CheckpointSettings checkpoint_settings = read_checkpoint_settings(c, opt.restart);
  c.check_all_used();

  log::info("streamcfd run {}", opt.case_file);
  log::info("effective configuration:\n{}", c.effective_toml());
  log::info("mesh: {} ({}D, {} nodes, {} cells, {} patches), {} rank{}", mesh_info.source,
            mesh_info.dim, mesh_info.nodes, mesh_info.cells, mesh.patches.size(), nranks,
            nranks == 1 ? "" : "s");
  log::info("model: {}, {} step{}", model->name(), model->total_steps(),
            model->total_steps() == 1 ? "" : "s");
  for (const std::string& line : model->notes()) log::info("{}", line);
  log::info("backend: {}; {} host thread{} per rank for the set-up", chosen.description,
            host_threads(), host_threads() == 1 ? "" : "s");
  log::info("{}", setup_line);
  if (nranks > 1 && chosen.rank_devices.front() >= 0) {
    log::info("GPU of each rank: {}", fmt::join(chosen.rank_devices, " "));
    for (const int r : chosen.sharing_ranks)
      log::warn(
          "rank {} shares GPU {} with a lower rank on its host: they take turns on it (set "
          "solver.device, or SCFD_GL_DEVICE per rank)",
          r, chosen.rank_devices[static_cast<std::size_t>(r)]);
  }
  Checkpoints checkpoints(checkpoint_settings, mesh, be, out.directory, c.effective_toml());
  const bool restarted = checkpoints.restart(*model);
  if (opt.dry_run) {
    log::info("dry run: the case is valid; nothing was written");
    return 0;
  }
  prepare_output_directory(c, out.directory);
  for (const auto& plugin : plugins) plugin->start(restarted);
  std::unique_ptr<output::SeriesWriter> writer;
  std::string error;
  try {
    writer = std::make_unique<output::SeriesWriter>(mesh, out.directory, model->name(), log::rank(),
                                                    nranks);
    writer->set_compression(out.compression);
  } catch (const InputError& e) {
    error = e.what();
  }
  agree_on_input_error(error);
  std::unique_ptr<output::VtkHdfWriter> vtkhdf;
  if (out.vtkhdf_format) {
    vtkhdf = std::make_unique<output::VtkHdfWriter>(mesh, out.directory, model->name());
    out.vtkhdf = vtkhdf.get();
  }
  const std::string effective =
      write_on_rank0(out.directory / "case.effective.toml", c.effective_toml());
  if (!effective.empty()) throw InputError(effective);
  writer->write_boundary(first_message);
  if (restarted && log::rank() == 0) {
    writer->continue_series(model->time());
    if (vtkhdf) vtkhdf->continue_series(model->time());
  }
  if (!model->steady() && !restarted) write_fields(*writer, *model, out);

  int status = step_loop(*model, plugins, *writer, out, checkpoints, summary);
  remove_stop_handlers();
  const halo::HaloStats comm = halo.total();
  summary.timers.add("halo_comm", comm.comm_seconds);
  summary.timers.add("halo_wait", comm.wait_seconds);
  summary.halo_comm = comm.comm_seconds;
  summary.halo_wait = comm.wait_seconds;
  summary.timers.add("total", total.seconds());
  summary.gather();
  const std::string json_text = summary.to_json(
      opt.case_file, mesh_info, *model, run_figures(*model, plugins, status),
      {be.name(), be.precision(), chosen.description, be.device_bytes(), chosen.rank_devices});
  const std::filesystem::path json = out.directory / (model->name() + "_summary.json");
  if (const std::string failed = write_on_rank0(json, json_text); !failed.empty()) {
    log::error("{}", failed);
    if (status == 0) status = 1;
  }
  log::info("results: {} (open in ParaView), summary: {}",
            (vtkhdf ? vtkhdf->series_path() : writer->pvd_path()).string(), json.string());
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
  sub->add_flag("--dry-run", opt->dry_run,
                "Read the case and the mesh, set up the model, print the effective configuration, "
                "and stop before step 1, writing nothing");
  sub->add_option("--log", opt->log_file, "Also write everything printed to FILE");
  sub->add_option("--restart", opt->restart,
                  "Continue from a checkpoint (an .h5 file of an earlier run; any rank count)")
      ->type_name("FILE");
  return [opt] { return run_case(*opt); };
}

}  // namespace scfd::app
