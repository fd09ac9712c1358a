// Navier–Stokes post-processing on the host (see ns/post.hpp).
#include "physics/ns/post.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "topology/p1.hpp"

namespace scfd::physics::ns {

BoundaryNodeVelocity::BoundaryNodeVelocity(const topology::Mesh& m, const Setup& s) : m_(m), s_(s) {
  std::vector<std::pair<index, int>> pairs;  // (node, patch), ghost boundary faces included
  const int w = m.face_width();
  for (index f = m.n_interior_faces; f < m.n_faces; ++f) {
    const int patch = m.face_patch[f];
    if (patch < 0) continue;
    const BcKind kind = s.bcs[static_cast<std::size_t>(patch)].kind;
    if (kind != BcKind::wall && kind != BcKind::velocity) continue;
    for (int k = 0; k < w; ++k) pairs.emplace_back(m.face_nodes[w * f + k], patch);
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  first_.assign(static_cast<std::size_t>(m.n_nodes) + 1, 0);
  for (const auto& [n, patch] : pairs) {
    ++first_[static_cast<std::size_t>(n) + 1];
    patches_.push_back(patch);
  }
  for (std::size_t n = 0; n + 1 < first_.size(); ++n) first_[n + 1] += first_[n];
}

std::optional<Vec3> BoundaryNodeVelocity::operator()(index n, double t) const {
  const index begin = first_[n], end = first_[n + 1];
  if (begin == end) return std::nullopt;
  const Vec3 x = m_.node_x[n];
  Vec3 sum{};
  for (index k = begin; k < end; ++k) {
    const auto& u = s_.bcs[static_cast<std::size_t>(patches_[k])].u;
    sum += Vec3{u[0](x.x, x.y, x.z, t), u[1](x.x, x.y, x.z, t), u[2](x.x, x.y, x.z, t)};
  }
  return sum / static_cast<real>(end - begin);
}

std::vector<Vec3> node_velocity(const topology::Mesh& m, std::span<const Vec3> u_cell,
                                const BoundaryNodeVelocity& boundary, double t) {
  std::vector<Vec3> u(static_cast<std::size_t>(m.n_nodes));
  for (index n = 0; n < m.n_nodes; ++n) {
    const std::optional<Vec3> b = boundary(n, t);
    u[n] = b ? *b : node_average(m, n, [&](index c) { return u_cell[c]; });
  }
  return u;
}

std::vector<Vec3> cell_vorticity(const topology::Mesh& m, std::span<const Vec3> u_node) {
  std::vector<Vec3> w(static_cast<std::size_t>(m.n_cells));
  for (index c = 0; c < m.n_cells; ++c) {
    const std::array<Vec3, 4> g = topology::barycentric_gradients(m, c);
    Vec3 curl{};
    for (int k = 0; k < m.cell_width(); ++k)
      curl += cross(g[static_cast<std::size_t>(k)], u_node[m.cell_nodes[m.cell_width() * c + k]]);
    w[c] = curl;
  }
  return w;
}

std::vector<std::pair<index, real>> pressure_weights(const topology::Mesh& m, index c, Vec3 x) {
  const int dim = m.dim;
  const Vec3 xc = m.cell_centre(c);
  // The neighbours: the cells sharing a node with c.
  std::vector<index> cells;
  const int w = m.cell_width();
  for (int j = 0; j < w; ++j)
    for (index k : m.node_cells.row(m.cell_nodes[w * c + j]))
      if (k != c) cells.push_back(k);
  std::sort(cells.begin(), cells.end());
  cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
  // g = A^-1 sum d_k (p_k - p_c) with A = sum d_k d_k^T, d_k = x_k - x_c, so
  // p_c + g.(x - x_c) = p_c + sum s_k (p_k - p_c) with s_k = d_k.y and A y = x - x_c.
  real a[3][3] = {}, y[3] = {};
  for (index k : cells) {
    const Vec3 d = m.cell_centre(k) - xc;
    for (int r = 0; r < dim; ++r)
      for (int q = 0; q < dim; ++q) a[r][q] += d[r] * d[q];
  }
  for (int r = 0; r < dim; ++r) y[r] = (x - xc)[r];
  // Gaussian elimination with partial pivoting; a degenerate stencil keeps the cell value.
  int order[3] = {0, 1, 2};
  for (int col = 0; col < dim; ++col) {
    int piv = col;
    for (int r = col + 1; r < dim; ++r)
      if (std::abs(a[order[r]][col]) > std::abs(a[order[piv]][col])) piv = r;
    std::swap(order[col], order[piv]);
    const int pr = order[col];
    if (!(std::abs(a[pr][col]) > 1e-30)) return {{c, 1.0}};
    for (int r = col + 1; r < dim; ++r) {
      const int rr = order[r];
      const real f = a[rr][col] / a[pr][col];
      for (int q = col; q < dim; ++q) a[rr][q] -= f * a[pr][q];
      y[rr] -= f * y[pr];
    }
  }
  Vec3 g{};
  for (int col = dim - 1; col >= 0; --col) {
    const int pr = order[col];
    real v = y[pr];
    for (int q = col + 1; q < dim; ++q) v -= a[pr][q] * g[q];
    g[col] = v / a[pr][col];
  }
  std::vector<std::pair<index, real>> out{{c, 1.0}};
  for (index k : cells) {
    const real s = dot(g, m.cell_centre(k) - xc);
    out.front().second -= s;
    out.emplace_back(k, s);
  }
  return out;
}

real pressure_at(const topology::Mesh& m, index c, Vec3 x, const std::function<real(index)>& p) {
  real sum = 0;
  for (const auto& [k, w] : pressure_weights(m, c, x)) sum += w * p(k);
  return sum;
}

}  // namespace scfd::physics::ns
