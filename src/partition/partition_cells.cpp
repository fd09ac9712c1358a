// partition_cells: METIS_PartGraphKway on the cell dual graph (partition.hpp). The graph is
// gathered from cell_faces: the neighbours of cell c are the other cells of its interior faces,
// in local-face order, so the graph (and with a fixed seed the partition) depends only on the
// mesh. METIS 5.1 fails (SIGFPE) for one part, so nparts == 1 never reaches it.
#include <metis.h>

#include <algorithm>
#include <type_traits>

#include "core/error.hpp"
#include "core/timer.hpp"
#include "partition/partition.hpp"

namespace scfd::partition {
namespace {

static_assert(std::is_same_v<idx_t, index>, "METIS must be built with 32-bit idx_t (Debian's is)");

// Fixed METIS seed: the same mesh and part count always give the same partition.
constexpr idx_t kMetisSeed = 20261121;

struct DualGraph {
  std::vector<idx_t> xadj;    // n_cells + 1
  std::vector<idx_t> adjncy;  // 2 per interior face
};

DualGraph dual_graph(const topology::Mesh& m) {
  DualGraph g;
  const int w = m.cell_width();
  g.xadj.assign(static_cast<std::size_t>(m.n_cells) + 1, 0);
  g.adjncy.reserve(static_cast<std::size_t>(m.n_interior_faces) * 2);
  for (index c = 0; c < m.n_cells; ++c) {
    for (int k = 0; k < w; ++k) {
      const index f = m.cell_faces[static_cast<std::size_t>(c) * w + k];
      const index c1 = m.face_cells[2 * static_cast<std::size_t>(f)];
      const index c2 = m.face_cells[2 * static_cast<std::size_t>(f) + 1];
      const index other = c1 == c ? c2 : c1;
      if (other != kNone) g.adjncy.push_back(other);
    }
    g.xadj[c + 1] = static_cast<idx_t>(g.adjncy.size());
  }
  return g;
}

std::vector<int> run_metis(const topology::Mesh& m, int nparts) {
  DualGraph g = dual_graph(m);
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = kMetisSeed;
  options[METIS_OPTION_NUMBERING] = 0;
  idx_t n = m.n_cells, ncon = 1, np = nparts, cut = 0;
  std::vector<idx_t> part(static_cast<std::size_t>(n), 0);
  const int status =
      METIS_PartGraphKway(&n, &ncon, g.xadj.data(), g.adjncy.data(), nullptr, nullptr, nullptr, &np,
                          nullptr, nullptr, options, &cut, part.data());
  SCFD_CHECK(status == METIS_OK, "METIS_PartGraphKway returned {} for {} cells, {} parts", status,
             m.n_cells, nparts);
  return {part.begin(), part.end()};
}

std::string mesh_prefix(const topology::Mesh& m) {
  return m.source.empty() ? std::string() : m.source + ": ";
}

}  // namespace

PartitionQuality partition_quality(const topology::Mesh& global, std::span<const int> part,
                                   int nparts) {
  SCFD_CHECK(part.size() == static_cast<std::size_t>(global.n_cells) && nparts >= 1,
             "partition_quality: {} parts given for {} cells, nparts {}", part.size(),
             global.n_cells, nparts);
  PartitionQuality q;
  q.parts = nparts;
  q.cells = global.n_cells;
  q.interior_faces = global.n_interior_faces;
  for (index f = 0; f < global.n_interior_faces; ++f)
    q.edge_cut += part[global.face_cells[2 * static_cast<std::size_t>(f)]] !=
                  part[global.face_cells[2 * static_cast<std::size_t>(f) + 1]];
  q.cut_fraction = q.interior_faces > 0 ? static_cast<double>(q.edge_cut) / q.interior_faces : 0;
  std::vector<index> count(static_cast<std::size_t>(nparts), 0);
  for (int p : part) {
    SCFD_CHECK(p >= 0 && p < nparts, "partition_quality: part {} outside [0, {})", p, nparts);
    ++count[static_cast<std::size_t>(p)];
  }
  const auto [lo, hi] = std::minmax_element(count.begin(), count.end());
  q.min_cells = *lo;
  q.max_cells = *hi;
  const double mean = static_cast<double>(global.n_cells) / nparts;
  q.imbalance = mean > 0 ? *hi / mean : 1;
  return q;
}

std::vector<int> partition_cells(const topology::Mesh& global, int nparts, PartitionQuality* q) {
  SCFD_CHECK(!global.distributed(), "partition_cells: the mesh must be the serial mesh");
  if (nparts < 1)
    throw input_error("{}cannot split {} cells into {} parts: the number of parts must be >= 1",
                      mesh_prefix(global), global.n_cells, nparts);
  if (nparts > global.n_cells)  // parts 0..n_cells-1 take one cell each at best
    throw input_error("{}cannot split {} cells into {} parts: part {} is empty; use fewer ranks",
                      mesh_prefix(global), global.n_cells, nparts, global.n_cells);
  Timer timer;
  std::vector<int> part =
      nparts == 1 ? std::vector<int>(global.n_cells, 0) : run_metis(global, nparts);
  std::vector<index> count(static_cast<std::size_t>(nparts), 0);
  for (int p : part) {
    SCFD_CHECK(p >= 0 && p < nparts, "METIS gave part {} outside [0, {})", p, nparts);
    ++count[static_cast<std::size_t>(p)];
  }
  for (int k = 0; k < nparts; ++k)
    if (count[k] == 0)
      throw input_error("{}cannot split {} cells into {} parts: part {} is empty; use fewer ranks",
                        mesh_prefix(global), global.n_cells, nparts, k);
  if (q) {
    *q = partition_quality(global, part, nparts);
    q->seconds = timer.seconds();
  }
  return part;
}

}  // namespace scfd::partition
