// The GL backend's node systems (Backend::make_node_system), one per driver. Each looks its device
// mesh up at every apply (a lookup in a short list): a mesh rebuilt in place gets a new
// DeviceMesh, whose entry count the size checks compare with.
#pragma once

#include <memory>

#include "backend/backend.hpp"
#include "backend/opengl/fields.hpp"
#include "topology/mesh.hpp"

namespace scfd::backend::opengl {

class GlBackend;

// The compute driver's: the system assembled on the device (node_system_assemble.glsl), a
// coefficient per SELL entry of node_edges and a diagonal per owned node, applied by
// node_system_apply.glsl; the coefficients count in device_bytes.
class AssembledNodeSystem final : public NodeSystem {
 public:
  AssembledNodeSystem(const GlBackend& be, const topology::Mesh& m, const Field& d, real b,
                      const Field& w, const Field& fixed);
  ~AssembledNodeSystem() override;
  AssembledNodeSystem(const AssembledNodeSystem&) = delete;
  AssembledNodeSystem& operator=(const AssembledNodeSystem&) = delete;
  void apply(const Field& x, Field& y, Rows rows) const override;

 private:
  const GlBackend& be_;
  const topology::Mesh& m_;
  Buffer coef_, diag_;
};

// The fragment driver's, which has no assembly kernel (a kernel with its own main): copies of the
// system's data, applied matrix-free by node_system.glsl.
class MatrixFreeNodeSystem final : public NodeSystem {
 public:
  MatrixFreeNodeSystem(const GlBackend& be, const topology::Mesh& m, const Field& d, real b,
                       const Field& w, const Field& fixed);
  void apply(const Field& x, Field& y, Rows rows) const override;

 private:
  const GlBackend& be_;
  const topology::Mesh& m_;
  real b_;
  std::unique_ptr<Field> d_, w_, fixed_;
};

}  // namespace scfd::backend::opengl
