// Host-side post-processing of the Navier–Stokes state (on downloaded fields, at output and
// sampling times only): velocity at nodes (volume-weighted average of the cell velocities of
// Backend::interpolate around the node), vorticity per cell (the curl of the linear interpolant
// of the node velocities), and the pressure at a point (linear reconstruction).
#pragma once

#include <functional>
#include <span>
#include <vector>

#include "core/types.hpp"
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

// node_average of the cell velocities at every node (ghost cells included: the cells of a local
// node are all local).
std::vector<Vec3> node_velocity(const topology::Mesh& m, std::span<const Vec3> u_cell);

// Curl of the P1 interpolant of the node velocities, per cell (2D: only z is nonzero).
std::vector<Vec3> cell_vorticity(const topology::Mesh& m, std::span<const Vec3> u_node);

// Pressure at x in cell c, p given per cell (at its circumcentre, where the staggered scheme
// places it): p_c + g·(x - x_c) with g the least-squares gradient over the cells sharing a node
// with c. Exact for a linear field; at a wall it extrapolates the pressure to the wall to second
// order instead of taking the wall cell's value.
real pressure_at(const topology::Mesh& m, index c, Vec3 x, const std::function<real(index)>& p);

}  // namespace scfd::physics::ns
