// The fragment driver's reductions (see raster_reducer.hpp).
#include "gl/raster_reducer.hpp"

#include <epoxy/gl.h>

#include <utility>
#include <vector>

#include "core/counters.hpp"
#include "core/error.hpp"

namespace scfd::gl {

RasterReducer::RasterReducer(Precision p, int max_texture_size)
    : precision_(p),
      max_size_(max_texture_size),
      sum_(compile_raster("raster_fold", p)),
      dot_(compile_raster("raster_fold", p, {{"FOLD_PRODUCT", "1"}})),
      max_(compile_raster("raster_fold", p, {{"FOLD_MAX", "1"}})) {
  glGenFramebuffers(1, &read_framebuffer_);
}

RasterReducer::RasterReducer(RasterReducer&& o) noexcept
    : precision_(o.precision_),
      max_size_(o.max_size_),
      sum_(std::move(o.sum_)),
      dot_(std::move(o.dot_)),
      max_(std::move(o.max_)),
      a_(std::move(o.a_)),
      b_(std::move(o.b_)),
      read_framebuffer_(std::exchange(o.read_framebuffer_, 0)) {}

RasterReducer& RasterReducer::operator=(RasterReducer&& o) noexcept {
  if (this != &o) {
    if (read_framebuffer_) glDeleteFramebuffers(1, &read_framebuffer_);
    precision_ = o.precision_;
    max_size_ = o.max_size_;
    sum_ = std::move(o.sum_);
    dot_ = std::move(o.dot_);
    max_ = std::move(o.max_);
    a_ = std::move(o.a_);
    b_ = std::move(o.b_);
    read_framebuffer_ = std::exchange(o.read_framebuffer_, 0);
  }
  return *this;
}

RasterReducer::~RasterReducer() {
  if (read_framebuffer_) glDeleteFramebuffers(1, &read_framebuffer_);
}

const FieldStorage* RasterReducer::run(Op op, const FieldStorage& x, const FieldStorage* y,
                                       std::size_t n) {
  SCFD_CHECK(n <= x.size() && (op != Op::dot || (y != nullptr && n <= y->size())),
             "raster reduction of {} entries: x of {}, y of {}", n, x.size(),
             y != nullptr ? y->size() : 0);
  if (n == 0) return nullptr;
  const std::size_t first = (n + kFold - 1) / kFold, second = (first + kFold - 1) / kFold;
  if (a_.size() < first) a_ = FieldStorage(first, precision_, Storage::texture, max_size_);
  if (b_.size() < second) b_ = FieldStorage(second, precision_, Storage::texture, max_size_);
  RasterProgram& later = op == Op::max_abs ? max_ : sum_;
  RasterProgram& pass1 = op == Op::dot ? dot_ : later;
  const FieldStorage* in = &x;
  const FieldStorage* in2 = op == Op::dot ? y : &x;
  FieldStorage* out = &a_;
  RasterProgram* prog = &pass1;
  for (std::size_t len = n;;) {
    const std::size_t out_len = (len + kFold - 1) / kFold;
    prog->bind({}, {in, in2}, {out});
    prog->set("len", static_cast<std::uint32_t>(len));
    prog->run(out_len);
    if (out_len == 1) return out;
    in = in2 = out;
    out = out == &a_ ? &b_ : &a_;
    prog = &later;
    len = out_len;
  }
}

void RasterReducer::read_value(const FieldStorage& f, void* at) const {
  glBindFramebuffer(GL_READ_FRAMEBUFFER, read_framebuffer_);
  glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, f.texture(), 0);
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  {
    const counters::GpuWait wait;  // glReadPixels waits for the reduction's passes
    if (precision_ == Precision::fp64)
      glReadPixels(0, 0, 1, 1, GL_RG_INTEGER, GL_UNSIGNED_INT, at);  // the bits of entry 0
    else
      glReadPixels(0, 0, 1, 1, GL_RED, GL_FLOAT, at);
  }
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
}

double RasterReducer::reduce(Op op, const FieldStorage& x, const FieldStorage* y, std::size_t n) {
  const FieldStorage* r = run(op, x, y, n);
  if (r == nullptr) return 0;
  if (precision_ == Precision::fp64) {
    double v = 0;
    read_value(*r, &v);
    return v;
  }
  float v = 0;
  read_value(*r, &v);
  return static_cast<double>(v);  // exact
}

void RasterReducer::reduce_into(Op op, const FieldStorage& x, const FieldStorage* y, std::size_t n,
                                Buffer& out, std::size_t offset) {
  const FieldStorage* r = run(op, x, y, n);
  if (r != nullptr) {
    copy_into(*r, out, offset);
    return;
  }
  const std::size_t bytes = precision_ == Precision::fp64 ? 8 : 4;
  SCFD_CHECK(offset + bytes <= out.size() && offset % bytes == 0,
             "raster reduction into byte {} of a {}-byte buffer", offset, out.size());
  // A copy, not glBufferSubData: on an H200 (driver 580) a glBufferSubData into the scalars landed
  // before the copy that write_scalars had queued into them just before, and was overwritten.
  if (zero_.size() == 0) zero_ = Buffer::from<double>(std::vector<double>{0.0});
  zero_.copy_to(out, 0, offset, bytes);
}

void RasterReducer::copy_into(const FieldStorage& f, Buffer& out, std::size_t offset) const {
  const std::size_t bytes = precision_ == Precision::fp64 ? 8 : 4;
  SCFD_CHECK(offset + bytes <= out.size() && offset % bytes == 0,
             "raster copy into byte {} of a {}-byte buffer", offset, out.size());
  glBindBuffer(GL_PIXEL_PACK_BUFFER, out.id());
  read_value(f, reinterpret_cast<void*>(offset));  // NOLINT: an offset into the bound buffer
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);  // a GL command: later draws and dispatches see it
}

}  // namespace scfd::gl
