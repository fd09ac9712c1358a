// Halo: the four HaloPlans of a distributed mesh (nodes, edges, faces, cells), built once after
// partitioning (docs/architecture.md §5). Physics and solvers exchange a field through the plan of
// the entity it lives on: halo.plan(Entity::node).begin(be, T) ... end(be, T). See halo_plan.hpp
// for the overlap pattern and the plan's contract.
#pragma once

#include <mpi.h>

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

}  // namespace scfd::halo
