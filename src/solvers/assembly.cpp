// Host assembly of the node and cell systems (see assembly.hpp).
#include "solvers/assembly.hpp"

#include "core/error.hpp"

namespace scfd::solvers {

using backend::SparseMatrix;

SparseMatrix cell_laplacian_matrix(const topology::Mesh& m, std::span<const real> mobility) {
  SCFD_CHECK(mobility.size() == static_cast<std::size_t>(m.n_faces),
             "cell matrix: mobility of {} for {} faces", mobility.size(), m.n_faces);
  const int width = m.cell_width();
  // Rows on the host threads: the diagonal, then the neighbours across the faces.
  return backend::rows_on_threads(m.n_owned_cells, m.n_cells, [&] {
    return [&](index c, backend::HostArray<index>& column, backend::HostArray<real>& value) {
      const std::size_t diag_at = value.size();
      column.push_back(c);
      value.push_back(0);
      for (int k = 0; k < width; ++k) {
        const index f = m.cell_faces[static_cast<std::size_t>(c) * width + k];
        const real mob = mobility[f];
        value[diag_at] += mob;
        const index c1 = m.face_cells[2 * f], c2 = m.face_cells[2 * f + 1];
        const index other = c1 == c ? c2 : c1;
        if (other != kNone && mob != 0) {
          column.push_back(other);
          value.push_back(-mob);
        }
      }
    };
  });
}

}  // namespace scfd::solvers
