// Host-side post-processing of the ns-classical state for output and probes (run at output
// times only, on downloaded fields): velocity reconstructed at cells (Perot's interpolation) and
// at nodes (volume-weighted average of the cells around the node), vorticity per cell (the curl
// of the linear interpolant of the node velocities), divergence per cell, and point probes.
#pragma once

#include <functional>
#include <span>
#include <vector>

#include "core/types.hpp"
#include "topology/mesh.hpp"

namespace scfd::physics::ns {

// u_c = (1/V_c) sum_f s(c,f) U_f (x_f - x_c) for every local cell whose faces are all local
// (all of them on a rank's mesh: the lists of a local cell are complete).
std::vector<Vec3> cell_velocity(const topology::Mesh& m, std::span<const real> u_face);

// Volume-weighted average of the cell velocities around each node.
std::vector<Vec3> node_velocity(const topology::Mesh& m, std::span<const Vec3> u_cell);

// Curl of the P1 interpolant of the node velocities, per cell (2D: only z is nonzero).
std::vector<Vec3> cell_vorticity(const topology::Mesh& m, std::span<const Vec3> u_node);

// Pressure at x in cell c, p given per cell (at its circumcentre, where the staggered scheme
// places it): p_c + g·(x - x_c) with g the least-squares gradient over the cells sharing a node
// with c. Exact for a linear field; at a wall it extrapolates the pressure to the wall to second
// order instead of taking the wall cell's value.
real pressure_at(const topology::Mesh& m, index c, Vec3 x, const std::function<real(index)>& p);

// Point probes: the owned cell containing each point (kNone where this rank has none), the
// faces whose fluxes a probe value reads (the faces of the cells around the cell's nodes) and
// the cells whose pressures it reads (those cells).
struct ProbeSet {
  std::vector<Vec3> points;
  std::vector<index> cell;
  std::vector<real> score;   // smallest barycentric coordinate in that cell (-1 if none)
  std::vector<index> faces;  // ascending, unique
  std::vector<index> cells;  // ascending, unique
};
ProbeSet locate_probes(const topology::Mesh& m, const std::vector<Vec3>& points);

// Velocity at each probe point of this rank (linear interpolation of the node velocities in the
// containing cell); `flux` holds the fluxes of probes.faces in that order. Points of other ranks
// give 0 (the caller sums over ranks).
std::vector<Vec3> probe_velocity(const topology::Mesh& m, const ProbeSet& probes,
                                 std::span<const real> flux);

// Force of the fluid on the patch (2D), per unit depth: sum over its owned faces of
// A_f (p n_f - mu omega (z x n_f)) with n_f the outward normal of the domain (into the body),
// p = density x the kinematic pressure extrapolated from the wall cell to the face centre
// (pressure_at), omega the mean of the two node
// vorticities Gamma / A* (Gamma = R M U + B, the discrete circulation with its wall part).
// This rank's share; the caller sums over ranks. `gamma` and `dual_weight` per node.
Vec3 patch_force(const topology::Mesh& m, int patch, std::span<const real> pressure,
                 std::span<const real> gamma, std::span<const real> dual_weight, real density,
                 real viscosity);

}  // namespace scfd::physics::ns
