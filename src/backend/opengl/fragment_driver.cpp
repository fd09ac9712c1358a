// The fragment driver (see fragment_driver.hpp).
#include "backend/opengl/fragment_driver.hpp"

#include <algorithm>
#include <cstdint>

#include "backend/opengl/gl_backend.hpp"
#include "backend/opengl/node_system.hpp"
#include "backend/opengl/scalars.hpp"
#include "core/error.hpp"

namespace scfd::backend::opengl {

namespace gl = scfd::gl;

void FragmentDriver::start(const GlBackend& be) {
  SCFD_CHECK(be.storage_kind() == gl::Storage::texture,
             "the fragment driver draws into texture fields");
  be_ = &be;
}

gl::RasterReducer& FragmentDriver::reducer() {
  if (!reducer_)
    reducer_ =
        std::make_unique<gl::RasterReducer>(be_->gl_precision(), be_->device().max_texture_size);
  return *reducer_;
}

gl::PointWriter& FragmentDriver::points() {
  if (!points_) points_ = std::make_unique<gl::PointWriter>(be_->gl_precision());
  return *points_;
}

gl::PointWriter::Points& FragmentDriver::entry_points(std::span<const index> entries,
                                                      const gl::TextureLayout& layout) {
  gl::PointWriter& writer = points();
  for (EntryPoints& e : entry_lists_)
    if (e.key == entries.data() && e.width == layout.width && e.host.size() == entries.size() &&
        std::equal(e.host.begin(), e.host.end(), entries.begin()))
      return e.points;
  std::vector<std::size_t> at(entries.begin(), entries.end());
  if (entry_lists_.size() == kMaxIndexLists) entry_lists_.pop_front();
  entry_lists_.push_back({entries.data(), layout.width,
                          std::vector<index>(entries.begin(), entries.end()),
                          writer.points(at, layout)});
  return entry_lists_.back().points;
}

gl::PointWriter::Points& FragmentDriver::point_list(const gl::TextureLayout& layout,
                                                    std::size_t offset, std::size_t count) {
  gl::PointWriter& writer = points();
  const std::array<std::size_t, 3> key = {layout.width, offset, count};
  for (auto& [k, list] : point_lists_)
    if (k == key) return list;
  std::vector<std::size_t> entries(count);
  for (std::size_t k = 0; k < count; ++k) entries[k] = offset + k;
  point_lists_.emplace_back(key, writer.points(entries, layout));
  return point_lists_.back().second;
}

bool FragmentDriver::gather_begin(const Buffer& indices, const FieldStorage& x,
                                  std::span<real> out) {
  auto it = send_fields_.find(out.size());
  if (it == send_fields_.end())
    it =
        send_fields_
            .emplace(out.size(), FieldStorage(out.size(), be_->gl_precision(), gl::Storage::texture,
                                              be_->device().max_texture_size))
            .first;
  gl::Body& prog = be_->body("gather");
  prog.bind({&indices}, {&x}, {&it->second});
  prog.run(out.size());
  it->second.download(out);
  return true;
}

void FragmentDriver::upload_range(std::span<const real> values, FieldStorage& x,
                                  std::size_t offset) {
  gl::PointWriter::Points& list = point_list(x.layout(), offset, values.size());
  points().write(list, values, x);
}

void FragmentDriver::upload_indices(std::span<const real> values, std::span<const index> indices,
                                    FieldStorage& x, std::uint64_t /*list_id*/) {
  for (std::size_t k = 1; k < indices.size(); ++k)
    SCFD_CHECK(indices[k - 1] < indices[k], "upload_indices: index {} after {}", indices[k],
               indices[k - 1]);
  points().write(entry_points(indices, x.layout()), values, x);
}

void FragmentDriver::upload_entries(std::span<const index> entries, std::span<const real> values,
                                    FieldStorage& x) {
  if (x.size() == 0) return;
  gl::clear_texture(x);
  if (entries.empty()) return;
  gl::PointWriter::Points& list = entry_points(entries, x.layout());
  points().write(list, values, x);
}

void FragmentDriver::fill(FieldStorage& y, real value) {
  gl::clear_texture(y);
  if (value == 0) return;
  gl::Body& prog = be_->body("constant");
  prog.bind({}, {}, {&y});
  prog.set_real("value", value);
  prog.run(y.size());
}

real FragmentDriver::dot(const FieldStorage& x, const FieldStorage& y, index n) {
  return reducer().reduce(gl::RasterReducer::Op::dot, x, &y, static_cast<std::size_t>(n));
}

real FragmentDriver::max_abs(const FieldStorage& x, index n) {
  return reducer().reduce(gl::RasterReducer::Op::max_abs, x, nullptr, static_cast<std::size_t>(n));
}

void FragmentDriver::dot(const FieldStorage& x, const FieldStorage& y, index n, GlScalars& s,
                         index slot) {
  reducer().reduce_into(gl::RasterReducer::Op::dot, x, &y, static_cast<std::size_t>(n), s.buffer(),
                        static_cast<std::size_t>(slot) * real_bytes(s.acc()));
}

void FragmentDriver::dots(std::span<const FieldStorage* const> x, const FieldStorage& y, index n,
                          GlScalars& s, index first) {
  for (std::size_t i = 0; i < x.size(); ++i) dot(*x[i], y, n, s, first + static_cast<index>(i));
}

// Each new slot value is drawn into entry 0 of a one-entry field (all of them before any is
// stored, so each reads the slots as they were) and copied into its slot on the device.
void FragmentDriver::slot_op(GlScalars& s, const SlotProgram& p) {
  gl::Body& prog = be_->body("slot_value");
  for (index j = 0; j < p.count; ++j) {
    auto& out = slot_fields_[static_cast<std::size_t>(j)];
    if (out.size() == 0)
      out =
          FieldStorage(1, be_->gl_precision(), be_->storage_kind(), be_->device().max_texture_size);
    prog.bind({&s.buffer()}, {}, {&out});
    set_slot_uniforms(prog, p, j);
    prog.run(1);
  }
  for (index j = 0; j < p.count; ++j)
    reducer().copy_into(slot_fields_[static_cast<std::size_t>(j)], s.buffer(),
                        static_cast<std::size_t>(p.out + j) * real_bytes(s.acc()));
}

// Backend's default sequence over the first n entries, with no read-back: the breakdown check
// and alpha in slots (slot_op), the two gated updates (axpy_slot.glsl), z = dinv .* r, and r·z,
// r·r as fold reductions into their slots. The same bits as pcg_update.glsl: x + alpha p,
// r + (-alpha) q (= r - alpha q), dinv .* r.
void FragmentDriver::pcg_update(int k, GlScalars& s, const FieldStorage& p, const FieldStorage& q,
                                const FieldStorage& dinv, FieldStorage& x, FieldStorage& r,
                                FieldStorage& z, index n) {
  using S = PcgSlots;
  be_->slot_check_positive(s, S::pq, S::rz_before(k), S::breakdown, k + 1);
  be_->slot_op(s, S::work, S::rz_before(k), SlotOp::divide, S::pq);  // alpha
  const auto update = [&](real sign, const FieldStorage& in, FieldStorage& out) {
    gl::Body& prog = be_->body("axpy_slot");
    prog.bind({&s.buffer()}, {&in}, {&out});
    prog.set("slot", u32(S::work));
    prog.set("gate", static_cast<std::int32_t>(S::breakdown));
    prog.set_real("sign", sign);
    prog.run(static_cast<std::size_t>(n));
  };
  update(1, p, x);
  update(-1, q, r);
  gl::Body& mul = be_->body("multiply");
  mul.bind({}, {&dinv, &r}, {&z});
  mul.run(static_cast<std::size_t>(n));
  const std::size_t bytes = real_bytes(s.acc());
  gl::RasterReducer& reduce = reducer();
  reduce.reduce_into(gl::RasterReducer::Op::dot, r, &z, static_cast<std::size_t>(n), s.buffer(),
                     static_cast<std::size_t>(S::rz_after(k)) * bytes);
  reduce.reduce_into(gl::RasterReducer::Op::dot, r, &r, static_cast<std::size_t>(n), s.buffer(),
                     static_cast<std::size_t>(S::rr) * bytes);
}

std::unique_ptr<NodeSystem> FragmentDriver::make_node_system(const topology::Mesh& m,
                                                             const Field& d, real b, const Field& w,
                                                             const Field& fixed) {
  return std::make_unique<MatrixFreeNodeSystem>(*be_, m, d, b, w, fixed);
}

}  // namespace scfd::backend::opengl
