// The shared pieces of a Navier–Stokes step (see ns/operators.hpp).
#include "physics/ns/operators.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "core/collectives.hpp"
#include "core/error.hpp"
#include "core/log.hpp"
#include "core/threads.hpp"
#include "core/timer.hpp"
#include "halo/overlap.hpp"
#include "solvers/assembly.hpp"

namespace scfd::physics::ns {

Star::Star(const backend::Backend& be, const HodgeStar& star)
    : be_(be), diagonal_(be.make_field_from(star.diagonal)) {
  if (!star.is_diagonal) matrix_ = be.make_matrix(star.matrix);
}

void Star::apply(const Field& x, Field& y, backend::Rows rows) const {
  if (matrix_)
    be_.matrix_apply(*matrix_, x, y, rows);
  else
    be_.multiply(*diagonal_, x, y);
}

Coefficients::Coefficients(const backend::Backend& be, const topology::Mesh& m, const Geometry& g)
    : face_star(be, g.face_star), edge_star(be, g.edge_star) {
  if (!g.face_star.is_diagonal)
    face_star_ghosts = halo::ghosts_among(m.n_owned_faces, g.face_star.matrix.column);
  if (!g.edge_star.is_diagonal)
    edge_star_ghosts = halo::ghosts_among(m.n_owned_curl(), g.edge_star.matrix.column);
  if (g.mass_curl.rows > 0) {
    mass_curl = be.make_matrix(g.mass_curl);
    mass_curl_ghosts = halo::ghosts_among(m.n_owned_curl(), g.mass_curl.column);
  }
  fixed = be.make_field_from(g.fixed);
  for (std::size_t f = 0; f < g.fixed.size(); ++f)
    if (g.fixed[f] != 0) fixed_faces.push_back(static_cast<index>(f));
  std::vector<real> free_host(g.fixed.size()), neg(g.mobility.size());
  for (std::size_t i = 0; i < free_host.size(); ++i) free_host[i] = 1 - g.fixed[i];
  for (std::size_t i = 0; i < neg.size(); ++i) neg[i] = -g.mobility[i];
  free = be.make_field_from(free_host);
  mobility = be.make_field_from(g.mobility);
  neg_mobility = be.make_field_from(neg);
  viscous_diag = be.make_field_from(g.viscous_diag);
  pressure_diag = be.make_field_from(g.pressure_diag);
  cfl_weight = be.make_field_from(g.cfl_weight);
  courant_weight = be.make_field_from(g.courant_weight);
  const index nb = m.n_boundary_faces();
  bc_flux = be.make_field(m.n_faces);
  bc_velocity = be.make_field(3 * nb);
  bc_pressure = be.make_field(nb);
  zero_boundary = be.make_field(nb);
  bc_circulation = be.make_field(m.n_curl());
}

void Coefficients::set_boundary(const backend::Backend& be, const BoundaryData& b) {
  SCFD_CHECK(b.flux.size() == static_cast<std::size_t>(bc_flux->size()), "{} boundary fluxes",
             b.flux.size());
  std::size_t nonzero = 0;
  for (const real v : b.flux) nonzero += v != 0 ? 1 : 0;
  std::vector<real> flux(fixed_faces.size());
  for (std::size_t k = 0; k < flux.size(); ++k)
    flux[k] = b.flux[static_cast<std::size_t>(fixed_faces[k])];
  for (const real v : flux) nonzero -= v != 0 ? 1 : 0;
  SCFD_CHECK(nonzero == 0, "{} boundary fluxes on faces whose flux is not data", nonzero);
  be.upload_entries(fixed_faces, flux, *bc_flux);
  be.upload(b.velocity, *bc_velocity);
  be.upload(b.pressure, *bc_pressure);
  be.upload(b.circulation, *bc_circulation);
}

FaceBlockPreconditioner::FaceBlockPreconditioner(const topology::Mesh& m,
                                                 const backend::Backend& be, const Coefficients& k,
                                                 std::span<const real> face_diagonal,
                                                 halo::Halo& halo)
    : be_(be),
      mass_(k.face_star),
      owned_(m.n_owned_faces),
      u_(be.make_field(m.n_faces)),
      v_(be.make_field(m.n_faces)) {
  SCFD_CHECK(!k.diagonal_stars(), "the cell-block preconditioner needs the 3D face mass");
  const SetupPart part(Part::face_blocks);
  std::vector<char> fixed(static_cast<std::size_t>(m.n_faces), 0);
  for (const index f : k.fixed_faces) fixed[static_cast<std::size_t>(f)] = 1;
  // S's and M_RT's owned rows read the same ghosts (F1): the faces of the cells of the owned
  // faces. S has their rows too, which read a layer further (F2; their cells are local).
  std::vector<index> f1;
  for (index f = 0; f < m.n_owned_faces; ++f)
    for (const index c : {m.face_cells[2 * f], m.face_cells[2 * f + 1]})
      if (c != kNone)
        for (int j = 0; j < 4; ++j) f1.push_back(m.cell_faces[4 * c + j]);
  f1 = halo::ghosts_among(m.n_owned_faces, f1);
  const SparseMatrix s = face_block_inverse(m, face_diagonal, fixed, f1);
  second_ = halo.faces.narrowed(halo::ghosts_read(halo.faces, s));
  first_ = halo.faces.narrowed(f1);
  exchanges_ = !first_.empty() || !second_.empty();
  inverse_ = be.make_matrix(s);
  const real lambda = largest_eigenvalue();
  omega_ = real{1.5} / lambda;
  log::info("momentum preconditioner: cell blocks of the face mass, lambda_max(S M) {:.3f}",
            lambda);
}

namespace {

// The largest eigenvalue of the symmetric tridiagonal matrix (diagonal d, off-diagonal e, e[i]
// between rows i and i + 1) by bisection on Sturm counts.
real tridiagonal_max_eigenvalue(const std::vector<real>& d, const std::vector<real>& e) {
  const std::size_t n = d.size();
  real lo = d[0], hi = d[0];
  for (std::size_t i = 0; i < n; ++i) {  // Gershgorin
    const real radius = (i > 0 ? std::abs(e[i - 1]) : 0) + (i + 1 < n ? std::abs(e[i]) : 0);
    lo = std::min(lo, d[i] - radius);
    hi = std::max(hi, d[i] + radius);
  }
  // below(x): how many eigenvalues are < x (the negative pivots of T - x I = L D L^T).
  const auto below = [&](real x) {
    std::size_t count = 0;
    real pivot = 1;
    for (std::size_t i = 0; i < n; ++i) {
      pivot = d[i] - x - (i > 0 ? e[i - 1] * e[i - 1] / pivot : 0);
      if (pivot == 0) pivot = -1e-300;
      if (pivot < 0) ++count;
    }
    return count;
  };
  for (int step = 0; step < 100 && hi - lo > 1e-12 * std::abs(hi); ++step) {
    const real mid = (lo + hi) / 2;
    (below(mid) == n ? hi : lo) = mid;
  }
  return hi;
}

}  // namespace

real FaceBlockPreconditioner::largest_eigenvalue() const {
  // Lanczos through conjugate gradients on M x = b preconditioned by S (both symmetric positive
  // definite): the CG coefficients give the tridiagonal matrix T whose largest eigenvalue tends
  // to lambda_max(S M) from below, far faster than power steps (on the cavity3d mesh 30 power
  // steps were 8 % low and still rising, 10 CG steps 4 % low, 15 0.2 %). 12 steps: each waits
  // for the GPU twice (0.3-0.8 s in all on an H200 at 8.2M tets for 20), and w = 1.5 / lambda
  // stays below 2 / lambda_max unless the estimate is 25 % low. Every rank's owned faces
  // together.
  std::vector<real> start(static_cast<std::size_t>(u_->size()), 0);
  // On the host threads: 16.5M sines at 8.2M tets took 0.3 s on one (an H200 node's timeline).
  parallel_for(owned_, [&](index first, index end) {
    for (index f = first; f < end; ++f) start[static_cast<std::size_t>(f)] = 1 + std::sin(0.37 * f);
  });
  FieldPtr r = be_.make_field_from(start), p = be_.make_field(u_->size());
  Field &z = *u_, &q = *v_;  // z = S r is 0 at the fixed faces, and so is p
  second_.exchange(be_, *r);
  be_.matrix_apply(*inverse_, *r, z);
  be_.copy(z, *p);
  real rho = global_sum(be_.dot(*r, z, owned_));
  const real rho_start = rho;
  std::vector<real> diagonal, off;
  real alpha_old = 0, beta_old = 0;
  for (int step = 0; step < 12 && rho > 1e-24 * rho_start; ++step) {
    first_.exchange(be_, *p);
    mass_.apply(*p, q);
    const real pq = global_sum(be_.dot(*p, q, owned_));
    SCFD_CHECK(pq > 0, "momentum preconditioner: the face mass is not positive definite");
    const real alpha = rho / pq;
    diagonal.push_back(1 / alpha + (step > 0 ? beta_old / alpha_old : 0));
    if (step > 0) off.push_back(std::sqrt(beta_old) / alpha_old);
    be_.axpy(-alpha, q, *r);
    second_.exchange(be_, *r);
    be_.matrix_apply(*inverse_, *r, z);
    const real rho_new = global_sum(be_.dot(*r, z, owned_));
    beta_old = rho_new / rho;
    alpha_old = alpha;
    rho = rho_new;
    be_.xpay(z, beta_old, *p);
  }
  // No free face on any rank (a mesh of boundary faces only): S M is empty, any w will do.
  return diagonal.empty() ? real{1} : tridiagonal_max_eigenvalue(diagonal, off);
}

void FaceBlockPreconditioner::apply(Field& r, Field& z) const {
  if (!exchanges_) {                      // no neighbour in either exchange
    be_.matrix_apply(*inverse_, r, *u_);  // S r
    mass_.apply(*u_, *v_);                // M S r
    be_.xpay(r, -omega_ / 2, *v_);        // r - (w/2) M S r
    be_.matrix_apply(*inverse_, *v_, z);
    return;
  }
  // r's ghosts two face layers deep give S r on the owned faces and on F1, all M's owned rows
  // read; then v's ghosts on F1 give S v on the owned faces. z's ghosts on F1 are S's rows there
  // from v's stale F2 entries (the operator exchanges them before reading).
  halo::overlap(second_, be_, r,
                [&](backend::Rows rows) { be_.matrix_apply(*inverse_, r, *u_, rows); });
  mass_.apply(*u_, *v_);
  be_.xpay(r, -omega_ / 2, *v_);
  halo::overlap(first_, be_, *v_,
                [&](backend::Rows rows) { be_.matrix_apply(*inverse_, *v_, z, rows); });
}

MomentumOperator::MomentumOperator(const topology::Mesh& m, const backend::Backend& be,
                                   halo::Halo& halo, const Coefficients& k, real upwind)
    : m_(m),
      be_(be),
      halo_(halo),
      k_(k),
      convection_(m, be, halo, upwind),
      free_x_(be.make_field(m.n_faces)),
      viscous_x_(be.make_field(m.n_faces)),
      convected_(be.make_field(m.n_faces)),
      circulation_(be.make_field(m.n_curl())) {
  if (!k.diagonal_stars()) {
    std::vector<index> faces = face_reads(m);
    faces.insert(faces.end(), k.face_star_ghosts.begin(), k.face_star_ghosts.end());
    faces_ = halo.faces.narrowed(halo::ghosts_among(m.n_owned_faces, faces));
    curl_star_ = curl_plan(halo, m).narrowed(k.edge_star_ghosts);
    mass_curl_ = curl_plan(halo, m).narrowed(k.mass_curl_ghosts);
    star_x_ = be.make_field(m.n_faces);
    vorticity_ = be.make_field(m.n_curl());
  }
}

// The ghosts of x arrive behind the inner rows; the element-wise products run again in the
// interface part, with the ghosts, so free_x_ is complete afterwards. 2D: R M (free .* x) there;
// 3D: M (free .* x), formed once for the mass and the viscous term.
void MomentumOperator::apply(Field& x, Field& y) const {
  const bool diagonal = k_.diagonal_stars();
  Field* convected = advecting != nullptr ? convected_.get() : nullptr;
  halo::overlap(diagonal ? halo_.faces : faces_, be_, x, [&](backend::Rows rows) {
    be_.multiply(*k_.free, x, *free_x_);
    if (diagonal) {
      k_.face_star.apply(*free_x_, *viscous_x_);
      be_.rotation(m_, *viscous_x_, *circulation_, rows);
    } else {
      k_.face_star.apply(*free_x_, *star_x_, rows);
    }
    if (convected != nullptr) convection_.interpolate(*free_x_, rows);
  });
  if (diagonal) {
    viscous_from_circulation(*viscous_x_, nullptr, convected);
    k_.face_star.apply(*free_x_, y);
  } else {
    viscous_3d(*star_x_, *viscous_x_, nullptr, convected);
    be_.copy(*star_x_, y);
  }
  combine(x, y);
}

void MomentumOperator::combine(const Field& x, Field& y) const {
  be_.axpy(nu_dt, *viscous_x_, y);
  if (advecting != nullptr) be_.axpy(convection_dt, *convected_, y);
  be_.multiply(*k_.free, y, y);
  be_.multiply(*k_.fixed, x, *viscous_x_);  // the eliminated rows: y = x there
  be_.axpy(1, *viscous_x_, y);
}

void MomentumOperator::diagonal(Field& d) const {
  be_.copy(k_.face_star.diagonal(), d);
  be_.axpy(nu_dt, *k_.viscous_diag, d);
  be_.multiply(*k_.free, d, d);
  be_.axpy(1, *k_.fixed, d);
}

void MomentumOperator::viscous_3d(const Field& mx, Field& y, const Field* extra,
                                  Field* convected) const {
  be_.rotation(m_, mx, *circulation_);
  const auto star = halo::part(curl_star_, *circulation_, [&](backend::Rows rows) {
    k_.edge_star.apply(*circulation_, *vorticity_, rows);
  });
  if (convected != nullptr)
    halo::overlap_together(be_, star,
                           convection_.convection_part(*advecting, convection_.zero_boundary()));
  else
    halo::overlap_together(be_, star);
  if (extra != nullptr) be_.axpy(1, *extra, *vorticity_);
  const auto curl = halo::part(mass_curl_, *vorticity_, [&](backend::Rows rows) {
    be_.matrix_apply(*k_.mass_curl, *vorticity_, y, rows);
  });
  if (convected != nullptr)
    halo::overlap_together(be_, curl, convection_.integration_part(*convected));
  else
    halo::overlap_together(be_, curl);
}

// y serves as the scratch of M x before it receives the result (2D). x needs its ghosts at the
// columns of M's rows (3D: those of the ghost faces R reads too).
void MomentumOperator::viscous(const Field& x, Field& y, const Field* extra) const {
  if (!k_.diagonal_stars()) {
    k_.face_star.apply(x, *star_x_);
    viscous_3d(*star_x_, y, extra, nullptr);
    return;
  }
  k_.face_star.apply(x, y);
  be_.rotation(m_, y, *circulation_);
  viscous_from_circulation(y, extra, nullptr);
}

void MomentumOperator::viscous_from_circulation(Field& y, const Field* extra,
                                                Field* convected) const {
  if (extra != nullptr) be_.axpy(1, *extra, *circulation_);
  k_.edge_star.apply(*circulation_, *circulation_);
  const auto curl = halo::part(curl_plan(halo_, m_), *circulation_,
                               [&](backend::Rows rows) { be_.curl(m_, *circulation_, y, rows); });
  if (convected == nullptr) {
    halo::overlap_together(be_, curl);
  } else {
    halo::overlap_together(be_, curl,
                           convection_.convection_part(*advecting, convection_.zero_boundary()));
    halo::overlap_together(be_, convection_.integration_part(*convected));
  }
  k_.face_star.apply(y, y);
}

PressureOperator::PressureOperator(const topology::Mesh& m, const backend::Backend& be,
                                   halo::Halo& halo, const Coefficients& k,
                                   const backend::SparseMatrix& a)
    : m_(m), be_(be), k_(k), cells_(halo.cells.narrowed(cell_reads(m))) {
  if (be.precision() == "fp64") {
    matrix_ = be.make_matrix(a);
  } else {
    faces_ = halo.faces.narrowed(face_reads(m));
    gradient_ = be.make_field(m.n_faces);
  }
}

backend::SparseMatrix PressureOperator::matrix(const topology::Mesh& m, const backend::Backend& be,
                                               const Coefficients& k) {
  std::vector<real> mobility(static_cast<std::size_t>(m.n_faces));
  be.download(*k.mobility, mobility);
  return solvers::cell_laplacian_matrix(m, mobility);
}

void PressureOperator::apply(Field& x, Field& y) const {
  if (matrix_) {
    halo::overlap(cells_, be_, x,
                  [&](backend::Rows rows) { be_.matrix_apply(*matrix_, x, y, rows); });
    return;
  }
  halo::overlap(cells_, be_, x, [&](backend::Rows rows) {
    be_.gradient(m_, x, *k_.zero_boundary, *gradient_, rows);
  });
  be_.multiply(*k_.neg_mobility, *gradient_, *gradient_);
  halo::overlap(faces_, be_, *gradient_,
                [&](backend::Rows rows) { be_.divergence(m_, *gradient_, y, rows); });
}

PressureHost pressure_host(const topology::Mesh& m, std::span<const real> mobility,
                           const solvers::AmgOptions* multigrid) {
  PressureHost h;
  {
    const SetupPart part(Part::pressure_matrix);
    h.a = solvers::cell_laplacian_matrix(m, mobility);
  }
  if (multigrid != nullptr) {
    const Timer timer;
    h.hierarchy = solvers::build_amg_alone(h.a, *multigrid);  // a copy: the operator keeps a
    h.multigrid_seconds = timer.seconds();
  }
  return h;
}

PressureSolve::PressureSolve(const topology::Mesh& m, const backend::Backend& be, halo::Halo& halo,
                             const Coefficients& k, bool has_outlet,
                             const solvers::SolveOptions& options, std::string_view preconditioner)
    : PressureSolve(m, be, halo, k, has_outlet, options, preconditioner, [&] {
        const SetupPart part(Part::pressure_matrix);
        return PressureHost{PressureOperator::matrix(m, be, k), std::nullopt, 0};
      }()) {}

PressureSolve::PressureSolve(const topology::Mesh& m, const backend::Backend& be, halo::Halo& halo,
                             const Coefficients& k, bool has_outlet,
                             const solvers::SolveOptions& options, std::string_view preconditioner,
                             PressureHost host)
    : m_(m),
      be_(be),
      operator_(m, be, halo, k, host.a),
      pcg_(be, m.n_cells),
      options_(options),
      has_outlet_(has_outlet),
      global_cells_(global_sum(static_cast<real>(m.n_owned_cells))),
      b_(be.make_field(m.n_cells)),
      ones_(be.make_field(m.n_cells)) {
  be.fill(*ones_, 1);
  if (host.hierarchy) {
    SCFD_CHECK(preconditioner == "amg", "a multigrid hierarchy for preconditioner '{}'",
               preconditioner);
    preconditioner_ = solvers::make_amg(be, std::move(*host.hierarchy), halo.cells, "pressure",
                                        host.multigrid_seconds);
    return;
  }
  const auto matrix = [&host] { return std::move(host.a); };  // made once, by the multigrid only
  preconditioner_ =
      solvers::make_preconditioner(preconditioner, {be, matrix, halo.cells, "pressure"});
}

solvers::SolveResult PressureSolve::solve(const Field& v, Field& psi, real v_floor,
                                          solvers::SolutionProjection* projection) {
  be_.divergence(m_, v, *b_);
  be_.scale(-1, *b_, *b_);  // b = -D v
  // psi comes in holding the caller's initial guess (the last answer, or ns-exact's extrapolated
  // pressure), which a projection onto earlier solutions replaces once it has some: the pressure
  // correction and the pressure change little from step to step (cavity3d, 200 steps, the last
  // answer against 0: 5,998 -> 5,078 iterations, the same answer to 10 digits).
  if (!has_outlet_) {  // singular system: remove the round-off part of b along 1
    const real mean = global_sum(be_.dot(*b_, *ones_, m_.n_owned_cells));
    be_.axpy(-mean / global_cells_, *ones_, *b_);
  }
  if (projection != nullptr) projection->guess(*b_, psi);
  solvers::SolveOptions options = options_;
  options.absolute_tolerance =
      options.relative_tolerance *
      std::max(std::sqrt(global_sum(be_.dot(v, v, m_.n_owned_faces))), v_floor);
  const solvers::SolveResult r =
      pcg_.solve(operator_, *b_, psi, options, true, preconditioner_.get());
  if (!has_outlet_) {  // psi is defined up to a constant, which the preconditioner picks: fix it
    const real mean = global_sum(be_.dot(psi, *ones_, m_.n_owned_cells));
    be_.axpy(-mean / global_cells_, *ones_, psi);
  }
  if (projection != nullptr) projection->add(operator_, psi);
  return r;
}

Convection::Convection(const topology::Mesh& m, const backend::Backend& be, halo::Halo& halo,
                       real upwind)
    : m_(m),
      be_(be),
      upwind_(upwind),
      cells_(halo.cells.narrowed(cell_reads(m))),
      faces_(halo.faces.narrowed(face_reads(m))),
      u_cell_(be.make_field(3 * m.n_cells)),
      n_cell_(be.make_field(3 * m.n_cells)),
      zero_cell_(be.make_field(3 * m.n_cells)),
      zero_boundary_(be.make_field(3 * m.n_boundary_faces())) {}

void Convection::apply(const Field& a, const Field& x, const Field& u_boundary, Field& y) const {
  be_.interpolate(m_, x, *u_cell_);
  from_cells(a, u_boundary, y);
}

void Convection::apply_exchanging(const Field& a, Field& x, const Field& u_boundary,
                                  Field& y) const {
  halo::overlap(faces_, be_, x,
                [&](backend::Rows rows) { be_.interpolate(m_, x, *u_cell_, rows); });
  from_cells(a, u_boundary, y);
}

void Convection::from_cells(const Field& a, const Field& u_boundary, Field& y) const {
  halo::overlap_together(be_, convection_part(a, u_boundary));
  halo::overlap_together(be_, integration_part(y));
}

void Convection::boundary_part(const Field& a, const Field& u_boundary, Field& y) const {
  be_.convection(m_, a, *zero_cell_, u_boundary, upwind_, *n_cell_);
  halo::overlap_together(be_, integration_part(y));
}

}  // namespace scfd::physics::ns
