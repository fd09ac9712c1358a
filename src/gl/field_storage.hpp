// Where a field's values live on the GPU (docs/gpu.md §8): 16 bytes per texel,
// fp64 two doubles per texel, fp32 four floats. Entry i lives in texel t = i / per_texel,
// component i % per_texel, in one of two storages, the same for every field of a backend:
//
// - Storage::texture: a 2D texture, fp64 as RGBA32UI (read back with packDouble2x32), fp32 as
//   RGBA32F. Texels are grouped in tiles of 32 x 8 (256 texels: one work group of the compute
//   driver), tiles row major: texel t is in tile t / 256, at column t % 32 and row (t / 32) % 8
//   inside it (kernels/storage.glsl scfd_texel). The width is a power of two of at least 256
//   texels (index -> texel is shifts and masks); the height is padded to a multiple of 8 rows, so
//   every tile is whole. Kernels read with texelFetch and write with imageStore.
// - Storage::buffer: a storage buffer of the same texels in order (texel t at byte 16 t), read and
//   written as an array of dvec2 / vec4.
//
// Padding holds zeros from creation (GlBackend::make_field fills every texel) and kernels never
// write entries past the field's size. Move-only; owns one GL texture or buffer name.
#pragma once

#include <cstddef>
#include <span>

#include "gl/buffer.hpp"
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

class FieldStorage {
 public:
  FieldStorage() = default;
  // Contents undefined. The texture layout is computed for both storages (TextureLayout's
  // texels_used and per_texel are the buffer's too).
  FieldStorage(std::size_t values, Precision p, Storage kind, int max_size);
  FieldStorage(FieldStorage&& o) noexcept;
  FieldStorage& operator=(FieldStorage&& o) noexcept;
  FieldStorage(const FieldStorage&) = delete;
  FieldStorage& operator=(const FieldStorage&) = delete;
  ~FieldStorage();

  std::size_t size() const { return values_; }
  Precision precision() const { return precision_; }
  Storage kind() const { return kind_; }
  const TextureLayout& layout() const { return layout_; }
  unsigned texture() const { return texture_; }     // the GL texture name (Storage::texture)
  const Buffer& buffer() const { return buffer_; }  // its texels (Storage::buffer)
  std::size_t texels() const;                       // texels allocated (padding included)
  std::size_t bytes() const { return texels() * 16; }

  // Whole-field transfers of host doubles (rounded to float in fp32). upload writes the texels
  // of the values and zeros in the rest of their last tile row (texture) or texel (buffer); into
  // a buffer it first waits for the queued kernels (glFinish; why: field_storage.cpp).
  void upload(std::span<const double> values);
  void download(std::span<double> out) const;

  // As the driver declares a field read (`in`): texture unit `unit` / storage buffer binding.
  void bind_read(unsigned unit) const;
  // As the driver declares a field written (`image`): image unit (write-only) / buffer binding.
  void bind_write(unsigned unit) const;

 private:
  unsigned texture_ = 0;  // Storage::texture
  Buffer buffer_;         // Storage::buffer
  std::size_t values_ = 0;
  Precision precision_ = Precision::fp64;
  Storage kind_ = Storage::texture;
  TextureLayout layout_;
};

}  // namespace scfd::gl
