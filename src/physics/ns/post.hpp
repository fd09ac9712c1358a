// Host-side post-processing of the Navier–Stokes state (on downloaded fields, at output and
// sampling times only): velocity at nodes (the boundary's velocity on walls and velocity
// patches, elsewhere the volume-weighted average of the cell velocities of Backend::interpolate
// around the node), vorticity per cell (the curl of the linear interpolant of the node
// velocities), and the pressure at a point (linear reconstruction).
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "core/types.hpp"
#include "physics/ns/setup.hpp"
#include "topology/mesh.hpp"

namespace scfd::physics::ns {

// Volume-weighted average at node n of a cell vector given by uc(cell).
template <typename CellVector>
Vec3 node_average(const topology::Mesh& m, index n, const CellVector& uc) {
  Vec3 sum{};
  real vol = 0;
  for (index c : m.node_cells.row(n)) {
    sum += m.cell_volume[c] * uc(c);
    vol += m.cell_volume[c];
  }
  return vol > 0 ? sum / vol : sum;
}

// The velocity that the boundary prescribes at the nodes of wall, moving-wall and velocity
// patches. An average of the cell velocities there would give a wall node the velocity of the
// fluid half a cell inside (a lid node about half the lid speed), and a line sampled near the
// wall would interpolate towards it.
class BoundaryNodeVelocity {
 public:
  BoundaryNodeVelocity(const topology::Mesh& m, const Setup& s);
  // The prescribed velocity at local node n at time t, the mean over the patches that meet
  // there (a node on the edge of a moving lid and a wall gets half the lid velocity);
  // nullopt for a node on no such patch (interior, symmetry and outlet nodes).
  std::optional<Vec3> operator()(index n, double t) const;

 private:
  const topology::Mesh& m_;
  const Setup& s_;
  std::vector<index> first_;  // CSR per node into patches_
  std::vector<int> patches_;  // the velocity-prescribing patches each node lies on
};

// The velocity at every node: the boundary's where it prescribes one, else node_average of the
// cell velocities (ghost cells included: the cells of a local node are all local).
std::vector<Vec3> node_velocity(const topology::Mesh& m, std::span<const Vec3> u_cell,
                                const BoundaryNodeVelocity& boundary, double t);

// Curl of the P1 interpolant of the node velocities, per cell (2D: only z is nonzero).
std::vector<Vec3> cell_vorticity(const topology::Mesh& m, std::span<const Vec3> u_node);

// Pressure at x in cell c, p given per cell (at Mesh::cell_centre, where the staggered scheme
// places it): p_c + g·(x - x_c) with g the least-squares gradient over the cells sharing a node
// with c. Exact for a linear field; at a wall it extrapolates the pressure to the wall to second
// order instead of taking the wall cell's value.
real pressure_at(const topology::Mesh& m, index c, Vec3 x, const std::function<real(index)>& p);
// The same as weights: pressure_at(m, c, x, p) = sum of w p(k) over the pairs (k, w), c first.
// Linear in p, so a sum of many such values can be made one weighted sum over the cells.
std::vector<std::pair<index, real>> pressure_weights(const topology::Mesh& m, index c, Vec3 x);

}  // namespace scfd::physics::ns
