// The part of a topology::Mesh that the gl-compute operator kernels gather over, copied once into
// GPU buffers (connectivity as int32, geometry in the backend's precision). Built lazily by
// GlBackend the first time an operator sees a mesh.
#pragma once

#include <memory>

#include "gl/buffer.hpp"
#include "gl/program.hpp"
#include "topology/mesh.hpp"

namespace scfd::backend::glc {

class DeviceMesh {
 public:
  DeviceMesh(const topology::Mesh& m, scfd::gl::Precision p);

  const topology::Mesh& mesh() const { return *mesh_; }
  // True when this copy was made from `m` (same object and the same entity counts).
  bool matches(const topology::Mesh& m) const;
  // Bytes of GPU memory held (for `streamcfd bench` and the memory report).
  std::size_t bytes() const;

  // The buffers themselves are this file's implementation detail, public so that operators.cpp
  // can bind them; see device_mesh.cpp for the layout of each.
  struct Buffers;
  const Buffers& buffers() const { return *buffers_; }

 private:
  const topology::Mesh* mesh_;
  index n_nodes_, n_edges_, n_faces_, n_cells_;
  std::shared_ptr<const Buffers> buffers_;
};

}  // namespace scfd::backend::glc
