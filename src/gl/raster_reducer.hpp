// Reductions in the thesis's multi-pass style: each pass is a draw of kernels/raster_fold.glsl
// whose entry j adds (or takes the largest magnitude of) entries j F .. j F + F - 1 of the previous
// pass in order (F = kFold), into scratch fields of the same texture layout, until one value is
// left; that value is read back (one texel, glReadPixels) or copied on the device into a buffer
// (glReadPixels into a pixel-pack buffer), where bodies read it as `// scfd: index` scalars. A
// fixed order, so the result is the same on every run; 16 M entries take six passes.
#pragma once

#include <cstddef>

#include "gl/buffer.hpp"
#include "gl/field_storage.hpp"
#include "gl/raster.hpp"

namespace scfd::gl {

class RasterReducer {
 public:
  static constexpr std::size_t kFold = 16;
  enum class Op { sum, dot, max_abs };  // sum x_i, sum x_i y_i, max |x_i|

  // Fields of precision p; scratch fields grow as needed up to textures of max_texture_size.
  RasterReducer(Precision p, int max_texture_size);
  RasterReducer(RasterReducer&&) noexcept;
  RasterReducer& operator=(RasterReducer&&) noexcept;
  ~RasterReducer();

  // The reduction over entries [0, n) of x (and y for dot), read back.
  double reduce(Op op, const FieldStorage& x, const FieldStorage* y, std::size_t n);
  // The same, stored on the device as one value of the fields' precision at byte `offset` of
  // `out` (no read-back; later draws and dispatches see it).
  void reduce_into(Op op, const FieldStorage& x, const FieldStorage* y, std::size_t n, Buffer& out,
                   std::size_t offset);
  // Entry 0 of f (a field of this precision) copied on the device to byte `offset` of `out`.
  void copy_into(const FieldStorage& f, Buffer& out, std::size_t offset) const;

 private:
  // Runs the passes; the result is entry 0 of the returned field (null when n = 0).
  const FieldStorage* run(Op op, const FieldStorage& x, const FieldStorage* y, std::size_t n);
  // glReadPixels of texel 0 of f into host memory or, with a bound pixel-pack buffer, into it.
  void read_value(const FieldStorage& f, void* at) const;
  Precision precision_;
  int max_size_;
  RasterProgram sum_, dot_, max_;
  FieldStorage a_, b_;  // ping-pong scratch: the first pass's output, then the next
  Buffer zero_;         // 8 zero bytes, the result of an empty reduction (made on first use)
  unsigned read_framebuffer_ = 0;
};

}  // namespace scfd::gl
