// The cpu backend of the discrete-calculus operators of docs/architecture.md §2: the reference that
// every GPU kernel is tested against. Each operator is a gather: one output entity reads its inputs
// through a connectivity list of the Mesh, with no scatter and no atomics, so the GLSL twin in
// kernels/ has the same loop body. Fields are plain arrays of `real` indexed by entity; vectors
// at cells are arrays of Vec3. Output spans must be sized for the output entity and must not
// alias the input. Every operator writes the OWNED outputs only (the first n_owned_X entries,
// which are all entries on a serial mesh) and reads owned and ghost inputs: a parallel caller
// exchanges the ghosts of the input first (halo), and of the output when it needs them. The
// operators that follow an exchange take `rows` ({}: all owned outputs; halo/overlap.hpp computes
// the inner rows during the exchange and the rest after it).
#pragma once

#include <span>

#include "core/types.hpp"
#include "topology/mesh.hpp"

namespace scfd::backend::cpu {

using topology::Mesh;

// G: cell -> face. g_f = q_c2 - q_c1 on interior faces; on boundary face f,
// g_f = q_boundary[f - n_interior_faces] - q_c1 (the boundary value sits "in front" of the face).
void gradient(const Mesh& m, std::span<const real> q_cell, std::span<const real> q_boundary,
              std::span<real> g_face, RowRange rows = {});

// D: face -> cell. d_c = sum over the faces of c of sign(c,f) U_f, sign +1 where the normal
// points out of c. With U_f a flux, D U is the net outflow of each cell (D = -G^T).
void divergence(const Mesh& m, std::span<const real> u_face, std::span<real> d_cell,
                RowRange rows = {});

// The total flux through the faces of each cell, s_c = sum over the faces of c of |U_f|: the
// Courant number of a cell is Co_c = dt s_c / (2 V_c) (OpenFOAM's definition).
void flux_sum_abs(const Mesh& m, std::span<const real> u_face, std::span<real> s_cell);

// C: curl entity (edge in 3D, node in 2D) -> face. U_f = sum of face_curl_sign * s.
void curl(const Mesh& m, std::span<const real> s, std::span<real> u_face, RowRange rows = {});

// R = C^T: face -> curl entity. r_e = sum over faces f of e of sign(f,e) U_f.
void rotation(const Mesh& m, std::span<const real> u_face, std::span<real> r, RowRange rows = {});

// Interpolation: face flux -> cell vector. u_c = (1/V_c) sum_f sign(c,f) U_f (x_f - x_c) with
// x_f the face centroid and x_c Mesh::cell_centre (circumcentre 2D, centroid 3D). Exact for a
// constant velocity field (U_f = A_f u·n_f), because sum_f A_f n_f (x_f - x_c)^T = V_c I on any
// closed cell.
void interpolate(const Mesh& m, std::span<const real> u_face, std::span<Vec3> u_cell,
                 RowRange rows = {});

// Integration: cell vector -> face. u_f = sum over the cells of f of sign(c,f) v_c·(x_f - x_c),
// the line integral of v along the dual edge from x_c1 to x_c2 (through x_f); on boundary faces
// only the c1 term. For a constant v it is v·(x_c2 - x_c1) on interior faces.
void integrate(const Mesh& m, std::span<const Vec3> v_cell, std::span<real> u_face,
               RowRange rows = {});

// Convective acceleration at cells (ns-classical, see convection.cpp):
// n_c = (1/V_c) sum_f s(c,f) U_f (u_f - u_c), u_f the central/upwind blend of the two cells'
// velocities (upwind = 0 central, 1 first-order upwind); on boundary faces u_f = u_boundary
// (one vector per owned boundary face) where the flux enters, u_c where it leaves. Reads the
// velocities of the face neighbours (ghosts exchanged), writes owned cells.
void convection(const Mesh& m, std::span<const real> u_face, std::span<const Vec3> u_cell,
                std::span<const Vec3> u_boundary, real upwind, std::span<Vec3> n_cell,
                RowRange rows = {});

// Node Laplacian (P1 stiffness, equal to the median-dual diffusion operator):
// (K T)_i = sum over edges e=(i,j) of w_e (T_i - T_j), with w_e = edge_weight[e]
// (mesh.edge_stiffness for unit conductivity). Symmetric, positive semi-definite, K 1 = 0.
void node_laplacian(const Mesh& m, std::span<const real> edge_weight, std::span<const real> t,
                    std::span<real> out);

// Diagonal of the node Laplacian: diag_i = sum over edges e of i of w_e (for Jacobi).
void node_laplacian_diagonal(const Mesh& m, std::span<const real> edge_weight,
                             std::span<real> diag);

}  // namespace scfd::backend::cpu
