// Field storage (see field_storage.hpp). Bind-to-edit (GL 4.3), as buffer.cpp. Texture transfers
// go through a row-major host array in which each texel sits at its tile position; buffer
// transfers through the texels in order.
#include "gl/field_storage.hpp"

#include <epoxy/gl.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <utility>
#include <vector>

#include "core/counters.hpp"
#include "core/error.hpp"
#include "gl/context.hpp"

namespace scfd::gl {
namespace {

// Texture-side transfers wait for the kernels' image stores before them.
void transfer_barrier() {
  if (gl_version() >= 42) glMemoryBarrier(GL_TEXTURE_UPDATE_BARRIER_BIT);  // none below
}

// The first `texels` texels of a field as a host array of `Value`s in the order of `position`
// (texel -> index of its first value / per_texel): each value at its texel's place, zeros
// elsewhere.
template <typename Value, typename Position>
std::vector<Value> staged(std::span<const double> values, const TextureLayout& l,
                          std::size_t texels, Position position) {
  std::vector<Value> out(texels * l.per_texel, Value(0));
  for (std::size_t i = 0; i < values.size(); ++i)
    out[position(i / l.per_texel) * l.per_texel + i % l.per_texel] = static_cast<Value>(values[i]);
  return out;
}

// The values of a read-back `all` (in the order of `position`) in entry order.
template <typename Value, typename Position>
void unstaged(const std::vector<Value>& all, const TextureLayout& l, Position position,
              std::span<double> out) {
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = static_cast<double>(all[position(i / l.per_texel) * l.per_texel + i % l.per_texel]);
}

std::size_t linear(std::size_t t) {
  return t;
}

}  // namespace

TextureLayout TextureLayout::of(std::size_t values, Precision p, int max_size) {
  TextureLayout l;
  l.per_texel = p == Precision::fp64 ? 2 : 4;
  l.texels_used = (values + l.per_texel - 1) / l.per_texel;
  const auto side =
      static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(l.texels_used))));
  const std::size_t width =
      std::max<std::size_t>(256, std::bit_ceil(std::max<std::size_t>(side, 1)));
  const std::size_t rows = (l.texels_used + width - 1) / width;
  const std::size_t height = std::max<std::size_t>(8, (rows + 7) / 8 * 8);
  const auto max = static_cast<std::size_t>(max_size);
  if (width > max || height > max)
    throw InputError(fmt::format(
        "a field of {} values needs a {} x {} texture; this GPU allows {} x {} (use more ranks)",
        values, width, height, max, max));
  l.width = static_cast<unsigned>(width);
  l.height = static_cast<unsigned>(height);
  l.shift = static_cast<unsigned>(std::countr_zero(width));
  return l;
}

std::string_view to_string(Storage s) {
  return s == Storage::texture ? "texture" : "buffer";
}

FieldStorage::FieldStorage(std::size_t values, Precision p, Storage kind, int max_size)
    : values_(values),
      precision_(p),
      kind_(kind),
      // A buffer has no side limit; its layout only gives per_texel and texels_used.
      layout_(TextureLayout::of(values, p, kind == Storage::texture ? max_size : 1 << 30)) {
  if (kind == Storage::buffer) {
    buffer_ = Buffer(bytes());
    return;
  }
  glGenTextures(1, &texture_);
  glBindTexture(GL_TEXTURE_2D, texture_);
  const auto w = static_cast<GLsizei>(layout_.width), h = static_cast<GLsizei>(layout_.height);
  if (gl_version() >= 42)
    glTexStorage2D(GL_TEXTURE_2D, 1, p == Precision::fp64 ? GL_RGBA32UI : GL_RGBA32F, w, h);
  else  // GL 3.3 (gl-raster): a mutable level 0 of the same format
    glTexImage2D(GL_TEXTURE_2D, 0, p == Precision::fp64 ? GL_RGBA32UI : GL_RGBA32F, w, h, 0,
                 p == Precision::fp64 ? GL_RGBA_INTEGER : GL_RGBA,
                 p == Precision::fp64 ? GL_UNSIGNED_INT : GL_FLOAT, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindTexture(GL_TEXTURE_2D, 0);
}

FieldStorage::FieldStorage(FieldStorage&& o) noexcept
    : texture_(std::exchange(o.texture_, 0)),
      buffer_(std::move(o.buffer_)),
      values_(std::exchange(o.values_, 0)),
      precision_(o.precision_),
      kind_(o.kind_),
      layout_(o.layout_) {}

FieldStorage& FieldStorage::operator=(FieldStorage&& o) noexcept {
  if (this != &o) {
    if (texture_) glDeleteTextures(1, &texture_);
    texture_ = std::exchange(o.texture_, 0);
    buffer_ = std::move(o.buffer_);
    values_ = std::exchange(o.values_, 0);
    precision_ = o.precision_;
    kind_ = o.kind_;
    layout_ = o.layout_;
  }
  return *this;
}

FieldStorage::~FieldStorage() {
  if (texture_) glDeleteTextures(1, &texture_);
}

std::size_t FieldStorage::texels() const {
  if (kind_ == Storage::texture) return std::size_t{layout_.width} * layout_.height;
  return std::max<std::size_t>(layout_.texels_used, 1);
}

void FieldStorage::upload(std::span<const double> values) {
  SCFD_CHECK(values.size() == values_, "upload of {} values into a field of {}", values.size(),
             values_);
  if (values_ == 0) return;
  const bool d = precision_ == Precision::fp64;
  if (kind_ == Storage::buffer) {
    // Wait for every queued kernel first: NVIDIA's driver 580 (H100, H200) let a kernel's writes
    // to a field's buffer (bound at two bindings, texels and reals) land after a later
    // glBufferSubData of the same buffer, glMemoryBarrier(GL_ALL_BARRIER_BITS) notwithstanding: a
    // field made (a fill kernel) and then uploaded read back as zeros. A whole-field upload is
    // rare (set-up, boundary data), so the wait costs little; halo values go through a kernel.
    {
      const counters::GpuWait wait;
      glFinish();
    }
    const std::size_t texels = layout_.texels_used;
    if (d) {  // the values as they are, then zeros in the last texel's unused place (if any)
      buffer_.upload_bytes(values.data(), values.size() * sizeof(double), 0);
      const std::vector<double> tail(texels * layout_.per_texel - values.size(), 0.0);
      buffer_.upload_bytes(tail.data(), tail.size() * sizeof(double),
                           values.size() * sizeof(double));
    } else {
      const std::vector<float> s = staged<float>(values, layout_, texels, linear);
      buffer_.upload(std::span<const float>(s));
    }
    return;
  }
  const std::size_t rows = layout_.rows_used();
  const auto position = [this](std::size_t t) { return layout_.position(t); };
  transfer_barrier();
  glBindTexture(GL_TEXTURE_2D, texture_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  if (d) {
    const std::vector<double> s = staged<double>(values, layout_, rows * layout_.width, position);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, static_cast<GLsizei>(layout_.width),
                    static_cast<GLsizei>(rows), GL_RGBA_INTEGER, GL_UNSIGNED_INT, s.data());
  } else {
    const std::vector<float> s = staged<float>(values, layout_, rows * layout_.width, position);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, static_cast<GLsizei>(layout_.width),
                    static_cast<GLsizei>(rows), GL_RGBA, GL_FLOAT, s.data());
  }
  glBindTexture(GL_TEXTURE_2D, 0);
}

void FieldStorage::download(std::span<double> out) const {
  SCFD_CHECK(out.size() == values_, "download of a field of {} into {} values", values_,
             out.size());
  if (values_ == 0) return;
  const bool d = precision_ == Precision::fp64;
  const std::size_t all = texels() * layout_.per_texel;
  if (kind_ == Storage::buffer) {
    if (d)
      unstaged(buffer_.download<double>(), layout_, linear, out);
    else
      unstaged(buffer_.download<float>(), layout_, linear, out);
    return;
  }
  const auto position = [this](std::size_t t) { return layout_.position(t); };
  transfer_barrier();
  glBindTexture(GL_TEXTURE_2D, texture_);
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  // glGetTexImage waits for the queued kernels.
  if (d) {
    std::vector<double> s(all);
    {
      const counters::GpuWait wait;
      glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA_INTEGER, GL_UNSIGNED_INT, s.data());
    }
    unstaged(s, layout_, position, out);
  } else {
    std::vector<float> s(all);
    {
      const counters::GpuWait wait;
      glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_FLOAT, s.data());
    }
    unstaged(s, layout_, position, out);
  }
  glBindTexture(GL_TEXTURE_2D, 0);
}

void FieldStorage::bind_read(unsigned unit) const {
  if (kind_ == Storage::buffer) {
    buffer_.bind(unit);
    return;
  }
  glActiveTexture(GL_TEXTURE0 + unit);
  glBindTexture(GL_TEXTURE_2D, texture_);
}

void FieldStorage::bind_write(unsigned unit) const {
  if (kind_ == Storage::buffer) {
    buffer_.bind(unit);
    return;
  }
  glBindImageTexture(unit, texture_, 0, GL_FALSE, 0, GL_WRITE_ONLY,
                     precision_ == Precision::fp64 ? GL_RGBA32UI : GL_RGBA32F);
}

}  // namespace scfd::gl
