// The discrete-calculus operators of docs/architecture.md §2 on the GPU: one compute kernel per
// operator (kernels/<name>.glsl), each a gather with the same loop body as its cpu twin of the same
// name in backend/cpu/ (the specification; argument meanings and sizes are documented there). Owned
// outputs only. No atomics. Buffers hold `real` values of the precision the Operators were
// compiled for; cell vectors are 3 reals per cell, interleaved.
#pragma once

#include <memory>

#include "backend/gl/device_mesh.hpp"
#include "gl/buffer.hpp"
#include "gl/program.hpp"

namespace scfd::backend::glc {

using scfd::gl::Buffer;

class Operators {
 public:
  explicit Operators(scfd::gl::Precision p);  // compiles every operator kernel
  ~Operators();
  Operators(Operators&&) noexcept;
  Operators& operator=(Operators&&) noexcept;

  void gradient(const DeviceMesh& m, const Buffer& q_cell, const Buffer& q_boundary,
                Buffer& g_face);
  void divergence(const DeviceMesh& m, const Buffer& u_face, Buffer& d_cell);
  void flux_sum_abs(const DeviceMesh& m, const Buffer& u_face, Buffer& s_cell);
  void curl(const DeviceMesh& m, const Buffer& s, Buffer& u_face);
  void rotation(const DeviceMesh& m, const Buffer& u_face, Buffer& r);
  void interpolate(const DeviceMesh& m, const Buffer& u_face, Buffer& u_cell);
  void integrate(const DeviceMesh& m, const Buffer& v_cell, Buffer& u_face);
  // u_cell, n_cell: 3 per cell; u_boundary: 3 per owned boundary face.
  void convection(const DeviceMesh& m, const Buffer& u_face, const Buffer& u_cell,
                  const Buffer& u_boundary, double upwind, Buffer& n_cell);
  void node_laplacian(const DeviceMesh& m, const Buffer& w, const Buffer& x, Buffer& y);
  void node_system(const DeviceMesh& m, const Buffer& d, double b, const Buffer& w,
                   const Buffer& fixed, const Buffer& x, Buffer& y);
  void node_system_diagonal(const DeviceMesh& m, const Buffer& d, double b, const Buffer& w,
                            const Buffer& fixed, Buffer& diag);
  // The assembled node system (Backend::make_node_system): coef holds one real per padded SELL
  // entry of m's node_edges (node_system_entries), diag one per owned node.
  static std::size_t node_system_entries(const DeviceMesh& m);
  void node_system_assemble(const DeviceMesh& m, const Buffer& d, double b, const Buffer& w,
                            const Buffer& fixed, Buffer& coef, Buffer& diag);
  void node_system_apply(const DeviceMesh& m, const Buffer& coef, const Buffer& diag,
                         const Buffer& x, Buffer& y);

 private:
  struct Programs;
  std::unique_ptr<Programs> programs_;
};

}  // namespace scfd::backend::glc
