// Boundary values of the ns-exact streamfunction (see ns_stream.hpp).
//
// In 2D every rank gathers the owned boundary faces of all ranks (global node ids, flux, patch:
// O(sqrt N) values) and walks the chains itself in global-id order, so every rank derives the
// same chains, constants and values without a distributed graph search.
#include "physics/ns_stream.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <numeric>
#include <queue>
#include <set>
#include <span>

#include "core/error.hpp"
#include "solvers/global_sum.hpp"

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

template <typename T>
std::vector<T> all_gather(const std::vector<T>& mine, MPI_Datatype type) {
  int ranks = 1, n = static_cast<int>(mine.size());
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  std::vector<int> counts(static_cast<std::size_t>(ranks)), offsets(counts.size(), 0);
  MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::partial_sum(counts.begin(), counts.end() - 1, offsets.begin() + 1);
  std::vector<T> all(static_cast<std::size_t>(offsets.back() + counts.back()));
  MPI_Allgatherv(mine.data(), n, type, all.data(), counts.data(), offsets.data(), type,
                 MPI_COMM_WORLD);
  return all;
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
  return {all_gather(mine.gid, MPI_INT64_T), all_gather(mine.sign, MPI_DOUBLE),
          all_gather(mine.flux, MPI_DOUBLE), all_gather(mine.patch, MPI_INT)};
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
      std::string names;
      for (int p : c.patches)
        names += (names.empty() ? "" : ", ") + m.patches[static_cast<std::size_t>(p)].name;
      throw input_error(
          "{}: boundary: the closed boundary loop of patches {} carries a net flux of {:.6g} "
          "(sum of |flux| {:.6g}); ns-exact needs zero net flux through every closed boundary "
          "loop (a single-valued streamfunction): balance its velocity patches",
          case_path, names, worst, scale);
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
    std::string names;
    for (int p : chains[k].patches)
      names += (names.empty() ? "" : ", ") + m.patches[static_cast<std::size_t>(p)].name;
    out.chain_patches.push_back(names);
  }
  return out;
}

StreamBoundary stream_boundary_3d(const topology::Mesh& m, const Setup& s,
                                  const std::vector<real>& flux, halo::Halo& halo,
                                  const std::string& case_path) {
  StreamBoundary out;
  out.fixed.assign(static_cast<std::size_t>(m.n_edges), 0);
  out.value.assign(out.fixed.size(), 0);
  for (const BoundaryCondition& bc : s.bcs)  // the same on every rank: a collective error
    if (bc.kind == BcKind::outlet)
      throw outlet_in_3d(case_path, m.patches[static_cast<std::size_t>(bc.patch)].name);
  real worst = 0;
  int worst_patch = -1;
  for (index f = 0; f < m.n_faces; ++f) {
    const int p = m.face_patch[f];
    if (p < 0) continue;
    if (f < m.n_owned_faces && std::abs(flux[f]) / m.face_area[f] > worst) {
      worst = std::abs(flux[f]) / m.face_area[f];
      worst_patch = p;
    }
    for (int j = 0; j < 3; ++j) out.fixed[m.face_curl[3 * f + j]] = 1;
  }
  // Owned edges see all their faces; the ghosts take the owner's mark.
  halo.edges.exchange(std::span<real>(out.fixed));
  struct {
    double value;
    int patch;
  } mine{worst, worst_patch}, all{};
  MPI_Allreduce(&mine, &all, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
  if (all.value > 1e-12)
    throw input_error(
        "{}: boundary.{}: prescribes a normal velocity up to {:.6g}; ns-exact in 3D supports "
        "flux-free boundaries only (wall, moving-wall, symmetry, tangential velocity): inflow "
        "and outflow are not implemented (use ns-classical)",
        case_path, m.patches[static_cast<std::size_t>(all.patch)].name, all.value);
  return out;
}

}  // namespace

InputError outlet_in_3d(const std::string& case_path, const std::string& patch) {
  return input_error(
      "{}: boundary.{}: ns-exact in 3D supports flux-free boundaries only (wall, moving-wall, "
      "symmetry, tangential velocity); outlets are not implemented (use ns-classical)",
      case_path, patch);
}

StreamBoundary stream_boundary(const topology::Mesh& m, const Setup& s,
                               const std::vector<real>& flux, halo::Halo& halo,
                               const std::string& case_path) {
  if (m.dim == 3) return stream_boundary_3d(m, s, flux, halo, case_path);
  return stream_boundary_2d(m, s, flux, case_path);
}

}  // namespace scfd::physics::ns
