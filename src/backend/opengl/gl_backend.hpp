// The GL backend (docs/architecture.md §3): Fields are 2D textures or storage buffers on one EGL
// device (gl/field_storage.hpp), every operation is a kernel of kernels/ (vector updates fused
// where PCG needs it, reductions combined in a fixed order, operators through Operators). Only
// the CG scalars and halo values cross to the host. fp64 or fp32 per run: host values are `real`
// (double) and are rounded on upload in fp32. Its Driver (driver.hpp) makes it gl-compute
// (ComputeDriver: compute shaders) or gl-raster (FragmentDriver: fragment programs); what differs
// between the two goes through the driver.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "backend/backend.hpp"
#include "backend/opengl/device_mesh.hpp"
#include "backend/opengl/driver.hpp"
#include "backend/opengl/fields.hpp"
#include "backend/opengl/operators.hpp"
#include "gl/body.hpp"
#include "gl/context.hpp"
#include "gl/program.hpp"

namespace scfd::backend::opengl {

class GlBackend final : public Backend {
 public:
  // Creates a context on EGL device `device` (-1: automatic, see gl/context.hpp) of the GL
  // version `driver` asks for and makes it current; nothing switches contexts afterwards, so a
  // thread uses one GlBackend at a time. fp64 on a device without double precision is an
  // InputError that says fp32 is available. A FragmentDriver is the gl-raster backend
  // (docs/gpu.md §9): bodies as fragment programs over texture fields, reductions by fold
  // passes, halo receives as GL_POINTS. `device_origin` names where `device` was given
  // ("--device", "solver.device") in the message for a device that does not exist.
  GlBackend(std::unique_ptr<Driver> driver, scfd::gl::Precision p, scfd::gl::Storage storage,
            int device, bool debug, std::string_view device_origin = "--device");
  ~GlBackend() override;

  const scfd::gl::DeviceInfo& device() const;
  scfd::gl::Precision gl_precision() const { return precision_; }
  scfd::gl::Storage storage_kind() const { return storage_; }

  std::string name() const override;
  std::string precision() const override;
  DeviceInfo device_info() const override;
  void finish() const override;
  void flush() const override;
  std::size_t device_bytes() const override;
  // An overlap's parts start on whole texels and, under the compute driver with textures, whole
  // work groups of 256 (gl/driver.hpp).
  index row_alignment() const override { return 256; }
  // On a GPU whose driver compiles in its own threads (gl::DeviceInfo::parallel_compile): the
  // driver's start_builds. Not on a software renderer, where those threads are the host's cores
  // (a run there builds only the kernels it uses).
  void start_kernel_builds() const override;

  std::unique_ptr<Field> make_field(index n) const override;
  void upload(std::span<const real> host, Field& f) const override;
  void download(const Field& f, std::span<real> host) const override;
  void download_indices(const Field& x, std::span<const index> indices,
                        std::span<real> out) const override;
  bool download_indices_begin(const Field& x, std::span<const index> indices, std::span<real> out,
                              std::uint64_t list_id) const override;
  std::span<const real> download_indices_end(std::span<real> out) const override;
  void upload_range(std::span<const real> values, Field& x, index offset) const override;
  std::span<real> receive_buffer(std::size_t n) const override;
  void upload_indices(std::span<const real> values, std::span<const index> indices, Field& x,
                      std::uint64_t list_id) const override;
  // gl-raster: a clear and GL_POINTS; gl-compute: one upload of the whole field (the driver's).
  void upload_entries(std::span<const index> entries, std::span<const real> values,
                      Field& x) const override;
  void fill(Field& y, real value) const override;
  void copy(const Field& x, Field& y) const override;
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
  void dots(std::span<const Field* const> x, const Field& y, index n, Scalars& s,
            index first) const override;
  void axpys(const Scalars& s, index first, real sign, std::span<const Field* const> x,
             Field& y) const override;
  void slot_op(Scalars& s, index out, index a, SlotOp op, index b) const override;
  void slot_check_positive(Scalars& s, index a, index b, index flag, real tag) const override;
  void axpy(const Scalars& s, SlotCoefficient a, const Field& x, Field& y) const override;
  void xpay(const Field& x, const Scalars& s, SlotCoefficient a, Field& y) const override;
  void pcg_update(int k, Scalars& s, const Field& p, const Field& q, const Field& dinv, Field& x,
                  Field& r, Field& z, index n) const override;
  void pcg_direction(int k, Scalars& s, const Field& z, Field& p) const override;
  void pcg_ranks_update(real alpha, real beta, bool first, const Field& w, const Field* dinv,
                        Field& z, Field& p, Field& q, Field& x, Field& r, index n, Scalars& s,
                        index slot_rz, index slot_rr) const override;
  void bicgstab_direction(int k, Scalars& s, const Field& r, const Field& v,
                          Field& p) const override;
  void bicgstab_half(int k, Scalars& s, const Field& r, const Field& v, Field& y) const override;
  void bicgstab_update(int k, Scalars& s, const Field& p_hat, const Field& s_hat, const Field& y,
                       const Field& t, Field& x, Field& r) const override;
  // Stored in the SELL layout of the node system (kernels/sparse_*.glsl).
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
  // The driver's (node_system.hpp): assembled in the SELL layout of the device mesh under the
  // compute driver (node_system_assemble.glsl, applied by node_system_apply.glsl), matrix-free
  // under the fragment driver.
  std::unique_ptr<NodeSystem> make_node_system(const topology::Mesh& m, const Field& d, real b,
                                               const Field& w, const Field& fixed) const override;
  void node_system_diagonal(const topology::Mesh& m, const Field& d, real b, const Field& w,
                            const Field& fixed, Field& diag) const override;
  void node_laplacian(const topology::Mesh& m, const Field& w, const Field& x,
                      Field& y) const override;

  // What its driver, node systems and matrices build on (not Backend calls).
  // The body `kernel` compiled by the driver with the accumulator types as defines, on first use.
  scfd::gl::Body& body(const std::string& kernel) const;
  // The accumulator types of reductions and Scalars (Driver::accumulates_fp64) as defines
  // (`acc`, `acc2`) and as a precision.
  scfd::gl::Defines acc_defines() const;
  scfd::gl::Precision acc_precision() const;
  Operators& ops() const;
  Driver& driver() const;
  const DeviceMesh& device_mesh(const topology::Mesh& m) const;
  // row_range with this backend's alignment.
  RowRange range(Rows rows, index n_inner, index n_owned) const;
  // Bytes of the live assembled node systems and matrices (device_bytes counts them).
  std::size_t& system_bytes() const;
  // The staged uploads of the set-up's large buffers (matrices, the device mesh's lists).
  scfd::gl::Uploader& uploader() const;

 private:
  // context, driver, compiled bodies, operators, device meshes, index lists, byte counts,
  // uploader
  struct State;
  void scalar_update(const char* kernel, real a, const Field& x, Field& y) const;
  void slot_update(const char* kernel, const Scalars& s, SlotCoefficient a, const Field& x,
                   Field& y) const;
  scfd::gl::Precision precision_;
  scfd::gl::Storage storage_;
  std::unique_ptr<State> state_;
};

}  // namespace scfd::backend::opengl
