// The default methods of Backend (backend.hpp): the operators as products with the mesh's
// operator matrices (operator_matrices.hpp), stored by this backend the first time a mesh is
// used; the Krylov updates as sequences of core operations.
#include "backend/backend.hpp"

#include <cmath>
#include <vector>

#include "backend/operator_matrices.hpp"
#include "core/error.hpp"

namespace scfd::backend {

struct Backend::MeshOperators {
  const topology::Mesh* mesh = nullptr;
  index cells = 0, faces = 0, curl = 0;  // the mesh's sizes when these were made
  std::unique_ptr<Matrix> gradient, gradient_boundary, divergence, curl_matrix, rotation,
      interpolate, integrate;
  std::unique_ptr<Field> scratch;  // n_faces: the gradient's boundary part

  bool matches(const topology::Mesh& m) const {
    return mesh == &m && cells == m.n_cells && faces == m.n_faces && curl == m.n_curl();
  }
};

Backend::Backend() = default;
Backend::~Backend() = default;

const Backend::MeshOperators& Backend::mesh_operators(const topology::Mesh& m) const {
  for (const auto& o : mesh_operators_)
    if (o->matches(m)) return *o;
  // A mesh rebuilt in place (same object, other sizes) drops what was made for the old one.
  std::erase_if(mesh_operators_, [&m](const auto& o) { return o->mesh == &m; });
  const OperatorMatrices a = operator_matrices(m);
  auto o = std::make_unique<MeshOperators>();
  o->mesh = &m;
  o->cells = m.n_cells;
  o->faces = m.n_faces;
  o->curl = m.n_curl();
  o->gradient = make_matrix(a.gradient);
  o->gradient_boundary = make_matrix(a.gradient_boundary);
  o->divergence = make_matrix(a.divergence);
  o->curl_matrix = make_matrix(a.curl);
  o->rotation = make_matrix(a.rotation);
  o->interpolate = make_matrix(a.interpolate);
  o->integrate = make_matrix(a.integrate);
  o->scratch = make_field(m.n_faces);
  mesh_operators_.push_back(std::move(o));
  return *mesh_operators_.back();
}

void Backend::gradient(const topology::Mesh& m, const Field& q_cell, const Field& q_boundary,
                       Field& g_face, Rows rows) const {
  const MeshOperators& o = mesh_operators(m);
  matrix_apply(*o.gradient_boundary, q_boundary, *o.scratch, rows);
  matrix_apply_add(*o.gradient, q_cell, *o.scratch, g_face, rows);
}

void Backend::divergence(const topology::Mesh& m, const Field& u_face, Field& d_cell,
                         Rows rows) const {
  matrix_apply(*mesh_operators(m).divergence, u_face, d_cell, rows);
}

void Backend::curl(const topology::Mesh& m, const Field& s, Field& u_face, Rows rows) const {
  matrix_apply(*mesh_operators(m).curl_matrix, s, u_face, rows);
}

void Backend::rotation(const topology::Mesh& m, const Field& u_face, Field& r, Rows rows) const {
  matrix_apply(*mesh_operators(m).rotation, u_face, r, rows);
}

void Backend::interpolate(const topology::Mesh& m, const Field& u_face, Field& u_cell,
                          Rows rows) const {
  matrix_apply(*mesh_operators(m).interpolate, u_face, u_cell, rows);
}

void Backend::integrate(const topology::Mesh& m, const Field& v_cell, Field& u_face,
                        Rows rows) const {
  matrix_apply(*mesh_operators(m).integrate, v_cell, u_face, rows);
}

namespace {

std::vector<real> host_scalars(const Backend& be, const Scalars& s) {
  std::vector<real> v(static_cast<std::size_t>(s.size()));
  be.read_scalars(s, v);
  return v;
}

// alpha_k and omega_k of BiCGStab from its scalars; a zero divisor gives 0, as in the kernels.
real bicgstab_alpha(const std::vector<real>& s, index rho_slot) {
  const real r0v = s[BicgstabSlots::r0v];
  return r0v != 0 ? s[static_cast<std::size_t>(rho_slot)] / r0v : real(0);
}
real bicgstab_omega(const std::vector<real>& s) {
  return s[BicgstabSlots::tt] > 0 ? s[BicgstabSlots::ts] / s[BicgstabSlots::tt] : real(0);
}

}  // namespace

void Backend::pcg_update(int k, Scalars& sf, const Field& p, const Field& q, const Field& dinv,
                         Field& x, Field& r, Field& z, index n) const {
  using S = PcgSlots;
  SCFD_CHECK(sf.size() >= S::count, "PCG scalars: {} of {}", sf.size(), S::count);
  std::vector<real> s = host_scalars(*this, sf);
  const std::optional<real> alpha = S::alpha(s, k);
  if (!alpha) {
    write_scalars(s, sf);
    return;
  }
  axpy(*alpha, p, x);
  axpy(-*alpha, q, r);
  multiply(dinv, r, z);
  dot(r, z, n, sf, S::rz_after(k));
  dot(r, r, n, sf, S::rr);
}

void Backend::pcg_direction(int k, const Scalars& sf, const Field& z, Field& p) const {
  const std::vector<real> s = host_scalars(*this, sf);
  const real rz_old = s[PcgSlots::rz_before(k)];
  xpay(z, rz_old > 0 ? s[PcgSlots::rz_after(k)] / rz_old : real(0), p);
}

void Backend::bicgstab_direction(int k, const Scalars& sf, const Field& r, const Field& v,
                                 Field& p) const {
  const std::vector<real> s = host_scalars(*this, sf);
  const real rho = s[BicgstabSlots::rho_now(k)], rho_old = s[BicgstabSlots::rho_before(k)];
  const real omega = bicgstab_omega(s);
  const real beta =
      rho_old != 0 && omega != 0
          ? (rho / rho_old) * (bicgstab_alpha(s, BicgstabSlots::rho_before(k)) / omega)
          : real(0);
  axpy(-omega, v, p);
  xpay(r, beta, p);  // p = r + beta (p - omega v)
}

void Backend::bicgstab_half(int k, const Scalars& sf, const Field& r, const Field& v,
                            Field& y) const {
  copy(r, y);
  axpy(-bicgstab_alpha(host_scalars(*this, sf), BicgstabSlots::rho_now(k)), v, y);
}

void Backend::bicgstab_update(int k, const Scalars& sf, const Field& p_hat, const Field& s_hat,
                              const Field& y, const Field& t, Field& x, Field& r) const {
  const std::vector<real> s = host_scalars(*this, sf);
  const real omega = bicgstab_omega(s);
  axpy(bicgstab_alpha(s, BicgstabSlots::rho_now(k)), p_hat, x);
  axpy(omega, s_hat, x);
  copy(y, r);
  axpy(-omega, t, r);
}

namespace {

std::vector<real> host_values(const Backend& be, const Field& f) {
  std::vector<real> v(static_cast<std::size_t>(f.size()));
  be.download(f, v);
  return v;
}

// node_system's operator as a stored matrix of the backend that made it.
class AssembledNodeSystem final : public NodeSystem {
 public:
  AssembledNodeSystem(const Backend& be, const topology::Mesh& m, const Field& d, real b,
                      const Field& w, const Field& fixed)
      : be_(be),
        a_(be.make_matrix(node_system_matrix(m, host_values(be, d), b, host_values(be, w),
                                             host_values(be, fixed)))) {}
  void apply(const Field& x, Field& y, Rows rows) const override {
    be_.matrix_apply(*a_, x, y, rows);
  }

 private:
  const Backend& be_;
  std::unique_ptr<Matrix> a_;
};

}  // namespace

std::unique_ptr<NodeSystem> Backend::make_node_system(const topology::Mesh& m, const Field& d,
                                                      real b, const Field& w,
                                                      const Field& fixed) const {
  return std::make_unique<AssembledNodeSystem>(*this, m, d, b, w, fixed);
}

void Backend::node_system(const topology::Mesh& m, const Field& d, real b, const Field& w,
                          const Field& fixed, const Field& x, Field& y) const {
  make_node_system(m, d, b, w, fixed)->apply(x, y);
}

void Backend::node_system_diagonal(const topology::Mesh& m, const Field& d, real b, const Field& w,
                                   const Field& fixed, Field& diag) const {
  const SparseMatrix a = node_system_matrix(m, host_values(*this, d), b, host_values(*this, w),
                                            host_values(*this, fixed));
  std::vector<real> values(static_cast<std::size_t>(a.rows));
  for (index i = 0; i < a.rows; ++i) values[static_cast<std::size_t>(i)] = a.value[a.offset[i]];
  upload_range(values, diag, 0);  // the owned entries; ghosts keep theirs
}

void Backend::flux_sum_abs(const topology::Mesh& m, const Field& u_face, Field& s_cell) const {
  SCFD_CHECK(u_face.size() == m.n_faces && s_cell.size() == m.n_cells,
             "flux_sum_abs: fields of {} and {} for {} faces and {} cells", u_face.size(),
             s_cell.size(), m.n_faces, m.n_cells);
  const std::vector<real> u = host_values(*this, u_face);
  const int w = m.cell_width();
  std::vector<real> s(static_cast<std::size_t>(m.n_owned_cells));
  for (std::size_t c = 0; c < s.size(); ++c) {
    real sum = 0;
    for (int k = 0; k < w; ++k) sum += std::abs(u[m.cell_faces[c * w + k]]);
    s[c] = sum;
  }
  upload_range(s, s_cell, 0);  // the owned entries; ghosts keep theirs
}

void Backend::node_laplacian(const topology::Mesh& m, const Field& w, const Field& x,
                             Field& y) const {
  const std::vector<real> zeros(static_cast<std::size_t>(m.n_nodes), 0);
  const SparseMatrix a = node_system_matrix(m, zeros, 1, host_values(*this, w), zeros);
  matrix_apply(*make_matrix(a), x, y);
}

}  // namespace scfd::backend
