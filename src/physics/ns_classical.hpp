// Incompressible Navier–Stokes, classical fractional step (docs/architecture.md §2,
// docs/methods.md): face-normal fluxes U_f on faces and pressure at cell centres on triangles /
// tetrahedra, with Perot's staggered discrete calculus. Per step, in the face momentum equation
// weighted by M = diag(L_f / A_f) (which makes the implicit matrix symmetric):
//   (M + nu dt K) U* = M U^n + dt (AB2 convection) - dt G p^n - nu dt (boundary circulation)
//   (-D A~^-1 G) psi = -D U*,   U^{n+1} = U* - A~^-1 G psi,   p^{n+1} = p^n + psi / dt
// with K = M C diag(l / A*) R M the viscous curl-curl operator (R = C^T), A~^-1 = diag(A_f / L_f),
// both systems SPD and solved by Jacobi-PCG. Convection is explicit (Adams–Bashforth 2),
// central or first-order upwind. Boundary conditions: wall, moving-wall, velocity, outlet,
// symmetry (ns_setup.hpp).
#pragma once

#include <memory>

#include "physics/model.hpp"

namespace scfd::physics {

std::unique_ptr<Model> make_ns_classical_model(const config::Case& c, const topology::Mesh& mesh,
                                               const backend::Backend& backend, halo::Halo& halo);

}  // namespace scfd::physics
