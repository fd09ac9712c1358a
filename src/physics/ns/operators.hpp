// The pieces of a Navier–Stokes step that both models use (docs/methods.md): the mesh factors
// and the boundary data as Fields, the momentum and pressure operators, the pressure Poisson
// solve and the convective term. Every object owns the temporaries it writes, so no
// result depends on the order in which they are called; the coefficient Fields are shared
// read-only. Internal to the physics module.
//
// Parallel runs: operators write owned entries; the inputs of each gather are exchanged first
// (faces before R, D and the cell reconstruction; curl entities before C; cells before G), so
// every rank count computes the serial operators. Most exchanges go through plans narrowed to
// the ghosts the product after them reads (HaloPlan::narrowed, cell_reads .. curl_reads); the other
// ghosts of such a field are stale afterwards, and nothing reads them.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include "backend/backend.hpp"
#include "halo/halo.hpp"
#include "halo/overlap.hpp"
#include "physics/ns/geometry.hpp"
#include "physics/ns/setup.hpp"
#include "solvers/amg.hpp"
#include "solvers/linear_operator.hpp"
#include "solvers/pcg.hpp"
#include "solvers/preconditioner.hpp"
#include "solvers/projection.hpp"
#include "topology/mesh.hpp"

namespace scfd::physics::ns {

using backend::Field;
using FieldPtr = std::unique_ptr<Field>;

// The halo plan of the curl entities: nodes in 2D, edges in 3D.
inline halo::HaloPlan& curl_plan(halo::Halo& halo, const topology::Mesh& m) {
  return halo.plan(m.dim == 2 ? halo::Entity::node : halo::Entity::edge);
}

// A Hodge star on the backend (HodgeStar, ns/hodge.hpp): y = star x on the owned entities `rows`
// names, x with its ghosts (3D M_RT: also on the ghost faces R reads, Geometry::face_star; the
// other ghosts of y are written 0). A diagonal star (2D) is an element-wise product: it writes
// every entry, ghosts included, ignores rows and may take y = x; a matrix star (3D) is a stored
// sparse matrix (Backend::matrix_apply), y must not be x. diagonal(): the star's diagonal on every
// local entity, for Jacobi preconditioners and norms.
class Star {
 public:
  Star(const backend::Backend& be, const HodgeStar& star);
  void apply(const Field& x, Field& y, backend::Rows rows = backend::Rows::all) const;
  const Field& diagonal() const { return *diagonal_; }
  bool is_diagonal() const { return !matrix_; }

 private:
  const backend::Backend& be_;
  FieldPtr diagonal_;
  std::unique_ptr<backend::Matrix> matrix_;  // null: diagonal
};

// The mesh factors of ns/geometry.hpp on the backend (set once) and the boundary data of
// ns/setup.hpp (re-uploaded when it depends on time). Face fields have n_faces entries, cell
// fields n_cells, curl fields n_curl, boundary fields one (or 3) per owned boundary face.
struct Coefficients {
  Coefficients(const backend::Backend& be, const topology::Mesh& m, const Geometry& g);
  // Uploads the boundary data at one time; the fluxes at the faces whose flux is data only
  // (Backend::upload_entries: GL_POINTS on gl-raster), bc_flux 0 elsewhere.
  void set_boundary(const backend::Backend& be, const BoundaryData& b);
  bool diagonal_stars() const { return face_star.is_diagonal(); }

  Star face_star;                              // M: 2D diag(L/A), 3D M_RT
  Star edge_star;                              // W: 2D diag(1/A*), 3D W_mp
  std::unique_ptr<backend::Matrix> mass_curl;  // 3D: M C (Geometry::mass_curl); 2D: null
  // The ghosts the rows of the matrices read (3D; empty for diagonal stars): what the exchanges
  // before them carry (MomentumOperator). face_star_ghosts includes the columns of its ghost rows.
  std::vector<index> face_star_ghosts, edge_star_ghosts, mass_curl_ghosts;
  std::vector<index> fixed_faces;  // local faces whose flux is data (Geometry::fixed)
  FieldPtr fixed, free, mobility, neg_mobility, viscous_diag, pressure_diag, cfl_weight,
      courant_weight;
  FieldPtr bc_flux;                                  // faces: the fluxes that are data
  FieldPtr bc_velocity, bc_pressure, zero_boundary;  // boundary faces (3, 1, 1 per face)
  // Curl entities: the wall part of the vorticity. 2D: a circulation b (omega = W (Gamma + b));
  // 3D: a vorticity beta (omega = W_mp Gamma + beta; ns/hodge.hpp).
  FieldPtr bc_circulation;
};

// The convective term of the face equation, J N_a(I x; u_b): the convective acceleration at cells
// (Backend::convection) of the velocity I x (Backend::interpolate) carried by the fluxes a, with
// the velocity u_b on inflow boundary faces, brought back to the faces by the integration J, the
// V-weighted adjoint of I. With u_b = 0 it is linear in x, C(a) x; for divergence-free a,
// x^T C(a) x = sum_c V_c (I x)_c·N_c is zero but for the inflow and outflow boundary faces, where
// it is >= 0 (upwind adds >= 0 more): C(a) neither creates nor destroys x^T M x in the interior
// (Perot's energy argument, docs/methods.md), on any mesh, Delaunay or not.
class Convection {
 public:
  Convection(const topology::Mesh& m, const backend::Backend& be, halo::Halo& halo, real upwind);
  // y = J N_a(I x; u_b) on the owned faces. a and x with their ghosts; u_b: 3 per owned
  // boundary face (zero_boundary() for the linear part C(a) x). y must be neither a nor x.
  void apply(const Field& a, const Field& x, const Field& u_boundary, Field& y) const;
  // y = J N_a(0; u_b): the part that is boundary data.
  void boundary_part(const Field& a, const Field& u_boundary, Field& y) const;
  // apply() with the ghosts of x exchanged here, behind the inner cells' interpolation.
  void apply_exchanging(const Field& a, Field& x, const Field& u_boundary, Field& y) const;
  const Field& zero_boundary() const { return *zero_boundary_; }

  // apply() in stages, for a caller that keeps other exchanges in flight beside the two of the
  // convection (halo::overlap_together; MomentumOperator): interpolate(x, rows), then
  // overlap_together with convection_part(a, u_b), then with integration_part(y).
  // The cell velocities I x on the owned cells `rows` names (x with the ghosts of face_reads).
  void interpolate(const Field& x, backend::Rows rows) const {
    be_.interpolate(m_, x, *u_cell_, rows);
  }
  // The exchange of the cell velocities and the convective acceleration behind it.
  auto convection_part(const Field& a, const Field& u_boundary) const {
    return halo::part(
        cells_, *u_cell_,
        [this, &a, &u_boundary](backend::Rows rows) {
          be_.convection(m_, a, *u_cell_, u_boundary, upwind_, *n_cell_, rows);
        },
        3);
  }
  // The exchange of the convective accelerations and y = their integral behind it.
  auto integration_part(Field& y) const {
    return halo::part(
        cells_, *n_cell_, [this, &y](backend::Rows rows) { be_.integrate(m_, *n_cell_, y, rows); },
        3);
  }

 private:
  // y from the cell velocities u_cell_ (owned; their ghosts are exchanged here).
  void from_cells(const Field& a, const Field& u_boundary, Field& y) const;
  const topology::Mesh& m_;
  const backend::Backend& be_;
  real upwind_;
  // Narrowed plans (halo_plan.hpp): cells_ carries the ghost cells of the owned faces and the
  // face neighbours of the owned cells (N, J), faces_ the ghost faces of the owned cells (I).
  mutable halo::HaloPlan cells_, faces_;
  FieldPtr u_cell_, n_cell_, zero_cell_;  // 3 per cell
  FieldPtr zero_boundary_;                // 3 per owned boundary face
};

// y = free .* ((M + nu dt K + theta dt C(a))(free .* x)) + fixed .* x, K = M C W R M (with the
// Hodge stars of Coefficients; in 3D the wall term enters as omega = W R M x + beta): the
// momentum matrix with the rows and columns of the fixed faces eliminated (symmetrically for the
// symmetric part M + nu dt K), C(a) the convection of Convection by the fluxes a (advecting,
// null: no convection, the operator is then symmetric positive definite).
//
// Exchanges per application (docs/architecture.md §5): x; then W's input (the circulation) with
// the convection's cell velocities in flight beside it (halo::overlap_together); then (3D) M C's
// input (the vorticity) with the convective accelerations. In 3D, M x is computed at the ghost
// faces R reads (Geometry::face_star) and M C is one matrix, so neither M x nor C omega is
// exchanged: 3 rounds of exchanges instead of 7.
class MomentumOperator final : public solvers::LinearOperator {
 public:
  MomentumOperator(const topology::Mesh& m, const backend::Backend& be, halo::Halo& halo,
                   const Coefficients& k, real upwind);
  index size() const override { return m_.n_faces; }
  index owned() const override { return m_.n_owned_faces; }
  void apply(Field& x, Field& y) const override;
  // d = free .* (diag(M) + nu dt viscous_diag) + fixed.
  void diagonal(Field& d) const override;
  // y = M C W (R M x + extra) (3D: M C (W R M x + extra)), owned faces; x needs its ghosts.
  // `extra` (curl entities, or null) is the wall part (Coefficients::bc_circulation). y must not
  // be x.
  void viscous(const Field& x, Field& y, const Field* extra = nullptr) const;
  // y = C(a) x (owned faces): the implicit convection's operator; x with its ghosts.
  void convect(const Field& x, Field& y) const {
    convection_.apply(*advecting, x, convection_.zero_boundary(), y);
  }
  real nu_dt = 0;
  real convection_dt = 0;            // theta dt
  const Field* advecting = nullptr;  // a, with its ghosts; null: no convection

 private:
  const topology::Mesh& m_;
  const backend::Backend& be_;
  halo::Halo& halo_;
  const Coefficients& k_;
  // y = M C W (circulation_ + extra), owned faces (the second half of viscous(), 2D); with
  // `convected`, also convected = C(a) free_x_ (owned faces), free_x_'s cell velocities
  // interpolated.
  void viscous_from_circulation(Field& y, const Field* extra, Field* convected) const;
  // y = M C (W R mx + extra), owned faces, from mx = M x on the owned faces and the ghost faces R
  // reads (3D); `convected` as in viscous_from_circulation.
  void viscous_3d(const Field& mx, Field& y, const Field* extra, Field* convected) const;
  // y = free .* (y + nu dt viscous_x_ + theta dt convected_) + fixed .* x, y holding
  // M (free .* x) and viscous_x_ the viscous term on entry (the end of apply()).
  void combine(const Field& x, Field& y) const;

  Convection convection_;
  // Matrix stars (3D): the exchanges of apply() and viscous() through narrowed plans
  // (halo_plan.hpp), each carrying the ghosts of the products after it: faces_ those of M_RT's
  // rows and of the owned cells (M, and I in the convection), curl_star_ the columns of W_mp,
  // mass_curl_ those of M C.
  mutable halo::HaloPlan faces_, curl_star_, mass_curl_;
  FieldPtr free_x_, viscous_x_, convected_;  // faces
  FieldPtr circulation_;                     // curl entities
  FieldPtr star_x_;                          // 3D: faces (M x)
  FieldPtr vorticity_;                       // 3D: curl entities
};

// The 3D momentum solve's preconditioner (solver.momentum_preconditioner = "cells"): two damped
// Richardson steps from z = 0 on the face mass M_RT of the free faces with the cell-block
// inverse S (ns/hodge.hpp, face_block_inverse), z = w S r + w S (r - M w S r), so z ~ M^-1 r: the
// momentum matrix M + dt/2 C(a) + nu dt K is dominated by M at the Courant numbers of transient
// runs. w = 1.5 / lambda_max(S M), estimated at set-up by Lanczos (conjugate gradients on M with
// S, collective). Applied as z' = S (r - (w/2) M S r) = (2/w) z: BiCGStab's iterates do not
// depend on the preconditioner's scale. z is 0 at the faces whose flux is data (S's rows there are
// empty; the momentum residual is 0 there); its ghosts are not meaningful (the momentum operator
// exchanges its input). With several ranks r is exchanged two face layers deep and S has the
// rows of the first ghost layer, so S r needs no exchange before M, and v = r - (w/2) M S r one
// layer deep before the last product (two exchanges per application, each behind the rows that
// read no ghost): the map is the one rank's, and the momentum iterations do not depend on the
// number of ranks. Taken on each rank's owned faces alone (no exchange), they rose from 6.7 to 9
// per step on cavity-box 24^3 at 2 and 4 ranks, and on the 111^3 box from 10.5 to 12.9 on two
// GPUs (docs/scaling.md).
class FaceBlockPreconditioner final : public solvers::Preconditioner {
 public:
  // face_diagonal: M_RT's diagonal on every local face; k: the coefficients (M_RT and the
  // faces whose flux is data).
  FaceBlockPreconditioner(const topology::Mesh& m, const backend::Backend& be,
                          const Coefficients& k, std::span<const real> face_diagonal,
                          halo::Halo& halo);
  // r's ghosts two face layers deep are exchanged in place (Preconditioner::apply).
  void apply(Field& r, Field& z) const override;

 private:
  // lambda_max(S M) on every rank's free faces together.
  real largest_eigenvalue() const;
  const backend::Backend& be_;
  const Star& mass_;
  index owned_;
  std::unique_ptr<backend::Matrix> inverse_;
  // The exchanges before the products (several ranks): first_ the ghost faces F1 of the cells
  // of the owned faces (what S's and M's owned rows read), second_ F1 and the ghosts F2 that S's
  // rows on F1 read.
  mutable halo::HaloPlan first_, second_;
  bool exchanges_ = false;  // a neighbour in either plan
  FieldPtr u_, v_;          // faces: S r, r - (w/2) M S r with their ghosts
  real omega_ = 1;
};

// y = -D A~^-1 G0 x (G0: the gradient with zero boundary values; A~^-1 is zero on fixed faces).
// In fp64, applied as its assembled matrix a (solvers::cell_laplacian_matrix of k.mobility; the
// same operator to round-off): one exchange of x, narrowed to the face neighbours of the owned
// cells, where the gradient and the divergence take two. In fp32 as those two: their
// differences map the constants to exactly 0, while the matrix's rows, rounded to fp32, do not
// sum to 0, and on a system without an outlet (singular) PCG broke down on the constants
// (p·Ap < 0 on the 2D cavity).
class PressureOperator final : public solvers::LinearOperator {
 public:
  PressureOperator(const topology::Mesh& m, const backend::Backend& be, halo::Halo& halo,
                   const Coefficients& k, const backend::SparseMatrix& a);
  // The matrix a of the operator on mobility k.mobility (downloaded), this rank's rows.
  static backend::SparseMatrix matrix(const topology::Mesh& m, const backend::Backend& be,
                                      const Coefficients& k);
  index size() const override { return m_.n_cells; }
  index owned() const override { return m_.n_owned_cells; }
  void apply(Field& x, Field& y) const override;
  void diagonal(Field& d) const override { be_.copy(*k_.pressure_diag, d); }

 private:
  const topology::Mesh& m_;
  const backend::Backend& be_;
  const Coefficients& k_;
  std::unique_ptr<backend::Matrix> matrix_;  // fp64; null: the gradient and the divergence
  // Narrowed plans: the ghost cells G (or the matrix) reads, the ghost faces D reads (fp32).
  mutable halo::HaloPlan cells_, faces_;
  FieldPtr gradient_;  // faces (fp32)
};

// What the pressure solve's set-up makes on the host alone: the operator's matrix and, with the
// multigrid, its hierarchy (seconds: the time that took). One rank, fp64.
struct PressureHost {
  backend::SparseMatrix a;
  std::optional<solvers::AmgHierarchy> hierarchy;
  double multigrid_seconds = 0;
};
// From the faces' mobility on the host (Geometry::mobility: the values the backend holds in
// fp64); the hierarchy with `multigrid` (solvers::amg_options of the backend). Calls neither MPI
// nor the backend, so FlowModel runs it on a thread of its own while the main thread copies the
// coefficients to the GPU.
PressureHost pressure_host(const topology::Mesh& m, std::span<const real> mobility,
                           const solvers::AmgOptions* multigrid);

// The pressure Poisson equation of both models: (-D A~^-1 G0) psi = -D v, singular without an
// outlet (then b is made orthogonal to the constants).
class PressureSolve {
 public:
  PressureSolve(const topology::Mesh& m, const backend::Backend& be, halo::Halo& halo,
                const Coefficients& k, bool has_outlet, const solvers::SolveOptions& options,
                std::string_view preconditioner);
  // From the operator's matrix, assembled once for the operator and the multigrid (the first
  // form: PressureOperator::matrix; one rank in fp64 also what pressure_host made, with the
  // hierarchy where `preconditioner` is the multigrid).
  PressureSolve(const topology::Mesh& m, const backend::Backend& be, halo::Halo& halo,
                const Coefficients& k, bool has_outlet, const solvers::SolveOptions& options,
                std::string_view preconditioner, PressureHost host);
  // psi from v (faces, with ghosts); psi starts from its value on entry (the caller's last
  // answer: the initial guess) and ends with its owned values (the caller exchanges its ghosts,
  // behind the operator that reads them); without
  // an outlet its mean over the cells is 0 (so the pressure's too, on every backend, rank count
  // and preconditioner). Stops
  // at |r| <= tolerance |b| or |r| <= tolerance max(|v|, v_floor): near a steady state D v is
  // itself tiny, and a residual far below the fluxes of the flow changes nothing (v_floor: a
  // flux norm that sets that scale when v is not the flow's fluxes).
  // projection: when given, psi starts from its guess instead (unless its basis is empty), and
  // the solution is added to it.
  solvers::SolveResult solve(const Field& v, Field& psi, real v_floor = 0,
                             solvers::SolutionProjection* projection = nullptr);

 private:
  const topology::Mesh& m_;
  const backend::Backend& be_;
  PressureOperator operator_;
  solvers::Pcg pcg_;
  std::unique_ptr<solvers::Preconditioner> preconditioner_;  // null: PCG's built-in Jacobi
  solvers::SolveOptions options_;
  bool has_outlet_;
  real global_cells_ = 0;
  FieldPtr b_, ones_;  // cells
};

}  // namespace scfd::physics::ns
