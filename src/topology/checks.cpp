// Step 1 of build_mesh: checks of the RawMesh that are about cells and nodes (the face checks
// are in faces.cpp), and the orientation of every cell.
//
// Signed volume of a simplex with nodes x0..xd:
//   2D: A = ((x1-x0) × (x2-x0))_z / 2,   3D: V = ((x1-x0) × (x2-x0))·(x3-x0) / 6.
// Coordinates must keep the mesh between 1e-30 and 1e30 in size (the geometry multiplies four
// lengths). A cell is degenerate when |V| <= 1e-12 h^d (h its longest edge). A mesh whose cells are
// all negative (a 2D mesh seen from -z) is reoriented by swapping local nodes 0 and 1; with mixed
// signs the minority is reported as inverted. Duplicate nodes are found by sorting the used
// nodes by their coordinates quantised at 1e-12 of the bounding-box diagonal (O(n log n)).
// Reference: P. J. Frey, P.-L. George, "Mesh Generation", 2nd ed. (2008), §1.6 (mesh validity).
#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <utility>

#include "core/error.hpp"
#include "core/threads.hpp"
#include "topology/build_steps.hpp"

namespace scfd::topology::detail {

real signed_volume(int dim, const Vec3* x) {
  const Vec3 c = cross(x[1] - x[0], x[2] - x[0]);
  return dim == 2 ? c.z / 2 : dot(c, x[3] - x[0]) / 6;
}

namespace {

using mesh_io::RawMesh;

constexpr real kRelTol = 1e-12;
constexpr real kMinExtent = 1e-30, kMaxExtent = 1e30;

real bounding_box_diagonal(const RawMesh& raw, Vec3& lo) {
  lo = raw.nodes[0];
  Vec3 hi = lo;
  for (const Vec3& p : raw.nodes) {
    for (int i = 0; i < 3; ++i) {
      lo[i] = std::min(lo[i], p[i]);
      hi[i] = std::max(hi[i], p[i]);
    }
  }
  const real d = norm(hi - lo);
  return d > 0 ? d : 1;
}

void check_shape(const RawMesh& raw) {
  if (raw.dim != 2 && raw.dim != 3)
    throw input_error("{}: mesh dimension {} is not supported (expected triangles or tetrahedra)",
                      raw.source, raw.dim);
  if (raw.n_cells() == 0)
    throw input_error("{}: the mesh has no {}", raw.source,
                      raw.dim == 2 ? "triangles" : "tetrahedra");
  const auto nc = static_cast<std::size_t>(raw.n_cells());
  const auto nb = static_cast<std::size_t>(raw.n_bfaces());
  SCFD_CHECK(
      raw.cells.size() == nc * static_cast<std::size_t>(raw.dim + 1) && raw.cell_group.size() == nc,
      "{}: RawMesh cell arrays disagree", raw.source);
  SCFD_CHECK(
      raw.bfaces.size() == nb * static_cast<std::size_t>(raw.dim) && raw.bface_group.size() == nb,
      "{}: RawMesh boundary arrays disagree", raw.source);
  SCFD_CHECK(raw.node_tags.size() == raw.nodes.size(), "{}: RawMesh node arrays disagree",
             raw.source);
  // Slot numbers of the matching (cell * 6 + local edge) are 32-bit unsigned.
  if (nc > (std::size_t{1} << 32) / 8)
    throw input_error("{}: {} cells are too many for one process (at most {})", raw.source, nc,
                      (std::size_t{1} << 32) / 8);
  for (index n : raw.cells) SCFD_CHECK(n >= 0 && n < raw.n_nodes(), "cell node {} out of range", n);
  for (index n : raw.bfaces)
    SCFD_CHECK(n >= 0 && n < raw.n_nodes(), "boundary node {} out of range", n);
}

void check_planar(const RawMesh& raw, real diag) {
  const real z0 = raw.nodes[0].z;
  for (index n = 0; n < raw.n_nodes(); ++n) {
    if (std::abs(raw.nodes[n].z - z0) > kRelTol * diag)
      throw input_error(
          "{}: node {} has z = {} but node {} has z = {}: not planar: 2D meshes must lie in a "
          "plane z = const",
          raw.source, raw.node_tags[n], raw.nodes[n].z, raw.node_tags[0], z0);
  }
}

// Signed volume of cell c, after checking that it is not degenerate.
real checked_volume(const RawMesh& raw, const std::vector<index>& cells, index c) {
  const int w = raw.dim + 1;
  std::array<Vec3, 4> x;
  for (int k = 0; k < w; ++k) x[k] = raw.nodes[cells[static_cast<std::size_t>(c) * w + k]];
  real h2 = 0;
  for (int a = 0; a < w; ++a)
    for (int b = a + 1; b < w; ++b) h2 = std::max(h2, dot(x[b] - x[a], x[b] - x[a]));
  const real h = std::sqrt(h2);
  const real v = signed_volume(raw.dim, x.data());
  if (!(std::abs(v) > kRelTol * (raw.dim == 3 ? h2 * h : h2)))
    throw input_error("{}: element {} has zero {} ({:.3g}; longest side {:.3g})", raw.source,
                      raw.cell_tags[c], raw.dim == 2 ? "area" : "volume", v, h);
  return v;
}

void orient_cells(const RawMesh& raw, std::vector<index>& cells, std::vector<std::string>* notes) {
  // The volumes on the host threads, each chunk counting its own; the first degenerate cell's
  // error is the one a serial loop would throw (for_chunks rethrows the first chunk's).
  struct Signs {
    index n_neg = 0, first_neg = kNone, first_pos = kNone;
  };
  const std::vector<index> bounds = chunk_bounds(raw.n_cells());
  std::vector<Signs> chunk(bounds.size() - 1);
  for_chunks(bounds, [&](std::size_t k, index begin, index end) {
    Signs& s = chunk[k];
    for (index c = begin; c < end; ++c) {
      if (checked_volume(raw, cells, c) < 0) {
        ++s.n_neg;
        if (s.first_neg == kNone) s.first_neg = c;
      } else if (s.first_pos == kNone) {
        s.first_pos = c;
      }
    }
  });
  index n_neg = 0, first_neg = kNone, first_pos = kNone;
  for (const Signs& s : chunk) {
    n_neg += s.n_neg;
    if (first_neg == kNone) first_neg = s.first_neg;
    if (first_pos == kNone) first_pos = s.first_pos;
  }
  const index n_pos = raw.n_cells() - n_neg;
  if (n_neg == 0) return;
  if (n_pos == 0) {
    const int w = raw.dim + 1;
    for (std::size_t c = 0; c < static_cast<std::size_t>(raw.n_cells()); ++c)
      std::swap(cells[c * w], cells[c * w + 1]);
    if (notes)
      notes->push_back(fmt::format("{}: all {} cells were negatively oriented; reoriented them",
                                   raw.source, raw.n_cells()));
    return;
  }
  const bool neg_minority = n_neg <= n_pos;
  const index bad = neg_minority ? first_neg : first_pos;
  throw input_error(
      "{}: element {} is inverted: its orientation ({}) disagrees with {} of the {} elements",
      raw.source, raw.cell_tags[bad], neg_minority ? "negative" : "positive",
      neg_minority ? n_pos : n_neg, raw.n_cells());
}

void check_nodes(const RawMesh& raw, const std::vector<index>& cells, real diag, Vec3 lo) {
  std::vector<char> used(raw.nodes.size(), 0);
  for (index n : cells) used[n] = 1;
  index n_unused = 0, first_unused = kNone;
  std::vector<index> order;
  order.reserve(raw.nodes.size());
  for (index n = 0; n < raw.n_nodes(); ++n) {
    if (used[n]) {
      order.push_back(n);
    } else if (n_unused++ == 0) {
      first_unused = n;
    }
  }
  // Duplicates first: a duplicated node usually also leaves its twin unused. The used nodes
  // sorted by their position rounded to the tolerance, ties by number (on the host threads).
  const real tol = kRelTol * diag;
  std::vector<std::pair<std::array<std::int64_t, 3>, index>> q(order.size());
  parallel_for(static_cast<index>(order.size()), [&](index first, index end) {
    for (index k = first; k < end; ++k) {
      const index n = order[k];
      for (int i = 0; i < 3; ++i) q[k].first[i] = std::llround((raw.nodes[n][i] - lo[i]) / tol);
      q[k].second = n;
    }
  });
  parallel_sort(q);
  for (std::size_t i = 1; i < q.size(); ++i) {
    const index m = q[i].second, n = q[i - 1].second;
    const Vec3 d = raw.nodes[m] - raw.nodes[n];
    if (std::abs(d.x) <= tol && std::abs(d.y) <= tol && std::abs(d.z) <= tol) {
      const index a = std::min(m, n), b = std::max(m, n);
      const Vec3& p = raw.nodes[a];
      throw input_error("{}: nodes {} and {} are duplicates (both at ({}, {}, {}))", raw.source,
                        raw.node_tags[a], raw.node_tags[b], p.x, p.y, p.z);
    }
  }
  if (n_unused > 0)
    throw input_error("{}: node {} is used by no element ({} unused nodes in all)", raw.source,
                      raw.node_tags[first_unused], n_unused);
}

}  // namespace

// The geometry multiplies up to four lengths (|a x b|^2 in a 3D circumcentre): coordinates far
// from 1 in size would overflow or underflow a double there and leave NaN volumes and qualities.
void check_scale(const RawMesh& raw, real diag) {
  real far = 0;
  for (const Vec3& p : raw.nodes)
    far = std::max({far, std::abs(p.x), std::abs(p.y), std::abs(p.z)});
  if (!(diag >= kMinExtent && far <= kMaxExtent))
    throw input_error(
        "{}: the mesh extends over {:.3g} with coordinates up to {:.3g}: the geometry needs "
        "sizes between {:g} and {:g} (rescale the mesh, e.g. to metres)",
        raw.source, diag, far, kMinExtent, kMaxExtent);
}

std::vector<index> checked_cells(const RawMesh& raw, std::vector<std::string>* notes) {
  check_shape(raw);
  Vec3 lo;
  const real diag = bounding_box_diagonal(raw, lo);
  check_scale(raw, diag);
  if (raw.dim == 2) check_planar(raw, diag);
  std::vector<index> cells = raw.cells;
  orient_cells(raw, cells, notes);
  check_nodes(raw, cells, diag, lo);
  return cells;
}

}  // namespace scfd::topology::detail
