// Step 2 of build_mesh: locality renumbering of nodes and cells along a Morton (Z-order) curve.
//
// A point x in the bounding box [lo, hi] is quantised to integer coordinates
//   q_i = floor((x_i - lo_i) / (hi_i - lo_i) * (2^b - 1)),   b = 21 (3D) or 31 (2D) bits,
// and its Morton code interleaves the bits of q_x, q_y (, q_z). Sorting by the code (ties by the
// file order) places entities that are close in space close in memory, so the gathers of the
// operators over cells, faces and nodes read neighbouring cache lines.
// Reference: G. M. Morton, "A computer oriented geodetic data base and a new technique in file
// sequencing", IBM report (1966); for meshes e.g. Aluru & Sevilgen, "Parallel domain
// decomposition and load balancing using space-filling curves", HiPC (1997).
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <utility>

#include "core/threads.hpp"
#include "topology/build_steps.hpp"

namespace scfd::topology::detail {
namespace {

// Spreads the low 21 bits of v so that bit i moves to bit 3i.
std::uint64_t spread3(std::uint64_t v) {
  v &= 0x1fffffULL;
  v = (v | v << 32) & 0x1f00000000ffffULL;
  v = (v | v << 16) & 0x1f0000ff0000ffULL;
  v = (v | v << 8) & 0x100f00f00f00f00fULL;
  v = (v | v << 4) & 0x10c30c30c30c30c3ULL;
  v = (v | v << 2) & 0x1249249249249249ULL;
  return v;
}

// Spreads the low 32 bits of v so that bit i moves to bit 2i.
std::uint64_t spread2(std::uint64_t v) {
  v &= 0xffffffffULL;
  v = (v | v << 16) & 0x0000ffff0000ffffULL;
  v = (v | v << 8) & 0x00ff00ff00ff00ffULL;
  v = (v | v << 4) & 0x0f0f0f0f0f0f0f0fULL;
  v = (v | v << 2) & 0x3333333333333333ULL;
  v = (v | v << 1) & 0x5555555555555555ULL;
  return v;
}

class MortonCoder {
 public:
  MortonCoder(int dim, const std::vector<Vec3>& points) : dim_(dim) {
    lo_ = hi_ = points.empty() ? Vec3{} : points[0];
    for (const Vec3& p : points) {
      for (int i = 0; i < 3; ++i) {
        lo_[i] = std::min(lo_[i], p[i]);
        hi_[i] = std::max(hi_[i], p[i]);
      }
    }
    const real levels = dim == 3 ? real((1 << 21) - 1) : real((1U << 31) - 1);
    for (int i = 0; i < 3; ++i) scale_[i] = hi_[i] > lo_[i] ? levels / (hi_[i] - lo_[i]) : 0;
  }
  std::uint64_t code(const Vec3& p) const {
    std::uint64_t q[3];
    for (int i = 0; i < 3; ++i) q[i] = static_cast<std::uint64_t>((p[i] - lo_[i]) * scale_[i]);
    if (dim_ == 3) return spread3(q[0]) | spread3(q[1]) << 1 | spread3(q[2]) << 2;
    return spread2(q[0]) | spread2(q[1]) << 1;
  }

 private:
  int dim_;
  Vec3 lo_, hi_, scale_;
};

// Indices 0..n-1 sorted by Morton code of points[i] (stable in i).
std::vector<index> morton_order(int dim, const std::vector<Vec3>& points) {
  const MortonCoder coder(dim, points);
  const auto n = static_cast<index>(points.size());
  std::vector<std::pair<std::uint64_t, index>> keyed(points.size());
  parallel_for(n, [&](index first, index end) {
    for (index i = first; i < end; ++i) keyed[i] = {coder.code(points[i]), i};
  });
  parallel_sort(keyed);  // no two equal: the index breaks ties
  std::vector<index> order(points.size());
  parallel_for(n, [&](index first, index end) {
    for (index i = first; i < end; ++i) order[i] = keyed[i].second;
  });
  return order;
}

}  // namespace

Numbering locality_order(const mesh_io::RawMesh& raw, const std::vector<index>& cells,
                         bool renumber) {
  Numbering num;
  if (!renumber) {
    num.node_old.resize(raw.nodes.size());
    num.cell_old.resize(static_cast<std::size_t>(raw.n_cells()));
    std::iota(num.node_old.begin(), num.node_old.end(), 0);
    std::iota(num.cell_old.begin(), num.cell_old.end(), 0);
    return num;
  }
  num.node_old = morton_order(raw.dim, raw.nodes);
  const int w = raw.dim + 1;
  std::vector<Vec3> centroid(static_cast<std::size_t>(raw.n_cells()));
  parallel_for(raw.n_cells(), [&](index first, index end) {
    for (auto c = static_cast<std::size_t>(first); c < static_cast<std::size_t>(end); ++c) {
      Vec3 s{};
      for (int k = 0; k < w; ++k) s += raw.nodes[cells[c * w + k]];
      centroid[c] = s / real(w);
    }
  });
  num.cell_old = morton_order(raw.dim, centroid);
  return num;
}

}  // namespace scfd::topology::detail
