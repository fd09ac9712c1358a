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
#include <fmt/format.h>

#include <random>

#include "app/bench.hpp"
#include "backend/traffic.hpp"
#include "config/case.hpp"
#include "core/error.hpp"
#include "physics/ns/geometry.hpp"
#include "physics/ns/operators.hpp"
#include "physics/ns/setup.hpp"

namespace scfd::app::bench {

std::vector<Timing> momentum_timings(const backend::Backend& be, const topology::Mesh& m,
                                     halo::Halo& halo, const TimingOptions& o) {
  if (m.dim != 3 || m.patches.empty())
    throw input_error(
        "bench --only momentum: needs a 3D mesh with boundary patches (the 2D operator's stars "
        "are diagonal: --only kernels times its parts)");
  std::string toml = "[fluid]\nreynolds = 100\n";
  for (std::size_t p = 0; p < m.patches.size(); ++p)
    toml += fmt::format("[boundary.\"{}\"]\ntype = \"{}\"\n{}", m.patches[p].name,
                        p == 0 ? "moving-wall" : "wall", p == 0 ? "velocity_x = 1.0\n" : "");
  const config::Case c = config::Case::from_string(toml, "bench --only momentum");
  const physics::ns::Setup setup = physics::ns::read_setup(c, m);
  const physics::ns::Geometry g = physics::ns::build_geometry(m, setup, halo);
  const physics::ns::Coefficients k(be, m, g);
  physics::ns::MomentumOperator op(m, be, halo, k, setup.upwind);

  std::mt19937_64 rng(20261128);
  std::uniform_real_distribution<real> unit(-1, 1);
  const auto random_face_field = [&](bool fluxes) {
    std::vector<real> v(static_cast<std::size_t>(m.n_faces));
    for (index f = 0; f < m.n_faces; ++f) v[f] = unit(rng) * (fluxes ? m.face_area[f] : 1);
    halo.faces.exchange(std::span<real>(v));
    return be.make_field_from(v);
  };
  const auto a = random_face_field(true);  // advecting fluxes of a velocity of order 1
  const auto x = random_face_field(false);
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
  const auto time = [&](const std::string& name, index entries, double bytes, auto&& call) {
    Timing t{name, entries};
    t.bytes = bytes;
    time_calls(be, o, call, t);
    out.push_back(std::move(t));
  };
  time("momentum_apply", m.n_owned_faces, matrices + kernels + vectors, [&] { op.apply(*x, *y); });
  time("momentum_viscous", m.n_owned_faces, matrices + backend::traffic_bytes("rotation", m, 0, rb),
       [&] { op.viscous(*x, *y); });
  time("momentum_convection", m.n_owned_faces,
       backend::traffic_bytes("interpolate", m, 0, rb) +
           backend::traffic_bytes("convection", m, 0, rb) +
           backend::traffic_bytes("integrate", m, 0, rb),
       [&] { op.convect(*x, *y); });
  time("mass_rt", g.face_star.matrix.rows, product_bytes(g.face_star.matrix, 0, rb),
       [&] { k.face_star.apply(*x, *y); });
  time("edge_star_wmp", g.edge_star.matrix.rows, product_bytes(g.edge_star.matrix, 0, rb),
       [&] { k.edge_star.apply(*circulation, *vorticity); });
  time("mass_curl", g.mass_curl.rows, product_bytes(g.mass_curl, 0, rb),
       [&] { be.matrix_apply(*k.mass_curl, *vorticity, *y); });
  return out;
}

}  // namespace scfd::app::bench
