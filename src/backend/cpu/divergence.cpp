// D, the discrete divergence of docs/architecture.md §2: face -> cell (and its unsigned sibling
// flux_sum_abs, the total flux through the faces of a cell, for the Courant number),
//   d_c = sum over the faces f of c of s(c,f) U_f,   s(c,f) = +1 where n_f points out of c,
// the net outflow of cell c when U_f = integral of u·n over f. It is exact (the divergence
// theorem per cell), D = -G^T, and D C = 0 because every edge of a cell's boundary is crossed
// twice with opposite signs.
// Reference: J.B. Perot, "Conservation properties of unstructured staggered mesh schemes",
// J. Comput. Phys. 159 (2000) 58-89, §2; J.B. Perot, "Discrete conservation properties of
// unstructured mesh schemes", Annu. Rev. Fluid Mech. 43 (2011) 299-318.
#include <cmath>

#include "backend/cpu/checks.hpp"
#include "backend/cpu/operators.hpp"

namespace scfd::backend::cpu {

void divergence(const Mesh& m, std::span<const real> u_face, std::span<real> d_cell,
                RowRange rows) {
  SCFD_CHECK_SIZE(u_face, m.n_faces, "divergence: u_face");
  SCFD_CHECK_SIZE(d_cell, m.n_cells, "divergence: d_cell");
  SCFD_CHECK(disjoint(d_cell, u_face), "divergence: output aliases the input");
  const int w = m.cell_width();
  const index* cell_faces = m.cell_faces.data();
  const std::int8_t* sign = m.cell_face_sign.data();
  for (index c = rows.begin; c < rows.stop(m.n_owned_cells); ++c) {
    real sum = 0;
    for (int k = 0; k < w; ++k) {
      const std::size_t i = static_cast<std::size_t>(c) * w + k;
      sum += sign[i] * u_face[cell_faces[i]];
    }
    d_cell[c] = sum;
  }
}

void flux_sum_abs(const Mesh& m, std::span<const real> u_face, std::span<real> s_cell) {
  SCFD_CHECK_SIZE(u_face, m.n_faces, "flux_sum_abs: u_face");
  SCFD_CHECK_SIZE(s_cell, m.n_cells, "flux_sum_abs: s_cell");
  SCFD_CHECK(disjoint(s_cell, u_face), "flux_sum_abs: output aliases the input");
  const int w = m.cell_width();
  const index* cell_faces = m.cell_faces.data();
  for (index c = 0; c < m.n_owned_cells; ++c) {
    real sum = 0;
    for (int k = 0; k < w; ++k)
      sum += std::abs(u_face[cell_faces[static_cast<std::size_t>(c) * w + k]]);
    s_cell[c] = sum;
  }
}

}  // namespace scfd::backend::cpu
