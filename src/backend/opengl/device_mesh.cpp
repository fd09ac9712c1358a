// Builds the device copy of a mesh (layouts: device_mesh.hpp). Everything is computed on the host
// in double and rounded once to the backend's precision, so the fp32 geometry is as accurate as
// fp32 can hold (better than forming the differences in fp32 on the device).
#include "backend/opengl/device_mesh.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/error.hpp"
#include "core/threads.hpp"

namespace scfd::backend::opengl {
namespace {

using scfd::gl::Buffer;
using scfd::gl::Precision;
using scfd::gl::Uploader;
using topology::Csr;
using topology::Mesh;

// An index with its sign folded in: i for +1, ~i for -1.
std::int32_t signed_index(index i, int sign) {
  return sign > 0 ? i : ~i;
}

// The SELL-C shape of rows [0, n_rows) of a CSR list: where each entry goes.
struct SellShape {
  std::vector<std::uint32_t> slice, length;
  std::size_t padded = 0;  // entries, padding included
};

SellShape sell_shape(std::span<const index> offset, index n_rows) {
  SellShape s;
  const index n_slices = (n_rows + kSellChunk - 1) / kSellChunk;
  s.slice.resize(static_cast<std::size_t>(n_slices));
  s.length.assign(static_cast<std::size_t>((n_rows + 1) / 2), 0);
  std::vector<index> widest(static_cast<std::size_t>(n_slices), 0);
  // Slices on the host threads (a slice's rows fill whole words of `length`: kSellChunk is even).
  parallel_for(n_slices, [&](index first, index end) {
    for (index sl = first; sl < end; ++sl)
      for (index i = sl * kSellChunk; i < std::min(n_rows, (sl + 1) * kSellChunk); ++i) {
        const index len = offset[i + 1] - offset[i];
        SCFD_CHECK(len <= 0xffff, "row {} has {} entries; SELL rows hold at most 65535", i, len);
        widest[sl] = std::max(widest[sl], len);
        s.length[static_cast<std::size_t>(i / 2)] |= static_cast<std::uint32_t>(len)
                                                     << (16 * (i % 2));
      }
  });
  for (index sl = 0; sl < n_slices; ++sl) {
    s.slice[static_cast<std::size_t>(sl)] = static_cast<std::uint32_t>(s.padded);
    s.padded += static_cast<std::size_t>(widest[sl]) * kSellChunk;
    SCFD_CHECK(s.padded <= 0xffffffffu, "SELL layout of {} rows exceeds 2^32 entries", n_rows);
  }
  return s;
}

// A buffer of T in the SELL layout: value(i, k) for entry k of row i (CSR position k) at its
// place, 0 in the padding, written by the host threads part by part into the uploader's staging
// (gl::Uploader): each thread the share of a part in its slices, column by column of a slice
// (entry k of its kSellChunk rows are consecutive), so the writes run in order with no division
// per entry.
template <typename T, typename Value>
Buffer sell_buffer(Uploader& up, const SellShape& s, std::span<const index> offset, index n_rows,
                   Value value) {
  const auto n_slices = static_cast<index>(s.slice.size());
  return up.make<T>(s.padded, [&](T* dst, std::size_t first, std::size_t end) {
    // The slices that overlap [first, end) (an empty slice starts where the next one does).
    const auto sl_first =
        static_cast<index>(std::upper_bound(s.slice.begin(), s.slice.end(), first) -
                           s.slice.begin()) -
        1;
    const auto sl_end =
        static_cast<index>(std::lower_bound(s.slice.begin(), s.slice.end(), end) - s.slice.begin());
    constexpr auto chunk = static_cast<std::size_t>(kSellChunk);
    parallel_for(
        sl_end - sl_first,
        [&](index a, index b) {
          std::array<index, kSellChunk> row_start{}, row_length{};
          for (index sl = sl_first + a; sl < sl_first + b; ++sl) {
            const std::size_t start = s.slice[static_cast<std::size_t>(sl)];
            const std::size_t stop =
                sl + 1 < n_slices ? s.slice[static_cast<std::size_t>(sl) + 1] : s.padded;
            const std::size_t lo = std::max(start, first), hi = std::min(stop, end);
            if (lo >= hi) continue;
            for (std::size_t r = 0; r < chunk; ++r) {
              const index i = sl * kSellChunk + static_cast<index>(r);
              row_start[r] = i < n_rows ? offset[i] : 0;
              row_length[r] = i < n_rows ? offset[i + 1] - offset[i] : 0;
            }
            for (std::size_t col = (lo - start) / chunk; start + col * chunk < hi; ++col) {
              const std::size_t at = start + col * chunk;  // entry col of the slice's row 0
              const auto k = static_cast<index>(col);
              for (std::size_t r = lo > at ? lo - at : 0; r < std::min(chunk, hi - at); ++r)
                dst[at + r - first] =
                    k < row_length[r]
                        ? static_cast<T>(
                              value(sl * kSellChunk + static_cast<index>(r), row_start[r] + k))
                        : T(0);
            }
          }
        },
        256);
  });
}

// One int per padded entry: value(i, k) for entry k of row i, 0 in the padding.
template <typename Value>
Buffer sell_items(Uploader& up, const SellShape& s, std::span<const index> offset, index n_rows,
                  Value value) {
  return sell_buffer<std::int32_t>(up, s, offset, n_rows, value);
}

SellRows sell_rows(const SellShape& s) {
  SellRows r;
  r.slice = Buffer::from(std::span<const std::uint32_t>(s.slice));
  r.length = Buffer::from(std::span<const std::uint32_t>(s.length));
  return r;
}

// The cell_neighbours entry of face f seen from owned cell c: the cell across f, or ~b on a
// boundary face (b its index into boundary-value arrays).
std::int32_t neighbour_across(const Mesh& m, index c, index f) {
  const index c1 = m.face_cells[2 * f], c2 = m.face_cells[2 * f + 1];
  if (c2 == kNone) {
    SCFD_CHECK(c1 == c && f >= m.n_interior_faces && f < m.n_owned_faces,
               "owned cell {}: boundary face {} is not an owned boundary face", c, f);
    return ~static_cast<std::int32_t>(f - m.n_interior_faces);
  }
  SCFD_CHECK((c1 == c) != (c2 == c), "owned cell {}: face {} joins cells {} and {}", c, f, c1, c2);
  const index other = c1 == c ? c2 : c1;
  SCFD_CHECK(other >= 0, "owned cell {}: the cell across face {} is not local", c, f);
  return static_cast<std::int32_t>(other);
}

// A buffer of `count` T whose element e is value(e) (a double rounded once to T, or an index),
// written by the host threads part by part into the uploader's staging (gl::Uploader).
template <typename T, typename Value>
Buffer plane_buffer(Uploader& up, std::size_t count, const Value& value) {
  return up.make<T>(count, [&](T* dst, std::size_t first, std::size_t end) {
    parallel_for(static_cast<index>(end - first), [&](index a, index b) {
      for (index e = a; e < b; ++e)
        dst[e] = static_cast<T>(value(first + static_cast<std::size_t>(e)));
    });
  });
}

template <typename Value>
Buffer real_planes(Uploader& up, Precision p, std::size_t count, const Value& value) {
  return p == Precision::fp64 ? plane_buffer<double>(up, count, value)
                              : plane_buffer<float>(up, count, value);
}

// cell_faces planes (signed), the interpolation vectors s (x_f - x_c) / V_c, and the
// cell_neighbours planes and 1 / V_c of convection: plane k of a per-cell item holds it for every
// owned cell (element k n + c).
void build_cells(const Mesh& m, DeviceMesh::Buffers& b, Uploader& up) {
  const int w = m.cell_width(), dim = m.dim;
  const auto n = static_cast<std::size_t>(m.n_owned_cells);
  const auto face = [&](std::size_t c, std::size_t k) {
    const index f = m.cell_faces[c * w + k];
    SCFD_CHECK(f >= 0 && f < m.n_faces, "owned cell {} has face {}", c, f);
    return f;
  };
  b.cell_faces = plane_buffer<std::int32_t>(up, n * w, [&](std::size_t e) {
    const std::size_t c = e % n, k = e / n;
    return signed_index(face(c, k), m.cell_face_sign[c * w + k]);
  });
  b.cell_neighbours = plane_buffer<std::int32_t>(up, n * w, [&](std::size_t e) {
    const std::size_t c = e % n;
    return neighbour_across(m, static_cast<index>(c), face(c, e / n));
  });
  b.cell_interp = real_planes(up, b.precision, n * w * dim, [&](std::size_t e) {
    const std::size_t c = e % n, k = e / n / dim;
    const real inv_volume = 1 / m.cell_volume[c];
    const Vec3 a = (m.cell_face_sign[c * w + k] * inv_volume) *
                   (m.face_centre[face(c, k)] - m.cell_centre(static_cast<index>(c)));
    return a[static_cast<int>(e / n % dim)];
  });
  b.cell_inv_volume =
      real_planes(up, b.precision, n, [&](std::size_t c) { return 1 / m.cell_volume[c]; });
}

// face_cells planes, the integration vectors x_f - x_c and the signed face_curl planes (element
// k n + f of plane k).
void build_faces(const Mesh& m, DeviceMesh::Buffers& b, Uploader& up) {
  const int dim = m.dim, cw = m.curl_width();
  const auto n = static_cast<std::size_t>(m.n_owned_faces);
  b.face_cells = plane_buffer<std::int32_t>(up, 2 * n, [&](std::size_t e) {
    const std::size_t f = e % n, side = e / n;
    SCFD_CHECK(m.face_cells[2 * f] >= 0, "owned face {} has no cell behind it", f);
    return m.face_cells[2 * f + side];
  });
  b.face_integ = real_planes(up, b.precision, 2 * dim * n, [&](std::size_t e) {
    const std::size_t f = e % n, side = e / n / dim;
    const index c = m.face_cells[2 * f + side];
    if (c == kNone) return real(0);
    return (m.face_centre[f] - m.cell_centre(c))[static_cast<int>(e / n % dim)];
  });
  b.face_curl = plane_buffer<std::int32_t>(up, n * cw, [&](std::size_t e) {
    const std::size_t f = e % n, i = f * cw + e / n;
    SCFD_CHECK(m.face_curl[i] >= 0, "owned face {} misses a curl entity", f);
    return signed_index(m.face_curl[i], m.face_curl_sign[i]);
  });
}

std::size_t sell_bytes(const SellRows& s) {
  return s.slice.size() + s.length.size() + s.item.size() + s.item2.size();
}

}  // namespace

DeviceMesh::DeviceMesh(const topology::Mesh& m, Precision p, Uploader& up)
    : mesh_(&m),
      n_nodes_(m.n_nodes),
      n_edges_(m.n_edges),
      n_faces_(m.n_faces),
      n_cells_(m.n_cells) {
  SCFD_CHECK(m.dim == 2 || m.dim == 3, "mesh dimension {}", m.dim);
  SCFD_CHECK(
      m.curl_faces.n_rows() == m.n_curl() && m.curl_faces.sign.size() == m.curl_faces.item.size(),
      "curl_faces has {} rows, {} expected", m.curl_faces.n_rows(), m.n_curl());
  SCFD_CHECK(m.node_edges.n_rows() == m.n_nodes, "node_edges has {} rows, {} expected",
             m.node_edges.n_rows(), m.n_nodes);
  auto b = std::make_shared<Buffers>();
  b->precision = p;
  build_cells(m, *b, up);
  build_faces(m, *b, up);
  // R = C^T: per owned curl entity, its faces with the signs folded in.
  const Csr& cf = m.curl_faces;
  const SellShape curl_shape = sell_shape(cf.offset, m.n_owned_curl());
  b->curl_faces = sell_rows(curl_shape);
  b->curl_faces.item =
      sell_items(up, curl_shape, cf.offset, m.n_owned_curl(), [&](index i, index k) {
        SCFD_CHECK(cf.item[k] >= 0 && cf.item[k] < m.n_faces, "curl entity {}: face {}", i,
                   cf.item[k]);
        return signed_index(cf.item[k], cf.sign[k]);
      });
  // Node operators: per owned node, its edges and the node at the other end of each.
  const Csr& ne = m.node_edges;
  const SellShape node_shape = sell_shape(ne.offset, m.n_owned_nodes);
  b->node_edges = sell_rows(node_shape);
  b->node_edges.item =
      sell_items(up, node_shape, ne.offset, m.n_owned_nodes, [&](index i, index k) {
        SCFD_CHECK(ne.item[k] >= 0 && ne.item[k] < m.n_edges, "node {}: edge {}", i, ne.item[k]);
        return ne.item[k];
      });
  b->node_edges.item2 =
      sell_items(up, node_shape, ne.offset, m.n_owned_nodes, [&](index i, index k) {
        const index e = ne.item[k];
        return m.edge_nodes[2 * e] == i ? m.edge_nodes[2 * e + 1] : m.edge_nodes[2 * e];
      });
  buffers_ = std::move(b);
}

SellMatrix make_sell_matrix(const SparseMatrix& a, Precision p, Uploader& up) {
  a.check();
  const SellShape shape = sell_shape(a.offset, a.rows);
  SellMatrix s;
  s.rows = a.rows;
  s.cols = a.cols;
  s.layout = sell_rows(shape);
  s.layout.item =
      sell_items(up, shape, a.offset, a.rows, [&](index, index k) { return a.column[k]; });
  const auto value = [&](index, index k) { return a.value[k]; };
  s.value = p == Precision::fp64 ? sell_buffer<double>(up, shape, a.offset, a.rows, value)
                                 : sell_buffer<float>(up, shape, a.offset, a.rows, value);
  return s;
}

std::size_t SellMatrix::bytes() const {
  return sell_bytes(layout) + value.size();
}

bool DeviceMesh::matches(const topology::Mesh& m) const {
  return &m == mesh_ && m.n_nodes == n_nodes_ && m.n_edges == n_edges_ && m.n_faces == n_faces_ &&
         m.n_cells == n_cells_;
}

std::size_t DeviceMesh::bytes() const {
  const Buffers& b = *buffers_;
  return b.cell_faces.size() + b.cell_interp.size() + b.cell_neighbours.size() +
         b.cell_inv_volume.size() + b.face_cells.size() + b.face_integ.size() + b.face_curl.size() +
         sell_bytes(b.curl_faces) + sell_bytes(b.node_edges);
}

}  // namespace scfd::backend::opengl
