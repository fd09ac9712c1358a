// The GL backend's Scalars: a storage buffer of accumulators that kernels read and write on the
// device (the PCG and BiCGStab slots of backend.hpp, kernels/pcg_slots.glsl), so that a Krylov
// iteration queues its kernels without a read-back. The slots stay in device memory, which every
// invocation of a Krylov body reads; the host reads and writes them through a host-visible copy.
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
        buffer_(static_cast<std::size_t>(std::max<index>(n, 1)) * real_bytes(acc)),
        staging_(Buffer::host_visible(buffer_.size())) {}
  index size() const override { return n_; }
  scfd::gl::Precision acc() const { return acc_; }
  Buffer& buffer() { return buffer_; }
  const Buffer& buffer() const { return buffer_; }
  // Host-visible: read_scalars copies the slots here on the device and reads them after a fence,
  // write_scalars writes them here and copies them into the slots.
  Buffer& staging() const { return staging_; }

 private:
  index n_;
  scfd::gl::Precision acc_;
  Buffer buffer_;
  mutable Buffer staging_;
};

// The GlScalars behind Scalars made by a GlBackend (SCFD_CHECK that they are).
GlScalars& gl_scalars(Scalars& s);
const GlScalars& gl_scalars(const Scalars& s);

}  // namespace scfd::backend::opengl
