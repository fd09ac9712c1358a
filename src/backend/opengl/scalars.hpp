// The GL backend's Scalars: a storage buffer of accumulators that kernels read and write on the
// device (the PCG and BiCGStab slots of backend.hpp, kernels/pcg_slots.glsl), so that a Krylov
// iteration queues its kernels without a read-back.
#pragma once

#include <algorithm>

#include "backend/backend.hpp"
#include "backend/opengl/fields.hpp"
#include "gl/buffer.hpp"
#include "gl/program.hpp"

namespace scfd::backend::opengl {

// `acc` is fp64 (double) or, where the driver accumulates in float, fp32.
class GlScalars final : public Scalars {
 public:
  GlScalars(index n, scfd::gl::Precision acc)
      : n_(n),
        acc_(acc),
        buffer_(static_cast<std::size_t>(std::max<index>(n, 1)) * real_bytes(acc)) {}
  index size() const override { return n_; }
  scfd::gl::Precision acc() const { return acc_; }
  Buffer& buffer() { return buffer_; }
  const Buffer& buffer() const { return buffer_; }

 private:
  index n_;
  scfd::gl::Precision acc_;
  Buffer buffer_;
};

// The GlScalars behind Scalars made by a GlBackend (SCFD_CHECK that they are).
GlScalars& gl_scalars(Scalars& s);
const GlScalars& gl_scalars(const Scalars& s);

}  // namespace scfd::backend::opengl
