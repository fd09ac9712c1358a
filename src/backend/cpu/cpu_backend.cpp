// The cpu backend: vector operations and reductions on host arrays, in index order.
#include "backend/cpu/cpu_backend.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "backend/cpu/node_system.hpp"
#include "backend/cpu/operators.hpp"
#include "backend/cpu/sparse.hpp"
#include "core/error.hpp"
#include "core/timer.hpp"

namespace scfd::backend::cpu {

std::span<real> host(Field& f) {
  auto* c = dynamic_cast<CpuField*>(&f);
  SCFD_CHECK(c != nullptr, "a field of another backend was passed to the cpu backend");
  return c->data();
}
std::span<const real> host(const Field& f) {
  const auto* c = dynamic_cast<const CpuField*>(&f);
  SCFD_CHECK(c != nullptr, "a field of another backend was passed to the cpu backend");
  return c->data();
}

namespace {
void check_same_size(const Field& a, const Field& b) {
  SCFD_CHECK(a.size() == b.size(), "field sizes differ: {} vs {}", a.size(), b.size());
}
}  // namespace

std::unique_ptr<Field> CpuBackend::make_field(index n) const {
  return std::make_unique<CpuField>(n);
}

void CpuBackend::upload(std::span<const real> src, Field& f) const {
  auto y = host(f);
  SCFD_CHECK(src.size() == y.size(), "upload of {} values into a field of {}", src.size(),
             y.size());
  std::copy(src.begin(), src.end(), y.begin());
}

void CpuBackend::download(const Field& f, std::span<real> dst) const {
  auto x = host(f);
  SCFD_CHECK(dst.size() == x.size(), "download of a field of {} into {} values", x.size(),
             dst.size());
  std::copy(x.begin(), x.end(), dst.begin());
}

void CpuBackend::fill(Field& f, real value) const {
  for (real& v : host(f)) v = value;
}

void CpuBackend::copy(const Field& xf, Field& yf) const {
  check_same_size(xf, yf);
  auto x = host(xf);
  std::copy(x.begin(), x.end(), host(yf).begin());
}

real CpuBackend::dot(const Field& xf, const Field& yf, index n) const {
  check_same_size(xf, yf);
  SCFD_CHECK(n >= 0 && n <= xf.size(), "dot over {} of {} entries", n, xf.size());
  auto x = host(xf), y = host(yf);
  real s = 0;
  for (index i = 0; i < n; ++i) s += x[i] * y[i];
  return s;
}

real CpuBackend::max_abs(const Field& xf, index n) const {
  SCFD_CHECK(n >= 0 && n <= xf.size(), "max_abs over {} of {} entries", n, xf.size());
  auto x = host(xf);
  real m = 0;
  for (index i = 0; i < n; ++i) m = std::max(m, std::abs(x[i]));
  return m;
}

void CpuBackend::download_indices(const Field& xf, std::span<const index> indices,
                                  std::span<real> out) const {
  auto x = host(xf);
  SCFD_CHECK(indices.size() == out.size(), "gather of {} indices into {}", indices.size(),
             out.size());
  for (std::size_t k = 0; k < indices.size(); ++k) out[k] = x[indices[k]];
}

void CpuBackend::upload_range(std::span<const real> values, Field& xf, index offset) const {
  auto x = host(xf);
  SCFD_CHECK(offset >= 0 && offset + values.size() <= x.size(), "upload of {} at {} into {}",
             values.size(), offset, x.size());
  std::copy(values.begin(), values.end(), x.begin() + offset);
}

void CpuBackend::upload_indices(std::span<const real> values, std::span<const index> indices,
                                Field& xf, std::uint64_t /*list_id*/) const {
  auto x = host(xf);
  SCFD_CHECK(values.size() == indices.size(), "{} values for {} indices", values.size(),
             indices.size());
  for (std::size_t k = 0; k < indices.size(); ++k) {
    SCFD_CHECK(indices[k] >= 0 && static_cast<std::size_t>(indices[k]) < x.size() &&
                   (k == 0 || indices[k - 1] < indices[k]),
               "upload_indices: index {} (at {}) into a field of {}", indices[k], k, x.size());
    x[indices[k]] = values[k];
  }
}

void CpuBackend::upload_entries(std::span<const index> entries, std::span<const real> values,
                                Field& xf) const {
  auto x = host(xf);
  SCFD_CHECK(entries.size() == values.size(), "{} values for {} entries", values.size(),
             entries.size());
  std::fill(x.begin(), x.end(), real(0));
  for (std::size_t k = 0; k < entries.size(); ++k) {
    SCFD_CHECK(entries[k] >= 0 && static_cast<std::size_t>(entries[k]) < x.size(),
               "upload_entries: entry {} of a field of {}", entries[k], x.size());
    x[static_cast<std::size_t>(entries[k])] = values[k];
  }
}

void CpuBackend::axpy(real a, const Field& xf, Field& yf) const {
  check_same_size(xf, yf);
  auto x = host(xf);
  auto y = host(yf);
  for (std::size_t i = 0; i < x.size(); ++i) y[i] += a * x[i];
}

void CpuBackend::xpay(const Field& xf, real a, Field& yf) const {
  check_same_size(xf, yf);
  auto x = host(xf);
  auto y = host(yf);
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = x[i] + a * y[i];
}

void CpuBackend::scale(real a, const Field& xf, Field& yf) const {
  check_same_size(xf, yf);
  auto x = host(xf);
  auto y = host(yf);
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = a * x[i];
}

void CpuBackend::multiply(const Field& af, const Field& bf, Field& yf) const {
  check_same_size(af, yf);
  check_same_size(bf, yf);
  auto a = host(af), b = host(bf);
  auto y = host(yf);
  for (std::size_t i = 0; i < y.size(); ++i) y[i] = a[i] * b[i];
}

void CpuBackend::reciprocal(const Field& xf, Field& yf) const {
  check_same_size(xf, yf);
  auto x = host(xf);
  auto y = host(yf);
  for (std::size_t i = 0; i < y.size(); ++i) y[i] = 1 / x[i];
}

namespace {
std::span<real> values(Scalars& s) {
  auto* c = dynamic_cast<CpuScalars*>(&s);
  SCFD_CHECK(c != nullptr, "scalars of another backend were passed to the cpu backend");
  return c->data();
}
std::span<const real> values(const Scalars& s) {
  const auto* c = dynamic_cast<const CpuScalars*>(&s);
  SCFD_CHECK(c != nullptr, "scalars of another backend were passed to the cpu backend");
  return c->data();
}
}  // namespace

std::unique_ptr<Scalars> CpuBackend::make_scalars(index n) const {
  return std::make_unique<CpuScalars>(n);
}

void CpuBackend::read_scalars(const Scalars& s, std::span<real> out) const {
  SCFD_CHECK(out.size() == static_cast<std::size_t>(s.size()), "read {} scalars into {}", s.size(),
             out.size());
  std::ranges::copy(values(s), out.begin());
}

void CpuBackend::write_scalars(std::span<const real> in, Scalars& s) const {
  SCFD_CHECK(in.size() == static_cast<std::size_t>(s.size()), "write {} scalars into {}", in.size(),
             s.size());
  std::ranges::copy(in, values(s).begin());
}

void CpuBackend::dot(const Field& x, const Field& y, index n, Scalars& s, index slot) const {
  values(s)[static_cast<std::size_t>(slot)] = dot(x, y, n);
}

void CpuBackend::slot_op(Scalars& sf, index out, index a, SlotOp op, index b) const {
  auto s = values(sf);
  const real x = s[static_cast<std::size_t>(a)], y = s[static_cast<std::size_t>(b)];
  real v = 0;
  switch (op) {
    case SlotOp::divide:
      v = y != 0 ? x / y : real(0);
      break;
    case SlotOp::divide_if_positive:
      v = y > 0 ? x / y : real(0);
      break;
    case SlotOp::multiply:
      v = x != 0 && y != 0 ? x * y : real(0);
      break;
  }
  s[static_cast<std::size_t>(out)] = v;
}

void CpuBackend::slot_check_positive(Scalars& sf, index a, index b, index flag, real tag) const {
  auto s = values(sf);
  const auto f = static_cast<std::size_t>(flag);
  const real x = s[static_cast<std::size_t>(a)], y = s[static_cast<std::size_t>(b)];
  if (s[f] != 0 || (x > 0 && y > 0)) return;
  s[f] = tag;
  s[f + 1] = x;
  s[f + 2] = y;
}

namespace {
// The coefficient of a slot form of axpy / xpay, or nothing while its gate is shut.
std::optional<real> coefficient(std::span<const real> s, SlotCoefficient a) {
  if (a.gate != SlotCoefficient::none && s[static_cast<std::size_t>(a.gate)] != 0)
    return std::nullopt;
  const real v = s[static_cast<std::size_t>(a.slot)];
  if (a.inverse_sqrt) return v > 0 ? a.sign / std::sqrt(v) : real(0);
  return a.sign * v;
}
}  // namespace

void CpuBackend::axpy(const Scalars& s, SlotCoefficient a, const Field& x, Field& y) const {
  if (const std::optional<real> c = coefficient(values(s), a)) axpy(*c, x, y);
}

void CpuBackend::xpay(const Field& x, const Scalars& s, SlotCoefficient a, Field& y) const {
  if (const std::optional<real> c = coefficient(values(s), a)) xpay(x, *c, y);
}

void CpuBackend::pcg_update(int k, Scalars& sf, const Field& pf, const Field& qf,
                            const Field& dinvf, Field& xf, Field& rf, Field& zf, index n) const {
  using S = PcgSlots;
  auto p = host(pf), q = host(qf), dinv = host(dinvf);
  auto x = host(xf), r = host(rf), z = host(zf);
  SCFD_CHECK(p.size() == x.size() && q.size() == x.size() && r.size() == x.size() &&
             z.size() == x.size() && dinv.size() == x.size() && n >= 0 && n <= xf.size());
  auto s = values(sf);
  SCFD_CHECK(sf.size() >= S::count, "PCG scalars: {} of {}", sf.size(), S::count);
  const real pq = s[S::pq], rz_old = s[S::rz_before(k)];
  slot_check_positive(sf, S::pq, S::rz_before(k), S::breakdown, k + 1);
  if (s[S::breakdown] != 0) {
    s[S::rz_after(k)] = rz_old;
    return;
  }
  const real alpha = rz_old / pq;
  real rz = 0, rr = 0;
  for (index i = 0; i < n; ++i) {
    x[i] += alpha * p[i];
    r[i] -= alpha * q[i];
    z[i] = dinv[i] * r[i];
    rz += r[i] * z[i];
    rr += r[i] * r[i];
  }
  s[S::rz_after(k)] = rz;
  s[S::rr] = rr;
}

void CpuBackend::pcg_ranks_update(real alpha, real beta, bool first, const Field& wf,
                                  const Field* dinvf, Field& zf, Field& pf, Field& qf, Field& xf,
                                  Field& rf, index n, Scalars& sf, index slot_rz,
                                  index slot_rr) const {
  const std::span<const real> w = host(wf);
  auto z = host(zf), p = host(pf), q = host(qf), x = host(xf), r = host(rf);
  for (const auto* v : {&z, &p, &q, &x, &r})
    SCFD_CHECK(v->size() == w.size(), "pcg_ranks_update: fields of {} and {} entries", v->size(),
               w.size());
  SCFD_CHECK(n >= 0 && n <= wf.size(), "pcg_ranks_update over {} of {} entries", n, wf.size());
  std::span<const real> dinv;
  if (dinvf != nullptr) dinv = host(*dinvf);
  SCFD_CHECK(dinvf == nullptr || dinv.size() == w.size(), "pcg_ranks_update: dinv of {} entries",
             dinv.size());
  auto s = values(sf);
  for (const index slot : {slot_rz, slot_rr})
    SCFD_CHECK(slot >= 0 && slot < sf.size(), "slot {} of {}", slot, sf.size());
  real rz = 0, rr = 0;
  for (index i = 0; i < n; ++i) {
    p[i] = first ? z[i] : z[i] + beta * p[i];
    q[i] = first ? w[i] : w[i] + beta * q[i];
    x[i] += alpha * p[i];
    r[i] -= alpha * q[i];
    if (dinvf != nullptr) {
      z[i] = dinv[i] * r[i];
      rz += r[i] * z[i];
    }
    rr += r[i] * r[i];
  }
  if (dinvf != nullptr) s[slot_rz] = rz;
  s[slot_rr] = rr;
}

namespace {
// A cell vector field (3 reals per cell, interleaved) seen as Vec3s.
static_assert(sizeof(Vec3) == 3 * sizeof(real) && alignof(Vec3) == alignof(real));
std::span<Vec3> as_vec3(Field& f) {
  auto x = host(f);
  SCFD_CHECK(x.size() % 3 == 0, "vector field of {} values is not 3 per entity", x.size());
  return {reinterpret_cast<Vec3*>(x.data()), x.size() / 3};
}
std::span<const Vec3> as_vec3(const Field& f) {
  auto x = host(f);
  SCFD_CHECK(x.size() % 3 == 0, "vector field of {} values is not 3 per entity", x.size());
  return {reinterpret_cast<const Vec3*>(x.data()), x.size() / 3};
}
}  // namespace

void CpuBackend::gradient(const topology::Mesh& m, const Field& q_cell, const Field& q_boundary,
                          Field& g_face, Rows rows) const {
  cpu::gradient(m, host(q_cell), host(q_boundary), host(g_face),
                row_range(rows, m.n_inner_faces, m.n_owned_faces, 1));
}
void CpuBackend::divergence(const topology::Mesh& m, const Field& u_face, Field& d_cell,
                            Rows rows) const {
  cpu::divergence(m, host(u_face), host(d_cell),
                  row_range(rows, m.n_inner_cells, m.n_owned_cells, 1));
}

void CpuBackend::flux_sum_abs(const topology::Mesh& m, const Field& u_face, Field& s_cell) const {
  cpu::flux_sum_abs(m, host(u_face), host(s_cell));
}
void CpuBackend::curl(const topology::Mesh& m, const Field& s, Field& u_face, Rows rows) const {
  cpu::curl(m, host(s), host(u_face), row_range(rows, m.n_inner_faces, m.n_owned_faces, 1));
}
void CpuBackend::rotation(const topology::Mesh& m, const Field& u_face, Field& r, Rows rows) const {
  cpu::rotation(m, host(u_face), host(r), row_range(rows, m.n_inner_curl(), m.n_owned_curl(), 1));
}
void CpuBackend::interpolate(const topology::Mesh& m, const Field& u_face, Field& u_cell,
                             Rows rows) const {
  cpu::interpolate(m, host(u_face), as_vec3(u_cell),
                   row_range(rows, m.n_inner_cells, m.n_owned_cells, 1));
}
void CpuBackend::integrate(const topology::Mesh& m, const Field& v_cell, Field& u_face,
                           Rows rows) const {
  cpu::integrate(m, as_vec3(v_cell), host(u_face),
                 row_range(rows, m.n_inner_faces, m.n_owned_faces, 1));
}
void CpuBackend::convection(const topology::Mesh& m, const Field& u_face, const Field& u_cell,
                            const Field& u_boundary, real upwind, Field& n_cell, Rows rows) const {
  cpu::convection(m, host(u_face), as_vec3(u_cell), as_vec3(u_boundary), upwind, as_vec3(n_cell),
                  row_range(rows, m.n_inner_cells, m.n_owned_cells, 1));
}

void CpuBackend::node_system(const topology::Mesh& m, const Field& d, real b, const Field& w,
                             const Field& fixed, const Field& x, Field& y) const {
  cpu::node_system(m, host(d), b, host(w), host(fixed), host(x), host(y));
}

namespace {

// The assembled node system on the host: coefficients and diagonal of node_system_assemble.
class CpuNodeSystem final : public NodeSystem {
 public:
  CpuNodeSystem(const topology::Mesh& m, const Field& d, real b, const Field& w, const Field& fixed)
      : m_(m),
        coef_(static_cast<std::size_t>(node_system_entries(m))),
        diag_(static_cast<std::size_t>(m.n_owned_nodes)),
        columns_(node_system_columns(m)) {
    node_system_assemble(m, host(d), b, host(w), host(fixed), coef_, diag_);
  }
  void apply(const Field& x, Field& y, Rows rows) const override {
    node_system_apply(m_, coef_, diag_, host(x), host(y), columns_,
                      row_range(rows, m_.n_inner_nodes, m_.n_owned_nodes, 1));
  }

 private:
  const topology::Mesh& m_;
  std::vector<real> coef_, diag_;
  std::vector<index> columns_;
};

}  // namespace

std::unique_ptr<NodeSystem> CpuBackend::make_node_system(const topology::Mesh& m, const Field& d,
                                                         real b, const Field& w,
                                                         const Field& fixed) const {
  return std::make_unique<CpuNodeSystem>(m, d, b, w, fixed);
}

void CpuBackend::node_system_diagonal(const topology::Mesh& m, const Field& d, real b,
                                      const Field& w, const Field& fixed, Field& diag) const {
  cpu::node_system_diagonal(m, host(d), b, host(w), host(fixed), host(diag));
}

CpuMatrix::CpuMatrix(const SparseMatrix& a)
    : a_(a), inner_(inner_rows(a)), split_(split_long_rows(a)) {
  if (split_) {
    chunk_sums_.resize(static_cast<std::size_t>(split_->chunks.rows));
    inner_ = 0;
  }
}

void CpuMatrix::product(SparseProduct kind, std::span<const real> x, std::span<const real> b,
                        std::span<const real> z, std::span<const real> w, std::span<real> y,
                        Rows rows) const {
  const RowRange r = row_range(rows, inner_, a_.rows, 1);
  if (!split_) {
    sparse_product(kind, a_, x, b, z, w, y, {}, r);
    return;
  }
  if (r.begin == r.stop(a_.rows)) return;
  SCFD_CHECK(x.size() >= static_cast<std::size_t>(a_.cols), "sparse product of {} x {}: x of {}",
             a_.rows, a_.cols, x.size());
  sparse_product(SparseProduct::apply, split_->chunks, x, {}, {}, {}, chunk_sums_);
  sparse_product(kind, split_->sum, chunk_sums_, b, z, w, y, x);
}

namespace {
const CpuMatrix& cpu_matrix(const Matrix& a) {
  const auto* c = dynamic_cast<const CpuMatrix*>(&a);
  SCFD_CHECK(c != nullptr, "a matrix of another backend was passed to the cpu backend");
  return *c;
}
}  // namespace

std::unique_ptr<Matrix> CpuBackend::make_matrix(const SparseMatrix& a) const {
  const SetupPart part(Part::device_matrices);
  a.check();
  return std::make_unique<CpuMatrix>(a);
}

void CpuBackend::matrix_apply(const Matrix& a, const Field& x, Field& y, Rows rows) const {
  cpu_matrix(a).product(SparseProduct::apply, host(x), {}, {}, {}, host(y), rows);
}

void CpuBackend::matrix_residual(const Matrix& a, const Field& b, const Field& x, Field& y,
                                 Rows rows) const {
  cpu_matrix(a).product(SparseProduct::residual, host(x), host(b), {}, {}, host(y), rows);
}

void CpuBackend::matrix_apply_add(const Matrix& a, const Field& x, const Field& z, Field& y,
                                  Rows rows) const {
  cpu_matrix(a).product(SparseProduct::apply_add, host(x), {}, host(z), {}, host(y), rows);
}

void CpuBackend::matrix_jacobi(const Matrix& a, const Field& w, const Field& b, const Field& x,
                               Field& y, Rows rows) const {
  cpu_matrix(a).product(SparseProduct::jacobi, host(x), host(b), {}, host(w), host(y), rows);
}

void CpuBackend::node_laplacian(const topology::Mesh& m, const Field& w, const Field& x,
                                Field& y) const {
  cpu::node_laplacian(m, host(w), host(x), host(y));
}

}  // namespace scfd::backend::cpu
