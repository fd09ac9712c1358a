// `streamcfd bench`, kernel part: the copy ceiling and the per-kernel timings, with the traffic
// model that turns a time into a bandwidth (docs/architecture.md §9, §11: every kernel's bandwidth
// is reported as a ratio to the copy bandwidth measured in the same run).
//
// The bytes of each call come from the traffic model of backend/traffic.hpp (a lower bound: a
// kernel cannot move fewer bytes).

#include <algorithm>
#include <random>

#include "app/bench.hpp"
#include "backend/traffic.hpp"
#include "core/collectives.hpp"
#include "core/error.hpp"
#include "core/timer.hpp"

namespace scfd::app::bench {
namespace {

void reduce_timing(double seconds, Timing& t) {
  const double max_time = global_max(seconds), sum_bytes = global_sum(t.bytes);
  double rank0[2] = {seconds, t.bytes};
  broadcast(std::span<double>(rank0));
  t.time_s = rank0[0];
  t.bytes = rank0[1];
  t.time_max_s = max_time;
  t.bytes_all = sum_bytes;
}

// A field of n uniform random values in [lo, hi), the same on every run.
std::unique_ptr<backend::Field> random_field(const backend::Backend& be, index n, real lo, real hi,
                                             std::mt19937_64& rng) {
  std::uniform_real_distribution<real> u(lo, hi);
  std::vector<real> host(static_cast<std::size_t>(n));
  for (real& v : host) v = u(rng);
  auto f = be.make_field(n);
  be.upload(host, *f);
  return f;
}

}  // namespace

void warm_up(const backend::Backend& be, double seconds, const std::function<void()>& call) {
  Timer timer;
  for (double elapsed = 0; elapsed < seconds || elapsed == 0;) {
    call();
    be.finish();
    elapsed = global_max(timer.seconds());
  }
}

void time_calls(const backend::Backend& be, const TimingOptions& o,
                const std::function<void()>& call, Timing& t) {
  warm_up(be, o.warmup_s, call);
  barrier();
  Timer timer;
  for (int r = 0; r < o.repeat; ++r) call();
  be.finish();
  reduce_timing(timer.seconds() / o.repeat, t);
}

int real_bytes(const backend::Backend& be) {
  return be.precision() == "fp32" ? 4 : 8;
}

double product_bytes(const backend::SparseMatrix& a, int row_vectors, int rb) {
  return static_cast<double>(a.entries()) * (rb + 4) + static_cast<double>(a.cols) * rb +
         static_cast<double>(a.rows) * rb * (1 + row_vectors);
}

Timing copy_ceiling(const backend::Backend& be, const topology::Mesh& m, const TimingOptions& o) {
  const index largest = std::max({m.n_nodes, m.n_edges, m.n_faces, 3 * m.n_cells});
  const index n = std::max<index>(index{1} << 24, largest);
  auto x = be.make_field(n), y = be.make_field(n);
  be.fill(*x, 1);
  be.fill(*y, 0);
  Timing t{"copy ceiling", n};
  t.bytes = backend::traffic_bytes("copy", m, n, real_bytes(be));
  time_calls(
      be, o, [&] { be.copy(*x, *y); }, t);
  return t;
}

std::vector<Timing> kernel_timings(const backend::Backend& be, const topology::Mesh& m,
                                   const TimingOptions& o, std::size_t& device_bytes) {
  std::mt19937_64 rng(20261122);
  const index nf = m.n_faces, nfo = m.n_owned_faces;
  // Vector operations run over face-sized fields (the largest scalar fields of a mesh).
  auto a = random_field(be, nf, 0.5, 1.5, rng), b = random_field(be, nf, 0.5, 1.5, rng);
  auto p = random_field(be, nf, -1, 1, rng), q = random_field(be, nf, -1, 1, rng);
  auto dinv = random_field(be, nf, 0.5, 1.5, rng), x = random_field(be, nf, -1, 1, rng);
  auto r = random_field(be, nf, -1, 1, rng), z = be.make_field(nf);
  auto u_face = random_field(be, nf, -1, 1, rng), g_face = be.make_field(nf);
  auto q_cell = random_field(be, m.n_cells, -1, 1, rng), d_cell = be.make_field(m.n_cells);
  auto q_bound = random_field(be, m.n_boundary_faces(), -1, 1, rng);
  auto v_cell = random_field(be, 3 * m.n_cells, -1, 1, rng), u_cell = be.make_field(3 * m.n_cells);
  auto v_bound = random_field(be, 3 * m.n_boundary_faces(), -1, 1, rng);
  auto s = random_field(be, m.n_curl(), -1, 1, rng), rot = be.make_field(m.n_curl());
  auto x_node = random_field(be, m.n_nodes, -1, 1, rng), y_node = be.make_field(m.n_nodes);
  auto d_node = random_field(be, m.n_nodes, 0, 1, rng), w = be.make_field(m.n_edges);
  be.upload(m.edge_stiffness, *w);
  std::vector<real> fixed_host(static_cast<std::size_t>(m.n_nodes), 0);
  for (const auto& patch : m.patches)
    for (index node : patch.nodes) fixed_host[static_cast<std::size_t>(node)] = 1;
  auto fixed = be.make_field(m.n_nodes);
  be.upload(fixed_host, *fixed);

  const int rb = real_bytes(be);
  std::vector<Timing> out;
  auto run = [&](const std::string& name, index n, index entries, auto&& call) {
    Timing t{name, entries};
    t.bytes = backend::traffic_bytes(name, m, n, rb);
    time_calls(be, o, call, t);
    out.push_back(std::move(t));
  };
  run("copy", nf, nf, [&] { be.copy(*a, *g_face); });
  run("axpy", nf, nf, [&] { be.axpy(1e-3, *a, *b); });
  run("xpay", nf, nf, [&] { be.xpay(*a, 0.5, *b); });
  run("scale", nf, nf, [&] { be.scale(0.5, *a, *g_face); });
  run("dot", nfo, nfo, [&] { (void)be.dot(*a, *b, nfo); });
  // PCG scalars giving alpha = 1e-3 and beta = 1 on every call (iteration 0 reads slot rz0 and
  // writes rz0 + 1; its sums leave alpha alone).
  auto pcg_scalars = be.make_scalars(backend::PcgSlots::count);
  std::vector<real> sv(backend::PcgSlots::count, 0);
  sv[backend::PcgSlots::pq] = 1;
  sv[backend::PcgSlots::rz_before(0)] = 1e-3;
  sv[backend::PcgSlots::rz_after(0)] = 1e-3;
  be.write_scalars(sv, *pcg_scalars);
  run("pcg_update", nfo, nfo,
      [&] { be.pcg_update(0, *pcg_scalars, *p, *q, *dinv, *x, *r, *z, nfo); });
  run("pcg_direction", nf, nf, [&] { be.pcg_direction(1, *pcg_scalars, *a, *b); });
  run("gradient", 0, nfo, [&] { be.gradient(m, *q_cell, *q_bound, *g_face); });
  run("divergence", 0, m.n_owned_cells, [&] { be.divergence(m, *u_face, *d_cell); });
  run("flux_sum_abs", 0, m.n_owned_cells, [&] { be.flux_sum_abs(m, *u_face, *d_cell); });
  run("curl", 0, nfo, [&] { be.curl(m, *s, *g_face); });
  run("rotation", 0, m.n_owned_curl(), [&] { be.rotation(m, *u_face, *rot); });
  run("interpolate", 0, 3 * m.n_owned_cells, [&] { be.interpolate(m, *u_face, *u_cell); });
  run("integrate", 0, nfo, [&] { be.integrate(m, *v_cell, *g_face); });
  run("convection", 0, 3 * m.n_owned_cells,
      [&] { be.convection(m, *u_face, *v_cell, *v_bound, 0.5, *u_cell); });
  run("node_laplacian", 0, m.n_owned_nodes, [&] { be.node_laplacian(m, *w, *x_node, *y_node); });
  run("node_system", 0, m.n_owned_nodes,
      [&] { be.node_system(m, *d_node, 1, *w, *fixed, *x_node, *y_node); });
  run("node_system_diagonal", 0, m.n_owned_nodes,
      [&] { be.node_system_diagonal(m, *d_node, 1, *w, *fixed, *y_node); });
  const auto system = be.make_node_system(m, *d_node, 1, *w, *fixed);
  run("node_system_apply", 0, m.n_owned_nodes, [&] { system->apply(*x_node, *y_node); });
  // The fixed cost of a dependent dispatch: an axpy of kTiny entries, each call reading what the
  // one before wrote (every GPU kernel ends with a memory barrier), so the time per call is what
  // each of a step's dispatches costs however small its work and however many GPUs share the
  // step (the run summary's gpu_dispatches; docs/scaling.md, "Several GPUs").
  constexpr index kTiny = 1024;
  auto tiny_x = random_field(be, kTiny, -1, 1, rng), tiny_y = random_field(be, kTiny, -1, 1, rng);
  Timing tiny{"dependent_dispatch", kTiny};
  tiny.bytes = backend::traffic_bytes("axpy", m, kTiny, rb);
  time_calls(
      be, o, [&] { be.axpy(1e-3, *tiny_x, *tiny_y); }, tiny);
  out.push_back(std::move(tiny));
  device_bytes = be.device_bytes();
  return out;
}

}  // namespace scfd::app::bench
