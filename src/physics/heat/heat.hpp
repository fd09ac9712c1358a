// Heat diffusion, node-based (docs/architecture.md §2): rho c dT/dt = div(k grad T) + S on
// triangles and tetrahedra with T at nodes. Space: P1 finite elements with a lumped mass, i.e. the
// median-dual finite-volume scheme (the stiffness K is the node Laplacian with
// conductivity-weighted edge weights). Time: the theta scheme, theta = 1 backward Euler, theta =
// 1/2 Crank–Nicolson, or a steady solve. Boundary conditions per patch: temperature (Dirichlet,
// eliminated symmetrically), heat flux into the domain (Neumann; 0 = insulated), convection -k
// dT/dn = h (T - T_ambient) (Robin). Every linear system is SPD and solved by Jacobi-PCG on the
// run's backend.
#pragma once

#include <memory>

#include "physics/model.hpp"

namespace scfd::physics {

std::unique_ptr<Model> make_heat_model(const config::Case& c, const topology::Mesh& mesh,
                                       const backend::Backend& backend, halo::Halo& halo);
// The [time] table as the heat model reads it (InputError naming the key), with no mesh.
void check_heat_time(const config::Case& c);

}  // namespace scfd::physics
