// `streamcfd bench --only momentum`: one application of ns-classical's 3D momentum operator
// (ns::MomentumOperator: y = free .* ((M + nu dt K + dt/2 C(a))(free .* x)) + fixed .* x, the
// product BiCGStab applies twice per iteration; docs/methods.md) on the bench's mesh as a
// lid-driven cavity (its first patch a moving wall, the others walls, Re 100), with its parts
// timed alone: the viscous term M C W R M x, the convection C(a) x, and the three stored
// matrices (M_RT, W_mp, M C). Bytes of the application (a lower bound, the sum of its parts):
// each matrix product's values, 4-byte columns, x once per column and the result
// (product_bytes), the rotation's and the convection's kernels by the traffic model
// (backend/traffic.hpp), and 20 field lengths of face vectors for its element-wise operations
// (the mask of x, the copy of M x, the combination's three axpy and two products).
//
// `--only stream`: the same for ns-exact's 3D stream system on the same cavity: one application of
// its operator (ns::StreamOperator: P (S + nu dt S W S + dt/2 R C(a) C) P x) and of its
// auxiliary-space preconditioner (each applied twice per BiCGStab iteration), then S, W_mp and the
// convection chain (curl, C(a), rotation) alone. Bytes as above: the operator's two products with
// S, one with W_mp, the convection chain's kernels and 10 field lengths of edge vectors; the
// preconditioner's two products with S and 12 edge-vector lengths (its V-cycle and node transfers
// not counted: a lower bound). Then the two solvers of solver.stream_solver for the same number
// of products, so that their vector work shows: 10 BiCGStab iterations (20 products and 20
// preconditioner cycles) and 20 GMRES iterations, each solve from x = 0 with a tolerance it never
// meets (bytes: the products' and cycles' alone), and one Gram-Schmidt step of GMRES against 10
// basis vectors (dots, axpys, the norm and the normalisation; 24 edge-vector lengths).
#include <fmt/format.h>

#include <random>

#include "app/bench.hpp"
#include "backend/traffic.hpp"
#include "config/case.hpp"
#include "core/error.hpp"
#include "physics/ns/geometry.hpp"
#include "physics/ns/hodge.hpp"
#include "physics/ns/operators.hpp"
#include "physics/ns/setup.hpp"
#include "physics/ns/stream.hpp"
#include "physics/ns/stream_operator.hpp"
#include "solvers/bicgstab.hpp"
#include "solvers/gmres.hpp"

namespace scfd::app::bench {

namespace {

// The bench's mesh as a lid-driven cavity: its first patch a moving wall, the others walls, Re 100.
// InputError naming `part` for a 2D mesh or one without boundary patches.
physics::ns::Setup cavity_setup(const topology::Mesh& m, const std::string& part,
                                const std::string& why) {
  if (m.dim != 3 || m.patches.empty())
    throw input_error("bench --only {}: needs a 3D mesh with boundary patches ({})", part, why);
  std::string toml = "[fluid]\nreynolds = 100\n";
  for (std::size_t p = 0; p < m.patches.size(); ++p)
    toml += fmt::format("[boundary.\"{}\"]\ntype = \"{}\"\n{}", m.patches[p].name,
                        p == 0 ? "moving-wall" : "wall", p == 0 ? "velocity_x = 1.0\n" : "");
  const config::Case c = config::Case::from_string(toml, "bench --only " + part);
  return physics::ns::read_setup(c, m);
}

// A field of n entries, uniform in [-1, 1] times `scale` (per entry; empty: 1), ghosts exchanged.
std::unique_ptr<backend::Field> random_field(const backend::Backend& be, halo::HaloPlan& plan,
                                             index n, std::span<const real> scale,
                                             std::mt19937_64& rng) {
  std::uniform_real_distribution<real> unit(-1, 1);
  std::vector<real> v(static_cast<std::size_t>(n));
  for (index i = 0; i < n; ++i) v[i] = unit(rng) * (scale.empty() ? 1 : scale[i]);
  plan.exchange(std::span<real>(v));
  return be.make_field_from(v);
}

// Times `call` as time_calls does and appends the row to `out` (bytes: by the caller's model).
void time_row(const backend::Backend& be, const TimingOptions& o, std::vector<Timing>& out,
              const std::string& name, index entries, double bytes,
              const std::function<void()>& call) {
  Timing t{name, entries};
  t.bytes = bytes;
  time_calls(be, o, call, t);
  out.push_back(std::move(t));
}

}  // namespace

std::vector<Timing> momentum_timings(const backend::Backend& be, const topology::Mesh& m,
                                     halo::Halo& halo, const TimingOptions& o) {
  const physics::ns::Setup setup = cavity_setup(
      m, "momentum", "the 2D operator's stars are diagonal: --only kernels times its parts");
  const physics::ns::Geometry g = physics::ns::build_geometry(m, setup, halo);
  const physics::ns::Coefficients k(be, m, g);
  physics::ns::MomentumOperator op(m, be, halo, k, setup.upwind);

  std::mt19937_64 rng(20261128);
  // advecting fluxes of a velocity of order 1, and x
  const auto a = random_field(be, halo.faces, m.n_faces, m.face_area, rng);
  const auto x = random_field(be, halo.faces, m.n_faces, {}, rng);
  const auto y = be.make_field(m.n_faces);
  const real dt = 1e-3;
  op.advecting = a.get();
  op.nu_dt = setup.viscosity * dt;
  op.convection_dt = dt / 2;
  const auto circulation = be.make_field(m.n_curl()), vorticity = be.make_field(m.n_curl());
  be.fill(*circulation, 1);
  be.fill(*vorticity, 1);

  const int rb = real_bytes(be);
  const double matrices = product_bytes(g.face_star.matrix, 0, rb) +
                          product_bytes(g.edge_star.matrix, 0, rb) +
                          product_bytes(g.mass_curl, 0, rb);
  double kernels = 0;
  for (const char* name : {"interpolate", "rotation", "convection", "integrate"})
    kernels += backend::traffic_bytes(name, m, 0, rb);
  const double vectors = 20.0 * m.n_faces * rb;

  // The stars' host set-up leaves the GPU idle for a minute at 8M cells: its clocks come back
  // only after seconds of load (the first row measured 2x its later value with time_calls'
  // own warm-up alone).
  warm_up(be, 3.0, [&] { op.apply(*x, *y); });
  std::vector<Timing> out;
  time_row(be, o, out, "momentum_apply", m.n_owned_faces, matrices + kernels + vectors,
           [&] { op.apply(*x, *y); });
  time_row(be, o, out, "momentum_viscous", m.n_owned_faces,
           matrices + backend::traffic_bytes("rotation", m, 0, rb), [&] { op.viscous(*x, *y); });
  time_row(be, o, out, "momentum_convection", m.n_owned_faces,
           backend::traffic_bytes("interpolate", m, 0, rb) +
               backend::traffic_bytes("convection", m, 0, rb) +
               backend::traffic_bytes("integrate", m, 0, rb),
           [&] { op.convect(*x, *y); });
  time_row(be, o, out, "mass_rt", g.face_star.matrix.rows, product_bytes(g.face_star.matrix, 0, rb),
           [&] { k.face_star.apply(*x, *y); });
  time_row(be, o, out, "edge_star_wmp", g.edge_star.matrix.rows,
           product_bytes(g.edge_star.matrix, 0, rb),
           [&] { k.edge_star.apply(*circulation, *vorticity); });
  time_row(be, o, out, "mass_curl", g.mass_curl.rows, product_bytes(g.mass_curl, 0, rb),
           [&] { be.matrix_apply(*k.mass_curl, *vorticity, *y); });
  return out;
}

std::vector<Timing> stream_timings(const backend::Backend& be, const topology::Mesh& m,
                                   halo::Halo& halo, const TimingOptions& o) {
  const physics::ns::Setup setup =
      cavity_setup(m, "stream", "the 2D stream system is a node system: --only amg times its kind");
  const physics::ns::Geometry g = physics::ns::build_geometry(m, setup, halo);
  const physics::ns::Coefficients k(be, m, g);
  physics::ns::StreamOperator op(m, be, halo, k, g.face_star.diagonal, g.edge_star.diagonal,
                                 setup.upwind);
  const physics::ns::BoundaryData b = physics::ns::boundary_data(m, setup, 0, halo);
  const physics::ns::StreamBoundary sb =
      physics::ns::stream_boundary(m, setup, b.flux, "bench --only stream");
  op.set_fixed(sb.fixed);
  if (!sb.chains.empty()) op.set_chains(sb.chains);
  op.use_multigrid();
  std::mt19937_64 rng(20261129);
  halo::HaloPlan& curl = physics::ns::curl_plan(halo, m);
  const auto a = random_field(be, halo.faces, m.n_faces, m.face_area, rng);
  const auto x = random_field(be, curl, m.n_curl(), {}, rng);
  const auto y = be.make_field(m.n_curl());
  const auto curl_x = be.make_field(m.n_faces), convected = be.make_field(m.n_faces);
  const real dt = 1e-3;
  op.advecting = a.get();
  op.nu_dt = setup.viscosity * dt;
  op.convection_dt = dt / 2;
  const solvers::Preconditioner* preconditioner = op.preconditioner();
  const backend::SparseMatrix s = physics::ns::stream_matrix(m);
  const auto stream = be.make_matrix(s);
  const physics::ns::Convection convection(m, be, halo, setup.upwind);

  const int rb = real_bytes(be);
  const double s_bytes = product_bytes(s, 0, rb);
  const double w_bytes = product_bytes(g.edge_star.matrix, 0, rb);
  double chain = 0;
  for (const char* name : {"curl", "interpolate", "convection", "integrate", "rotation"})
    chain += backend::traffic_bytes(name, m, 0, rb);
  const double edges = static_cast<double>(m.n_curl()) * rb;

  warm_up(be, 3.0, [&] { op.apply(*x, *y); });  // see momentum_timings
  std::vector<Timing> out;
  time_row(be, o, out, "stream_apply", m.n_owned_curl(), 2 * s_bytes + w_bytes + chain + 10 * edges,
           [&] { op.apply(*x, *y); });
  time_row(be, o, out, "stream_preconditioner", m.n_owned_curl(), 2 * s_bytes + 12 * edges,
           [&] { preconditioner->apply(*x, *y); });
  time_row(be, o, out, "stream_s", s.rows, s_bytes, [&] { be.matrix_apply(*stream, *x, *y); });
  time_row(be, o, out, "edge_star_wmp", g.edge_star.matrix.rows, w_bytes,
           [&] { k.edge_star.apply(*x, *y); });
  time_row(be, o, out, "stream_convection", m.n_owned_curl(), chain, [&] {
    be.curl(m, *x, *curl_x);
    convection.apply_exchanging(*a, *curl_x, convection.zero_boundary(), *convected);
    halo.faces.exchange(be, *convected);
    be.rotation(m, *convected, *y);
  });
  const double product = 2 * s_bytes + w_bytes + chain + 10 * edges;
  const double cycle = 2 * s_bytes + 12 * edges;
  solvers::SolveOptions fixed;
  fixed.relative_tolerance = 0;  // never met: every solve runs to max_iterations
  fixed.max_iterations = 10;
  solvers::BiCgStab bicgstab(be, m.n_curl());
  time_row(be, o, out, "stream_bicgstab_10", m.n_owned_curl(), 20 * (product + cycle), [&] {
    be.fill(*y, 0);
    bicgstab.solve(op, *x, *y, fixed, preconditioner);
  });
  fixed.max_iterations = 20;
  solvers::Gmres gmres(be, m.n_curl());
  time_row(be, o, out, "stream_gmres_20", m.n_owned_curl(), 20 * (product + cycle), [&] {
    be.fill(*y, 0);
    gmres.solve(op, *x, *y, fixed, preconditioner);
  });
  constexpr int kBasis = 10;
  std::vector<std::unique_ptr<backend::Field>> basis;
  std::vector<const backend::Field*> vs;
  for (int i = 0; i < kBasis; ++i) {
    basis.push_back(random_field(be, curl, m.n_curl(), {}, rng));
    vs.push_back(basis.back().get());
  }
  const auto scalars = be.make_scalars(kBasis + 1);
  const auto zero = be.make_field(m.n_curl());
  be.fill(*zero, 0);
  const index n = m.n_owned_curl();
  time_row(be, o, out, "gmres_gram_schmidt_10", n, (2 * kBasis + 4) * edges, [&] {
    be.copy(*x, *y);
    be.dots(vs, *y, n, *scalars, 0);
    be.axpys(*scalars, 0, -1, vs, *y);
    be.dot(*y, *y, n, *scalars, kBasis);
    be.xpay(*zero, *scalars, {.slot = kBasis, .inverse_sqrt = true}, *y);
  });
  return out;
}

}  // namespace scfd::app::bench
