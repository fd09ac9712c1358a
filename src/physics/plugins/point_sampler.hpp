// The flow at fixed points of the domain, for the probes and the sampled lines. Each point
// belongs to the rank whose owned cell contains it best; sampling is collective and gives every
// rank the values of every point. Internal to the plugins.
#pragma once

#include <string>
#include <vector>

#include "config/case.hpp"
#include "physics/flow_access.hpp"

namespace scfd::physics {

class PointSampler {
 public:
  // Locates the points (collective). A point outside the mesh is an InputError at `key`.
  PointSampler(const config::Case& c, const std::string& key, FlowAccess& flow,
               std::vector<Vec3> points);
  const std::vector<Vec3>& points() const { return points_; }
  // Per point, dim values of the velocity (the linear interpolant of the node velocities, the
  // volume-weighted averages of Backend::interpolate's cell velocities) and, with_pressure,
  // density x the pressure reconstructed linearly in the containing cell (ns::pressure_at):
  // dim (+ 1) values per point, point after point. Collective.
  std::vector<real> sample(bool with_pressure);

 private:
  FlowAccess& flow_;
  std::vector<Vec3> points_;
  std::vector<index> cell_;        // per point: its owned cell on this rank, or kNone
  std::vector<index> cells_;       // ascending: the cells around the nodes of those cells
  std::vector<index> components_;  // 3 per cell of cells_: the entries of the cell velocity
};

}  // namespace scfd::physics
