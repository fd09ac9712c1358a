// The demonstration backend of the two-layer backend contract (docs/architecture.md §6): it
// implements the core methods only, each by handing it to a CpuBackend it holds, and takes every
// operator, node system and Krylov update from Backend's defaults. It is what a new backend must
// write before every case runs; tests/contract/core_only_test.cpp runs the models on it.
#pragma once

#include <memory>
#include <span>
#include <string>

#include "backend/cpu/cpu_backend.hpp"

namespace scfd::test {

class CoreOnlyBackend final : public backend::Backend {
 public:
  using Field = backend::Field;
  using Scalars = backend::Scalars;
  using Matrix = backend::Matrix;
  using Rows = backend::Rows;

  std::string name() const override { return "core-only"; }
  // Fields and transfers.
  std::unique_ptr<Field> make_field(index n) const override { return cpu_.make_field(n); }
  void upload(std::span<const real> h, Field& f) const override { cpu_.upload(h, f); }
  void download(const Field& f, std::span<real> h) const override { cpu_.download(f, h); }
  void download_indices(const Field& x, std::span<const index> i,
                        std::span<real> out) const override {
    cpu_.download_indices(x, i, out);
  }
  void upload_range(std::span<const real> v, Field& x, index offset) const override {
    cpu_.upload_range(v, x, offset);
  }
  void upload_entries(std::span<const index> e, std::span<const real> v, Field& x) const override {
    cpu_.upload_entries(e, v, x);
  }
  // Element-wise operations and reductions.
  void fill(Field& y, real v) const override { cpu_.fill(y, v); }
  void copy(const Field& x, Field& y) const override { cpu_.copy(x, y); }
  real dot(const Field& x, const Field& y, index n) const override { return cpu_.dot(x, y, n); }
  real max_abs(const Field& x, index n) const override { return cpu_.max_abs(x, n); }
  void axpy(real a, const Field& x, Field& y) const override { cpu_.axpy(a, x, y); }
  void xpay(const Field& x, real a, Field& y) const override { cpu_.xpay(x, a, y); }
  void scale(real a, const Field& x, Field& y) const override { cpu_.scale(a, x, y); }
  void multiply(const Field& a, const Field& b, Field& y) const override { cpu_.multiply(a, b, y); }
  void reciprocal(const Field& x, Field& y) const override { cpu_.reciprocal(x, y); }
  // Scalars.
  std::unique_ptr<Scalars> make_scalars(index n) const override { return cpu_.make_scalars(n); }
  void read_scalars(const Scalars& s, std::span<real> out) const override {
    cpu_.read_scalars(s, out);
  }
  void write_scalars(std::span<const real> v, Scalars& s) const override {
    cpu_.write_scalars(v, s);
  }
  void dot(const Field& x, const Field& y, index n, Scalars& s, index slot) const override {
    cpu_.dot(x, y, n, s, slot);
  }
  void slot_op(Scalars& s, index out, index a, backend::SlotOp op, index b) const override {
    cpu_.slot_op(s, out, a, op, b);
  }
  void slot_check_positive(Scalars& s, index a, index b, index flag, real tag) const override {
    cpu_.slot_check_positive(s, a, b, flag, tag);
  }
  void axpy(const Scalars& s, backend::SlotCoefficient a, const Field& x, Field& y) const override {
    cpu_.axpy(s, a, x, y);
  }
  void xpay(const Field& x, const Scalars& s, backend::SlotCoefficient a, Field& y) const override {
    cpu_.xpay(x, s, a, y);
  }
  // Stored sparse matrices.
  std::unique_ptr<Matrix> make_matrix(const backend::SparseMatrix& a) const override {
    return cpu_.make_matrix(a);
  }
  void matrix_apply(const Matrix& a, const Field& x, Field& y, Rows rows) const override {
    cpu_.matrix_apply(a, x, y, rows);
  }
  void matrix_residual(const Matrix& a, const Field& b, const Field& x, Field& y,
                       Rows rows) const override {
    cpu_.matrix_residual(a, b, x, y, rows);
  }
  void matrix_apply_add(const Matrix& a, const Field& x, const Field& z, Field& y,
                        Rows rows) const override {
    cpu_.matrix_apply_add(a, x, z, y, rows);
  }
  void matrix_jacobi(const Matrix& a, const Field& w, const Field& b, const Field& x, Field& y,
                     Rows rows) const override {
    cpu_.matrix_jacobi(a, w, b, x, y, rows);
  }
  // The one kernel every backend writes (nonlinear in the velocity).
  void convection(const topology::Mesh& m, const Field& u_face, const Field& u_cell,
                  const Field& u_boundary, real upwind, Field& n_cell, Rows rows) const override {
    cpu_.convection(m, u_face, u_cell, u_boundary, upwind, n_cell, rows);
  }

 private:
  backend::cpu::CpuBackend cpu_;
};

}  // namespace scfd::test
