// Step 5 of build_mesh: geometry of cells, faces, the median dual and the P1 edge stiffness.
//
// Cells (nodes x0..xd, u = x1-x0, v = x2-x0, w = x3-x0):
//   V = |(u×v)·w| / 6 (3D), |u×v| / 2 (2D); centroid = mean of the nodes;
//   circumcentre (relative to x0) = (|u|² v×w + |v|² w×u + |w|² u×v) / (2 u·(v×w))   (3D),
//                                  = (|u|² v - |v|² u)×(u×v) / (2 |u×v|²)              (2D).
// Faces: area vector (x1-x0)×(x2-x0)/2 (3D) or (dy, -dx) of x1-x0 (2D); unit normal; centroid;
//   face_dist = (cc_c2 - cc_c1)·n, boundary (x_f - cc_c1)·n.
// P1 gradients: grad(phi_k) = -A_k / (d V) with A_k the outward area vector of the face opposite
//   local node k; edge stiffness w_e = -sum_c V_c grad(phi_i)·grad(phi_j).
// Median dual: node volume sum_c V_c/(d+1). Dual facet of edge (p, q) in a cell, with (p, q, k, l)
//   an even permutation of the cell's positively oriented nodes:
//   3D: quad (m_pq, centroid(pqk), g, centroid(pql)):  S = (x_k + x_l - x_p - x_q)×(x_l - x_k) /
//   24, 2D: segment (m_pq, g):                             S = rot_-90(g - m_pq), both satisfying
//   S·(x_q - x_p) > 0 (= V/2 in 3D, 2A/3 in 2D), i.e. pointing from p to q.
// Every loop runs on the host threads (core/threads.hpp), each item written by one thread: a
// node's and an edge's sums over their cells are gathered in ascending cell order, so the bits
// are those of one loop over the cells and do not depend on the thread count.
// Reference: Barth, "Numerical aspects of computing viscous high Reynolds number flows on
// unstructured meshes", AIAA 91-0721 (median dual and its equivalence with P1 Galerkin);
// Shewchuk, "Lecture notes on geometric robustness" (2013) for the circumcentre formulas.
#include <algorithm>
#include <array>
#include <cmath>

#include "core/error.hpp"
#include "core/threads.hpp"
#include "topology/build_steps.hpp"

namespace scfd::topology::detail {
namespace {

struct CellNodes {
  std::array<Vec3, 4> x;
  std::array<index, 4> n;
};

CellNodes gather(const Mesh& m, index c) {
  CellNodes cn;
  const int w = m.cell_width();
  for (int k = 0; k < w; ++k) {
    cn.n[k] = m.cell_nodes[std::size_t(c) * w + k];
    cn.x[k] = m.node_x[cn.n[k]];
  }
  return cn;
}

Vec3 circumcentre(int dim, const std::array<Vec3, 4>& x) {
  const Vec3 u = x[1] - x[0], v = x[2] - x[0];
  if (dim == 2) {
    const Vec3 n = cross(u, v);
    return x[0] + cross(dot(u, u) * v - dot(v, v) * u, n) / (2 * dot(n, n));
  }
  const Vec3 w = x[3] - x[0];
  const Vec3 num = dot(u, u) * cross(v, w) + dot(v, v) * cross(w, u) + dot(w, w) * cross(u, v);
  return x[0] + num / (2 * dot(u, cross(v, w)));
}

void cell_geometry(Mesh& m) {
  const std::size_t nc = static_cast<std::size_t>(m.n_cells);
  m.cell_volume.resize(nc);
  m.cell_centroid.resize(nc);
  m.cell_circumcentre.resize(nc);
  parallel_for(m.n_cells, [&](index first, index end) {
    for (index c = first; c < end; ++c) {
      const CellNodes cn = gather(m, c);
      const real v = signed_volume(m.dim, cn.x.data());
      SCFD_CHECK(v > 0, "cell {} has volume {} after orientation", c, v);
      m.cell_volume[c] = v;
      Vec3 s = cn.x[0] + cn.x[1] + cn.x[2];
      if (m.dim == 3) s += cn.x[3];
      m.cell_centroid[c] = s / real(m.dim + 1);
      m.cell_circumcentre[c] = circumcentre(m.dim, cn.x);
    }
  });
}

void face_geometry(Mesh& m) {
  const int d = m.dim;
  const std::size_t nf = static_cast<std::size_t>(m.n_faces);
  m.face_area.resize(nf);
  m.face_normal.resize(nf);
  m.face_centre.resize(nf);
  m.face_dist.resize(nf);
  parallel_for(m.n_faces, [&](index first, index end) {
    for (auto f = static_cast<std::size_t>(first); f < static_cast<std::size_t>(end); ++f) {
      const Vec3& x0 = m.node_x[m.face_nodes[f * d]];
      const Vec3& x1 = m.node_x[m.face_nodes[f * d + 1]];
      Vec3 a, centre;
      if (d == 3) {
        const Vec3& x2 = m.node_x[m.face_nodes[f * d + 2]];
        a = cross(x1 - x0, x2 - x0) / 2;
        centre = (x0 + x1 + x2) / 3;
      } else {
        const Vec3 t = x1 - x0;
        a = Vec3{t.y, -t.x, 0};
        centre = (x0 + x1) / 2;
      }
      const real area = norm(a);
      m.face_area[f] = area;
      m.face_normal[f] = a / area;
      m.face_centre[f] = centre;
      const index c1 = m.face_cells[2 * f], c2 = m.face_cells[2 * f + 1];
      const Vec3 to = c2 != kNone ? m.cell_circumcentre[c2] : centre;
      m.face_dist[f] = dot(to - m.cell_circumcentre[c1], m.face_normal[f]);
    }
  });
}

// Outward area vectors of the cell's faces, local face k opposite local node k.
std::array<Vec3, 4> face_vectors(int dim, const std::array<Vec3, 4>& x) {
  std::array<Vec3, 4> a{};
  for (int k = 0; k <= dim; ++k) {
    if (dim == 3) {
      const std::array<int, 3>& f = kTetFace[k];
      a[k] = cross(x[f[1]] - x[f[0]], x[f[2]] - x[f[0]]) / 2;
    } else {
      const Vec3 t = x[kTriFace[k][1]] - x[kTriFace[k][0]];
      a[k] = Vec3{t.y, -t.x, 0};
    }
  }
  return a;
}

// node_dual_volume, edge_dual_normal and edge_stiffness: sums over cells, gathered per node from
// its cells in ascending order (node_cells), each edge by its first (lower) node; so each sum
// is formed from zero in ascending cell order, as one loop over the cells would form it.
void dual_geometry(const std::vector<index>& cell_edges, Mesh& m) {
  const int d = m.dim, w = d + 1, n_local = d == 3 ? 6 : 3;
  m.node_dual_volume.resize(static_cast<std::size_t>(m.n_nodes));
  m.edge_dual_normal.assign(static_cast<std::size_t>(m.n_edges), Vec3{});
  m.edge_stiffness.assign(static_cast<std::size_t>(m.n_edges), 0);
  parallel_for(m.n_nodes, [&](index first, index end) {
    for (index n = first; n < end; ++n) {
      real dual = 0;
      for (const index c : m.node_cells.row(n)) {
        const real v = m.cell_volume[c];
        dual += v / w;
        const CellNodes cn = gather(m, c);
        if (*std::max_element(cn.n.begin(), cn.n.begin() + w) == n) continue;  // no edge from n
        const std::array<Vec3, 4> a = face_vectors(d, cn.x);  // grad(phi_k) = -a[k] / (d v)
        for (int e = 0; e < n_local; ++e) {
          // 2D: local edge e is opposite local node e.
          const int p = d == 3 ? kTetEdge[e][0] : kTriFace[e][0];
          const int q = d == 3 ? kTetEdge[e][1] : kTriFace[e][1];
          if (std::min(cn.n[p], cn.n[q]) != n) continue;  // the edge's first node adds it
          Vec3 s;
          if (d == 3) {
            const std::array<int, 4>& t = kTetEdge[e];
            s = cross(cn.x[t[2]] + cn.x[t[3]] - cn.x[p] - cn.x[q], cn.x[t[3]] - cn.x[t[2]]) / 24;
          } else {
            const Vec3 r = m.cell_centroid[c] - (cn.x[p] + cn.x[q]) / 2;
            s = Vec3{r.y, -r.x, 0};
          }
          const index edge = cell_edges[std::size_t(c) * n_local + e];
          const bool forward = m.edge_nodes[2 * std::size_t(edge)] == cn.n[p];
          m.edge_dual_normal[edge] += forward ? s : -s;
          m.edge_stiffness[edge] -= dot(a[p], a[q]) / (d * d * v);
        }
      }
      m.node_dual_volume[n] = dual;
    }
  });
}

}  // namespace

void compute_geometry(const std::vector<index>& cell_edges, Mesh& m) {
  cell_geometry(m);
  face_geometry(m);
  dual_geometry(cell_edges, m);
}

}  // namespace scfd::topology::detail
