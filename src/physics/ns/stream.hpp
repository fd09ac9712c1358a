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
// 3D (s on edges, C s = the signed sum over the 3 edges of a face): the faces whose flux is data
// form a surface F; s on F's edges must reproduce their fluxes. A tree-cotree decomposition of F
// (ns/stream.cpp) gives one such s (zero on a spanning tree of F's edges: surface gradients are
// gradients, invisible to C) plus a free value on each generator edge, 2g + b - 1 of them for a
// component of genus g with b > 0 loops on an outlet, 2g for a closed one (a channel with inlet,
// walls and outlet has none; a cylinder spanning the channel from wall to wall adds a handle).
// The generators are chains too: their values are solved for like the 2D constants. Edges on
// outlet faces only are ordinary unknowns. A closed component must carry zero net flux.
#pragma once

#include <string>
#include <vector>

#include "physics/ns/setup.hpp"
#include "topology/mesh.hpp"

namespace scfd::physics::ns {

struct StreamBoundary {
  std::vector<real> fixed;  // per local curl entity: 1 where s is boundary data, else 0
  std::vector<real> value;  // per local curl entity: s with every chain constant 0 (0 if free)
  std::vector<std::vector<real>> chains;   // per non-gauge chain: 1 on its local entities
  std::vector<std::string> chain_patches;  // per non-gauge chain: its patch names, for logs
};

// `flux` is BoundaryData::flux (per local face). Collective. InputError (naming `case_path`) for
// a closed chain or boundary surface with net flux.
StreamBoundary stream_boundary(const topology::Mesh& m, const Setup& s,
                               const std::vector<real>& flux, const std::string& case_path);

}  // namespace scfd::physics::ns
