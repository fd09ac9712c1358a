// Host assembly of the node and cell systems (see assembly.hpp).
#include "solvers/assembly.hpp"

#include "core/error.hpp"

namespace scfd::solvers {

using backend::SparseMatrix;

SparseMatrix cell_laplacian_matrix(const topology::Mesh& m, std::span<const real> mobility) {
  SCFD_CHECK(mobility.size() == static_cast<std::size_t>(m.n_faces),
             "cell matrix: mobility of {} for {} faces", mobility.size(), m.n_faces);
  const int width = m.cell_width();
  SparseMatrix a;
  a.rows = m.n_owned_cells;
  a.cols = m.n_cells;
  for (index c = 0; c < m.n_owned_cells; ++c) {
    const index diag_at = a.entries();
    a.column.push_back(c);
    a.value.push_back(0);
    for (int k = 0; k < width; ++k) {
      const index f = m.cell_faces[static_cast<std::size_t>(c) * width + k];
      const real mob = mobility[f];
      a.value[diag_at] += mob;
      const index c1 = m.face_cells[2 * f], c2 = m.face_cells[2 * f + 1];
      const index other = c1 == c ? c2 : c1;
      if (other != kNone && mob != 0) {
        a.column.push_back(other);
        a.value.push_back(-mob);
      }
    }
    a.offset.push_back(a.entries());
  }
  return a;
}

}  // namespace scfd::solvers
