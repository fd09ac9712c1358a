// Fragment programs: the streaming style of the seed thesis (docs/gpu.md §9, gl-raster), the
// driver the gl-raster backend runs kernel bodies with. A body (`// scfd: body entry|entry3|texel`,
// gl/driver.hpp) is compiled unchanged into a fragment shader drawn over its output field's
// texture, which is the colour attachment of a framebuffer: one fragment per output texel, which
// calls the body for the texel's VPT entries (entry), for the elements those entries belong to
// (entry3: at most two), or once (texel), and writes the packed texel. Inputs are read as in the
// compute driver's texture storage (texelFetch through texel_<f> / load_<f>); a body that reads its
// own output (an element-wise update such as axpy) reads only the texel its fragment writes, which
// GL 4.5 allows (texture barrier semantics); below 4.5 it, and a draw whose output is also bound
// as an input, draws into a copy of the output, which is then blitted back (ping-pong).
//
// No storage buffers, images or compute shaders: `// scfd: index` arrays are buffer textures over
// the same GL buffers (R32I / R32UI / R32F, fp64 as RG32UI), and the driver rewrites each
// `name[expr]` of the body into a texelFetch of it, so the kernel files stay the compute
// driver's. Sampler units are set once after linking (no `layout(binding)`).
//
// Output range: run(n) writes entries [0, n) (entry3: 3n) of the output field and nothing else.
// The texels wholly inside are one draw (a triangle over the texture's used rows; fragments past
// the range discard); a last texel that holds entries past n too is a second draw of that one
// texel with a colour mask on the channels of the entries below n, so its other entries (a rank's
// ghosts, padding) keep their values without the fragment reading them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gl/buffer.hpp"
#include "gl/driver.hpp"
#include "gl/field_storage.hpp"
#include "gl/program.hpp"

namespace scfd::gl {

class RasterProgram {
 public:
  RasterProgram() = default;
  RasterProgram(RasterProgram&& o) noexcept;
  RasterProgram& operator=(RasterProgram&& o) noexcept;
  RasterProgram(const RasterProgram&) = delete;
  RasterProgram& operator=(const RasterProgram&) = delete;
  ~RasterProgram();

  const std::string& name() const { return name_; }
  const KernelSpec& spec() const { return spec_; }
  Precision precision() const { return precision_; }

  // As Program::bind: index buffers, fields read, and the body's output (texture fields only).
  void bind(std::initializer_list<const Buffer*> buffers,
            std::initializer_list<const FieldStorage*> fields,
            std::initializer_list<const FieldStorage*> images);
  // Draws the body over output elements [0, n) of the bound output; the second form over
  // elements [begin, end) of the n only (begin on a texel boundary).
  void run(std::size_t n);
  void run(std::size_t n, std::size_t begin, std::size_t end);

  void set(const char* uniform, std::int32_t v);
  void set(const char* uniform, std::uint32_t v);
  void set_real(const char* uniform, double v);

 private:
  friend RasterProgram compile_raster_source(std::string_view, std::string_view, Precision,
                                             const Defines&);
  RasterProgram(unsigned id, Precision p, std::string name, KernelSpec spec,
                std::vector<unsigned> buffer_formats, bool reads_output);
  int location(const char* uniform);
  void draw(std::size_t first_texel, std::size_t end_texel, unsigned channels);
  // Copies rows [0, rows) of texture `from` into texture `to` (glBlitFramebuffer).
  void blit(unsigned from, unsigned to, int width, int rows);

  unsigned id_ = 0, framebuffer_ = 0, vertex_array_ = 0;
  Precision precision_ = Precision::fp64;
  std::string name_;
  KernelSpec spec_;
  std::vector<unsigned> buffer_formats_;   // GL internal format of each index buffer's texture
  std::vector<unsigned> buffer_textures_;  // one buffer texture name per index buffer
  const FieldStorage* output_ = nullptr;
  std::vector<std::pair<std::string, int>> uniforms_;
  bool reads_output_ = false;  // the body reads its output (texel_<out> / load_<out>)
  bool aliased_ = false;       // the bound output is also one of the bound inputs
  FieldStorage scratch_;       // below GL 4.5: the copy such a body draws into
};

// Reductions in the thesis's multi-pass style: each pass is a draw of kernels/raster_fold.glsl
// whose entry j adds (or takes the largest magnitude of) entries j F .. j F + F - 1 of the previous
// pass in order (F = kFold), into scratch fields of the same texture layout, until one value is
// left; that value is read back (one texel, glReadPixels) or copied on the device into a buffer
// (glReadPixels into a pixel-pack buffer), where bodies read it as `// scfd: index` scalars. A
// fixed order, so the result is the same on every run; 16 M entries take six passes.
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

 private:
  // Runs the passes; the result is entry 0 of the returned field (null when n = 0).
  const FieldStorage* run(Op op, const FieldStorage& x, const FieldStorage* y, std::size_t n);
  // glReadPixels of texel 0 of f into host memory or, with a bound pixel-pack buffer, into it.
  void read_value(const FieldStorage& f, void* at) const;
  Precision precision_;
  int max_size_;
  RasterProgram sum_, dot_, max_;
  FieldStorage a_, b_;  // ping-pong scratch: the first pass's output, then the next
  unsigned read_framebuffer_ = 0;
};

// Values written into listed entries of a field by drawing GL_POINTS, one point per entry, into
// the field's texture (the thesis's point sprites, for boundary values and halo receives): a
// vertex holds its texel's position and the value; the points are grouped by the entry's place in
// its texel, one draw per place with a colour mask on that place's channels, so the texel's other
// entries keep their values. A point list is built once (per boundary patch, per neighbour) for
// fields of one layout; each write uploads the values and draws.
class PointWriter {
 public:
  explicit PointWriter(Precision p);
  PointWriter(PointWriter&&) noexcept;
  PointWriter& operator=(PointWriter&&) noexcept;
  PointWriter(const PointWriter&) = delete;
  PointWriter& operator=(const PointWriter&) = delete;
  ~PointWriter();

  // The points of `entries` (any order, no repeats) in fields of `layout`.
  struct Points {
    TextureLayout layout;
    std::vector<std::size_t> order;            // value k goes to vertex order[k]
    std::size_t first[4] = {}, count[4] = {};  // the vertices of each place in a texel
    Buffer positions;                          // per vertex: texel x, y (uint32)
    Buffer values;                             // per vertex: the value's bits (uint32 x 2)
  };
  Points points(std::span<const std::size_t> entries, const TextureLayout& layout) const;
  // f[entries[k]] = values[k] for the entries of `p`.
  void write(Points& p, std::span<const double> values, FieldStorage& f);

 private:
  Precision precision_;
  unsigned program_ = 0, framebuffer_ = 0, vertex_array_ = 0;
  int size_location_ = -1;
};

// Compiles the embedded body `kernel` ("axpy" or "axpy.glsl") under the fragment driver.
// CompileError for a kernel that is not a body or does not compile.
RasterProgram compile_raster(std::string_view kernel, Precision p, const Defines& defines = {});
// Compiles `text` as if it were kernels/<name> (tests).
RasterProgram compile_raster_source(std::string_view name, std::string_view text, Precision p,
                                    const Defines& defines = {});

// Every texel of a texture field set to zero (padding included), through a framebuffer clear.
void clear_texture(FieldStorage& f);

// Which driver runs kernel bodies: compute shaders (gl-compute) or fragment programs (gl-raster).
enum class Driver { compute, raster };
std::string_view to_string(Driver d);

// A body compiled for one driver, with the calls both share (bind, run, uniforms).
class BodyProgram {
 public:
  explicit BodyProgram(Program p) : compute_(std::move(p)) {}
  explicit BodyProgram(RasterProgram p) : raster_(std::move(p)), is_raster_(true) {}
  void bind(std::initializer_list<const Buffer*> buffers,
            std::initializer_list<const FieldStorage*> fields,
            std::initializer_list<const FieldStorage*> images);
  void run(std::size_t n);
  void run(std::size_t n, std::size_t begin, std::size_t end);  // an entry or entry3 body
  void set(const char* uniform, std::int32_t v);
  void set(const char* uniform, std::uint32_t v);
  void set_real(const char* uniform, double v);

 private:
  Program compute_;
  RasterProgram raster_;
  bool is_raster_ = false;
};

// Compiles the embedded body `kernel` for `driver` (Storage::texture under the fragment driver).
BodyProgram compile_body(std::string_view kernel, Driver driver, Precision p,
                         const Defines& defines, Storage storage);

// The body text with every `name[expr]` of an index array in `names` replaced by
// `scfd_ix_name(expr)` (nested brackets kept; exposed for tests).
std::string rewrite_index_reads(std::string_view text, const std::vector<std::string>& names);

}  // namespace scfd::gl
