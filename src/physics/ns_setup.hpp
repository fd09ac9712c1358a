// Host-side set-up of the ns-classical model (docs/methods.md): the case-file sections
// [fluid], [convection], [boundary.*], [initial], [verification], [probes], [forces],
// [output.lines.*], the boundary data
// evaluated at a time, and the mesh factors of Perot's staggered discrete calculus. Everything
// here is computed once on the host (boundary data once per step when it varies) and uploaded
// as Fields by the model; the time stepping in ns_classical.cpp sees Fields only.
#pragma once

#include <string>
#include <vector>

#include "config/case.hpp"
#include "config/expression.hpp"
#include "halo/halo.hpp"
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

// A straight sampling line (output.lines.NAME): `points` equally spaced points from `from` to `to`
// (both included), written after the last step to OUTPUT/lines/NAME.csv.
struct SampleLine {
  std::string name;
  Vec3 from, to;
  int points = 2;
};

struct Setup {
  double density = 1;
  double viscosity = 0;                // kinematic
  double upwind = 0;                   // 0 central, 1 first-order upwind (convection.scheme)
  std::vector<BoundaryCondition> bcs;  // one per mesh patch, in patch order
  bool has_outlet = false;
  bool bc_depends_on_position = false;  // some boundary formula is not a constant
  config::Expression initial[3];
  bool has_exact = false;
  config::Expression exact[3];    // verification.velocity_x/y/z
  std::vector<Vec3> probes;       // probes.x/y/z
  bool probe_pressure = true;     // probes.pressure (default: true except for ns-exact)
  std::vector<SampleLine> lines;  // output.lines.*
  int force_patch = -1;           // forces.patch (2D only), or -1
  double force_velocity = 1;      // forces.reference_velocity
  double force_length = 1;        // forces.reference_length
};

// Reads the sections above; InputError for unknown patches, patches without a condition, bad
// values (one line naming the file and key).
Setup read_setup(const config::Case& c, const topology::Mesh& m);

// Mesh factors of the staggered scheme, one value per local entity (ghosts filled by exchange).
struct Geometry {
  std::vector<real> length;         // L_f: dual edge length (face_dist with a fallback, see .cpp)
  std::vector<real> mass;           // L_f / A_f: the weight of the face momentum equation
  std::vector<real> fixed;          // 1 on faces whose flux is boundary data, else 0
  std::vector<real> mobility;       // (1 - fixed) A_f / L_f: the pressure operator's Ã^-1
  std::vector<real> dual_weight;    // W_k = l_k / A*_k per curl entity (2D: 1 / A*_n), 0 on slip
  std::vector<real> viscous_diag;   // sum over curl entities k of f of mass_f^2 W_k (owned faces)
  std::vector<real> pressure_diag;  // sum over faces of c of mobility_f (owned cells)
  std::vector<real> cfl_weight;     // 1 / (d min(V_c1, V_c2)): CFL_f = dt |U_f| cfl_weight_f
  index fallback_faces = 0;         // faces whose L_f came from the fallback (owned, this rank)
  index fallback_duals = 0;         // curl entities whose A* came from the fallback
};

Geometry build_geometry(const topology::Mesh& m, const Setup& s, halo::Halo& halo);

// Boundary data at time t.
struct BoundaryData {
  std::vector<real> flux;         // per local face: A_f u·n on fixed boundary faces, else 0
  std::vector<real> velocity;     // 3 per owned boundary face: the inflow velocity
  std::vector<real> pressure;     // per owned boundary face: the outlet pressure (kinematic)
  std::vector<real> circulation;  // per local curl entity: the wall part of its circulation
  double net_inflow = 0;          // this rank's sum of -flux over its owned fixed faces
  double flux_scale = 0;          // this rank's sum of |flux| over its owned fixed faces
};

BoundaryData boundary_data(const topology::Mesh& m, const Setup& s, double t, halo::Halo& halo);

// The face flux of a velocity field: A_f times the face average of u·n_f, by a rule exact for
// quadratic u (Simpson's rule on a segment, the edge-midpoint rule on a triangle).
real face_flux(const topology::Mesh& m, index f, const config::Expression (&u)[3], double t);

}  // namespace scfd::physics::ns
