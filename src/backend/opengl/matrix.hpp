// A sparse matrix of the GL backend (Backend::make_matrix) on the device in the SELL layout
// (SellMatrix, device_mesh.hpp), counted in device_bytes; one with long rows as its split
// (backend/sparse_matrix.hpp): the chunks, their sums and a field for the chunk sums. Its four
// products (kernels/sparse_*.glsl) serve the multigrid V-cycle.
#pragma once

#include <memory>
#include <optional>

#include "backend/backend.hpp"
#include "backend/opengl/device_mesh.hpp"
#include "backend/opengl/operators.hpp"
#include "backend/sparse_matrix.hpp"

namespace scfd::backend::opengl {

class GlBackend;

class GlMatrix final : public Matrix {
 public:
  GlMatrix(const GlBackend& be, const SparseMatrix& a);
  ~GlMatrix() override;
  GlMatrix(const GlMatrix&) = delete;
  GlMatrix& operator=(const GlMatrix&) = delete;
  index rows() const override { return rows_; }
  index cols() const override { return cols_; }

  // y = A x as `kind` says (Operators::sparse) on `rows`, through the split if there is one.
  void product(Operators::Sparse kind, const Field& x, const Field* b, const Field* z,
               const Field* w, Field& y, Rows rows = Rows::all) const;

 private:
  std::size_t bytes() const { return sell_.bytes() + (sum_ ? sum_->bytes() : 0); }
  const GlBackend& be_;
  index rows_, cols_;
  index inner_;      // leading rows without a ghost column (0 with a split)
  SellMatrix sell_;  // the matrix, or its chunks
  std::optional<SellMatrix> sum_;
  std::unique_ptr<Field> chunk_sums_;
};

}  // namespace scfd::backend::opengl
