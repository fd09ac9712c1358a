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

void Backend::upload_indices(std::span<const real> values, std::span<const index> indices, Field& x,
                             std::uint64_t /*list_id*/) const {
  SCFD_CHECK(values.size() == indices.size(), "{} values for {} indices", values.size(),
             indices.size());
  std::size_t first = 0;
  for (std::size_t k = 1; k <= indices.size(); ++k) {
    if (k < indices.size()) {
      SCFD_CHECK(indices[k - 1] < indices[k], "upload_indices: index {} after {}", indices[k],
                 indices[k - 1]);
      if (indices[k] == indices[k - 1] + 1) continue;
    }
    upload_range(values.subspan(first, k - first), x, indices[first]);
    first = k;
  }
}

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

void Backend::dots(std::span<const Field* const> x, const Field& y, index n, Scalars& s,
                   index first) const {
  for (std::size_t i = 0; i < x.size(); ++i) dot(*x[i], y, n, s, first + static_cast<index>(i));
}

void Backend::axpys(const Scalars& s, index first, real sign, std::span<const Field* const> x,
                    Field& y) const {
  for (std::size_t i = 0; i < x.size(); ++i)
    axpy(s, {first + static_cast<index>(i), sign}, *x[i], y);
}

// The Krylov defaults: alpha, beta and omega are formed in the solve's work slots and applied by
// the slot forms of axpy and xpay, in the kernels' order of operations.
void Backend::pcg_update(int k, Scalars& s, const Field& p, const Field& q, const Field& dinv,
                         Field& x, Field& r, Field& z, index n) const {
  using S = PcgSlots;
  SCFD_CHECK(s.size() >= S::count, "PCG scalars: {} of {}", s.size(), S::count);
  // An unsound iteration (p·q or r·z not > 0, now or before) records its first breakdown and
  // then leaves x and r alone through the gate; z = dinv .* r and r·z are then those of before.
  slot_check_positive(s, S::pq, S::rz_before(k), S::breakdown, k + 1);
  slot_op(s, S::work, S::rz_before(k), SlotOp::divide, S::pq);  // alpha
  axpy(s, {S::work, 1, S::breakdown}, p, x);
  axpy(s, {S::work, -1, S::breakdown}, q, r);
  multiply(dinv, r, z);
  dot(r, z, n, s, S::rz_after(k));
  dot(r, r, n, s, S::rr);
}

void Backend::pcg_ranks_update(real alpha, real beta, bool first, const Field& w, const Field* dinv,
                               Field& z, Field& p, Field& q, Field& x, Field& r, index n,
                               Scalars& s, index slot_rz, index slot_rr) const {
  pcg_ranks_directions(beta, first, z, w, p, q);
  pcg_ranks_finish(alpha, p, q, dinv, x, r, z, n, s, slot_rz, slot_rr);
}

void Backend::pcg_ranks_directions(real beta, bool first, const Field& z, const Field& w, Field& p,
                                   Field& q) const {
  if (first) {
    copy(z, p);
    copy(w, q);
  } else {
    xpay(z, beta, p);
    xpay(w, beta, q);
  }
}

void Backend::pcg_ranks_finish(real alpha, const Field& p, const Field& q, const Field* dinv,
                               Field& x, Field& r, Field& z, index n, Scalars& s, index slot_rz,
                               index slot_rr) const {
  axpy(alpha, p, x);
  axpy(-alpha, q, r);
  if (dinv != nullptr) {
    multiply(*dinv, r, z);
    dot(r, z, n, s, slot_rz);
  }
  dot(r, r, n, s, slot_rr);
}

void Backend::pcg_direction(int k, Scalars& s, const Field& z, Field& p) const {
  using S = PcgSlots;
  slot_op(s, S::work, S::rz_after(k), SlotOp::divide_if_positive, S::rz_before(k));  // beta
  xpay(z, s, {S::work}, p);
}

void Backend::bicgstab_direction(int k, Scalars& s, const Field& r, const Field& v,
                                 Field& p) const {
  using S = BicgstabSlots;
  const index alpha = S::work, omega = S::work + 1, beta = S::work + 2;
  // beta = (rho_k / rho_{k-1}) (alpha_{k-1} / omega_{k-1}), 0 when rho_{k-1} or omega_{k-1} is 0.
  slot_op(s, alpha, S::rho_before(k), SlotOp::divide, S::r0v);
  slot_op(s, omega, S::ts, SlotOp::divide_if_positive, S::tt);
  slot_op(s, alpha, alpha, SlotOp::divide, omega);
  slot_op(s, beta, S::rho_now(k), SlotOp::divide, S::rho_before(k));
  slot_op(s, beta, beta, SlotOp::multiply, alpha);
  axpy(s, {omega, -1}, v, p);
  xpay(r, s, {beta}, p);  // p = r + beta (p - omega v)
}

void Backend::bicgstab_half(int k, Scalars& s, const Field& r, const Field& v, Field& y) const {
  using S = BicgstabSlots;
  slot_op(s, S::work, S::rho_now(k), SlotOp::divide, S::r0v);
  copy(r, y);
  axpy(s, {S::work, -1}, v, y);
}

void Backend::bicgstab_update(int k, Scalars& s, const Field& p_hat, const Field& s_hat,
                              const Field& y, const Field& t, Field& x, Field& r) const {
  using S = BicgstabSlots;
  const index alpha = S::work, omega = S::work + 1;
  slot_op(s, alpha, S::rho_now(k), SlotOp::divide, S::r0v);
  slot_op(s, omega, S::ts, SlotOp::divide_if_positive, S::tt);
  axpy(s, {alpha}, p_hat, x);
  axpy(s, {omega}, s_hat, x);
  copy(y, r);
  axpy(s, {omega, -1}, t, r);
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
