// The flow at fixed points (see point_sampler.hpp).
#include "physics/plugins/point_sampler.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "core/collectives.hpp"
#include "physics/ns/post.hpp"
#include "topology/p1.hpp"

namespace scfd::physics {
namespace {

// The owned cell of m where the smallest barycentric coordinate of x is largest (>= 0 inside;
// a point on a shared face or node goes to the first such cell, up to round-off), and that
// coordinate; kNone and -1 when no owned cell comes within round-off.
std::pair<index, real> containing_cell(const topology::Mesh& m, Vec3 x) {
  const int w = m.cell_width();
  real best = -1e-9;
  index cell = kNone;
  for (index c = 0; c < m.n_owned_cells; ++c) {
    const std::array<Vec3, 4> g = topology::barycentric_gradients(m, c);
    real lo = 1;
    for (int k = 0; k < w; ++k) {
      const Vec3 xk = m.node_x[m.cell_nodes[w * c + k]];
      lo = std::min(lo, 1 + dot(g[static_cast<std::size_t>(k)], x - xk));
    }
    if (lo > best) {
      best = lo;
      cell = c;
    }
  }
  return {cell, cell == kNone ? -1 : best};
}

}  // namespace

PointSampler::PointSampler(const config::Case& c, const std::string& key, FlowAccess& flow,
                           std::vector<Vec3> points)
    : flow_(flow), points_(std::move(points)) {
  const topology::Mesh& m = flow.mesh();
  const int w = m.cell_width();
  cell_.assign(points_.size(), kNone);
  for (std::size_t i = 0; i < points_.size(); ++i) {
    const auto [cell, score] = containing_cell(m, points_[i]);
    const ValueRank best = global_max_rank(score);
    if (best.value < -1e-9)
      c.fail(key, fmt::format("point {} at ({}, {}, {}) lies outside the mesh", i, points_[i].x,
                              points_[i].y, points_[i].z));
    if (best.rank != world_rank()) continue;
    cell_[i] = cell;
    for (int k = 0; k < w; ++k)
      for (index n : m.node_cells.row(m.cell_nodes[w * cell + k])) cells_.push_back(n);
  }
  std::sort(cells_.begin(), cells_.end());
  cells_.erase(std::unique(cells_.begin(), cells_.end()), cells_.end());
  for (index cell : cells_)
    for (index d = 0; d < 3; ++d) components_.push_back(3 * cell + d);
}

std::vector<real> PointSampler::sample(bool with_pressure) {
  const topology::Mesh& m = flow_.mesh();
  const backend::Backend& be = flow_.backend();
  const int w = m.cell_width();
  std::vector<real> uc(components_.size()), p(with_pressure ? cells_.size() : 0);
  const backend::Field& cell_velocity = flow_.cell_velocity();
  if (!uc.empty()) be.download_indices(cell_velocity, components_, uc);
  if (with_pressure) {
    const backend::Field& pressure = flow_.pressure();
    if (!p.empty()) be.download_indices(pressure, cells_, p);
  }
  const auto at = [&](index c) {
    return static_cast<std::size_t>(std::lower_bound(cells_.begin(), cells_.end(), c) -
                                    cells_.begin());
  };
  const auto velocity = [&](index c) {
    const std::size_t k = 3 * at(c);
    return Vec3{uc[k], uc[k + 1], uc[k + 2]};
  };
  const std::size_t width = static_cast<std::size_t>(m.dim) + (with_pressure ? 1 : 0);
  std::vector<real> v(width * points_.size(), 0);
  for (std::size_t i = 0; i < points_.size(); ++i) {
    const index c = cell_[i];
    if (c == kNone) continue;
    const std::array<Vec3, 4> g = topology::barycentric_gradients(m, c);
    Vec3 u{};
    for (int k = 0; k < w; ++k) {
      const index n = m.cell_nodes[w * c + k];
      const real phi = 1 + dot(g[static_cast<std::size_t>(k)], points_[i] - m.node_x[n]);
      const std::optional<Vec3> wall = flow_.boundary_velocity(n);
      u += phi * (wall ? *wall : ns::node_average(m, n, velocity));
    }
    for (int d = 0; d < m.dim; ++d) v[width * i + d] = u[d];
    if (with_pressure)
      v[width * i + m.dim] =
          flow_.density() * ns::pressure_at(m, c, points_[i], [&](index k) { return p[at(k)]; });
  }
  global_sum(std::span<real>(v));
  return v;
}

}  // namespace scfd::physics
