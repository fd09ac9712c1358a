// Boundary values of the ns-exact streamfunction (see ns/stream.hpp).
//
// In 2D every rank gathers the owned boundary faces of all ranks (global node ids, flux, patch:
// O(sqrt N) values) and walks the chains itself in global-id order, so every rank derives the
// same chains, constants and values without a distributed graph search.
#include "physics/ns/stream.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <queue>
#include <set>

#include "core/collectives.hpp"
#include "core/error.hpp"
#include "topology/tree_cotree.hpp"

namespace scfd::physics::ns {
namespace {

// The owned boundary faces of all ranks whose flux is data: node gids (in face_curl order),
// the curl signs, the flux and the patch.
struct BoundaryFaces {
  std::vector<std::int64_t> gid;  // 2 per face
  std::vector<real> sign;         // 2 per face
  std::vector<real> flux;
  std::vector<int> patch;
};

// Global id of local node n (a serial mesh has no gid lists).
std::int64_t node_id(const topology::Mesh& m, index n) {
  return m.node_gid.empty() ? n : m.node_gid[n];
}

// "a, b, c": the names of the patches, in patch order.
std::string patch_names(const topology::Mesh& m, const std::set<int>& patches) {
  std::string names;
  for (int p : patches)
    names += (names.empty() ? "" : ", ") + m.patches[static_cast<std::size_t>(p)].name;
  return names;
}

BoundaryFaces gather_fixed_faces(const topology::Mesh& m, const Setup& s,
                                 const std::vector<real>& flux) {
  BoundaryFaces mine;
  for (index f = m.n_interior_faces; f < m.n_owned_faces; ++f) {
    const int p = m.face_patch[f];
    if (s.bcs[static_cast<std::size_t>(p)].kind == BcKind::outlet) continue;
    for (int j = 0; j < 2; ++j) {
      mine.gid.push_back(node_id(m, m.face_curl[2 * f + j]));
      mine.sign.push_back(m.face_curl_sign[2 * f + j]);
    }
    mine.flux.push_back(flux[f]);
    mine.patch.push_back(p);
  }
  return {all_gather(mine.gid), all_gather(mine.sign), all_gather(mine.flux),
          all_gather(mine.patch)};
}

struct Chain {
  std::map<std::int64_t, real> value;  // node gid -> s with the chain's constant 0
  std::set<int> patches;
};

// Connected runs of boundary nodes joined by the faces of `b`, each walked breadth-first from
// its smallest gid (s = 0 there); ascending by that gid, so chains[0] is the gauge.
std::vector<Chain> walk_chains(const BoundaryFaces& b, const topology::Mesh& m,
                               const std::string& case_path) {
  std::map<std::int64_t, std::vector<std::size_t>> faces_of;  // node gid -> faces
  for (std::size_t f = 0; f < b.flux.size(); ++f)
    for (int j = 0; j < 2; ++j) faces_of[b.gid[2 * f + j]].push_back(f);
  std::vector<Chain> chains;
  std::set<std::int64_t> seen;
  for (const auto& [root, unused] : faces_of) {
    if (seen.count(root) != 0) continue;
    Chain c;
    real scale = 0, worst = 0;
    std::queue<std::int64_t> todo;
    c.value[root] = 0;
    seen.insert(root);
    todo.push(root);
    std::set<std::size_t> used;
    while (!todo.empty()) {
      const std::int64_t a = todo.front();
      todo.pop();
      for (std::size_t f : faces_of[a]) {
        if (!used.insert(f).second) continue;
        c.patches.insert(b.patch[f]);
        scale += std::abs(b.flux[f]);
        const int ja = b.gid[2 * f] == a ? 0 : 1;
        const std::int64_t other = b.gid[2 * f + 1 - ja];
        // flux = sign_a s_a + sign_b s_b
        const real s_other = (b.flux[f] - b.sign[2 * f + ja] * c.value[a]) / b.sign[2 * f + 1 - ja];
        if (seen.insert(other).second) {
          c.value[other] = s_other;
          todo.push(other);
        } else {
          worst = std::max(worst, std::abs(c.value[other] - s_other));  // a loop closes
        }
      }
    }
    if (worst > 1e-6 * scale && worst > 1e-14) {
      throw input_error(
          "{}: boundary: the closed boundary loop of patches {} carries a net flux of {:.6g} "
          "(sum of |flux| {:.6g}); ns-exact needs zero net flux through every closed boundary "
          "loop (a single-valued streamfunction): balance its velocity patches",
          case_path, patch_names(m, c.patches), worst, scale);
    }
    chains.push_back(std::move(c));
  }
  return chains;
}

StreamBoundary stream_boundary_2d(const topology::Mesh& m, const Setup& s,
                                  const std::vector<real>& flux, const std::string& case_path) {
  const std::vector<Chain> chains = walk_chains(gather_fixed_faces(m, s, flux), m, case_path);
  StreamBoundary out;
  const auto n = static_cast<std::size_t>(m.n_nodes);
  out.fixed.assign(n, 0);
  out.value.assign(n, 0);
  for (std::size_t k = 0; k < chains.size(); ++k) {
    std::vector<real> indicator(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      const auto it = chains[k].value.find(node_id(m, static_cast<index>(i)));
      if (it == chains[k].value.end()) continue;
      out.fixed[i] = 1;
      out.value[i] = it->second;
      indicator[i] = 1;
    }
    if (k == 0) continue;  // the gauge
    out.chains.push_back(std::move(indicator));
    out.chain_patches.push_back(patch_names(m, chains[k].patches));
  }
  return out;
}

// Global id of local edge e.
std::int64_t edge_id(const topology::Mesh& m, index e) {
  return m.edge_gid.empty() ? e : m.edge_gid[e];
}

// The owned boundary faces of all ranks (3D) whose flux is data: per face its 3 edges (gids, curl
// signs, end-node gids), the flux and the patch; and the gids of every edge of an outlet face.
struct SurfaceFaces {
  std::vector<std::int64_t> edge, ends;  // 3 and 6 per face
  std::vector<real> sign, flux;          // 3 and 1 per face
  std::vector<int> patch;
  std::vector<std::int64_t> outlet_edges;
};

SurfaceFaces gather_surface(const topology::Mesh& m, const Setup& s,
                            const std::vector<real>& flux) {
  SurfaceFaces mine;
  for (index f = m.n_interior_faces; f < m.n_owned_faces; ++f) {
    const int p = m.face_patch[f];
    const bool outlet = s.bcs[static_cast<std::size_t>(p)].kind == BcKind::outlet;
    for (int j = 0; j < 3; ++j) {
      const index e = m.face_curl[3 * f + j];
      if (outlet) {
        mine.outlet_edges.push_back(edge_id(m, e));
        continue;
      }
      mine.edge.push_back(edge_id(m, e));
      mine.sign.push_back(m.face_curl_sign[3 * f + j]);
      mine.ends.push_back(node_id(m, m.edge_nodes[2 * e]));
      mine.ends.push_back(node_id(m, m.edge_nodes[2 * e + 1]));
    }
    if (outlet) continue;
    mine.flux.push_back(flux[f]);
    mine.patch.push_back(p);
  }
  return {all_gather(mine.edge), all_gather(mine.ends),  all_gather(mine.sign),
          all_gather(mine.flux), all_gather(mine.patch), all_gather(mine.outlet_edges)};
}

// F as a topology::Surface, its edges and nodes numbered densely in gid order (every rank
// numbers the same gathered faces the same way); edge_at maps an edge gid to its number.
topology::Surface make_surface(const SurfaceFaces& g, std::map<std::int64_t, index>& edge_at) {
  std::map<std::int64_t, index> node_at;
  for (std::int64_t e : g.edge) edge_at.emplace(e, 0);
  for (std::int64_t n : g.ends) node_at.emplace(n, 0);
  index k = 0;
  for (auto& [gid, i] : edge_at) i = k++;
  k = 0;
  for (auto& [gid, i] : node_at) i = k++;
  topology::Surface surface;
  surface.n_nodes = static_cast<index>(node_at.size());
  surface.edge_nodes.resize(edge_at.size());
  surface.rim.assign(edge_at.size(), 0);
  for (std::size_t f = 0; f < g.flux.size(); ++f) {
    std::array<index, 3> edges{};
    std::array<real, 3> signs{};
    for (int j = 0; j < 3; ++j) {
      edges[j] = edge_at[g.edge[3 * f + j]];
      signs[j] = g.sign[3 * f + j];
      surface.edge_nodes[edges[j]] = {node_at[g.ends[6 * f + 2 * j]],
                                      node_at[g.ends[6 * f + 2 * j + 1]]};
    }
    surface.face_edges.push_back(edges);
    surface.face_signs.push_back(signs);
  }
  for (std::int64_t gid : g.outlet_edges)
    if (const auto it = edge_at.find(gid); it != edge_at.end()) surface.rim[it->second] = 1;
  return surface;
}

// A closed component (no rim on an outlet) must carry zero net flux: its root face's equation,
// left out of the edge values, checks it.
void check_closed_components(const topology::Mesh& m, const SurfaceFaces& g,
                             const topology::Surface& surface, const topology::TreeCotree& t,
                             const std::vector<real>& value, const std::string& case_path) {
  real scale = 0;
  for (real x : g.flux) scale += std::abs(x);
  for (index f : t.root_faces) {
    real residual = g.flux[f];
    for (int j = 0; j < 3; ++j)
      residual -= surface.face_signs[f][j] * value[surface.face_edges[f][j]];
    if (std::abs(residual) > 1e-6 * scale && std::abs(residual) > 1e-14)
      throw input_error(
          "{}: boundary: the closed boundary surface of patch {} carries a net flux of {:.6g} "
          "(sum of |flux| {:.6g}); ns-exact needs zero net flux through every closed boundary "
          "surface (a single-valued vector potential): balance its velocity patches",
          case_path, m.patches[static_cast<std::size_t>(g.patch[f])].name, residual, scale);
  }
}

// 3D: the surface F of the faces whose flux is data, split by topology::tree_cotree: s = 0 on
// the spanning tree T of F's edges (a surface gradient is a gradient, in the null space of C, so
// this gauge loses nothing), every face of the cotree T* gives its parent edge from its flux,
// and each generator is a chain of the model (the 3D counterpart of a 2D boundary constant; one
// that only carries a circulation adds a null direction that the right-hand side does not excite).
StreamBoundary stream_boundary_3d(const topology::Mesh& m, const Setup& s,
                                  const std::vector<real>& flux, const std::string& case_path) {
  const SurfaceFaces g = gather_surface(m, s, flux);
  std::map<std::int64_t, index> edge_at;
  const topology::Surface surface = make_surface(g, edge_at);
  const topology::TreeCotree t = topology::tree_cotree(surface);
  const std::vector<real> value = topology::surface_edge_values(surface, t, g.flux);
  check_closed_components(m, g, surface, t, value, case_path);
  StreamBoundary out;
  out.fixed.assign(static_cast<std::size_t>(m.n_edges), 0);
  out.value.assign(out.fixed.size(), 0);
  std::vector<index> local(static_cast<std::size_t>(m.n_edges), kNone);
  for (index e = 0; e < m.n_edges; ++e)
    if (const auto it = edge_at.find(edge_id(m, e)); it != edge_at.end()) {
      local[e] = it->second;
      out.fixed[e] = 1;
      out.value[e] = value[it->second];
    }
  for (std::size_t q = 0; q < t.generators.size(); ++q) {
    const std::vector<real> h =
        topology::surface_edge_values(surface, t, {}, static_cast<index>(q));
    std::vector<real> chain(out.fixed.size(), 0);
    for (std::size_t e = 0; e < local.size(); ++e)
      if (local[e] != kNone) chain[e] = h[local[e]];
    out.chains.push_back(std::move(chain));
    std::set<int> patches;
    for (std::size_t f = 0; f < g.flux.size(); ++f)
      for (index e : surface.face_edges[f])
        if (h[e] != 0) patches.insert(g.patch[f]);
    out.chain_patches.push_back(patch_names(m, patches));
  }
  return out;
}

}  // namespace

StreamBoundary stream_boundary(const topology::Mesh& m, const Setup& s,
                               const std::vector<real>& flux, const std::string& case_path) {
  if (m.dim == 3) return stream_boundary_3d(m, s, flux, case_path);
  return stream_boundary_2d(m, s, flux, case_path);
}

}  // namespace scfd::physics::ns
