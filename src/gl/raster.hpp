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
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gl/body.hpp"
#include "gl/buffer.hpp"
#include "gl/driver.hpp"
#include "gl/field_storage.hpp"
#include "gl/program.hpp"

namespace scfd::gl {

// A body under the fragment driver.
class RasterProgram final : public Body {
 public:
  RasterProgram() = default;
  RasterProgram(RasterProgram&& o) noexcept;
  RasterProgram& operator=(RasterProgram&& o) noexcept;
  RasterProgram(const RasterProgram&) = delete;
  RasterProgram& operator=(const RasterProgram&) = delete;
  ~RasterProgram() override;

  const std::string& name() const { return name_; }
  const KernelSpec& spec() const { return spec_; }
  Precision precision() const { return precision_; }

  // As Program::bind: index buffers, fields read, and the body's output (texture fields only).
  void bind(std::initializer_list<const Buffer*> buffers,
            std::initializer_list<const FieldStorage*> fields,
            std::initializer_list<const FieldStorage*> images) override;
  // Draws the body over output elements [0, n) of the bound output; the second form over
  // elements [begin, end) of the n only (begin on a texel boundary).
  void run(std::size_t n) override;
  void run(std::size_t n, std::size_t begin, std::size_t end) override;

  void set(const char* uniform, std::int32_t v) override;
  void set(const char* uniform, std::uint32_t v) override;
  void set_real(const char* uniform, double v) override;

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

// Compiles the embedded body `kernel` ("axpy" or "axpy.glsl") under the fragment driver.
// CompileError for a kernel that is not a body or does not compile.
RasterProgram compile_raster(std::string_view kernel, Precision p, const Defines& defines = {});
// Compiles `text` as if it were kernels/<name> (tests).
RasterProgram compile_raster_source(std::string_view name, std::string_view text, Precision p,
                                    const Defines& defines = {});
// compile_raster as a Body (a BodyCompiler, gl/body.hpp); fields are textures under the fragment
// driver, so `storage` is not read.
std::unique_ptr<Body> compile_raster_body(std::string_view kernel, Precision p,
                                          const Defines& defines, Storage storage);

// Every texel of a texture field set to zero (padding included), through a framebuffer clear.
void clear_texture(FieldStorage& f);

}  // namespace scfd::gl
