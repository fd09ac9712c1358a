// `streamcfd bench [MESH] [--cells N] [--dim 2|3] [--backend cpu|gl-compute|auto]
//                  [--precision fp64|fp32] [--storage buffer|texture] [--device K] [--repeat R]
//                  [--warmup S] [--pcg-iterations K] [--tolerance T] [--peak-gbps B] [--json FILE]
//                  [--export-matrix DIR] [--only kernels|pcg|amg|halo|momentum|stream]`
// measures the performance targets of docs/architecture.md §11 in one run: the copy bandwidth
// ceiling of the backend, every Backend kernel's time, bytes (traffic model in bench_kernels.cpp)
// and ratio to that ceiling, and Jacobi-PCG on a heat-like node system against its bandwidth lower
// bound (bench_pcg.cpp); `--only amg` times the multigrid V-cycle level by level instead
// (bench_amg.cpp), `--only halo` the halo exchanges, the work that hides them and a global
// sum (bench_halo.cpp), `--only momentum` one application of the 3D momentum operator and
// its stored matrices, and `--only stream` ns-exact's 3D stream operator and preconditioner
// (bench_momentum.cpp). It prints a table and, with --json, writes the same as
// one JSON object (docs/bench/README.md describes every field). Under mpirun rank 0 partitions the
// mesh as `streamcfd run` does, so `mpirun -np 16 streamcfd bench --backend cpu` measures the cpu
// backend on 16 cores. Without MESH it generates the unit cube (or square) with at least N cells.
#include <fmt/format.h>
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <fstream>
#include <thread>

#include "app/backend_choice.hpp"
#include "app/bench.hpp"
#include "app/commands.hpp"
#include "app/mesh_loading.hpp"
#include "backend/registry.hpp"
#include "core/collectives.hpp"
#include "core/counters.hpp"
#include "core/error.hpp"
#include "core/json.hpp"
#include "core/log.hpp"
#include "halo/halo.hpp"
#include "mesh_io/generate.hpp"
#include "output/atomic_file.hpp"

namespace scfd::app {
namespace {

struct BenchOptions {
  std::string mesh;
  long long cells = 4'000'000;  // the size of docs/architecture.md §11's targets
  int dim = 3;
  std::string backend = "auto";
  std::string precision = "fp64";
  std::string storage = backend::BackendOptions{}.storage;
  int device = -1;
  bench::TimingOptions timing;
  int pcg_iterations = 100;
  double tolerance = 0;
  double peak_gbps = 4390;  // the CUDA triad on an H200 (docs/bench/README.md)
  std::string json;
  std::string export_dir;
  std::string only;
};

// The smallest grid whose generated mesh has at least `cells` cells: 6 nx^3 tetrahedra in 3D,
// 2 nx^2 triangles in 2D.
int grid_size(long long cells, int dim) {
  const double per_cell = dim == 3 ? 6 : 2;
  int nx = std::max(1, static_cast<int>(std::floor(std::pow(cells / per_cell, 1.0 / dim))));
  while (per_cell * std::pow(nx, dim) < static_cast<double>(cells)) ++nx;
  return nx;
}

// The mesh file, or the generated unit cube (square) with at least opt.cells cells.
MeshRecipe bench_mesh(const BenchOptions& opt) {
  if (!opt.mesh.empty()) return mesh_file(opt.mesh);
  const int nx = grid_size(opt.cells, opt.dim);
  if (opt.dim == 3)
    return {fmt::format("generated cube {0}x{0}x{0}", nx),
            [nx] { return mesh_io::generate_cube(nx, nx, nx); }};
  return {fmt::format("generated square {0}x{0}", nx),
          [nx] { return mesh_io::generate_square(nx, nx); }};
}

// The CPU's "model name" from /proc/cpuinfo ("unknown" where there is none, e.g. on Arm).
std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto value = line.find_first_not_of(" \t", line.find(':') + 1);
    return value == std::string::npos ? "unknown" : line.substr(value);
  }
  return "unknown";
}

// The command line as typed (/proc/self/cmdline: arguments separated by NUL).
std::string command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!all.empty() && all.back() == '\0') all.pop_back();
  std::replace(all.begin(), all.end(), '\0', ' ');
  return all;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// The "machine" object: host, CPU, MPI size and, for gl-compute, the GL device.
std::string machine_json(const backend::Backend& be, int nranks) {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  std::string gl = "null";
  if (const backend::DeviceInfo d = be.device_info(); d.index >= 0)
    gl = fmt::format(R"({{"device": {}, "vendor": {}, "renderer": {}, "version": {}}})", d.index,
                     json::string(d.vendor), json::string(d.renderer), json::string(d.version));
  return fmt::format(R"({{"hostname": {}, "cpu": {}, "cores": {}, "nranks": {}, "gl": {}}})",
                     json::string(host), json::string(cpu_model()),
                     std::thread::hardware_concurrency(), nranks, gl);
}

std::string timing_json(const bench::Timing& t, double copy_gbps, double peak_gbps) {
  return fmt::format(R"({{"entries": {}, "time_s": {}, "time_max_s": {}, "bytes": {}, "gbps": {}, )"
                     R"("gbps_all_ranks": {}, "ratio_to_copy": {}, "ratio_to_peak": {}}})",
                     t.entries, json::number(t.time_s), json::number(t.time_max_s),
                     json::number(t.bytes), json::number(t.gbps()), json::number(t.gbps_all()),
                     json::number(t.gbps() / copy_gbps), json::number(t.gbps() / peak_gbps));
}

std::string human_bytes(double b) {
  if (b >= 1e9) return fmt::format("{:.2f} GB", b * 1e-9);
  if (b >= 1e6) return fmt::format("{:.2f} MB", b * 1e-6);
  return fmt::format("{:.1f} kB", b * 1e-3);
}

std::string human_seconds(double s) {
  if (s < 1e-3) return fmt::format("{:.1f} µs", s * 1e6);
  if (s < 1) return fmt::format("{:.3f} ms", s * 1e3);
  return fmt::format("{:.3f} s", s);
}

// Prints the table of `timings` and returns the members of their JSON object.
std::string timings_report(const std::vector<bench::Timing>& timings, double copy_gbps,
                           double peak_gbps, int nranks) {
  log::info("{:<22} {:>12} {:>11} {:>12} {:>9} {:>8} {:>8}{}", "kernel", "entries", "time/call",
            "bytes/call", "GB/s", "of copy", "of peak", nranks > 1 ? "  max time" : "");
  std::string json;
  for (const bench::Timing& t : timings) {
    log::info("{:<22} {:>12} {:>11} {:>12} {:>9.2f} {:>8.2f} {:>8.2f}{}", t.name, t.entries,
              human_seconds(t.time_s), human_bytes(t.bytes), t.gbps(), t.gbps() / copy_gbps,
              t.gbps() / peak_gbps, nranks > 1 ? "  " + human_seconds(t.time_max_s) : "");
    json += fmt::format("{}\n    {}: {}", json.empty() ? "" : ",", json::string(t.name),
                        timing_json(t, copy_gbps, peak_gbps));
  }
  return json;
}

// Times the PCG, prints its line and returns the "pcg" JSON object. The bound is the model's
// bytes of all ranks at the copy bandwidth of all ranks together.
std::string pcg_report(const backend::Backend& be, const topology::Mesh& m, halo::Halo& halo,
                       const bench::NodeSystem& system, const MeshInfo& info,
                       const BenchOptions& opt, double copy_gbps_all) {
  const bench::PcgTiming p =
      bench::time_pcg(be, m, halo.plan(halo::Entity::node), system, info.nodes,
                      {.iterations = opt.pcg_iterations,
                       .tolerance = opt.tolerance,
                       .warmup_s = opt.timing.warmup_s});
  const double per_it = p.time_per_iteration();
  const double bound = p.bytes_per_iteration / (copy_gbps_all * 1e9);
  const double rate = per_it > 0 ? static_cast<double>(p.unknowns) / per_it : 0;
  log::info(
      "PCG: {} unknowns, {} iterations (relative residual {:.2e}): {}/iteration, {:.3g} "
      "unknown·iterations/s; bound {}/iteration ({} at the copy bandwidth), measured/bound "
      "{:.2f}",
      p.unknowns, p.iterations, p.relative_residual, human_seconds(per_it), rate,
      human_seconds(bound), human_bytes(p.bytes_per_iteration), per_it / bound);
  return fmt::format(
      R"({{"iterations": {}, "tolerance": {}, "relative_residual": {}, "time_s": {}, )"
      R"("time_per_iteration_s": {}, "unknowns": {}, "unknown_iterations_per_s": {}, )"
      R"("bytes_per_iteration": {}, "bound_s": {}, "ratio_to_bound": {}}})",
      p.iterations, json::number(opt.tolerance), json::number(p.relative_residual),
      json::number(p.time_s), json::number(per_it), p.unknowns, json::number(rate),
      json::number(p.bytes_per_iteration), json::number(bound), json::number(per_it / bound));
}

int run_bench(const BenchOptions& opt) {
  const int nranks = world_size();
  if (!opt.export_dir.empty() && nranks > 1)
    throw input_error("--export-matrix writes the serial matrix: run it without mpirun ({} ranks)",
                      nranks);
  const ChosenBackend chosen = make_chosen_backend(
      {opt.backend,
       {.precision = opt.precision, .device = opt.device, .debug = false, .storage = opt.storage}});
  const backend::Backend* be = chosen.backend.get();
  MeshInfo info;
  const topology::Mesh m = load_mesh(bench_mesh(opt), info);
  halo::Halo halo = halo::Halo::build(m, MPI_COMM_WORLD);
  halo.set_overlap(overlap_by_default(*be));  // the products and solves as a run does them
  const std::string machine = machine_json(*be, nranks);

  log::info("streamcfd bench: {}, {} rank{}", chosen.description, nranks, nranks == 1 ? "" : "s");
  log::info("mesh: {} ({}D, {} cells, {} faces, {} edges, {} nodes)", info.source, info.dim,
            info.cells, info.faces, info.edges, info.nodes);

  const bench::NodeSystem system = bench::make_node_system(m, halo.plan(halo::Entity::node));
  if (!opt.export_dir.empty()) {
    bench::export_matrix(m, system, opt.export_dir);
    log::info("node system written: {0}/matrix.mtx, {0}/rhs.mtx", opt.export_dir);
  }

  const bench::Timing copy = bench::copy_ceiling(*be, m, opt.timing);
  const double copy_gbps = copy.gbps();
  log::info("copy ceiling: {} per copy of {} reals, {:.2f} GB/s{}", human_seconds(copy.time_s),
            copy.entries, copy_gbps,
            nranks > 1 ? fmt::format(" per rank, {:.2f} GB/s all ranks", copy.gbps_all()) : "");

  std::size_t held = 0;
  const std::string kernels_json =
      !opt.only.empty() && opt.only != "kernels"
          ? ""
          : timings_report(bench::kernel_timings(*be, m, opt.timing, held), copy_gbps,
                           opt.peak_gbps, nranks);
  // Device memory with every field of the kernel part allocated, and the device mesh.
  // The largest mesh of this kind that would fit into the device at the same bytes per cell.
  const auto device_bytes = static_cast<double>(held);
  const double per_cell = device_bytes / static_cast<double>(m.n_owned_cells);
  const auto memory = static_cast<double>(be->device_info().memory_bytes);
  const double largest_cells = device_bytes > 0 && memory > 0 ? std::floor(memory / per_cell) : 0;
  if (device_bytes > 0)
    log::info("device memory: {} held by rank 0, {:.0f} bytes per cell (the bench's fields){}",
              human_bytes(device_bytes), per_cell,
              largest_cells > 0 ? fmt::format("; {} on the device: room for {:.3g} cells",
                                              human_bytes(memory), largest_cells)
                                : "");
  const std::string pcg_json = !opt.only.empty() && opt.only != "pcg"
                                   ? "null"
                                   : pcg_report(*be, m, halo, system, info, opt, copy.gbps_all());
  std::string amg_json = "null";
  if (opt.only == "amg") {
    std::string hierarchy;
    counters::Snapshot cycle;
    const std::vector<bench::Timing> amg =
        bench::amg_timings(*be, m, halo.plan(halo::Entity::cell), opt.timing, hierarchy, cycle);
    log::info("AMG of the cell Laplacian: {}", hierarchy);
    std::string per_cycle;
    for (const counters::Kind k : counters::all_kinds())
      per_cycle +=
          fmt::format("{}\"{}\": {}", per_cycle.empty() ? "" : ", ", counters::name(k), cycle[k]);
    log::info(
        "one V-cycle on rank 0: {} dispatches, {} halo rounds, {} gathered solves, {} sums, "
        "{} waits for the GPU",
        cycle[counters::Kind::gpu_dispatch], cycle[counters::Kind::halo_round],
        cycle[counters::Kind::coarse_gather], cycle[counters::Kind::reduction],
        cycle[counters::Kind::gpu_wait]);
    amg_json = fmt::format("{{\"hierarchy\": {}, \"per_cycle\": {{{}}}, \"timings\": {{{}\n  }}}}",
                           json::string(hierarchy), per_cycle,
                           timings_report(amg, copy_gbps, opt.peak_gbps, nranks));
  }
  std::string halo_json = "null";
  if (opt.only == "halo") {
    halo.set_overlap(true);  // begin, work, end: what the "hidden" rows measure
    halo_json =
        fmt::format("{{{}\n  }}", timings_report(bench::halo_timings(*be, m, halo, opt.timing),
                                                 copy_gbps, opt.peak_gbps, nranks));
  }
  std::string momentum_json = "null";
  if (opt.only == "momentum") {
    const std::vector<bench::Timing> momentum = bench::momentum_timings(*be, m, halo, opt.timing);
    momentum_json =
        fmt::format("{{{}\n  }}", timings_report(momentum, copy_gbps, opt.peak_gbps, nranks));
  }
  std::string stream_json = "null";
  if (opt.only == "stream") {
    const std::vector<bench::Timing> stream = bench::stream_timings(*be, m, halo, opt.timing);
    stream_json =
        fmt::format("{{{}\n  }}", timings_report(stream, copy_gbps, opt.peak_gbps, nranks));
  }
  if (!opt.json.empty() && log::rank() == 0) {
    // gl-raster draws into texture fields whatever --storage says.
    const std::string storage_json =
        be->name() == "cpu"
            ? "null"
            : json::string(be->name() == "gl-raster" ? std::string("texture") : opt.storage);
    const std::string text = fmt::format(
        "{{\n  \"command\": {},\n  \"date\": {},\n  \"machine\": {},\n"
        "  \"mesh\": {{\"source\": {}, \"generated\": {}, \"dim\": {}, \"cells\": {}, "
        "\"faces\": {}, \"edges\": {}, \"nodes\": {}}},\n"
        "  \"backend\": {},\n  \"precision\": {},\n  \"storage\": {},\n  \"repeat\": {},\n  "
        "\"warmup_s\": {},\n"
        "  \"peak_gbps\": {},\n  \"device_bytes\": {},\n  \"device_memory_bytes\": {},\n"
        "  \"largest_cells\": {},\n  \"copy\": {},\n"
        "  \"kernels\": {{{}\n  }},\n  \"pcg\": {},\n  \"amg\": {},\n  \"halo\": {},\n"
        "  \"momentum\": {},\n  \"stream\": {}\n}}\n",
        json::string(command_line()), json::string(utc_now()), machine, json::string(info.source),
        opt.mesh.empty(), info.dim, info.cells, info.faces, info.edges, info.nodes,
        json::string(be->name()), json::string(be->precision()), storage_json, opt.timing.repeat,
        json::number(opt.timing.warmup_s), json::number(opt.peak_gbps), json::number(device_bytes),
        json::number(memory), json::number(largest_cells),
        timing_json(copy, copy_gbps, opt.peak_gbps), kernels_json, pcg_json, amg_json, halo_json,
        momentum_json, stream_json);
    output::write_text_atomic(opt.json, text);
    log::info("written: {}", opt.json);
  }
  return 0;
}

}  // namespace

Command add_bench_command(CLI::App& app) {
  auto opt = std::make_shared<BenchOptions>();
  CLI::App* sub = app.add_subcommand("bench",
                                     "Measure every kernel's bandwidth and PCG against the copy "
                                     "ceiling (docs/architecture.md §11)");
  CLI::Option* mesh =
      sub->add_option("mesh", opt->mesh, "Gmsh mesh file (default: a generated unit cube)");
  sub->add_option("--cells", opt->cells,
                  "Cells of the generated mesh, at least (3D: nx = smallest with 6 nx^3 >= N; "
                  "2D: 2 nx^2 >= N)")
      ->check(CLI::Range(1LL, 2'000'000'000LL))
      ->excludes(mesh)
      ->capture_default_str();
  sub->add_option("--dim", opt->dim, "Dimension of the generated mesh")
      ->check(CLI::IsMember({2, 3}))
      ->excludes(mesh)
      ->capture_default_str();
  std::vector<std::string> backends;
  for (std::string_view name : backend::backend_choices()) backends.emplace_back(name);
  sub->add_option("--backend", opt->backend, "Backend")
      ->check(CLI::IsMember(backends))
      ->capture_default_str();
  sub->add_option("--precision", opt->precision, "Field precision (fp32: GPU backends only)")
      ->check(CLI::IsMember({"fp64", "fp32"}))
      ->capture_default_str();
  sub->add_option("--storage", opt->storage,
                  "Where GPU fields live: storage buffers or 2D textures (docs/gpu.md §8)")
      ->check(CLI::IsMember({"buffer", "texture"}))
      ->capture_default_str();
  sub->add_option("--device", opt->device,
                  "EGL device index (default: node-local rank mod device count; SCFD_GL_DEVICE "
                  "overrides it)")
      ->check(CLI::Range(0, 1 << 16));
  sub->add_option("--repeat", opt->timing.repeat, "Timed calls per kernel (after the warm-up)")
      ->check(CLI::Range(1, 1'000'000))
      ->capture_default_str();
  sub->add_option("--warmup", opt->timing.warmup_s,
                  "Seconds of untimed calls before each timing (an idle GPU lowers its clocks)")
      ->check(CLI::Range(0.0, 3600.0))
      ->capture_default_str();
  sub->add_option("--pcg-iterations", opt->pcg_iterations,
                  "PCG iterations (exactly this many; the cap with --tolerance)")
      ->check(CLI::Range(1, 10'000'000))
      ->capture_default_str();
  sub->add_option("--tolerance", opt->tolerance,
                  "Stop PCG at this relative residual instead of a fixed count")
      ->check(CLI::PositiveNumber)
      ->check(CLI::Range(0.0, 1.0));
  sub->add_option("--peak-gbps", opt->peak_gbps,
                  "Bandwidth every kernel is also compared with (default: the CUDA triad on an "
                  "H200)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub->add_option("--json", opt->json, "Write the results as JSON to FILE")->type_name("FILE");
  sub->add_option("--export-matrix", opt->export_dir,
                  "Write the PCG matrix and right-hand side as DIR/matrix.mtx and DIR/rhs.mtx "
                  "(Matrix Market, serial runs only)")
      ->type_name("DIR");
  sub->add_option("--only", opt->only,
                  "Run only the kernel part, only the PCG part, or the multigrid V-cycle's "
                  "products level by level, or the halo exchanges and a global sum, or one "
                  "application of the 3D momentum operator and its matrices, or of ns-exact's 3D "
                  "stream operator and preconditioner (amg, halo, momentum, stream: not part of "
                  "the default run)")
      ->check(CLI::IsMember({"kernels", "pcg", "amg", "halo", "momentum", "stream"}));
  return [opt] { return run_bench(*opt); };
}

}  // namespace scfd::app
