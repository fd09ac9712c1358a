// ns-classical post-processing (see ns_post.hpp).
#include "physics/ns_post.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <unordered_map>

#include "topology/p1.hpp"

namespace scfd::physics::ns {
namespace {

// Velocity of cell c from a flux lookup.
template <typename Flux>
Vec3 velocity_of(const topology::Mesh& m, index c, const Flux& flux) {
  const int w = m.cell_width();
  Vec3 sum{};
  for (int k = 0; k < w; ++k) {
    const auto i = static_cast<std::size_t>(w * c + k);
    const index f = m.cell_faces[i];
    sum += (m.cell_face_sign[i] * flux(f)) * (m.face_centre[f] - m.cell_circumcentre[c]);
  }
  return sum / m.cell_volume[c];
}

// Node velocity from cell velocities (volume-weighted).
template <typename CellVelocity>
Vec3 average_at(const topology::Mesh& m, index n, const CellVelocity& uc) {
  Vec3 sum{};
  real vol = 0;
  for (index c : m.node_cells.row(n)) {
    sum += m.cell_volume[c] * uc(c);
    vol += m.cell_volume[c];
  }
  return vol > 0 ? sum / vol : sum;
}

}  // namespace

std::vector<Vec3> cell_velocity(const topology::Mesh& m, std::span<const real> u_face) {
  std::vector<Vec3> u(static_cast<std::size_t>(m.n_cells));
  for (index c = 0; c < m.n_cells; ++c)
    u[c] = velocity_of(m, c, [&](index f) { return u_face[f]; });
  return u;
}

std::vector<Vec3> node_velocity(const topology::Mesh& m, std::span<const Vec3> u_cell) {
  std::vector<Vec3> u(static_cast<std::size_t>(m.n_nodes));
  for (index n = 0; n < m.n_nodes; ++n) u[n] = average_at(m, n, [&](index c) { return u_cell[c]; });
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

real pressure_at(const topology::Mesh& m, index c, Vec3 x, const std::function<real(index)>& p) {
  const int dim = m.dim;
  const Vec3 xc = m.cell_circumcentre[c];
  const real pc = p(c);
  // Normal equations (sum d d^T) g = sum d (p_k - p_c) over the neighbours, d = x_k - x_c.
  real a[3][3] = {}, b[3] = {};
  std::vector<index> seen;
  const int w = m.cell_width();
  for (int j = 0; j < w; ++j)
    for (index k : m.node_cells.row(m.cell_nodes[w * c + j])) {
      if (k == c || std::find(seen.begin(), seen.end(), k) != seen.end()) continue;
      seen.push_back(k);
      const Vec3 d = m.cell_circumcentre[k] - xc;
      const real dp = p(k) - pc;
      for (int r = 0; r < dim; ++r) {
        b[r] += d[r] * dp;
        for (int q = 0; q < dim; ++q) a[r][q] += d[r] * d[q];
      }
    }
  // Gaussian elimination with partial pivoting; a degenerate stencil keeps the cell value.
  int order[3] = {0, 1, 2};
  for (int col = 0; col < dim; ++col) {
    int piv = col;
    for (int r = col + 1; r < dim; ++r)
      if (std::abs(a[order[r]][col]) > std::abs(a[order[piv]][col])) piv = r;
    std::swap(order[col], order[piv]);
    const int pr = order[col];
    if (!(std::abs(a[pr][col]) > 1e-30)) return pc;
    for (int r = col + 1; r < dim; ++r) {
      const int rr = order[r];
      const real f = a[rr][col] / a[pr][col];
      for (int q = col; q < dim; ++q) a[rr][q] -= f * a[pr][q];
      b[rr] -= f * b[pr];
    }
  }
  Vec3 g{};
  for (int col = dim - 1; col >= 0; --col) {
    const int pr = order[col];
    real v = b[pr];
    for (int q = col + 1; q < dim; ++q) v -= a[pr][q] * g[q];
    g[col] = v / a[pr][col];
  }
  return pc + dot(g, x - xc);
}

ProbeSet locate_probes(const topology::Mesh& m, const std::vector<Vec3>& points) {
  ProbeSet p;
  p.points = points;
  p.cell.assign(points.size(), kNone);
  p.score.assign(points.size(), -1);
  const int w = m.cell_width();
  for (std::size_t i = 0; i < points.size(); ++i) {
    // The owned cell where the smallest barycentric coordinate is largest (>= 0 inside; a point
    // on a shared face or node goes to the first such cell, up to round-off).
    real best = -1e-9;
    for (index c = 0; c < m.n_owned_cells; ++c) {
      const std::array<Vec3, 4> g = topology::barycentric_gradients(m, c);
      real lo = 1;
      for (int k = 0; k < w; ++k) {
        const Vec3 xk = m.node_x[m.cell_nodes[w * c + k]];
        lo = std::min(lo, 1 + dot(g[static_cast<std::size_t>(k)], points[i] - xk));
      }
      if (lo > best) {
        best = lo;
        p.cell[i] = c;
      }
    }
    if (p.cell[i] == kNone) continue;
    p.score[i] = best;
    for (int k = 0; k < w; ++k)
      for (index c : m.node_cells.row(m.cell_nodes[w * p.cell[i] + k])) {
        p.cells.push_back(c);
        for (int j = 0; j < w; ++j) p.faces.push_back(m.cell_faces[w * c + j]);
      }
  }
  for (std::vector<index>* v : {&p.faces, &p.cells}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
  return p;
}

std::vector<Vec3> probe_velocity(const topology::Mesh& m, const ProbeSet& probes,
                                 std::span<const real> flux) {
  std::unordered_map<index, real> by_face;
  for (std::size_t k = 0; k < probes.faces.size(); ++k) by_face[probes.faces[k]] = flux[k];
  const auto face_flux = [&](index f) { return by_face.at(f); };
  const auto uc = [&](index c) { return velocity_of(m, c, face_flux); };
  const int w = m.cell_width();
  std::vector<Vec3> out(probes.points.size());
  for (std::size_t i = 0; i < probes.points.size(); ++i) {
    const index c = probes.cell[i];
    if (c == kNone) continue;
    const std::array<Vec3, 4> g = topology::barycentric_gradients(m, c);
    for (int k = 0; k < w; ++k) {
      const index n = m.cell_nodes[w * c + k];
      const real phi = 1 + dot(g[static_cast<std::size_t>(k)], probes.points[i] - m.node_x[n]);
      out[i] += phi * average_at(m, n, uc);
    }
  }
  return out;
}

Vec3 patch_force(const topology::Mesh& m, int patch, std::span<const real> pressure,
                 std::span<const real> gamma, std::span<const real> dual_weight, real density,
                 real viscosity) {
  Vec3 force{};
  for (index f : m.patches[static_cast<std::size_t>(patch)].faces) {
    if (f >= m.n_owned_faces) continue;
    const Vec3 n = m.face_normal[f];
    const index n0 = m.face_nodes[2 * f], n1 = m.face_nodes[2 * f + 1];
    const real omega = 0.5 * (gamma[n0] * dual_weight[n0] + gamma[n1] * dual_weight[n1]);
    const real p = density * pressure_at(m, m.face_cells[2 * f], m.face_centre[f],
                                         [&](index c) { return pressure[c]; });
    const Vec3 z_cross_n{-n.y, n.x, 0};
    force += m.face_area[f] * (p * n - (density * viscosity * omega) * z_cross_n);
  }
  return force;
}

}  // namespace scfd::physics::ns
