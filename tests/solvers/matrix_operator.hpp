// A stored sparse matrix as a LinearOperator for the solver tests (one rank, no ghosts): y = A x
// by the backend's product, and the diagonal taken from the matrix.
#pragma once

#include <memory>
#include <vector>

#include "backend/backend.hpp"
#include "backend/sparse_matrix.hpp"
#include "solvers/linear_operator.hpp"

namespace scfd::test {

class MatrixOperator final : public solvers::LinearOperator {
 public:
  MatrixOperator(const backend::Backend& be, const backend::SparseMatrix& a)
      : be_(be), a_(be.make_matrix(a)), n_(a.rows) {
    std::vector<real> d(static_cast<std::size_t>(n_));
    for (index i = 0; i < n_; ++i)
      for (index k = a.offset[i]; k < a.offset[i + 1]; ++k)
        if (a.column[k] == i) d[i] = a.value[k];
    diag_ = be.make_field_from(d);
  }
  index size() const override { return n_; }
  index owned() const override { return n_; }
  void apply(backend::Field& x, backend::Field& y) const override { be_.matrix_apply(*a_, x, y); }
  void diagonal(backend::Field& d) const override { be_.copy(*diag_, d); }

 private:
  const backend::Backend& be_;
  std::unique_ptr<backend::Matrix> a_;
  std::unique_ptr<backend::Field> diag_;
  index n_;
};

}  // namespace scfd::test
