// Halo: the four HaloPlans of a distributed mesh (nodes, edges, faces, cells), built once after
// partitioning (docs/architecture.md §5). Physics and solvers exchange a field through the plan of
// the entity it lives on: halo.plan(Entity::node).begin(be, T) ... end(be, T). See halo_plan.hpp
// for the overlap pattern and the plan's contract.
#pragma once

#include <mpi.h>

#include <span>
#include <vector>

#include "backend/sparse_matrix.hpp"
#include "halo/halo_plan.hpp"
#include "topology/mesh.hpp"

namespace scfd::halo {

struct Halo {
  HaloPlan nodes, edges, faces, cells;

  // Collective on comm: builds the four plans from the mesh's parallel decomposition (a serial
  // mesh gives four empty plans). comm must outlive the Halo.
  static Halo build(const topology::Mesh& m, MPI_Comm comm);

  HaloPlan& plan(Entity e);
  const HaloPlan& plan(Entity e) const;

  // HaloPlan::set_overlap on the four plans.
  void set_overlap(bool on);

  // The four plans' traffic together: per-exchange figures and times summed, neighbours counted
  // once per distinct rank.
  HaloStats total() const;
};

// The distinct ghosts among `items` (local indices, any order, with repeats and kNone; the
// ghosts are those >= n_owned), ascending: what HaloPlan::narrowed takes for a product whose
// owned rows read `items`.
std::vector<index> ghosts_among(index n_owned, std::span<const index> items);
// The ghosts a product with `a` reads: its columns >= plan.n_owned() (a's rows are the owned
// entities of some plan, its columns every local entity of `plan`).
std::vector<index> ghosts_read(const HaloPlan& plan, const backend::SparseMatrix& a);

}  // namespace scfd::halo
