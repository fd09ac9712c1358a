// What the post-processing of an incompressible flow reads of its model: the plugins
// (physics/plugins/: probes, sampled lines, forces) see a flow through this interface only, so
// the models advance the state and nothing else. The accessors that compute something (the cell
// velocity, the pressure, the vorticity) compute it at most once per step and are not const:
// ns-exact recovers its pressure by a Poisson solve on request.
#pragma once

#include <optional>
#include <span>

#include "backend/backend.hpp"
#include "halo/halo.hpp"
#include "topology/mesh.hpp"

namespace scfd::physics {

class FlowAccess {
 public:
  virtual ~FlowAccess() = default;
  virtual const topology::Mesh& mesh() const = 0;
  virtual const backend::Backend& backend() const = 0;
  virtual int step() const = 0;
  virtual double time() const = 0;
  virtual double density() const = 0;
  virtual double viscosity() const = 0;  // kinematic
  // Whether the pressure costs a solve (ns-exact); post-processing then samples it only when asked.
  virtual bool pressure_costs_a_solve() const = 0;
  // The velocity the boundary prescribes at local node n now (walls, moving walls, velocity
  // patches; see ns::BoundaryNodeVelocity), nullopt elsewhere: a node velocity is this where
  // it exists, else the average of the cell velocities around the node.
  virtual std::optional<Vec3> boundary_velocity(index n) const = 0;

  // The state of the current step, ghosts current:
  virtual const backend::Field& fluxes() const = 0;   // U_f per face
  virtual const backend::Field& cell_velocity() = 0;  // I U, 3 per cell (Backend::interpolate)
  virtual const backend::Field& pressure() = 0;       // kinematic pressure per cell
  // The vorticity per curl entity (node in 2D: its z component; edge in 3D: its component along
  // the edge times the edge length), omega = W (R M U + wall part) in 2D and W_mp R M_RT U + beta
  // in 3D: the viscous term's, through the Hodge stars (docs/methods.md; 0 on symmetry patches).
  virtual const backend::Field& vorticity() = 0;
  // The fluxes of the step before (U^(n-1), with ghosts) and the time step between the two
  // (0 before the first step, when previous_fluxes() holds nothing): dU/dt of the last step,
  // also right after a restart (both are part of a checkpoint).
  virtual const backend::Field& previous_fluxes() const = 0;
  virtual double last_dt() const = 0;
};

}  // namespace scfd::physics
