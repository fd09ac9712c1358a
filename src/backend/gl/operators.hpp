// The discrete-calculus operators of docs/architecture.md §2 on the GPU: one compute kernel per
// operator (kernels/<name>.glsl), each a gather with the same loop body as its cpu twin of the same
// name in backend/cpu/ (the specification; argument meanings and sizes are documented there). Owned
// outputs only. No atomics. Fields are textures (gl/texture.hpp) of the precision the Operators
// were compiled for; cell vectors are 3 reals per cell, interleaved. The assembled node system's
// coefficients and diagonal are storage buffers (read in stream order).
#pragma once

#include <memory>

#include "backend/gl/device_mesh.hpp"
#include "gl/buffer.hpp"
#include "gl/program.hpp"
#include "gl/texture.hpp"

namespace scfd::backend::glc {

using scfd::gl::Buffer;
using scfd::gl::Texture;

class Operators {
 public:
  explicit Operators(scfd::gl::Precision p);  // compiles every operator kernel
  ~Operators();
  Operators(Operators&&) noexcept;
  Operators& operator=(Operators&&) noexcept;

  void gradient(const DeviceMesh& m, const Texture& q_cell, const Texture& q_boundary,
                Texture& g_face);
  void divergence(const DeviceMesh& m, const Texture& u_face, Texture& d_cell);
  void flux_sum_abs(const DeviceMesh& m, const Texture& u_face, Texture& s_cell);
  void curl(const DeviceMesh& m, const Texture& s, Texture& u_face);
  void rotation(const DeviceMesh& m, const Texture& u_face, Texture& r);
  void interpolate(const DeviceMesh& m, const Texture& u_face, Texture& u_cell);
  void integrate(const DeviceMesh& m, const Texture& v_cell, Texture& u_face);
  // u_cell, n_cell: 3 per cell; u_boundary: 3 per owned boundary face.
  void convection(const DeviceMesh& m, const Texture& u_face, const Texture& u_cell,
                  const Texture& u_boundary, double upwind, Texture& n_cell);
  void node_laplacian(const DeviceMesh& m, const Texture& w, const Texture& x, Texture& y);
  void node_system(const DeviceMesh& m, const Texture& d, double b, const Texture& w,
                   const Texture& fixed, const Texture& x, Texture& y);
  void node_system_diagonal(const DeviceMesh& m, const Texture& d, double b, const Texture& w,
                            const Texture& fixed, Texture& diag);
  // The assembled node system (Backend::make_node_system): coef holds one real per padded SELL
  // entry of m's node_edges (node_system_entries), diag one per owned node.
  static std::size_t node_system_entries(const DeviceMesh& m);
  void node_system_assemble(const DeviceMesh& m, const Texture& d, double b, const Texture& w,
                            const Texture& fixed, Buffer& coef, Buffer& diag);
  void node_system_apply(const DeviceMesh& m, const Buffer& coef, const Buffer& diag,
                         const Texture& x, Texture& y);

 private:
  struct Programs;
  std::unique_ptr<Programs> programs_;
};

}  // namespace scfd::backend::glc
