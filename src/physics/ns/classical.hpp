// Incompressible Navier–Stokes, classical fractional step (docs/architecture.md §2,
// docs/methods.md): face-normal fluxes U_f on faces and pressure at cell centres on triangles /
// tetrahedra, with Perot's staggered discrete calculus. Per step, in the face momentum equation
// weighted by M = diag(L_f / A_f):
//   (M + dt/2 C(a) + nu dt K) U* = M U^n - dt/2 C(a) U^n - dt G p^n + (boundary data)
//   (-D A~^-1 G) psi = -D U*,   U^{n+1} = U* - A~^-1 G psi,   p^{n+1} = p^n + psi / dt
// with K = M C diag(l / A*) R M the viscous curl-curl operator (R = C^T), A~^-1 = diag(A_f / L_f)
// and C(a) the convection (central or first-order upwind) by the advecting fluxes a extrapolated
// to the half step (Crank-Nicolson, ns/flow.hpp). The momentum system is solved by Jacobi
// BiCGStab, the SPD pressure system by Jacobi-PCG. Boundary conditions: wall, moving-wall,
// velocity, outlet, symmetry (ns/setup.hpp).
#pragma once

#include <memory>

#include "physics/model.hpp"

namespace scfd::physics {

std::unique_ptr<Model> make_ns_classical_model(const config::Case& c, const topology::Mesh& mesh,
                                               const backend::Backend& backend, halo::Halo& halo);

}  // namespace scfd::physics
