// Incompressible Navier–Stokes, exact fractional step of Chang, Giraldo & Perot
// (docs/architecture.md §2, docs/methods.md): the face fluxes are the curl of a streamfunction, U =
// C s with s at nodes (2D) or on edges (3D), so D U = D C s = 0 to round-off at every step.
// Pre-multiplying the face momentum equation of ns-classical by the rotation R = C^T removes the
// pressure:
//   R (M + dt/2 C(a) + nu dt K) C s = R (M U^n - dt/2 C(a) U^n - nu dt M C W B - dt G_b p_b)
// one Jacobi-BiCGStab solve per step (Crank-Nicolson convection, ns/flow.hpp), with no
// splitting error. The boundary values of s come from the velocity boundary conditions
// (ns/stream.hpp); the constants of the streamfunction on inner boundaries (a cylinder in a
// channel, 3D surface generators) are unknowns of the same solve (StreamOperator). The pressure is
// recovered only when output, probes or forces ask for it, from the momentum residual by one
// Poisson solve. Same case-file sections as ns-classical.
#pragma once

#include <memory>

#include "physics/model.hpp"

namespace scfd::physics {

std::unique_ptr<Model> make_ns_exact_model(const config::Case& c, const topology::Mesh& mesh,
                                           const backend::Backend& backend, halo::Halo& halo);

}  // namespace scfd::physics
