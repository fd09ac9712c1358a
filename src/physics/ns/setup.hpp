// Host-side set-up of the Navier–Stokes models (docs/methods.md): the case-file sections
// [fluid], [convection], [boundary.*], [initial], [verification] and the solver tolerances, and
// the boundary data evaluated at a time. Computed on the host (boundary data once per step when
// it varies) and uploaded as Fields by the model. The [time] section is time_control.hpp's;
// [probes], [forces] and [output.lines.*] belong to the plugins (physics/plugins/).
#pragma once

#include <string>
#include <vector>

#include "config/case.hpp"
#include "config/expression.hpp"
#include "halo/halo.hpp"
#include "physics/ns/hodge.hpp"
#include "solvers/pcg.hpp"
#include "topology/mesh.hpp"

namespace scfd::physics::ns {

// Boundary kinds of a patch:
//  wall        no-slip, u = 0 (moving-wall: u = the given tangential velocity; its normal part is
//              ignored, the wall does not move through itself)
//  velocity    prescribed velocity vector (inflow, outflow or tangential), u = (ux, uy, uz)(x, t)
//  outlet      prescribed pressure and zero tangential velocity; the normal flux is an unknown
//  symmetry    zero normal flux and zero shear (vorticity 0 on the patch)
enum class BcKind { wall, velocity, outlet, symmetry };

struct BoundaryCondition {
  BcKind kind = BcKind::wall;
  int patch = -1;
  config::Expression u[3];      // wall / velocity: the velocity components
  config::Expression pressure;  // outlet
};

// The default momentum and pressure tolerance of an fp32 run (fp64: 1e-9).
inline constexpr double kFp32Tolerance = 1e-5;

struct Setup {
  double density = 1;
  double viscosity = 0;                // kinematic
  double upwind = 0;                   // 0 central, 1 first-order upwind (convection.scheme)
  std::vector<BoundaryCondition> bcs;  // one per mesh patch, in patch order
  bool has_outlet = false;
  // Some boundary formula reads t: the boundary data is recomputed every step (a formula of the
  // position alone gives the data of the set-up at every step).
  bool bc_depends_on_time = false;
  config::Expression initial[3];
  bool has_exact = false;
  config::Expression exact[3];          // verification.velocity_x/y/z
  solvers::SolveOptions momentum;       // solver.momentum_tolerance, solver.max_iterations
  solvers::SolveOptions pressure;       // solver.pressure_tolerance, solver.max_iterations
  std::string pressure_preconditioner;  // solver.preconditioner
  std::string stream_preconditioner;    // solver.stream_preconditioner (ns-exact): amg, jacobi
  std::string stream_solver;  // solver.stream_solver (ns-exact): gmres (default), bicgstab
  // solver.momentum_preconditioner (ns-classical): cells (3D: FaceBlockPreconditioner; 2D, where
  // M is diagonal, Jacobi), jacobi
  std::string momentum_preconditioner;
  // solver.pressure_projection (ns-classical): the basis size of the pressure solve's initial
  // guess (solvers/projection.hpp); 0: the last answer
  int pressure_projection = 8;
  // solver.stream_projection (ns-exact): the solutions kept for the correction of the stream
  // solve's extrapolated guess while a flow starts (solvers/residual_projection.hpp); 0: the
  // extrapolation alone
  int stream_projection = 6;
};

// Reads the sections above; InputError for unknown patches, patches without a condition, bad
// values (one line naming the file and key).
Setup read_setup(const config::Case& c, const topology::Mesh& m);

// Collective: InputError when a formula of the setup is not finite on this mesh at time t
// (formula_check.hpp).
void check_formulas(const config::Case& c, const topology::Mesh& m, const Setup& s, double t);

// Boundary data at time t. Collective; SolveError (on every rank) when a value is not finite.
struct BoundaryData {
  std::vector<real> flux;      // per local face: A_f u·n on fixed boundary faces, else 0
  std::vector<real> velocity;  // 3 per owned boundary face: the inflow velocity
  std::vector<real> pressure;  // per owned boundary face: the outlet pressure (kinematic)
  // Per local curl entity, the wall part of the vorticity (Coefficients::bc_circulation): 2D the
  // wall circulation b of the node's dual cell; 3D beta = star.wall b (zero without a star).
  std::vector<real> circulation;
  double net_inflow = 0;  // this rank's sum of -flux over its owned fixed faces
  double flux_scale = 0;  // this rank's sum of |flux| over its owned fixed faces
};

// `star`: the 3D edge star whose wall map gives beta (null: circulation stays 0 in 3D).
BoundaryData boundary_data(const topology::Mesh& m, const Setup& s, double t, halo::Halo& halo,
                           const EdgeStar* star = nullptr);

// The face flux of a velocity field: A_f times the face average of u·n_f, by Simpson's rule on a
// segment (exact for cubic u) and a 7-point rule on a triangle (exact for quintic u).
real face_flux(const topology::Mesh& m, index f, const config::Expression (&u)[3], double t);

}  // namespace scfd::physics::ns
