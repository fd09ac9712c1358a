// The cpu implementation of the Backend interface: Fields are host arrays, every operator is the
// reference gather of backend/cpu/*.cpp, reductions run in index order.
#pragma once

#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "backend/backend.hpp"
#include "backend/cpu/sparse.hpp"

namespace scfd::backend::cpu {

class CpuField final : public Field {
 public:
  explicit CpuField(index n) : data_(static_cast<std::size_t>(n), real(0)) {}
  index size() const override { return static_cast<index>(data_.size()); }
  std::span<real> data() { return data_; }
  std::span<const real> data() const { return data_; }

 private:
  std::vector<real> data_;
};

// The host array behind a Field made by the cpu backend (SCFD_CHECK that it is one).
std::span<real> host(Field& f);
std::span<const real> host(const Field& f);

class CpuScalars final : public Scalars {
 public:
  explicit CpuScalars(index n) : data_(static_cast<std::size_t>(n), real(0)) {}
  index size() const override { return static_cast<index>(data_.size()); }
  std::span<real> data() { return data_; }
  std::span<const real> data() const { return data_; }

 private:
  std::vector<real> data_;
};

// A sparse matrix kept as the host CSR it was made from, and its split when it has long rows
// (backend/sparse_matrix.hpp split_long_rows) with the chunk sums' scratch.
class CpuMatrix final : public Matrix {
 public:
  explicit CpuMatrix(const SparseMatrix& a);
  index rows() const override { return a_.rows; }
  index cols() const override { return a_.cols; }
  // y = A x as `kind` says (cpu/sparse.hpp) on `rows`, through the split if there is one (which
  // computes every row in the interface part: Rows::inner is then empty).
  void product(SparseProduct kind, std::span<const real> x, std::span<const real> b,
               std::span<const real> z, std::span<const real> w, std::span<real> y,
               Rows rows = Rows::all) const;

 private:
  SparseMatrix a_;
  index inner_ = 0;  // leading rows without a ghost column (0 with a split)
  std::optional<RowSplit> split_;
  mutable std::vector<real> chunk_sums_;
};

class CpuBackend : public Backend {
 public:
  std::string name() const override { return "cpu"; }
  std::unique_ptr<Field> make_field(index n) const override;
  void upload(std::span<const real> host, Field& f) const override;
  void download(const Field& f, std::span<real> host) const override;
  void download_indices(const Field& x, std::span<const index> indices,
                        std::span<real> out) const override;
  void upload_range(std::span<const real> values, Field& x, index offset) const override;
  void upload_indices(std::span<const real> values, std::span<const index> indices, Field& x,
                      std::uint64_t list_id) const override;
  void upload_entries(std::span<const index> entries, std::span<const real> values,
                      Field& x) const override;
  void fill(Field& y, real value) const override;
  void copy(const Field& x, Field& y) const override;
  using Backend::dot;
  real dot(const Field& x, const Field& y, index n) const override;
  real max_abs(const Field& x, index n) const override;
  void axpy(real a, const Field& x, Field& y) const override;
  void xpay(const Field& x, real a, Field& y) const override;
  void scale(real a, const Field& x, Field& y) const override;
  void multiply(const Field& a, const Field& b, Field& y) const override;
  void reciprocal(const Field& x, Field& y) const override;
  std::unique_ptr<Scalars> make_scalars(index n) const override;
  void read_scalars(const Scalars& s, std::span<real> out) const override;
  void write_scalars(std::span<const real> values, Scalars& s) const override;
  void dot(const Field& x, const Field& y, index n, Scalars& s, index slot) const override;
  void slot_op(Scalars& s, index out, index a, SlotOp op, index b) const override;
  void slot_check_positive(Scalars& s, index a, index b, index flag, real tag) const override;
  void axpy(const Scalars& s, SlotCoefficient a, const Field& x, Field& y) const override;
  void xpay(const Field& x, const Scalars& s, SlotCoefficient a, Field& y) const override;
  void pcg_ranks_update(real alpha, real beta, bool first, const Field& w, const Field* dinv,
                        Field& z, Field& p, Field& q, Field& x, Field& r, index n, Scalars& s,
                        index slot_rz, index slot_rr) const override;
  void pcg_update(int k, Scalars& s, const Field& p, const Field& q, const Field& dinv, Field& x,
                  Field& r, Field& z, index n) const override;
  std::unique_ptr<Matrix> make_matrix(const SparseMatrix& a) const override;
  void matrix_apply(const Matrix& a, const Field& x, Field& y,
                    Rows rows = Rows::all) const override;
  void matrix_residual(const Matrix& a, const Field& b, const Field& x, Field& y,
                       Rows rows) const override;
  void matrix_apply_add(const Matrix& a, const Field& x, const Field& z, Field& y,
                        Rows rows = Rows::all) const override;
  void matrix_jacobi(const Matrix& a, const Field& w, const Field& b, const Field& x, Field& y,
                     Rows rows) const override;
  void gradient(const topology::Mesh& m, const Field& q_cell, const Field& q_boundary,
                Field& g_face, Rows rows) const override;
  void divergence(const topology::Mesh& m, const Field& u_face, Field& d_cell,
                  Rows rows) const override;
  void flux_sum_abs(const topology::Mesh& m, const Field& u_face, Field& s_cell) const override;
  void curl(const topology::Mesh& m, const Field& s, Field& u_face, Rows rows) const override;
  void rotation(const topology::Mesh& m, const Field& u_face, Field& r, Rows rows) const override;
  void interpolate(const topology::Mesh& m, const Field& u_face, Field& u_cell,
                   Rows rows) const override;
  void integrate(const topology::Mesh& m, const Field& v_cell, Field& u_face,
                 Rows rows) const override;
  void convection(const topology::Mesh& m, const Field& u_face, const Field& u_cell,
                  const Field& u_boundary, real upwind, Field& n_cell, Rows rows) const override;
  void node_system(const topology::Mesh& m, const Field& d, real b, const Field& w,
                   const Field& fixed, const Field& x, Field& y) const override;
  std::unique_ptr<NodeSystem> make_node_system(const topology::Mesh& m, const Field& d, real b,
                                               const Field& w, const Field& fixed) const override;
  void node_system_diagonal(const topology::Mesh& m, const Field& d, real b, const Field& w,
                            const Field& fixed, Field& diag) const override;
  void node_laplacian(const topology::Mesh& m, const Field& w, const Field& x,
                      Field& y) const override;
};

}  // namespace scfd::backend::cpu
