// Convective acceleration at cells for the ns-classical model (docs/methods.md), the cell-based
// form of Perot's staggered scheme:
//   n_c = (1/V_c) sum over the faces f of c of s(c,f) U_f (u_f - u_c),
// the finite-volume divergence of (u u) at the cell minus u_c times the cell's net outflow
// (D U)_c, so that u·grad u = div(u u) - u div u holds discretely and a uniform velocity gives
// n = 0 whatever D U is. Face velocity u_f on an interior face: the blend
// (1 - beta) (u_c1 + u_c2)/2 + beta u_upwind (beta = 0 central, beta = 1 first-order upwind,
// the upwind cell being the one the flux leaves). On a boundary face: u_boundary where the flux
// enters the domain (inlet or wall data), u_c where it leaves (outflow carries the cell's own
// velocity out, so it adds nothing).
// Reference: J.B. Perot, "Conservation properties of unstructured staggered mesh schemes",
// J. Comput. Phys. 159 (2000) 58-89 (cell-based convection, projected back to faces by the
// integration operator).
#include "backend/cpu/checks.hpp"
#include "backend/cpu/operators.hpp"

namespace scfd::backend::cpu {

void convection(const Mesh& m, std::span<const real> u_face, std::span<const Vec3> u_cell,
                std::span<const Vec3> u_boundary, real upwind, std::span<Vec3> n_cell,
                RowRange rows) {
  SCFD_CHECK_SIZE(u_face, m.n_faces, "convection: u_face");
  SCFD_CHECK_SIZE(u_cell, m.n_cells, "convection: u_cell");
  SCFD_CHECK_SIZE(u_boundary, m.n_boundary_faces(), "convection: u_boundary");
  SCFD_CHECK_SIZE(n_cell, m.n_cells, "convection: n_cell");
  SCFD_CHECK(disjoint(n_cell, u_cell) && disjoint(n_cell, u_face),
             "convection: output aliases an input");
  const int w = m.cell_width();
  for (index c = rows.begin; c < rows.stop(m.n_owned_cells); ++c) {
    const Vec3 uc = u_cell[c];
    Vec3 sum{};
    for (int k = 0; k < w; ++k) {
      const std::size_t i = static_cast<std::size_t>(c) * w + k;
      const index f = m.cell_faces[i];
      const real out = m.cell_face_sign[i] * u_face[f];  // flux leaving c through f
      const index c1 = m.face_cells[2 * f];
      const index c2 = m.face_cells[2 * f + 1];
      Vec3 uf;
      if (c2 == kNone) {
        uf = out > 0 ? uc : u_boundary[f - m.n_interior_faces];
      } else {
        const Vec3 other = u_cell[c1 == c ? c2 : c1];
        uf = (1 - upwind) * (0.5 * (uc + other)) + upwind * (out > 0 ? uc : other);
      }
      sum += out * (uf - uc);
    }
    n_cell[c] = sum / m.cell_volume[c];
  }
}

}  // namespace scfd::backend::cpu
