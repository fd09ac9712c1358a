// The 3D Hodge stars M_RT and W_mp and the stream matrix S = R M_RT C (see ns/hodge.hpp and
// docs/methods.md, "3D on tetrahedral meshes").
//
// Every matrix is a sum of small dense blocks (one per cell for M_RT and S, one per vertex for
// W_mp), added into the rows of the owned entities in two passes (count, then fill: S), or
// gathered row by row (M_RT: a face's two cells; W_mp: an edge's two end nodes, their blocks
// stored first), and merged per row in the order the blocks come (cells and vertices ascending),
// so the result does not depend on the rank count beyond that order, nor
// on the host threads (core/threads.hpp) that compute the blocks and the rows. Barycentric
// gradients: grad(l_k) = -s_k A_k n_k / (3 V) for the face opposite local
// node k (s_k = +1 where its normal leaves the cell).
#include "physics/ns/hodge.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>

#include "core/error.hpp"
#include "core/threads.hpp"

namespace scfd::physics::ns {
namespace {

// Appends a row given as (column, value) pairs with equal columns merged (summed in the order
// they come), columns ascending.
void append_merged(std::vector<std::pair<index, real>>& entries, backend::HostArray<index>& column,
                   backend::HostArray<real>& value) {
  // Insertion sort: stable, and quick for rows of tens of entries (std::stable_sort allocates).
  for (std::size_t i = 1; i < entries.size(); ++i)
    for (std::size_t j = i; j > 0 && entries[j].first < entries[j - 1].first; --j)
      std::swap(entries[j], entries[j - 1]);
  const std::size_t row_start = column.size();
  for (const auto& [c, v] : entries) {
    if (column.size() == row_start || c != column.back()) {
      column.push_back(c);
      value.push_back(v);
    } else {
      value.back() += v;
    }
  }
}

// Sums dense blocks into the rows [0, rows) of a sparse matrix with `cols` columns.
class BlockAssembly {
 public:
  BlockAssembly(index rows, index cols) : rows_(rows), cols_(cols), count_(rows + 1, 0) {}
  // Pass 1: a block with these row entities and n_cols columns.
  void count(std::span<const index> row_ids, std::size_t n_cols) {
    for (const index r : row_ids)
      if (r < rows_) count_[r + 1] += static_cast<index>(n_cols);
  }
  // Not initialised (add writes every entry, and finish checks that it did).
  void start() {
    std::partial_sum(count_.begin(), count_.end(), count_.begin());
    fill_ = count_;
    column_ = std::make_unique_for_overwrite<index[]>(static_cast<std::size_t>(count_.back()));
    value_ = std::make_unique_for_overwrite<real[]>(static_cast<std::size_t>(count_.back()));
  }
  // Pass 2: block[i * col_ids.size() + j] goes to (row_ids[i], col_ids[j]).
  void add(std::span<const index> row_ids, std::span<const index> col_ids, const real* block) {
    for (std::size_t i = 0; i < row_ids.size(); ++i) {
      const index r = row_ids[i];
      if (r >= rows_) continue;
      for (std::size_t j = 0; j < col_ids.size(); ++j) {
        column_[fill_[r]] = col_ids[j];
        value_[fill_[r]++] = block[i * col_ids.size() + j];
      }
    }
  }
  // Merges equal columns of a row (summed in the order they were added), columns ascending.
  SparseMatrix finish() const {
    SparseMatrix a = backend::rows_on_threads(rows_, cols_, [this] {
      return
          [this, entries = std::vector<std::pair<index, real>>{}](
              index r, backend::HostArray<index>& column, backend::HostArray<real>& value) mutable {
            SCFD_CHECK(fill_[r] == count_[r + 1], "row {}: {} of {} entries", r, fill_[r],
                       count_[r + 1]);
            entries.clear();
            for (index k = count_[r]; k < count_[r + 1]; ++k)
              entries.emplace_back(column_[k], value_[k]);
            append_merged(entries, column, value);
          };
    });
    a.check();
    return a;
  }

 private:
  index rows_, cols_;
  std::vector<index> count_, fill_;
  std::unique_ptr<index[]> column_;
  std::unique_ptr<real[]> value_;
};

// A sparse row built entry by entry: the entries in the order their columns are first reached,
// equal columns summed (add), then appended to a CSR matrix (append_row).
using RowEntries = std::vector<std::pair<index, real>>;
void add(RowEntries& row, index column, real v) {
  auto it = std::find_if(row.begin(), row.end(), [&](const auto& p) { return p.first == column; });
  if (it == row.end())
    row.emplace_back(column, v);
  else
    it->second += v;
}
void append_row(const RowEntries& row, backend::HostArray<index>& column,
                backend::HostArray<real>& value) {
  for (const auto& [k, v] : row) {
    column.push_back(k);
    value.push_back(v);
  }
}

// grad(l_k) of cell c's local node k.
Vec3 bary_gradient(const topology::Mesh& m, index c, int k) {
  const index f = m.cell_faces[4 * c + k];
  return (-m.cell_face_sign[4 * c + k] * m.face_area[f] / (3 * m.cell_volume[c])) *
         m.face_normal[f];
}

// The local index (0..3) of node n in cell c, -1 if absent.
int local_node(const topology::Mesh& m, index c, index n) {
  for (int k = 0; k < 4; ++k)
    if (m.cell_nodes[4 * c + k] == n) return k;
  return -1;
}

// The 6 edges of cell c and the 4 x 3 signed incidence of its faces (C restricted to the cell):
// face i (local) has edges edge[slot[i][j]] with sign sign[i][j].
struct CellEdges {
  std::array<index, 6> edge{};
  int n = 0;
  std::array<std::array<int, 3>, 4> slot{};
  std::array<std::array<real, 3>, 4> sign{};
};

CellEdges cell_edges(const topology::Mesh& m, index c) {
  CellEdges ce;
  for (int i = 0; i < 4; ++i) {
    const index f = m.cell_faces[4 * c + i];
    for (int j = 0; j < 3; ++j) {
      const index e = m.face_curl[3 * f + j];
      int s = 0;
      while (s < ce.n && ce.edge[s] != e) ++s;
      if (s == ce.n) ce.edge[ce.n++] = e;
      ce.slot[i][j] = s;
      ce.sign[i][j] = m.face_curl_sign[3 * f + j];
    }
  }
  SCFD_CHECK(ce.n == 6, "cell {} has {} distinct edges", c, ce.n);
  return ce;
}

// In place inverse of the symmetric positive definite n x n matrix a (row-major), by Cholesky;
// `what` names the block in the error for one that is not positive definite.
void invert_spd(std::vector<real>& a, std::size_t n, const char* what) {
  thread_local std::vector<real> l, x;  // scratch, reused by the calls of a thread
  l.assign(n * n, 0);
  for (std::size_t j = 0; j < n; ++j) {
    real d = a[j * n + j];
    for (std::size_t k = 0; k < j; ++k) d -= l[j * n + k] * l[j * n + k];
    SCFD_CHECK(d > 0, "{} is not positive definite ({})", what, d);
    l[j * n + j] = std::sqrt(d);
    for (std::size_t i = j + 1; i < n; ++i) {
      real s = a[i * n + j];
      for (std::size_t k = 0; k < j; ++k) s -= l[i * n + k] * l[j * n + k];
      l[i * n + j] = s / l[j * n + j];
    }
  }
  // Columns of the inverse: solve L L^T x = e_c.
  x.resize(n);
  for (std::size_t c = 0; c < n; ++c) {
    for (std::size_t i = 0; i < n; ++i) {
      real s = i == c ? 1 : 0;
      for (std::size_t k = 0; k < i; ++k) s -= l[i * n + k] * x[k];
      x[i] = s / l[i * n + i];
    }
    for (std::size_t i = n; i-- > 0;) {
      real s = x[i];
      for (std::size_t k = i + 1; k < n; ++k) s -= l[k * n + i] * x[k];
      x[i] = s / l[i * n + i];
    }
    for (std::size_t i = 0; i < n; ++i) a[i * n + c] = x[i];
  }
}

// The smallest eigenvalue of a symmetric 4 x 4 matrix (cyclic Jacobi rotations).
real smallest_eigenvalue(std::array<std::array<real, 4>, 4> a) {
  for (int sweep = 0; sweep < 50; ++sweep) {
    real off = 0, diag = 0;
    for (int p = 0; p < 4; ++p) {
      diag += a[p][p] * a[p][p];
      for (int q = p + 1; q < 4; ++q) off += a[p][q] * a[p][q];
    }
    if (off <= 1e-30 * diag) break;
    for (int p = 0; p < 4; ++p)
      for (int q = p + 1; q < 4; ++q) {
        if (a[p][q] == 0) continue;
        const real theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        const real t = (theta >= 0 ? 1 : -1) / (std::abs(theta) + std::sqrt(theta * theta + 1));
        const real c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (int k = 0; k < 4; ++k) {  // columns p, q
          const real akp = a[k][p], akq = a[k][q];
          a[k][p] = c * akp - s * akq;
          a[k][q] = s * akp + c * akq;
        }
        for (int k = 0; k < 4; ++k) {  // rows p, q
          const real apk = a[p][k], aqk = a[q][k];
          a[p][k] = c * apk - s * aqk;
          a[q][k] = s * apk + c * aqk;
        }
      }
  }
  return std::min(std::min(a[0][0], a[1][1]), std::min(a[2][2], a[3][3]));
}

// The vertex block of node v: its kept edges (not dropped), the other node of each, the sign
// +-1/2 (tail / head) and B_v^-1.
struct VertexBlock {
  std::vector<index> edges, other;
  std::vector<real> sigma;
  std::vector<real> inverse;  // edges.size()^2, row-major
};

// Fills b (its vectors reused).
void vertex_block(const topology::Mesh& m, index v, std::span<const char> dropped, bool invert,
                  VertexBlock& b) {
  b.edges.clear();
  b.other.clear();
  b.sigma.clear();
  b.inverse.clear();
  const auto row = m.node_edges.row(v);
  const auto sign = m.node_edges.row_sign(v);
  for (std::size_t i = 0; i < row.size(); ++i) {
    const index e = row[i];
    if (dropped[e] != 0) continue;
    b.edges.push_back(e);
    b.other.push_back(m.edge_nodes[2 * e] == v ? m.edge_nodes[2 * e + 1] : m.edge_nodes[2 * e]);
    b.sigma.push_back(sign[i] > 0 ? 0.5 : -0.5);
  }
  if (!invert || b.edges.empty()) return;
  const std::size_t n = b.edges.size();
  b.inverse.assign(n * n, 0);
  for (const index c : m.node_cells.row(v)) {
    int pos[4];
    Vec3 g[4];
    for (int k = 0; k < 4; ++k) {
      const index node = m.cell_nodes[4 * c + k];
      const auto it = std::find(b.other.begin(), b.other.end(), node);
      pos[k] = it == b.other.end() ? -1 : static_cast<int>(it - b.other.begin());
      g[k] = bary_gradient(m, c, k);
    }
    const real quarter = m.cell_volume[c] / 4;
    for (int p = 0; p < 4; ++p)
      for (int q = 0; q < 4; ++q)
        if (pos[p] >= 0 && pos[q] >= 0) b.inverse[pos[p] * n + pos[q]] += quarter * dot(g[p], g[q]);
  }
  invert_spd(b.inverse, n, "a vertex block of the edge star");
}

// The nodes whose vertex blocks reach an owned edge (both ends of every owned edge), ascending.
std::vector<index> star_nodes(const topology::Mesh& m) {
  std::vector<char> use(static_cast<std::size_t>(m.n_nodes), 0);
  for (index e = 0; e < m.n_owned_edges; ++e)
    use[m.edge_nodes[2 * e]] = use[m.edge_nodes[2 * e + 1]] = 1;
  std::vector<index> nodes;
  for (index n = 0; n < m.n_nodes; ++n)
    if (use[n] != 0) nodes.push_back(n);
  return nodes;
}

// The wall faces around node v with the slot (0..5) of each of its two pairs (v, e).
struct WallSlot {
  index column;  // 6 * wall face index + slot
  index edge;
};

void wall_slots(const topology::Mesh& m, index v, std::span<const index> wall_index,
                std::vector<WallSlot>& out) {
  out.clear();
  for (const index c : m.node_cells.row(v)) {
    for (int i = 0; i < 4; ++i) {
      const index f = m.cell_faces[4 * c + i];
      if (wall_index[f] == kNone) continue;
      int k = 0;
      while (k < 3 && m.face_nodes[3 * f + k] != v) ++k;
      if (k == 3) continue;
      for (int j = 0; j < 2; ++j) {
        const index w = m.face_nodes[3 * f + (k + 1 + j) % 3];
        index edge = kNone;
        for (int s = 0; s < 3; ++s) {
          const index e = m.face_curl[3 * f + s];
          const index a = m.edge_nodes[2 * e], b = m.edge_nodes[2 * e + 1];
          if ((a == v && b == w) || (a == w && b == v)) edge = e;
        }
        out.push_back({6 * wall_index[f] + 2 * k + j, edge});
      }
    }
  }
}

// Node v's blocks of W_mp (sigma B_v^-1 sigma over its kept edges) and of the wall term (its
// columns: v's wall slots), the vectors reused from call to call.
struct NodeBlocks {
  VertexBlock b;
  std::vector<real> block, wall_block;
  std::vector<index> columns;
  std::vector<WallSlot> slots;
};

void node_blocks(const topology::Mesh& m, index v, std::span<const char> dropped,
                 std::span<const index> wall_index, NodeBlocks& out) {
  vertex_block(m, v, dropped, true, out.b);
  const VertexBlock& b = out.b;
  const std::size_t n = b.edges.size();
  out.block.resize(n * n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      out.block[i * n + j] = b.sigma[i] * b.inverse[i * n + j] * b.sigma[j];
  // beta_e = sum over v of sigma_(v,e) (B_v^-1 b_v)_e, b_v gathering the samples of v's pairs.
  wall_slots(m, v, wall_index, out.slots);
  const std::size_t n_slots = out.slots.size();
  out.columns.clear();
  out.wall_block.assign(n * n_slots, 0);
  for (std::size_t j = 0; j < n_slots; ++j) {
    out.columns.push_back(out.slots[j].column);
    const auto it = std::find(b.edges.begin(), b.edges.end(), out.slots[j].edge);
    if (it == b.edges.end()) continue;  // a dropped edge: no unknown, no sample
    const auto p = static_cast<std::size_t>(it - b.edges.begin());
    for (std::size_t i = 0; i < n; ++i)
      out.wall_block[i * n_slots + j] = b.sigma[i] * b.inverse[i * n + p];
  }
}

}  // namespace

namespace {

// What cell c's RT0 mass block is made of: B_ij = s_i s_j (arm_i . arm_j / V + lambda).
struct CellMass {
  std::array<Vec3, 4> arm;  // face centre - centroid, local face i
  std::array<real, 4> s;    // the face's orientation in the cell
  real v = 0, lambda = 0;
  real entry(int i, int j) const { return s[i] * s[j] * (dot(arm[i], arm[j]) / v + lambda); }
};

CellMass cell_mass(const topology::Mesh& m, index c) {
  CellMass b;
  const Vec3 xc = m.cell_centroid[c];
  b.v = m.cell_volume[c];
  real rho = 0;  // int_c |x - x_c|^2 = V/20 sum_k |x_k - x_c|^2
  for (int k = 0; k < 4; ++k) {
    const Vec3 d = m.node_x[m.cell_nodes[4 * c + k]] - xc;
    rho += dot(d, d);
  }
  rho *= b.v / 20;
  b.lambda = rho / (9 * b.v * b.v);
  for (int i = 0; i < 4; ++i) {
    const index f = m.cell_faces[4 * c + i];
    b.s[i] = m.cell_face_sign[4 * c + i];
    b.arm[i] = m.face_centre[f] - xc;
  }
  return b;
}

}  // namespace

std::array<std::array<real, 4>, 4> rt_cell_mass(const topology::Mesh& m, index c) {
  const CellMass cm = cell_mass(m, c);
  std::array<std::array<real, 4>, 4> b{};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) b[i][j] = cm.entry(i, j);
  return b;
}

SparseMatrix rt_face_mass(const topology::Mesh& m, std::span<const index> ghost_rows) {
  SCFD_CHECK(m.dim == 3, "rt_face_mass on a {}D mesh", m.dim);
  // Rows kept: the owned faces and ghost_rows (kept[f] != 0).
  std::vector<char> kept;
  if (!ghost_rows.empty()) {
    kept.assign(static_cast<std::size_t>(m.n_faces), 0);
    std::fill(kept.begin(), kept.begin() + m.n_owned_faces, 1);
    for (const index f : ghost_rows) {
      SCFD_CHECK(f >= m.n_owned_faces && f < m.n_faces, "rt_face_mass: row {} is not a ghost", f);
      const int cells =
          (m.face_cells[2 * f] != kNone ? 1 : 0) + (m.face_cells[2 * f + 1] != kNone ? 1 : 0);
      SCFD_CHECK(cells == (m.is_boundary_face(f) ? 1 : 2),
                 "rt_face_mass: ghost face {} misses a cell on this rank", f);
      kept[static_cast<std::size_t>(f)] = 1;
    }
  }
  // Row f: the rows of f's blocks in its cells (ascending, as a loop over the cells adds them);
  // only the kept rows.
  SparseMatrix mass =
      backend::rows_on_threads(kept.empty() ? m.n_owned_faces : m.n_faces, m.n_faces, [&] {
        return [&, entries = std::vector<std::pair<index, real>>{}](
                   index f, backend::HostArray<index>& column,
                   backend::HostArray<real>& value) mutable {
          if (!kept.empty() && kept[static_cast<std::size_t>(f)] == 0) return;
          entries.clear();
          index cells[2] = {m.face_cells[2 * f], m.face_cells[2 * f + 1]};
          if (cells[1] != kNone && cells[1] < cells[0]) std::swap(cells[0], cells[1]);
          for (const index c : cells) {
            if (c == kNone) continue;
            const CellMass b = cell_mass(m, c);  // row i of the block only
            int i = 0;
            while (m.cell_faces[4 * c + i] != f) ++i;
            for (int j = 0; j < 4; ++j)
              entries.emplace_back(m.cell_faces[4 * c + j], b.entry(i, j));
          }
          append_merged(entries, column, value);
        };
      });
  mass.check();
  if (!kept.empty()) mass.inner = m.n_inner_faces;
  return mass;
}

SparseMatrix face_block_inverse(const topology::Mesh& m, std::span<const real> diagonal,
                                std::span<const char> fixed, std::span<const index> ghost_rows) {
  SCFD_CHECK(m.dim == 3, "face_block_inverse on a {}D mesh", m.dim);
  const index n = m.n_owned_faces;
  std::vector<char> kept;  // the ghost rows (kept[f] != 0); empty: the owned rows alone
  if (!ghost_rows.empty()) {
    kept.assign(static_cast<std::size_t>(m.n_faces), 0);
    for (const index f : ghost_rows) {
      SCFD_CHECK(f >= n && f < m.n_faces, "face_block_inverse: ghost row {} of {} faces ({} owned)",
                 f, m.n_faces, n);
      SCFD_CHECK(m.is_boundary_face(f) ||
                     (m.face_cells[2 * f] != kNone && m.face_cells[2 * f + 1] != kNone),
                 "face_block_inverse: ghost face {} lacks one of its cells on this rank", f);
      kept[static_cast<std::size_t>(f)] = 1;
    }
  }
  SCFD_CHECK(static_cast<index>(diagonal.size()) >= m.n_faces &&
                 static_cast<index>(fixed.size()) >= m.n_faces,
             "face_block_inverse: {} diagonal and {} fixed entries for {} faces", diagonal.size(),
             fixed.size(), m.n_faces);
  const auto in_block = [&](index g) { return fixed[static_cast<std::size_t>(g)] == 0; };
  // Cell c's faces in its block, in local order, and f's position among them (-1: none).
  struct Faces {
    std::array<index, 4> face{};
    int k = 0, row = -1;
  };
  const auto faces_of = [&](index c, index f) {
    Faces b;
    for (int j = 0; j < 4; ++j) {
      const index g = m.cell_faces[4 * c + j];
      if (!in_block(g)) continue;
      if (g == f) b.row = b.k;
      b.face[static_cast<std::size_t>(b.k++)] = g;
    }
    return b;
  };
  // B_c^-1 of every local cell (k x k, row-major), once: a face's row gathers from its two
  // cells'. Written by the threads (a HostArray: no serial zero fill of 16 numbers per cell).
  backend::HostArray<real> inverse(16 * static_cast<std::size_t>(m.n_cells));
  parallel_for(m.n_cells, [&](index begin, index end) {
    for (index c = begin; c < end; ++c) {
      const Faces b = faces_of(c, kNone);
      if (b.k == 0) continue;
      const CellMass cm = cell_mass(m, c);
      std::array<int, 4> local{};
      for (std::size_t p = 0, j = 0; j < 4; ++j)
        if (in_block(m.cell_faces[4 * c + static_cast<index>(j)])) local[p++] = static_cast<int>(j);
      const auto k = static_cast<std::size_t>(b.k);
      thread_local std::vector<real> a;  // B_c, then B_c^-1
      a.resize(k * k);
      for (std::size_t p = 0; p < k; ++p)
        for (std::size_t q = 0; q < k; ++q)
          a[p * k + q] =
              p == q ? diagonal[static_cast<std::size_t>(b.face[p])] : cm.entry(local[p], local[q]);
      invert_spd(a, k, "a face mass block of the momentum preconditioner");
      std::copy(a.begin(), a.end(), inverse.begin() + 16 * static_cast<std::ptrdiff_t>(c));
    }
  });
  // Row f: its row of B_c^-1 in its first cell (the lower number), then the other cell's entries
  // but f's own, which is added to the first's (the cells share no other face).
  SparseMatrix s = backend::rows_on_threads(kept.empty() ? n : m.n_faces, m.n_faces, [&] {
    return [&](index f, backend::HostArray<index>& column, backend::HostArray<real>& value) {
      if (f >= n && kept[static_cast<std::size_t>(f)] == 0) return;
      if (!in_block(f)) return;
      index cells[2] = {m.face_cells[2 * f], m.face_cells[2 * f + 1]};
      if (cells[0] == kNone || (cells[1] != kNone && cells[1] < cells[0]))
        std::swap(cells[0], cells[1]);
      const std::size_t start = value.size();
      for (int side = 0; side < 2; ++side) {
        const index c = cells[side];
        if (c == kNone) continue;
        const Faces b = faces_of(c, f);
        const real* row = &inverse[16 * static_cast<std::size_t>(c)] + b.row * b.k;
        for (int q = 0; q < b.k; ++q) {
          const index g = b.face[static_cast<std::size_t>(q)];
          if (side == 1 && g == f) {
            for (std::size_t e = start; e < value.size(); ++e)
              if (column[e] == f) value[e] += row[q];
            continue;
          }
          column.push_back(g);
          value.push_back(row[q]);
        }
      }
    };
  });
  if (!kept.empty()) s.inner = m.n_inner_faces;  // inner_rows() would take every row
  s.check();
  return s;
}

SparseMatrix mass_curl(const topology::Mesh& m, const SparseMatrix& face_star) {
  const int cw = m.curl_width();
  SparseMatrix mc = backend::rows_on_threads(m.n_owned_faces, m.n_curl(), [&] {
    return [&, row = RowEntries{}](index f, backend::HostArray<index>& column,
                                   backend::HostArray<real>& value) mutable {
      row.clear();
      for (index e = face_star.offset[f]; e < face_star.offset[f + 1]; ++e) {
        const index g = face_star.column[e];
        for (int j = 0; j < cw; ++j)
          add(row, m.face_curl[cw * g + j], face_star.value[e] * m.face_curl_sign[cw * g + j]);
      }
      append_row(row, column, value);
    };
  });
  mc.inner = m.n_inner_faces;
  mc.check();
  return mc;
}

namespace {

// 2D: the rows of S = R M C for the diagonal star M (its diagonal with ghosts), each row's entries
// in the order its faces and their nodes first reach them.
SparseMatrix node_laplacian(const topology::Mesh& m, std::span<const real> mass) {
  const int cw = m.curl_width();
  return backend::rows_on_threads(m.n_owned_curl(), m.n_curl(), [&] {
    return [&, row = RowEntries{}](index k, backend::HostArray<index>& column,
                                   backend::HostArray<real>& value) mutable {
      row.clear();
      const auto faces = m.curl_faces.row(k);
      const auto signs = m.curl_faces.row_sign(k);
      for (std::size_t i = 0; i < faces.size(); ++i) {
        const index f = faces[i];
        for (int j = 0; j < cw; ++j)
          add(row, m.face_curl[cw * f + j], signs[i] * m.face_curl_sign[cw * f + j] * mass[f]);
      }
      append_row(row, column, value);
    };
  });
}

}  // namespace

SparseMatrix stream_matrix(const topology::Mesh& m, std::span<const real> mass) {
  if (m.dim == 2) {
    SCFD_CHECK(mass.size() == static_cast<std::size_t>(m.n_faces),
               "stream_matrix: {} face masses for {} faces", mass.size(), m.n_faces);
    return node_laplacian(m, mass);
  }
  BlockAssembly a(m.n_owned_edges, m.n_edges);
  for (index c = 0; c < m.n_cells; ++c) a.count(cell_edges(m, c).edge, 6);
  a.start();
  for (index c = 0; c < m.n_cells; ++c) {
    const CellEdges ce = cell_edges(m, c);
    const auto mc = rt_cell_mass(m, c);
    std::array<real, 36> s{};
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        for (int p = 0; p < 3; ++p)
          for (int q = 0; q < 3; ++q)
            s[6 * ce.slot[i][p] + ce.slot[j][q]] += ce.sign[i][p] * mc[i][j] * ce.sign[j][q];
    a.add(ce.edge, ce.edge, s.data());
  }
  return a.finish();
}

std::array<real, 6> wall_samples(const topology::Mesh& m, index f,
                                 const std::function<Vec3(const Vec3&)>& u) {
  const index c = m.face_cells[2 * f];
  const Vec3 n = m.face_normal[f];  // outward on a boundary face
  index node[3];
  Vec3 x[3];
  for (int k = 0; k < 3; ++k) {
    node[k] = m.face_nodes[3 * f + k];
    x[k] = m.node_x[node[k]];
  }
  const Vec3 mid[3] = {u(0.5 * (x[0] + x[1])), u(0.5 * (x[1] + x[2])), u(0.5 * (x[2] + x[0]))};
  std::array<real, 6> out{};
  const real sixth = m.face_area[f] / 6;
  for (int k = 0; k < 3; ++k) {
    // The two midpoints on the edges at node k: (k, k+1) is mid[k], (k+2, k) is mid[k+2].
    const Vec3 nxu = cross(n, mid[k] + mid[(k + 2) % 3]);
    for (int j = 0; j < 2; ++j) {
      const int w = local_node(m, c, node[(k + 1 + j) % 3]);
      out[2 * k + j] = sixth * dot(nxu, bary_gradient(m, c, w));
    }
  }
  return out;
}

EdgeStar multipoint_edge_star(const topology::Mesh& m, std::span<const char> dropped,
                              std::span<const char> wall_face) {
  SCFD_CHECK(m.dim == 3, "multipoint_edge_star on a {}D mesh", m.dim);
  EdgeStar s;
  std::vector<index> wall_index(static_cast<std::size_t>(m.n_faces), kNone);
  for (index f = 0; f < m.n_faces; ++f)
    if (wall_face[f] != 0) {
      wall_index[f] = static_cast<index>(s.wall_faces.size());
      s.wall_faces.push_back(f);
    }
  const std::vector<index> nodes = star_nodes(m);
  const auto n_star = static_cast<index>(nodes.size());
  std::vector<index> star_of(static_cast<std::size_t>(m.n_nodes), kNone);
  for (index p = 0; p < n_star; ++p) star_of[nodes[p]] = p;
  // Each node's blocks, stored in node order: its kept edges (edge_at), sigma B^-1 sigma
  // (block_at, n x n) and its wall columns and block (slot_at, n x slots). Sizes first, on the
  // host threads, then offsets, then the blocks themselves (the inverses are most of the work).
  std::vector<index> n_edges(nodes.size()), n_slots(nodes.size());
  parallel_for(n_star, [&](index first, index end) {
    VertexBlock b;
    std::vector<WallSlot> slots;
    for (index p = first; p < end; ++p) {
      vertex_block(m, nodes[p], dropped, false, b);
      wall_slots(m, nodes[p], wall_index, slots);
      n_edges[p] = static_cast<index>(b.edges.size());
      n_slots[p] = static_cast<index>(slots.size());
    }
  });
  std::vector<std::size_t> edge_at(nodes.size() + 1, 0), block_at(edge_at), slot_at(edge_at),
      wall_at(edge_at);
  for (std::size_t p = 0; p < nodes.size(); ++p) {
    const auto n = static_cast<std::size_t>(n_edges[p]), k = static_cast<std::size_t>(n_slots[p]);
    edge_at[p + 1] = edge_at[p] + n;
    block_at[p + 1] = block_at[p] + n * n;
    slot_at[p + 1] = slot_at[p] + k;
    wall_at[p + 1] = wall_at[p] + n * k;
  }
  std::vector<index> edges(edge_at.back()), columns(slot_at.back());
  const auto block = std::make_unique_for_overwrite<real[]>(block_at.back());
  const auto wall = std::make_unique_for_overwrite<real[]>(wall_at.back());
  parallel_for(
      n_star,
      [&](index first, index end) {
        NodeBlocks out;
        for (index p = first; p < end; ++p) {
          node_blocks(m, nodes[p], dropped, wall_index, out);
          std::copy(out.b.edges.begin(), out.b.edges.end(), edges.begin() + edge_at[p]);
          std::copy(out.block.begin(), out.block.end(), block.get() + block_at[p]);
          std::copy(out.columns.begin(), out.columns.end(), columns.begin() + slot_at[p]);
          std::copy(out.wall_block.begin(), out.wall_block.end(), wall.get() + wall_at[p]);
        }
      },
      64);
  // Row e gathers the row of e in the blocks of its two end nodes, the lower node's first (the
  // order the blocks were once added in), equal columns summed in that order.
  const auto star_rows = [&](bool of_wall) {
    return backend::rows_on_threads(
        m.n_owned_edges, of_wall ? 6 * static_cast<index>(s.wall_faces.size()) : m.n_edges, [&] {
          return [&, of_wall, entries = std::vector<std::pair<index, real>>{}](
                     index e, backend::HostArray<index>& column,
                     backend::HostArray<real>& value) mutable {
            entries.clear();
            index ends[2] = {m.edge_nodes[2 * e], m.edge_nodes[2 * e + 1]};
            if (ends[1] < ends[0]) std::swap(ends[0], ends[1]);
            for (const index v : ends) {
              const auto p = static_cast<std::size_t>(star_of[v]);
              const std::size_t n = edge_at[p + 1] - edge_at[p];
              const index* row_edges = edges.data() + edge_at[p];
              const auto i =
                  static_cast<std::size_t>(std::find(row_edges, row_edges + n, e) - row_edges);
              if (i == n) continue;  // a dropped edge: no row
              if (of_wall) {
                const std::size_t k = slot_at[p + 1] - slot_at[p];
                for (std::size_t j = 0; j < k; ++j)
                  entries.emplace_back(columns[slot_at[p] + j], wall[wall_at[p] + i * k + j]);
              } else {
                for (std::size_t j = 0; j < n; ++j)
                  entries.emplace_back(row_edges[j], block[block_at[p] + i * n + j]);
              }
            }
            append_merged(entries, column, value);
          };
        });
  };
  s.w = star_rows(false);
  s.wall = star_rows(true);
  s.w.check();
  s.wall.check();
  return s;
}

std::vector<real> projection_mass(const topology::Mesh& m) {
  // mu d_i of each cell's local face i (on the host threads), then summed per owned face: two
  // cells at most, so the order of the sum does not change its bits.
  std::vector<std::array<real, 4>> part(static_cast<std::size_t>(m.n_cells));
  parallel_for(m.n_cells, [&](index first, index end) {
    for (index c = first; c < end; ++c) {
      auto b = rt_cell_mass(m, c);
      std::array<real, 4> d;
      for (int i = 0; i < 4; ++i) d[i] = b[i][i];
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) b[i][j] /= std::sqrt(d[i] * d[j]);
      const real mu = smallest_eigenvalue(b);
      SCFD_CHECK(mu > 0, "cell {}: its face mass is not positive definite ({})", c, mu);
      for (int i = 0; i < 4; ++i) part[c][i] = mu * d[i];
    }
  });
  std::vector<real> a(static_cast<std::size_t>(m.n_faces), 0);
  parallel_for(m.n_owned_faces, [&](index first, index end) {
    for (index f = first; f < end; ++f)
      for (int k = 0; k < 2; ++k) {
        const index c = m.face_cells[2 * f + k];
        if (c == kNone) continue;
        int i = 0;
        while (m.cell_faces[4 * c + i] != f) ++i;
        a[f] += part[c][i];
      }
  });
  return a;
}

std::vector<real> matrix_diagonal(const SparseMatrix& a) {
  std::vector<real> d(static_cast<std::size_t>(a.rows), 0);
  parallel_for(a.rows, [&](index first, index end) {
    for (index i = first; i < end; ++i)
      for (index k = a.offset[i]; k < a.offset[i + 1]; ++k)
        if (a.column[k] == i) d[i] += a.value[k];
  });
  return d;
}

void host_apply(const SparseMatrix& a, std::span<const real> x, std::span<real> y) {
  parallel_for(a.rows, [&](index first, index end) {
    for (index i = first; i < end; ++i) {
      real s = 0;
      for (index k = a.offset[i]; k < a.offset[i + 1]; ++k) s += a.value[k] * x[a.column[k]];
      y[i] = s;
    }
  });
}

HodgeStar diagonal_star(std::vector<real> d, index owned) {
  HodgeStar h;
  h.matrix.rows = owned;
  h.matrix.cols = static_cast<index>(d.size());
  h.matrix.offset.resize(static_cast<std::size_t>(owned) + 1);
  h.matrix.column.resize(static_cast<std::size_t>(owned));
  for (index i = 0; i < owned; ++i) {
    h.matrix.offset[i + 1] = i + 1;
    h.matrix.column[i] = i;
  }
  h.matrix.value.assign(d.begin(), d.begin() + owned);
  h.diagonal = std::move(d);
  h.is_diagonal = true;
  return h;
}

HodgeStar matrix_star(SparseMatrix a, index local) {
  HodgeStar h;
  h.diagonal = matrix_diagonal(a);
  h.diagonal.resize(static_cast<std::size_t>(local), 0);
  h.matrix = std::move(a);
  return h;
}

std::vector<real> viscous_diagonal(const topology::Mesh& m, const SparseMatrix& mc,
                                   const HodgeStar& edge) {
  std::vector<real> d(static_cast<std::size_t>(m.n_faces), 0);
  parallel_for(mc.rows, [&](index first, index end) {
    for (index f = first; f < end; ++f)
      for (index e = mc.offset[f]; e < mc.offset[f + 1]; ++e)
        d[f] += mc.value[e] * mc.value[e] * edge.diagonal[mc.column[e]];
  });
  return d;
}

std::pair<std::vector<real>, std::vector<real>> stream_diagonals(const topology::Mesh& m,
                                                                 const SparseMatrix& s,
                                                                 std::span<const real> w) {
  std::vector<real> dm = matrix_diagonal(s), dv(static_cast<std::size_t>(m.n_curl()), 0);
  dm.resize(dv.size(), 0);
  for (index k = 0; k < s.rows; ++k)
    for (index e = s.offset[k]; e < s.offset[k + 1]; ++e)
      dv[k] += w[s.column[e]] * s.value[e] * s.value[e];
  return {dm, dv};
}

}  // namespace scfd::physics::ns
