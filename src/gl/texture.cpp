// Field textures (see texture.hpp). Bind-to-edit (GL 4.3), as buffer.cpp. Transfers go through a
// row-major host array in which each texel sits at its tile position.
#include "gl/texture.hpp"

#include <epoxy/gl.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <utility>
#include <vector>

#include "core/error.hpp"

namespace scfd::gl {
namespace {

// Texture-side transfers wait for the kernels' image stores before them.
void transfer_barrier() {
  glMemoryBarrier(GL_TEXTURE_UPDATE_BARRIER_BIT);
}

// The first l.rows_used() rows of the texture as a row-major host array of `Value`s: each value
// at its texel's position, zeros elsewhere.
template <typename Value>
std::vector<Value> staged(std::span<const double> values, const TextureLayout& l) {
  std::vector<Value> out(l.rows_used() * l.width * l.per_texel, Value(0));
  for (std::size_t i = 0; i < values.size(); ++i)
    out[l.position(i / l.per_texel) * l.per_texel + i % l.per_texel] =
        static_cast<Value>(values[i]);
  return out;
}

// The values of a whole-texture read-back `all` (row major) in entry order.
template <typename Value>
void unstaged(const std::vector<Value>& all, const TextureLayout& l, std::span<double> out) {
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = static_cast<double>(all[l.position(i / l.per_texel) * l.per_texel + i % l.per_texel]);
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

Texture::Texture(std::size_t values, Precision p, int max_size)
    : values_(values), precision_(p), layout_(TextureLayout::of(values, p, max_size)) {
  glGenTextures(1, &id_);
  glBindTexture(GL_TEXTURE_2D, id_);
  glTexStorage2D(GL_TEXTURE_2D, 1, p == Precision::fp64 ? GL_RGBA32UI : GL_RGBA32F,
                 static_cast<GLsizei>(layout_.width), static_cast<GLsizei>(layout_.height));
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindTexture(GL_TEXTURE_2D, 0);
}

Texture::Texture(Texture&& o) noexcept
    : id_(std::exchange(o.id_, 0)),
      values_(std::exchange(o.values_, 0)),
      precision_(o.precision_),
      layout_(o.layout_) {}

Texture& Texture::operator=(Texture&& o) noexcept {
  if (this != &o) {
    if (id_) glDeleteTextures(1, &id_);
    id_ = std::exchange(o.id_, 0);
    values_ = std::exchange(o.values_, 0);
    precision_ = o.precision_;
    layout_ = o.layout_;
  }
  return *this;
}

Texture::~Texture() {
  if (id_) glDeleteTextures(1, &id_);
}

void Texture::upload(std::span<const double> values) {
  SCFD_CHECK(values.size() == values_, "upload of {} values into a texture of {}", values.size(),
             values_);
  if (values_ == 0) return;
  const std::size_t rows = layout_.rows_used();
  transfer_barrier();
  glBindTexture(GL_TEXTURE_2D, id_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  if (precision_ == Precision::fp64) {
    const std::vector<double> s = staged<double>(values, layout_);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, static_cast<GLsizei>(layout_.width),
                    static_cast<GLsizei>(rows), GL_RGBA_INTEGER, GL_UNSIGNED_INT, s.data());
  } else {
    const std::vector<float> s = staged<float>(values, layout_);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, static_cast<GLsizei>(layout_.width),
                    static_cast<GLsizei>(rows), GL_RGBA, GL_FLOAT, s.data());
  }
  glBindTexture(GL_TEXTURE_2D, 0);
}

void Texture::download(std::span<double> out) const {
  SCFD_CHECK(out.size() == values_, "download of a texture of {} into {} values", values_,
             out.size());
  if (values_ == 0) return;
  const std::size_t all = std::size_t{layout_.width} * layout_.height * layout_.per_texel;
  transfer_barrier();
  glBindTexture(GL_TEXTURE_2D, id_);
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  if (precision_ == Precision::fp64) {
    std::vector<double> s(all);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA_INTEGER, GL_UNSIGNED_INT, s.data());
    unstaged(s, layout_, out);
  } else {
    std::vector<float> s(all);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_FLOAT, s.data());
    unstaged(s, layout_, out);
  }
  glBindTexture(GL_TEXTURE_2D, 0);
}

void Texture::bind_sampler(unsigned unit) const {
  glActiveTexture(GL_TEXTURE0 + unit);
  glBindTexture(GL_TEXTURE_2D, id_);
}

void Texture::bind_image(unsigned unit) const {
  glBindImageTexture(unit, id_, 0, GL_FALSE, 0, GL_WRITE_ONLY,
                     precision_ == Precision::fp64 ? GL_RGBA32UI : GL_RGBA32F);
}

}  // namespace scfd::gl
