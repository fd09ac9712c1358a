// Boundary values of the ns-exact streamfunction (docs/methods.md, "Exact fractional step"),
// derived from the velocity boundary conditions. Host-side, collective; internal to physics.
//
// 2D (s at nodes, C s = s(x1) - s(x0) on a face): every boundary face whose normal flux is data
// (wall, moving wall, velocity, symmetry) ties the s of its two nodes, s1 = s0 + flux. The
// boundary nodes joined by such faces form "chains" (a closed loop around a body or the whole
// domain, or an open run between outlets); along a chain s is the running sum of the fluxes, up
// to one constant per chain. The chain holding the node of smallest global id is the gauge
// (its constant is 0); every other chain's constant is an unknown of the step (the model solves
// for it so that the circulation of the momentum equation around the chain vanishes, which is
// the single-valuedness of the pressure). Nodes on outlet faces only are ordinary unknowns.
// A closed chain must carry zero net flux; otherwise the flow has no single-valued
// streamfunction and the run stops with an input error.
//
// 3D (s on edges): every boundary face must carry zero normal flux (walls, moving walls,
// symmetry, tangential velocity); s = 0 on the edges of those faces. Outlets and inflow in 3D
// are input errors (not implemented: they need a surface potential of the boundary flux).
#pragma once

#include <string>
#include <vector>

#include "core/error.hpp"
#include "halo/halo.hpp"
#include "physics/ns_setup.hpp"
#include "topology/mesh.hpp"

namespace scfd::physics::ns {

struct StreamBoundary {
  std::vector<real> fixed;  // per local curl entity: 1 where s is boundary data, else 0
  std::vector<real> value;  // per local curl entity: s with every chain constant 0 (0 if free)
  std::vector<std::vector<real>> chains;   // per non-gauge chain: 1 on its local entities
  std::vector<std::string> chain_patches;  // per non-gauge chain: its patch names, for logs
};

// The error for an outlet patch in 3D (also raised by the ns-exact model before its set-up).
InputError outlet_in_3d(const std::string& case_path, const std::string& patch);

// `flux` is BoundaryData::flux (per local face). InputError (naming `case_path`) for a closed
// chain with net flux or, in 3D, a boundary that is not flux-free.
StreamBoundary stream_boundary(const topology::Mesh& m, const Setup& s,
                               const std::vector<real>& flux, halo::Halo& halo,
                               const std::string& case_path);

}  // namespace scfd::physics::ns
