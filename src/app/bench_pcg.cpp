// `streamcfd bench`, PCG part: the heat-like node system (steady conduction, k = 1, T = 0 on the
// boundary, unit source), solved by the same solvers::Pcg and the same halo-exchanging operator
// as physics/heat/heat.cpp, and its export as a Matrix Market file for the CuPy comparison
// (scripts/bench/cupy_cg.py).
//
// Traffic of one Jacobi-PCG iteration (the bandwidth lower bound; see pcg.hpp for the steps):
//   node_system_apply (one application of the assembled operator, model of bench_kernels.cpp)
//   + dot p·q 2 No R + pcg_update 8 No R + pcg_direction p = z + beta p 3 N R
// The set-up of a solve (diagonal, initial residual) is timed with it but not counted as
// iterations: over the default 100 iterations it adds about 1%. The assembly of the operator is
// not timed (done once per matrix, as heat does per run).
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>

#include "app/bench.hpp"
#include "backend/traffic.hpp"
#include "core/collectives.hpp"
#include "core/error.hpp"
#include "core/log.hpp"
#include "core/timer.hpp"
#include "solvers/linear_operator.hpp"
#include "solvers/node_system_operator.hpp"
#include "solvers/pcg.hpp"

namespace scfd::app::bench {
namespace {

// A file for writing, or an InputError naming it.
struct OutFile {
  explicit OutFile(const std::filesystem::path& p) : path(p), f(std::fopen(p.c_str(), "w")) {
    if (f == nullptr) throw input_error("--export-matrix: cannot write {}", p.string());
  }
  ~OutFile() {
    if (f != nullptr) std::fclose(f);
  }
  OutFile(const OutFile&) = delete;
  OutFile& operator=(const OutFile&) = delete;
  void close() {
    const bool failed = std::ferror(f) != 0;
    const bool closed = std::fclose(f) == 0;
    f = nullptr;
    if (failed || !closed) throw input_error("--export-matrix: writing {} failed", path.string());
  }
  std::filesystem::path path;
  std::FILE* f;
};

}  // namespace

NodeSystem make_node_system(const topology::Mesh& m, halo::HaloPlan& nodes) {
  const auto nn = static_cast<std::size_t>(m.n_nodes);
  NodeSystem s;
  s.d.assign(nn, 0);
  s.w = m.edge_stiffness;
  s.fixed.assign(nn, 0);
  // Owned nodes from the local patches, ghosts from their owners (as physics/heat/heat.cpp does).
  for (const auto& patch : m.patches)
    for (index n : patch.nodes)
      if (n < m.n_owned_nodes) s.fixed[static_cast<std::size_t>(n)] = 1;
  nodes.exchange(std::span<real>(s.fixed));
  s.rhs.resize(nn);
  for (std::size_t n = 0; n < nn; ++n) s.rhs[n] = (1 - s.fixed[n]) * m.node_dual_volume[n];
  return s;
}

PcgTiming time_pcg(const backend::Backend& be, const topology::Mesh& m, halo::HaloPlan& nodes,
                   const NodeSystem& s, long long global_nodes, const SolveOptions& options) {
  auto d = be.make_field_from(s.d), w = be.make_field_from(s.w),
       fixed = be.make_field_from(s.fixed);
  auto rhs = be.make_field_from(s.rhs);
  auto x = be.make_field(m.n_nodes);
  const solvers::NodeSystemOperator a(m, be, nodes, *d, s.b, *w, *fixed);
  solvers::Pcg pcg(be, m.n_nodes);
  solvers::SolveOptions opt;
  opt.relative_tolerance = options.tolerance;  // 0: never met, so exactly max_iterations run
  opt.absolute_tolerance = 0;
  opt.max_iterations = std::min(options.iterations, 3);  // warm-up: kernels, device mesh, clocks
  warm_up(be, options.warmup_s, [&] {
    be.fill(*x, 0);
    pcg.solve(a, *rhs, *x, opt);
  });
  opt.max_iterations = options.iterations;
  be.fill(*x, 0);
  be.finish();
  barrier();
  Timer timer;
  const solvers::SolveResult r = pcg.solve(a, *rhs, *x, opt);
  be.finish();
  const double seconds = timer.seconds();
  if (r.status == solvers::SolveStatus::breakdown ||
      (options.tolerance > 0 && r.status != solvers::SolveStatus::converged))
    log::warn("bench PCG: {}", r.message);

  PcgTiming t;
  t.iterations = r.iterations;
  t.relative_residual = r.relative_residual;
  t.unknowns = global_nodes;
  t.time_s = global_max(seconds);
  const double rb = real_bytes(be);
  const double bytes = backend::traffic_bytes("node_system_apply", m, 0, rb) +
                       10 * m.n_owned_nodes * rb + 3.0 * m.n_nodes * rb;
  t.bytes_per_iteration = global_sum(bytes);
  return t;
}

void export_matrix(const topology::Mesh& m, const NodeSystem& s, const std::string& dir) {
  SCFD_CHECK(!m.distributed(), "export_matrix needs the serial mesh");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw input_error("--export-matrix: cannot create {}: {}", dir, ec.message());
  const auto free = [&](index n) { return s.fixed[static_cast<std::size_t>(n)] == 0; };
  // Row i: d_i + b sum_e w_e on the diagonal, -b w_e for a free neighbour; identity on fixed rows.
  std::vector<real> diag(static_cast<std::size_t>(m.n_nodes));
  long long nnz = m.n_nodes;
  for (index i = 0; i < m.n_nodes; ++i) {
    real sum = 0;
    for (index e : m.node_edges.row(i)) sum += s.w[static_cast<std::size_t>(e)];
    diag[static_cast<std::size_t>(i)] = free(i) ? s.d[static_cast<std::size_t>(i)] + s.b * sum : 1;
  }
  for (index e = 0; e < m.n_edges; ++e)
    if (free(m.edge_nodes[2 * e]) && free(m.edge_nodes[2 * e + 1])) ++nnz;

  OutFile mtx(std::filesystem::path(dir) / "matrix.mtx");
  fmt::print(mtx.f,
             "%%MatrixMarket matrix coordinate real symmetric\n"
             "% streamcfd bench node system: steady conduction, k = 1, T = 0 on the boundary\n"
             "% (Dirichlet rows are identity rows), Jacobi-PCG from x = 0. Lower triangle.\n"
             "{} {} {}\n",
             m.n_nodes, m.n_nodes, nnz);
  for (index i = 0; i < m.n_nodes; ++i)
    fmt::print(mtx.f, "{} {} {:.17g}\n", i + 1, i + 1, diag[static_cast<std::size_t>(i)]);
  for (index e = 0; e < m.n_edges; ++e) {
    const index i = m.edge_nodes[2 * e], j = m.edge_nodes[2 * e + 1];
    if (free(i) && free(j))
      fmt::print(mtx.f, "{} {} {:.17g}\n", std::max(i, j) + 1, std::min(i, j) + 1,
                 -s.b * s.w[static_cast<std::size_t>(e)]);
  }
  mtx.close();

  OutFile rhs(std::filesystem::path(dir) / "rhs.mtx");
  fmt::print(rhs.f, "%%MatrixMarket matrix array real general\n{} 1\n", m.n_nodes);
  for (real v : s.rhs) fmt::print(rhs.f, "{:.17g}\n", v);
  rhs.close();
}

}  // namespace scfd::app::bench
