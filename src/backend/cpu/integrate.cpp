// Integration of docs/architecture.md §2: cell vector -> face,
//   u_f = v_c1·(x_f - x_c1) - v_c2·(x_f - x_c2)   (interior faces),   u_f = v_c1·(x_f - x_c1)
// on boundary faces: the line integral of v along the dual edge x_c1 -> x_f -> x_c2, with each
// half taking the value of its own cell (x_c the cells' dual vertices
// Mesh::cell_centre: circumcentres in 2D, centroids in 3D; x_f the face centroid). In the
// sum-over-cells form u_f = sum_c s(c,f) v_c·(x_f - x_c) with s(c1,f) = +1, s(c2,f) = -1. For a
// constant v it gives v·(x_c2 - x_c1) = G(v·x) exactly; it is the V-weighted transpose of
// interpolation (the complement of interpolate.cpp).
// Reference: J.B. Perot, "Conservation properties of unstructured staggered mesh schemes",
// J. Comput. Phys. 159 (2000) 58-89; J.B. Perot & V. Subramanian, "Discrete calculus methods
// for diffusion", J. Comput. Phys. 224 (2007) 59-81.
#include "backend/cpu/checks.hpp"
#include "backend/cpu/operators.hpp"

namespace scfd::backend::cpu {

void integrate(const Mesh& m, std::span<const Vec3> v_cell, std::span<real> u_face, RowRange rows) {
  SCFD_CHECK_SIZE(v_cell, m.n_cells, "integrate: v_cell");
  SCFD_CHECK_SIZE(u_face, m.n_faces, "integrate: u_face");
  SCFD_CHECK(disjoint(u_face, v_cell), "integrate: output aliases the input");
  const index* face_cells = m.face_cells.data();
  for (index f = rows.begin; f < rows.stop(m.n_owned_faces); ++f) {
    const Vec3 xf = m.face_centre[f];
    const index c1 = face_cells[2 * f];
    const index c2 = face_cells[2 * f + 1];
    real sum = dot(v_cell[c1], xf - m.cell_centre(c1));
    if (c2 != kNone) sum -= dot(v_cell[c2], xf - m.cell_centre(c2));
    u_face[f] = sum;
  }
}

}  // namespace scfd::backend::cpu
