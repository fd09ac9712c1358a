// Fields as 2D textures (docs/gpu.md, "Field storage"): 16 bytes per texel, fp64 as RGBA32UI (two
// doubles per texel, read back with packDouble2x32), fp32 as RGBA32F (four floats per texel).
// Entry i lives in texel t = i / per_texel, component i % per_texel. Texels are grouped in tiles
// of 32 x 8 (256 texels: one work group of the compute driver), tiles row major: texel t is in
// tile t / 256, at column t % 32 and row (t / 32) % 8 inside it (kernels/storage.glsl
// scfd_texel). The width is a power of two of at least 256 texels (index -> texel is shifts and
// masks); the height is padded to a multiple of 8 rows, so every tile is whole. Measured on an
// H200: a copy through 32 x 8 tiles runs several times faster than through runs of 256 texels of
// one row (docs/gpu.md, "Field storage"). Padding holds zeros from creation
// (GlBackend::make_field fills every texel) and kernels never write entries past the field's size.
// Move-only; owns one GL texture name with immutable storage (one level, nearest filtering: the
// kernels read with texelFetch and write with imageStore).
#pragma once

#include <cstddef>
#include <span>

#include "gl/program.hpp"

namespace scfd::gl {

struct TextureLayout {
  unsigned shift = 8;                // log2(width)
  unsigned width = 256, height = 8;  // texels
  unsigned per_texel = 2;            // values per texel: 2 (fp64) or 4 (fp32)
  std::size_t texels_used = 0;       // ceil(values / per_texel)
  std::size_t bytes() const { return std::size_t{width} * height * 16; }
  // Row-major position y * width + x of texel t (the host twin of scfd_texel).
  std::size_t position(std::size_t t) const {
    const std::size_t tile = t >> 8, tiles_per_row = width >> 5;
    const std::size_t x = (tile % tiles_per_row) * 32 + (t & 31);
    const std::size_t y = (tile / tiles_per_row) * 8 + ((t >> 5) & 7);
    return y * width + x;
  }
  // Rows that hold texels [0, texels_used): whole tile rows.
  std::size_t rows_used() const {
    const std::size_t tiles = (texels_used + 255) / 256, tiles_per_row = width >> 5;
    return (tiles + tiles_per_row - 1) / tiles_per_row * 8;
  }

  // The layout of `values` values; InputError when it needs a side above max_size.
  static TextureLayout of(std::size_t values, Precision p, int max_size);
};

class Texture {
 public:
  Texture() = default;
  Texture(std::size_t values, Precision p, int max_size);  // contents undefined
  Texture(Texture&& o) noexcept;
  Texture& operator=(Texture&& o) noexcept;
  Texture(const Texture&) = delete;
  Texture& operator=(const Texture&) = delete;
  ~Texture();

  std::size_t size() const { return values_; }
  unsigned id() const { return id_; }
  Precision precision() const { return precision_; }
  const TextureLayout& layout() const { return layout_; }

  // Whole-field transfers of host doubles (rounded to float in fp32). upload writes the texels
  // of the values and zeros in the rest of their last row.
  void upload(std::span<const double> values);
  void download(std::span<double> out) const;

  void bind_sampler(unsigned unit) const;  // `layout(binding = unit) uniform (u)sampler2D`
  void bind_image(unsigned unit) const;    // write-only `layout(binding = unit, ...) image2D`

 private:
  unsigned id_ = 0;
  std::size_t values_ = 0;
  Precision precision_ = Precision::fp64;
  TextureLayout layout_;
};

}  // namespace scfd::gl
