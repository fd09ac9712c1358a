// The operators of backend/cpu/operators.hpp as CSR matrices (see operator_matrices.hpp): each row
// lists the terms its kernel adds up, in the kernel's order.
#include "backend/operator_matrices.hpp"

#include <functional>

#include "core/error.hpp"

namespace scfd::backend {
namespace {

using topology::Mesh;

// A rows x cols matrix whose row i is made by add_row(i, push) calling push(column, value) for
// each term in order; the first `inner` rows read no ghost.
SparseMatrix build(index rows, index cols, index inner,
                   const std::function<void(index, const std::function<void(index, real)>&)>& row) {
  SparseMatrix a;
  a.rows = rows;
  a.cols = cols;
  a.inner = inner;
  a.offset.reserve(static_cast<std::size_t>(rows) + 1);
  const auto push = [&a](index column, real value) {
    a.column.push_back(column);
    a.value.push_back(value);
  };
  for (index i = 0; i < rows; ++i) {
    row(i, push);
    a.offset.push_back(a.entries());
  }
  return a;
}

}  // namespace

OperatorMatrices operator_matrices(const Mesh& m) {
  OperatorMatrices o;
  const auto cell_face = [&m](index c, int k) {
    return static_cast<std::size_t>(c) * m.cell_width() + k;
  };
  // g_f = q_c2 - q_c1 is -q_c1 + q_c2 to the bit; a boundary face's front value comes from the
  // boundary matrix, and the default gradient adds the two products.
  o.gradient = build(m.n_owned_faces, m.n_cells, m.n_inner_faces, [&m](index f, const auto& push) {
    push(m.face_cells[2 * static_cast<std::size_t>(f)], -1);
    if (const index c2 = m.face_cells[2 * static_cast<std::size_t>(f) + 1]; c2 != kNone)
      push(c2, 1);
  });
  o.gradient_boundary = build(m.n_owned_faces, m.n_boundary_faces(), m.n_inner_faces,
                              [&m](index f, const auto& push) {
                                if (f >= m.n_interior_faces) push(f - m.n_interior_faces, 1);
                              });
  o.divergence = build(m.n_owned_cells, m.n_faces, m.n_inner_cells, [&](index c, const auto& push) {
    for (int k = 0; k < m.cell_width(); ++k)
      push(m.cell_faces[cell_face(c, k)], m.cell_face_sign[cell_face(c, k)]);
  });
  o.curl = build(m.n_owned_faces, m.n_curl(), m.n_inner_faces, [&m](index f, const auto& push) {
    const int w = m.curl_width();
    for (int k = 0; k < w; ++k) {
      const auto i = static_cast<std::size_t>(f) * w + k;
      push(m.face_curl[i], m.face_curl_sign[i]);
    }
  });
  o.rotation =
      build(m.n_owned_curl(), m.n_faces, m.n_inner_curl(), [&m](index e, const auto& push) {
        const topology::Csr& cf = m.curl_faces;
        for (index i = cf.offset[e]; i < cf.offset[e + 1]; ++i) push(cf.item[i], cf.sign[i]);
      });
  o.interpolate =
      build(3 * m.n_owned_cells, m.n_faces, 3 * m.n_inner_cells, [&](index row, const auto& push) {
        const index c = row / 3;
        const int d = static_cast<int>(row % 3);
        for (int k = 0; k < m.cell_width(); ++k) {
          const index f = m.cell_faces[cell_face(c, k)];
          const real arm = (m.face_centre[f] - m.cell_centre(c))[d];
          push(f, m.cell_face_sign[cell_face(c, k)] * arm / m.cell_volume[c]);
        }
      });
  o.integrate =
      build(m.n_owned_faces, 3 * m.n_cells, m.n_inner_faces, [&m](index f, const auto& push) {
        for (int side = 0; side < 2; ++side) {
          const index c = m.face_cells[2 * static_cast<std::size_t>(f) + side];
          if (c == kNone) continue;
          const Vec3 arm = m.face_centre[f] - m.cell_centre(c);
          for (int d = 0; d < 3; ++d) push(3 * c + d, side == 0 ? arm[d] : -arm[d]);
        }
      });
  return o;
}

SparseMatrix node_system_matrix(const Mesh& m, std::span<const real> d, real b,
                                std::span<const real> w, std::span<const real> fixed) {
  SCFD_CHECK(d.size() == static_cast<std::size_t>(m.n_nodes) &&
                 w.size() == static_cast<std::size_t>(m.n_edges) && fixed.size() == d.size(),
             "node system matrix: d {}, w {}, fixed {} for {} nodes and {} edges", d.size(),
             w.size(), fixed.size(), m.n_nodes, m.n_edges);
  SparseMatrix a;
  a.rows = m.n_owned_nodes;
  a.cols = m.n_nodes;
  a.inner = m.n_inner_nodes;
  for (index i = 0; i < m.n_owned_nodes; ++i) {
    const index diag_at = a.entries();
    a.column.push_back(i);
    a.value.push_back(1);
    if (fixed[i] == 0) {
      real diag = d[i];
      for (const index e : m.node_edges.row(i)) {
        diag += b * w[e];
        const index j = m.edge_nodes[2 * e] == i ? m.edge_nodes[2 * e + 1] : m.edge_nodes[2 * e];
        if (fixed[j] == 0) {
          a.column.push_back(j);
          a.value.push_back(-b * w[e]);
        }
      }
      a.value[diag_at] = diag;
    }
    a.offset.push_back(a.entries());
  }
  return a;
}

}  // namespace scfd::backend
