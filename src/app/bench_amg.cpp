// `streamcfd bench --only amg`: where a multigrid V-cycle's time goes. The system is a cell
// Laplacian shaped like the Navier–Stokes pressure system (solvers/assembly.hpp
// cell_laplacian_matrix with mobility = face area / distance of the cell centroids), its hierarchy
// is the one make_amg builds (solvers::amg_options), and each level's four products are timed on
// their own (the smoother's sweep, the residual, the restriction R r and the prolongation e + P
// e_c), then the coarsest solve and one whole V-cycle. Bytes per product (a lower bound): every
// entry's value and column, x once per column, and one or two row-sized vectors (b, z) plus the
// result.
#include <algorithm>
#include <cstdio>

#include "app/bench.hpp"
#include "core/collectives.hpp"
#include "core/counters.hpp"
#include "core/log.hpp"
#include "solvers/amg.hpp"
#include "solvers/assembly.hpp"

namespace scfd::app::bench {
namespace {

using backend::Field;
using backend::SparseMatrix;

std::unique_ptr<Field> ones(const backend::Backend& be, index n) {
  auto f = be.make_field(n);
  be.fill(*f, 1);
  return f;
}

}  // namespace

std::vector<Timing> amg_timings(const backend::Backend& be, const topology::Mesh& m,
                                halo::HaloPlan& cells, const TimingOptions& o,
                                std::string& hierarchy, counters::Snapshot& per_cycle) {
  std::vector<real> mobility(static_cast<std::size_t>(m.n_faces), 0);
  for (index f = 0; f < m.n_faces; ++f) {
    const index c1 = m.face_cells[2 * f], c2 = m.face_cells[2 * f + 1];
    if (c1 == kNone) continue;  // a ghost face whose cell is not on this rank
    const Vec3 other = c2 == kNone ? m.face_centre[f] : m.cell_centroid[c2];
    mobility[f] = m.face_area[f] / norm(other - m.cell_centroid[c1]);
  }
  const SparseMatrix a = solvers::cell_laplacian_matrix(m, mobility);
  const solvers::AmgOptions options = solvers::amg_options(be);
  solvers::AmgHierarchy h =
      world_size() > 1 ? solvers::build_amg(a, cells, options) : solvers::build_amg(a, options);
  hierarchy = h.describe();
  const int rb = real_bytes(be);
  const auto time = [&](const std::string& name, index entries, double bytes, auto&& call) {
    Timing t{name, entries};
    t.bytes = bytes;
    time_calls(be, o, call, t);
    return t;
  };

  std::vector<Timing> out;
  for (std::size_t l = 0; l + 1 < h.levels.size(); ++l) {
    const solvers::AmgLevel& L = h.levels[l];
    const auto A = be.make_matrix(L.a), P = be.make_matrix(L.p), R = be.make_matrix(L.r);
    auto w = ones(be, L.a.cols), b = ones(be, L.a.cols), x = ones(be, L.a.cols);
    auto y = be.make_field(L.a.cols), ec = ones(be, L.p.cols), rc = be.make_field(L.p.cols);
    const std::string at = fmt::format("amg {} ", l);
    out.push_back(time(at + "jacobi", L.a.rows, product_bytes(L.a, 2, rb),
                       [&] { be.matrix_jacobi(*A, *w, *b, *x, *y); }));
    out.push_back(time(at + "residual", L.a.rows, product_bytes(L.a, 1, rb),
                       [&] { be.matrix_residual(*A, *b, *x, *y); }));
    out.push_back(time(at + "restrict", L.r.rows, product_bytes(L.r, 0, rb),
                       [&] { be.matrix_apply(*R, *x, *rc); }));
    out.push_back(time(at + "prolong", L.p.rows, product_bytes(L.p, 1, rb),
                       [&] { be.matrix_apply_add(*P, *ec, *x, *y); }));
  }
  if (!h.gathered) {
    const SparseMatrix& c = h.coarse_inverse;
    const auto C = be.make_matrix(c);
    auto x = ones(be, c.cols), y = be.make_field(c.rows);
    out.push_back(time(fmt::format("amg {} coarse solve", h.levels.size() - 1), c.rows,
                       product_bytes(c, 0, rb), [&] { be.matrix_apply(*C, *x, *y); }));
  }
  const solvers::Amg amg(be, std::move(h), cells.n_local(), options.sweeps, &cells);
  auto r = ones(be, cells.n_local()), z = be.make_field(cells.n_local());
  out.push_back(time("amg V-cycle", m.n_owned_cells, 0, [&] { amg.apply(*r, *z); }));
  const counters::Snapshot before = counters::snapshot();
  amg.apply(*r, *z);
  per_cycle = counters::snapshot() - before;
  return out;
}

}  // namespace scfd::app::bench
