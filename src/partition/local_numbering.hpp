// Internal to the partition module: owners of every global entity and the local numbering of one
// rank (extract.hpp states the rules), shared by extract_local and distribute (which computes the
// owners once for all ranks).
#pragma once

#include <span>
#include <vector>

#include "topology/mesh.hpp"

namespace scfd::partition::detail {

// Owner rank of every global node, edge and face: the lowest part among the cells containing it.
struct Owners {
  std::vector<int> node, edge, face;
};
Owners compute_owners(const topology::Mesh& global, std::span<const int> part);

// The local entities of one kind on one rank.
struct Numbering {
  std::vector<index> gid;    // local -> global: owned inner, owned interface, ghosts
  std::vector<index> local;  // global -> local, kNone where not local
  index n_owned = 0;
  index n_inner = 0;  // owned entities whose stencil reads no ghost (Mesh::n_inner_X), first
  std::vector<int> ghost_owner;  // owner of local entity n_owned + i
};

struct LocalNumbering {
  Numbering node, edge, face, cell;
  index n_interior_faces = 0;  // owned faces that are interior in the global mesh
};
LocalNumbering number_local(const topology::Mesh& global, std::span<const int> part,
                            const Owners& owners, int rank);

// The rank's mesh, every field re-indexed through NUMBERING (extract_fields.cpp).
topology::Mesh build_local_mesh(const topology::Mesh& global, const LocalNumbering& numbering);

// extract_local with precomputed owners.
topology::Mesh extract_rank(const topology::Mesh& global, std::span<const int> part,
                            const Owners& owners, int rank);

}  // namespace scfd::partition::detail
