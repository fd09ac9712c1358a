// Host-side set-up of the heat model from the case file: material per cell, boundary conditions
// per patch, lumped boundary areas per node. Kept apart from the time stepping (heat.cpp) so each
// file does one job.
#pragma once

#include <string>
#include <vector>

#include "config/case.hpp"
#include "config/expression.hpp"
#include "topology/mesh.hpp"

namespace scfd::physics::heat {

enum class BcKind { temperature, heat_flux, convection };

struct BoundaryCondition {
  BcKind kind = BcKind::heat_flux;
  int patch = -1;
  config::Expression value;  // temperature, heat flux into the domain, or ambient temperature
  double h = 0;              // convection coefficient (convection only)
  std::vector<index> nodes;  // nodes of the patch
  std::vector<real> area;    // lumped boundary area of each node on this patch: sum A_f / dim
};

struct Setup {
  std::vector<real> conductivity;   // per cell
  std::vector<real> heat_capacity;  // rho c per cell
  config::Expression source;        // S(x, y, z, t), per unit volume
  std::vector<BoundaryCondition> bcs;
  std::vector<int> dirichlet_bc;  // per node: index into bcs of its temperature bc, or -1
  bool has_exact = false;
  config::Expression exact;  // verification.temperature, if given
};

// Reads [material], [boundary.*] and [verification] from the case; InputError for patch names
// not in the mesh, patches without a condition, bad values.
Setup read_setup(const config::Case& c, const topology::Mesh& m);

}  // namespace scfd::physics::heat
