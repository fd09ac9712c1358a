// Halo: one HaloPlan per entity kind of a distributed mesh (see halo.hpp).
#include "halo/halo.hpp"

#include <algorithm>
#include <iterator>
#include <span>
#include <vector>

#include "core/threads.hpp"

namespace scfd::halo {
namespace {

// A serial mesh leaves the gids empty and owns everything (topology/mesh.hpp).
HaloPlan build_plan(Entity kind, index n, index n_owned, const std::vector<index>& gid,
                    const std::vector<int>& ghost_owner, MPI_Comm comm) {
  return HaloPlan::build(kind, gid.empty() ? n : n_owned, gid, ghost_owner, comm);
}

}  // namespace

Halo Halo::build(const topology::Mesh& m, MPI_Comm comm) {
  Halo h;
  h.nodes =
      build_plan(Entity::node, m.n_nodes, m.n_owned_nodes, m.node_gid, m.node_ghost_owner, comm);
  h.edges =
      build_plan(Entity::edge, m.n_edges, m.n_owned_edges, m.edge_gid, m.edge_ghost_owner, comm);
  h.faces =
      build_plan(Entity::face, m.n_faces, m.n_owned_faces, m.face_gid, m.face_ghost_owner, comm);
  h.cells =
      build_plan(Entity::cell, m.n_cells, m.n_owned_cells, m.cell_gid, m.cell_ghost_owner, comm);
  return h;
}

HaloPlan& Halo::plan(Entity e) {
  switch (e) {
    case Entity::node:
      return nodes;
    case Entity::edge:
      return edges;
    case Entity::face:
      return faces;
    case Entity::cell:
      return cells;
  }
  return cells;
}

const HaloPlan& Halo::plan(Entity e) const {
  return const_cast<Halo*>(this)->plan(e);
}

void Halo::set_overlap(bool on) {
  for (HaloPlan* p : {&nodes, &edges, &faces, &cells}) p->set_overlap(on);
}

HaloStats Halo::total() const {
  HaloStats t;
  std::vector<int> ranks;
  for (const HaloPlan* p : {&nodes, &edges, &faces, &cells}) {
    const HaloStats& s = p->stats();
    t.messages_sent += s.messages_sent;
    t.messages_received += s.messages_received;
    t.bytes_sent += s.bytes_sent;
    t.bytes_received += s.bytes_received;
    t.exchanges += s.exchanges;
    t.wait_seconds += s.wait_seconds;
    t.comm_seconds += s.comm_seconds;
    ranks.insert(ranks.end(), p->send_ranks().begin(), p->send_ranks().end());
    ranks.insert(ranks.end(), p->recv_ranks().begin(), p->recv_ranks().end());
  }
  std::sort(ranks.begin(), ranks.end());
  t.neighbours = static_cast<int>(std::unique(ranks.begin(), ranks.end()) - ranks.begin());
  return t;
}

std::vector<index> ghosts_among(index n_owned, std::span<const index> items) {
  // Only the ghosts are copied: on one rank a matrix's hundreds of millions of columns are none.
  // Each chunk of items on a host thread keeps its ghosts, once each (sorted, unique).
  const std::vector<index> bounds = chunk_bounds(static_cast<index>(items.size()), 1 << 20);
  std::vector<std::vector<index>> found(bounds.size() - 1);
  for_chunks(bounds, [&](std::size_t c, index begin, index end) {
    std::copy_if(items.begin() + begin, items.begin() + end, std::back_inserter(found[c]),
                 [&](index i) { return i >= n_owned; });  // kNone < 0 is left out too
    std::sort(found[c].begin(), found[c].end());
    found[c].erase(std::unique(found[c].begin(), found[c].end()), found[c].end());
  });
  std::vector<index> ghosts;
  for (const std::vector<index>& f : found) ghosts.insert(ghosts.end(), f.begin(), f.end());
  std::sort(ghosts.begin(), ghosts.end());
  ghosts.erase(std::unique(ghosts.begin(), ghosts.end()), ghosts.end());
  return ghosts;
}

std::vector<index> ghosts_read(const HaloPlan& plan, const backend::SparseMatrix& a) {
  return ghosts_among(plan.n_owned(), a.column);
}

}  // namespace scfd::halo
