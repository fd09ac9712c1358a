// The GL backend's sparse matrices and their products (see matrix.hpp).
#include "backend/opengl/matrix.hpp"

#include "backend/opengl/fields.hpp"
#include "backend/opengl/gl_backend.hpp"
#include "core/error.hpp"
#include "core/timer.hpp"

namespace scfd::backend::opengl {

GlMatrix::GlMatrix(const GlBackend& be, const SparseMatrix& a)
    : be_(be), rows_(a.rows), cols_(a.cols), inner_(inner_rows(a)) {
  if (const std::optional<RowSplit> split = split_long_rows(a)) {
    sell_ = make_sell_matrix(split->chunks, be.gl_precision(), be.uploader());
    sum_ = make_sell_matrix(split->sum, be.gl_precision(), be.uploader());
    chunk_sums_ = be.make_field(split->chunks.rows);
    inner_ = 0;  // the interface part computes every row through the split
  } else {
    sell_ = make_sell_matrix(a, be.gl_precision(), be.uploader());
  }
  be_.system_bytes() += bytes();
}

GlMatrix::~GlMatrix() {
  be_.system_bytes() -= bytes();
}

void GlMatrix::product(Operators::Sparse kind, const Field& x, const Field* b, const Field* z,
                       const Field* w, Field& y, Rows rows) const {
  const auto opt = [](const Field* f) { return f != nullptr ? &storage(*f) : nullptr; };
  Operators& ops = be_.ops();
  const RowRange r = be_.range(rows, inner_, rows_);
  if (!sum_) {
    ops.sparse(kind, sell_, storage(x), opt(b), opt(z), opt(w), storage(y), nullptr, r);
    return;
  }
  if (r.begin == r.stop(rows_)) return;
  FieldStorage& t = storage(*chunk_sums_);
  ops.sparse(Operators::Sparse::apply, sell_, storage(x), nullptr, nullptr, nullptr, t);
  ops.sparse(kind, *sum_, t, opt(b), opt(z), opt(w), storage(y), &storage(x));
}

namespace {
const GlMatrix& gl_matrix(const Matrix& a) {
  const auto* g = dynamic_cast<const GlMatrix*>(&a);
  SCFD_CHECK(g != nullptr, "a matrix of another backend was passed to the gl-compute backend");
  return *g;
}
}  // namespace

std::unique_ptr<Matrix> GlBackend::make_matrix(const SparseMatrix& a) const {
  const SetupPart part(Part::device_matrices);
  return std::make_unique<GlMatrix>(*this, a);
}

void GlBackend::matrix_apply(const Matrix& a, const Field& x, Field& y, Rows rows) const {
  gl_matrix(a).product(Operators::Sparse::apply, x, nullptr, nullptr, nullptr, y, rows);
}

void GlBackend::matrix_residual(const Matrix& a, const Field& b, const Field& x, Field& y,
                                Rows rows) const {
  gl_matrix(a).product(Operators::Sparse::residual, x, &b, nullptr, nullptr, y, rows);
}

void GlBackend::matrix_apply_add(const Matrix& a, const Field& x, const Field& z, Field& y,
                                 Rows rows) const {
  gl_matrix(a).product(Operators::Sparse::apply_add, x, nullptr, &z, nullptr, y, rows);
}

void GlBackend::matrix_jacobi(const Matrix& a, const Field& w, const Field& b, const Field& x,
                              Field& y, Rows rows) const {
  gl_matrix(a).product(Operators::Sparse::jacobi, x, &b, nullptr, &w, y, rows);
}

}  // namespace scfd::backend::opengl
