// The Hodge stars of the staggered scheme as one host object (HodgeStar: the assembled matrix and
// its diagonal), from which the operators and their Jacobi diagonals are built, and the stars of
// the 3D scheme on tetrahedra (docs/methods.md, "3D on tetrahedral meshes"), assembled on the host
// as sparse matrices over a rank's local entities: rows are the owned faces or edges, columns
// local indices (ghosts included), so a backend applies them as one gather once the input's
// ghosts are exchanged (every stencil stays inside the one ghost layer). The 2D stars are the
// circumcentric diagonals of ns/geometry.cpp.
//
//  - Face star M_RT: the exact mass matrix of the lowest-order Raviart-Thomas fluxes,
//    M_RT = J I + D^T Lambda D, with I the cell mean of the flux field and J = I^T V its
//    adjoint about the cell centroids, Lambda_c = rho_c / (9 V_c^2), rho_c = int_c |x - x_c|^2.
//    1/2 U^T M_RT U is the kinetic energy of the Raviart-Thomas field; it is exact for constant
//    fields on any tetrahedron (the circumcentric diagonal L/A is not: six conditions per cell,
//    four numbers).
//  - Edge star W_mp (multipoint vorticity): the inverse of the vertex-lumped mass of the
//    second-kind Nedelec vorticity (one unknown at each end of each edge), block diagonal by
//    vertex: B_v[e, e'] = sum over the cells around v of (V_c/4) grad(l_w(e)).grad(l_w(e')), w(e)
//    the other node of e; W_mp = E B^-1 E^T with E = +1/2 at an edge's tail, -1/2 at its head.
//    The vorticity is omega = W_mp Gamma + beta, Gamma = R M_RT U the circulation and
//    beta = E B^-1 b the wall part, b_(v,e) = int over the velocity-data faces of
//    (n x u_b).(l_v grad l_w(e)) (edge-midpoint rule, exact for linear u_b). Edges that lie only
//    on symmetry patches carry no vorticity unknown (omega = 0 there); outlets add nothing to b.
// References: Boon & Fumagalli, "A multipoint vorticity mixed finite element method for
// incompressible Stokes flow" (arXiv:2208.13540); Arnold, Falk & Winther, Bull. AMS 47 (2010)
// (the Whitney-form mixed vector Laplacian this family discretises).
#pragma once

#include <array>
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include "backend/sparse_matrix.hpp"
#include "topology/mesh.hpp"

namespace scfd::physics::ns {

using backend::SparseMatrix;

// The 4 x 4 face block of M_RT in cell c (local faces in cell_faces order, oriented by the
// global face normals).
std::array<std::array<real, 4>, 4> rt_cell_mass(const topology::Mesh& m, index c);

// M_RT: n_owned_faces rows, n_faces columns. With ghost_rows (ghost faces whose cells are all
// local, ascending), n_faces rows: the owned rows, the rows of those ghosts (complete, so
// M x is right there with x's ghosts current), empty rows for the other ghosts; `inner` is then
// Mesh::n_inner_faces. The momentum operator computes M x at the ghost faces that R reads from
// the owned edges instead of exchanging M x (ns/operators.hpp).
SparseMatrix rt_face_mass(const topology::Mesh& m, std::span<const index> ghost_rows = {});

// The product M C (rows: the owned faces; columns: the local curl entities, `inner`
// Mesh::n_inner_faces), M's owned rows by the curl of ns/operators.hpp, each row's entries in
// the order its faces and their curl entities first reach them.
SparseMatrix mass_curl(const topology::Mesh& m, const SparseMatrix& face_star);

// The 3D momentum solve's preconditioner matrix (ns-classical, solver.momentum_preconditioner =
// "cells"; ns/operators.hpp, FaceBlockPreconditioner): the additive Schwarz map over cells
// S = sum_c P_c^T B_c^-1 P_c, B_c M_RT's principal block on the free owned faces of cell c (M_RT
// couples two faces only through their one common cell, so B_c is cell c's RT0 block with M_RT's
// diagonal) and P_c picking them out. Rows: the owned faces; columns: the local faces (a row
// reads the faces of its two cells, ghosts included, so its product needs x's ghosts there and
// is the same on any number of ranks). With ghost_rows (ghost faces whose cells are all local),
// n_faces rows: also those ghosts' rows, complete (S x is right there with x's ghosts current),
// empty rows for the other ghosts. The rows and columns of the faces whose flux is data
// (fixed[f] != 0) are empty. `diagonal` (M_RT's) and `fixed`: every local face. Symmetric,
// positive definite on the free faces. A row's entries: the faces of its first cell (the lower
// number) in local order, then the other cell's.
SparseMatrix face_block_inverse(const topology::Mesh& m, std::span<const real> diagonal,
                                std::span<const char> fixed,
                                std::span<const index> ghost_rows = {});

// A Hodge star on the host: the assembled matrix (rows: the owned entities; columns: the local
// entities, ghosts included) and its diagonal on every local entity (the ghosts as the caller
// exchanged them). A diagonal star has one entry per row (the 2D stars).
struct HodgeStar {
  SparseMatrix matrix;
  std::vector<real> diagonal;
  bool is_diagonal = false;
};

// The diagonal star d (every local entity, ghosts included): `owned` rows.
HodgeStar diagonal_star(std::vector<real> d, index owned);
// The star a (owned rows) with its diagonal on `local` entities, the ghosts 0 (the caller
// exchanges them).
HodgeStar matrix_star(SparseMatrix a, index local);

// S = R M C on the owned curl entities (columns: local curl entities). 2D: the node Laplacian
// with the edge weights of the diagonal star M = diag(mass) (every local face); 3D (mass empty):
// the exact curl-curl matrix of the lowest-order Nedelec space with M = M_RT, assembled cell by
// cell (M_RT's rows of ghost faces are not stored).
SparseMatrix stream_matrix(const topology::Mesh& m, std::span<const real> mass = {});

// The Jacobi diagonals of the operators built from the stars M (face) and W (edge), W replaced
// by its diagonal where it stands between two factors, on the owned entities (zero on ghosts):
//  - viscous_diagonal: diag(M C W R M)_f = sum over curl entities k of (M C)_fk^2 W_kk (n_faces),
//    from mc = mass_curl(m, M);
//  - stream_diagonals: diag(S) and diag(S W S)_k = sum_j W_jj S_kj^2 for S = R M C
//    (stream_matrix), W_jj = w[j] on every local curl entity (n_curl entries).
std::vector<real> viscous_diagonal(const topology::Mesh& m, const SparseMatrix& mc,
                                   const HodgeStar& edge);
std::pair<std::vector<real>, std::vector<real>> stream_diagonals(const topology::Mesh& m,
                                                                 const SparseMatrix& s,
                                                                 std::span<const real> w);

// The wall samples b of one boundary face f: 6 values, slot 2k + j (k = 0..2 the face's node
// face_nodes[3f + k], j = 0, 1 the edge from it to node k + 1 + j mod 3), for the wall velocity
// u(x).
std::array<real, 6> wall_samples(const topology::Mesh& m, index f,
                                 const std::function<Vec3(const Vec3&)>& u);

struct EdgeStar {
  SparseMatrix w;                 // W_mp: n_owned_edges rows, n_edges columns
  SparseMatrix wall;              // beta = wall b: n_owned_edges rows, 6 columns per wall face
  std::vector<index> wall_faces;  // the local faces whose samples b holds, ascending
};

// W_mp and its wall map. dropped[e] != 0: edge e has no vorticity unknown (symmetry);
// wall_face[f] != 0: local boundary face f has data velocity (walls, velocity patches).
EdgeStar multipoint_edge_star(const topology::Mesh& m, std::span<const char> dropped,
                              std::span<const char> wall_face);

// The diagonal A~ of ns-classical's pressure projection on the owned faces (n_faces entries, the
// ghosts 0): A~ = sum over cells of mu_c diag(M_c), mu_c the largest number with
// mu_c diag(M_c) <= M_c (the smallest eigenvalue of diag^-1/2 M_c diag^-1/2), so A~ <= M_RT. The
// pressure increments of the incremental projection then contract every step (the spectrum of
// (D A~^-1 G)^-1 (D M_RT^-1 G) lies in (0, 1]): a diagonal with A~ > 2 M_RT somewhere makes
// them grow at small time steps (docs/methods.md, "3D on tetrahedral meshes").
std::vector<real> projection_mass(const topology::Mesh& m);

// The diagonal of a matrix whose rows are owned entities (row i's entry in column i).
std::vector<real> matrix_diagonal(const SparseMatrix& a);

// y = A x on the host (y of a.rows entries).
void host_apply(const SparseMatrix& a, std::span<const real> x, std::span<real> y);

}  // namespace scfd::physics::ns
