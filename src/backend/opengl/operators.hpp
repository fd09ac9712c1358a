// The discrete-calculus operators of docs/architecture.md §2 on the GPU: one compute kernel per
// operator (kernels/<name>.glsl), each a gather with the same loop body as its cpu twin of the same
// name in backend/cpu/ (the specification; argument meanings and sizes are documented there). Owned
// outputs only. No atomics. Fields are gl::FieldStorage (buffers or textures) of the precision the
// Operators were compiled for; cell vectors are 3 reals per cell, interleaved. The assembled node
// system's coefficients and diagonal are storage buffers (read in stream order).
#pragma once

#include <memory>

#include "backend/opengl/device_mesh.hpp"
#include "gl/body.hpp"
#include "gl/buffer.hpp"
#include "gl/field_storage.hpp"
#include "gl/program.hpp"

namespace scfd::backend::opengl {

using scfd::gl::Buffer;
using scfd::gl::FieldStorage;

class Operators {
 public:
  // Compiles every operator body for fields of precision p in `storage` with `compile`, the
  // driver's (Driver::body_compiler; the fragment driver needs Storage::texture).
  // node_system_assemble, a kernel with its own main, is compiled on its first use: the fragment
  // driver has no such kernels and never assembles (FragmentDriver::make_node_system).
  Operators(scfd::gl::Precision p, scfd::gl::Storage storage, scfd::gl::BodyCompiler compile);
  ~Operators();
  Operators(Operators&&) noexcept;
  Operators& operator=(Operators&&) noexcept;

  void gradient(const DeviceMesh& m, const FieldStorage& q_cell, const FieldStorage& q_boundary,
                FieldStorage& g_face, RowRange rows = {});
  void divergence(const DeviceMesh& m, const FieldStorage& u_face, FieldStorage& d_cell,
                  RowRange rows = {});
  void flux_sum_abs(const DeviceMesh& m, const FieldStorage& u_face, FieldStorage& s_cell);
  void curl(const DeviceMesh& m, const FieldStorage& s, FieldStorage& u_face, RowRange rows = {});
  void rotation(const DeviceMesh& m, const FieldStorage& u_face, FieldStorage& r,
                RowRange rows = {});
  void interpolate(const DeviceMesh& m, const FieldStorage& u_face, FieldStorage& u_cell,
                   RowRange rows = {});
  void integrate(const DeviceMesh& m, const FieldStorage& v_cell, FieldStorage& u_face,
                 RowRange rows = {});
  // u_cell, n_cell: 3 per cell; u_boundary: 3 per owned boundary face.
  void convection(const DeviceMesh& m, const FieldStorage& u_face, const FieldStorage& u_cell,
                  const FieldStorage& u_boundary, double upwind, FieldStorage& n_cell,
                  RowRange rows = {});
  void node_laplacian(const DeviceMesh& m, const FieldStorage& w, const FieldStorage& x,
                      FieldStorage& y);
  void node_system(const DeviceMesh& m, const FieldStorage& d, double b, const FieldStorage& w,
                   const FieldStorage& fixed, const FieldStorage& x, FieldStorage& y,
                   RowRange rows = {});
  void node_system_diagonal(const DeviceMesh& m, const FieldStorage& d, double b,
                            const FieldStorage& w, const FieldStorage& fixed, FieldStorage& diag);
  // The assembled node system (Backend::make_node_system): coef holds one real per padded SELL
  // entry of m's node_edges (node_system_entries), diag one per owned node.
  static std::size_t node_system_entries(const DeviceMesh& m);
  void node_system_assemble(const DeviceMesh& m, const FieldStorage& d, double b,
                            const FieldStorage& w, const FieldStorage& fixed, Buffer& coef,
                            Buffer& diag);
  void node_system_apply(const DeviceMesh& m, const Buffer& coef, const Buffer& diag,
                         const FieldStorage& x, FieldStorage& y, RowRange rows = {});
  // The operators take the rows of their output to compute (RowRange: a part of a halo overlap,
  // starting on a texel; {}: all owned).
  // The products of a sparse matrix (kernels/sparse_<kind>.glsl, Backend::matrix_apply and its
  // siblings): y = A x, b - A x, z + A x or x0 + w .* (b - A x) over the rows of a (x0 = x
  // unless given: the second product of a split matrix gathers the chunk sums but corrects the
  // iterate). The inputs a kind does not read are null.
  enum class Sparse { apply, residual, apply_add, jacobi };
  void sparse(Sparse kind, const SellMatrix& a, const FieldStorage& x, const FieldStorage* b,
              const FieldStorage* z, const FieldStorage* w, FieldStorage& y,
              const FieldStorage* x0 = nullptr, RowRange rows = {});

 private:
  struct Programs;
  std::unique_ptr<Programs> programs_;
};

}  // namespace scfd::backend::opengl
