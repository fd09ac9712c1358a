// Incompressible Navier–Stokes, classical fractional step (docs/architecture.md §2,
// docs/methods.md): face-normal fluxes U_f on faces and pressure at cell centres on triangles /
// tetrahedra, with Perot's staggered discrete calculus. Per step, in the face momentum equation
// weighted by the face star M (2D diag(L_f / A_f), 3D M_RT):
//   (M + dt/2 C(a) + nu dt K) U* = M U^n - dt/2 C(a) U^n - dt G p^n + (boundary data)
//   (-D A~^-1 G) psi = -D U*,   U^{n+1} = U* - A~^-1 G psi,   p^{n+1} = p^n + psi / dt
// with K = M C W R M the viscous curl-curl operator (R = C^T, W the edge star), A~ a diagonal
// (2D M, 3D a scaled lumping of M_RT) and C(a) the convection (central or first-order upwind) by
// the advecting fluxes a extrapolated to the half step (Crank-Nicolson, ns/flow.hpp). The
// momentum system is solved by BiCGStab (3D: preconditioned by the face mass's cell blocks,
// ns/operators.hpp FaceBlockPreconditioner; 2D or solver.momentum_preconditioner = jacobi:
// Jacobi) from the extrapolation of the last solutions U*, the SPD pressure system by PCG (AMG or
// Jacobi) from the projection onto earlier solutions (solvers/projection.hpp). Boundary conditions:
// wall, moving-wall, velocity, outlet, symmetry (ns/setup.hpp).
#pragma once

#include <memory>

#include "physics/model.hpp"

namespace scfd::physics {

std::unique_ptr<Model> make_ns_classical_model(const config::Case& c, const topology::Mesh& mesh,
                                               const backend::Backend& backend, halo::Halo& halo);

}  // namespace scfd::physics
