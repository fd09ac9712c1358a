// The fragment driver of the GL backend, gl-raster (docs/gpu.md §9, the seed thesis's streaming
// style): bodies are fragment programs drawn over texture fields (gl/raster.hpp) on a GL 3.3
// context, reductions are fold passes (gl/raster_reducer.hpp), halo receives and boundary values
// are GL_POINTS (gl/point_writer.hpp), halo sends a gather body into a field read back whole, and
// node systems are applied matrix-free: there are no kernels with their own main.
#pragma once

#include <array>
#include <cstddef>
#include <list>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "backend/opengl/driver.hpp"
#include "gl/point_writer.hpp"
#include "gl/raster.hpp"
#include "gl/raster_reducer.hpp"

namespace scfd::backend::opengl {

class FragmentDriver final : public Driver {
 public:
  std::string name() const override { return "gl-raster"; }
  std::string device_note() const override { return ", fragment programs"; }
  int gl_version() const override { return 33; }
  // In the fields' precision: the fold passes store partial sums in fields.
  bool accumulates_fp64(scfd::gl::Precision p, const scfd::gl::DeviceInfo&) const override {
    return p == scfd::gl::Precision::fp64;
  }
  scfd::gl::BodyCompiler body_compiler() const override { return scfd::gl::compile_raster_body; }
  // The backend's fields must be textures: the driver draws into them.
  void start(const GlBackend& be) override;

  // Gathered into a field of the send's size, read back whole.
  // A gather drawn and read back at once (returns true).
  bool gather_begin(const Buffer& indices, const FieldStorage& x, std::span<real> out) override;
  std::span<const real> gather_end(std::span<real> out) override { return out; }
  // One GL_POINT per entry (the thesis's halo receive).
  void upload_range(std::span<const real> values, FieldStorage& x, std::size_t offset) override;
  // GL_POINTS through the entry list's points (built once), as upload_entries without the clear.
  void upload_indices(std::span<const real> values, std::span<const index> indices, FieldStorage& x,
                      std::uint64_t list_id) override;
  // A clear, then one GL_POINT per value.
  void upload_entries(std::span<const index> entries, std::span<const real> values,
                      FieldStorage& x) override;
  // Zeros everywhere (padding too), then the value over the entries.
  void fill(FieldStorage& y, real value) override;
  real dot(const FieldStorage& x, const FieldStorage& y, index n) override;
  real max_abs(const FieldStorage& x, index n) override;
  void dots(std::span<const FieldStorage* const> x, const FieldStorage& y, index n, GlScalars& s,
            index first) override;
  void dot(const FieldStorage& x, const FieldStorage& y, index n, GlScalars& s,
           index slot) override;
  // The thesis's way (see fragment_driver.cpp).
  void slot_op(GlScalars& s, const SlotProgram& p) override;
  void pcg_update(int k, GlScalars& s, const FieldStorage& p, const FieldStorage& q,
                  const FieldStorage& dinv, FieldStorage& x, FieldStorage& r, FieldStorage& z,
                  index n) override;
  // A MatrixFreeNodeSystem (node_system.hpp).
  std::unique_ptr<NodeSystem> make_node_system(const topology::Mesh& m, const Field& d, real b,
                                               const Field& w, const Field& fixed) override;

 private:
  scfd::gl::RasterReducer& reducer();
  scfd::gl::PointWriter& points();
  // The point list of `entries` in fields of `layout`, built once per list: the key is the span's
  // data pointer, size and the layout's width; a hit is used only if its entries still equal the
  // span's (as device_indices).
  scfd::gl::PointWriter::Points& entry_points(std::span<const index> entries,
                                              const scfd::gl::TextureLayout& layout);
  // The point list of entries [offset, offset + count) in fields of `layout`, built once.
  scfd::gl::PointWriter::Points& point_list(const scfd::gl::TextureLayout& layout,
                                            std::size_t offset, std::size_t count);

  const GlBackend* be_ = nullptr;
  std::unique_ptr<scfd::gl::RasterReducer> reducer_;
  std::array<FieldStorage, 3> slot_fields_;  // slot_op's new values, made on first use
  std::unique_ptr<scfd::gl::PointWriter> points_;
  // Halo receives: a point list per range written.
  std::vector<std::pair<std::array<std::size_t, 3>, scfd::gl::PointWriter::Points>> point_lists_;
  std::map<std::size_t, FieldStorage> send_fields_;  // halo sends: a field per send size
  struct EntryPoints {  // a point list of upload_entries (boundary values)
    const index* key = nullptr;
    std::size_t width = 0;
    std::vector<index> host;
    scfd::gl::PointWriter::Points points;
  };
  std::list<EntryPoints> entry_lists_;  // a list: references to its elements stay valid
};

}  // namespace scfd::backend::opengl
