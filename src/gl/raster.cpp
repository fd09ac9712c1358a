// The fragment driver's programs (see raster.hpp).
#include "gl/raster.hpp"

#include <epoxy/gl.h>
#include <fmt/format.h>

#include <utility>

#include "core/counters.hpp"
#include "core/error.hpp"
#include "gl/buffer.hpp"
#include "gl/context.hpp"
#include "gl/field_storage.hpp"
#include "gl/fragment_source.hpp"

namespace scfd::gl {

RasterProgram compile_raster_source(std::string_view name, std::string_view text, Precision p,
                                    const Defines& defines) {
  std::string n(name);
  if (!n.ends_with(".glsl")) n += ".glsl";
  KernelSpec spec = parse_spec(n, text);
  if (!spec.is_body())
    throw CompileError(fmt::format("kernels/{}: error: the fragment driver runs bodies only", n));
  std::vector<unsigned> formats;
  const ExpandedSource fs = fragment_source(n, text, p, defines, spec, formats);
  const GLuint vertex = compile_shader(GL_VERTEX_SHADER, vertex_source(), n, p);
  GLuint fragment = 0;
  try {
    fragment = compile_shader(GL_FRAGMENT_SHADER, fs, n, p);
  } catch (...) {
    glDeleteShader(vertex);
    throw;
  }
  std::string log;
  const GLuint program = link_program(vertex, fragment, log);
  if (program == 0) {
    throw CompileError(fmt::format("kernels/{} ({}, fragment driver) does not link:\n{}", n,
                                   to_string(p), rewrite_log(log, fs.lines, n)));
  }
  const std::string& out = spec.images[0];
  const bool reads_output = text.find("texel_" + out + "(") != std::string::npos ||
                            text.find("load_" + out + "(") != std::string::npos;
  return RasterProgram(program, p, n, std::move(spec), std::move(formats), reads_output);
}

RasterProgram compile_raster(std::string_view kernel, Precision p, const Defines& defines) {
  std::string n(kernel);
  if (!n.ends_with(".glsl")) n += ".glsl";
  return compile_raster_source(n, embedded_text(n), p, defines);
}

RasterProgram::RasterProgram(unsigned id, Precision p, std::string name, KernelSpec spec,
                             std::vector<unsigned> buffer_formats, bool reads_output)
    : id_(id),
      precision_(p),
      name_(std::move(name)),
      spec_(std::move(spec)),
      buffer_formats_(std::move(buffer_formats)),
      reads_output_(reads_output) {
  glGenFramebuffers(1, &framebuffer_);
  glGenVertexArrays(1, &vertex_array_);
  buffer_textures_.resize(spec_.buffers.size());
  if (!buffer_textures_.empty())
    glGenTextures(static_cast<GLsizei>(buffer_textures_.size()), buffer_textures_.data());
  // Texture units: the fields, the output, then the index buffers.
  glUseProgram(id_);
  int unit = 0;
  for (const std::string& f : spec_.fields) glUniform1i(location(("scfd_f_" + f).c_str()), unit++);
  glUniform1i(location(("scfd_f_" + spec_.images[0]).c_str()), unit++);
  for (const KernelSpec::Storage& b : spec_.buffers)
    glUniform1i(location(("scfd_b_" + b.name).c_str()), unit++);
}

RasterProgram::RasterProgram(RasterProgram&& o) noexcept
    : Body(),
      id_(std::exchange(o.id_, 0)),
      framebuffer_(std::exchange(o.framebuffer_, 0)),
      vertex_array_(std::exchange(o.vertex_array_, 0)),
      precision_(o.precision_),
      name_(std::move(o.name_)),
      spec_(std::move(o.spec_)),
      buffer_formats_(std::move(o.buffer_formats_)),
      buffer_textures_(std::move(o.buffer_textures_)),
      output_(std::exchange(o.output_, nullptr)),
      uniforms_(std::move(o.uniforms_)),
      reads_output_(o.reads_output_),
      aliased_(o.aliased_),
      scratch_(std::move(o.scratch_)) {}

RasterProgram& RasterProgram::operator=(RasterProgram&& o) noexcept {
  RasterProgram moved(std::move(o));  // releases this one's GL names on leaving
  std::swap(id_, moved.id_);
  std::swap(framebuffer_, moved.framebuffer_);
  std::swap(vertex_array_, moved.vertex_array_);
  std::swap(precision_, moved.precision_);
  std::swap(name_, moved.name_);
  std::swap(spec_, moved.spec_);
  std::swap(buffer_formats_, moved.buffer_formats_);
  std::swap(buffer_textures_, moved.buffer_textures_);
  std::swap(output_, moved.output_);
  std::swap(uniforms_, moved.uniforms_);
  std::swap(reads_output_, moved.reads_output_);
  std::swap(aliased_, moved.aliased_);
  std::swap(scratch_, moved.scratch_);
  return *this;
}

RasterProgram::~RasterProgram() {
  if (!buffer_textures_.empty())
    glDeleteTextures(static_cast<GLsizei>(buffer_textures_.size()), buffer_textures_.data());
  if (vertex_array_) glDeleteVertexArrays(1, &vertex_array_);
  if (framebuffer_) glDeleteFramebuffers(1, &framebuffer_);
  if (id_) glDeleteProgram(id_);
}

int RasterProgram::location(const char* uniform) {
  for (const auto& [name, loc] : uniforms_)
    if (name == uniform) return loc;
  const int loc = glGetUniformLocation(id_, uniform);
  uniforms_.emplace_back(uniform, loc);
  return loc;
}

void RasterProgram::set(const char* u, std::int32_t v) {
  glUseProgram(id_);
  glUniform1i(location(u), v);
}
void RasterProgram::set(const char* u, std::uint32_t v) {
  glUseProgram(id_);
  glUniform1ui(location(u), v);
}
void RasterProgram::set_real(const char* u, double v) {
  glUseProgram(id_);
  if (precision_ == Precision::fp64)
    glUniform1d(location(u), v);
  else
    glUniform1f(location(u), static_cast<float>(v));
}

void RasterProgram::bind(std::initializer_list<const Buffer*> buffers,
                         std::initializer_list<const FieldStorage*> fields,
                         std::initializer_list<const FieldStorage*> images) {
  SCFD_CHECK(buffers.size() == spec_.buffers.size() && fields.size() == spec_.fields.size() &&
                 images.size() == 1,
             "kernels/{}: bound {} buffers, {} fields, {} images; it declares {}, {}, 1", name_,
             buffers.size(), fields.size(), images.size(), spec_.buffers.size(),
             spec_.fields.size());
  const auto check = [&](const std::string& name, const FieldStorage& f) {
    SCFD_CHECK(f.precision() == precision_ && f.kind() == Storage::texture,
               "kernels/{}: {} {} field {} bound to a {} fragment program", name_,
               to_string(f.precision()), to_string(f.kind()), name, to_string(precision_));
    set((name + "_shift").c_str(), static_cast<std::uint32_t>(f.layout().shift));
  };
  unsigned unit = 0;
  std::size_t k = 0;
  output_ = *images.begin();
  aliased_ = false;
  for (const FieldStorage* f : fields) {
    check(spec_.fields[k++], *f);
    f->bind_read(unit++);
    aliased_ = aliased_ || f == output_;  // an in-place update (y <- free .* y)
  }
  check(spec_.images[0], *output_);
  output_->bind_read(unit++);
  k = 0;
  for (const Buffer* b : buffers) {
    glActiveTexture(GL_TEXTURE0 + unit++);
    glBindTexture(GL_TEXTURE_BUFFER, buffer_textures_[k]);
    glTexBuffer(GL_TEXTURE_BUFFER, buffer_formats_[k], b->id());
    ++k;
  }
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, output_->texture(),
                         0);
  if (debug_enabled()) {
    const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    SCFD_CHECK(status == GL_FRAMEBUFFER_COMPLETE, "kernels/{}: framebuffer status 0x{:x}", name_,
               status);
  }
}

void RasterProgram::run(std::size_t n) {
  run(n, 0, n);
}

void RasterProgram::run(std::size_t n, std::size_t begin, std::size_t end) {
  SCFD_CHECK(output_ != nullptr, "kernels/{}: run before bind", name_);
  const std::size_t vpt = output_->layout().per_texel;
  const auto c = static_cast<std::size_t>(spec_.components());
  const std::size_t total = end * c;
  SCFD_CHECK(begin <= end && end <= n && n * c <= output_->size() && begin * c % vpt == 0,
             "kernels/{}: elements [{}, {}) of {} into a field of {}", name_, begin, end, n,
             output_->size());
  if (total == begin * c) return;
  set("n", static_cast<std::uint32_t>(n));
  // Below GL 4.5 a fragment may not read the texel it writes: such a body draws into a copy of
  // the output and the copy is blitted back (ping-pong).
  const bool ping_pong = (reads_output_ || aliased_) && gl_version() < 45;
  const TextureLayout& L = output_->layout();
  const auto rows = static_cast<GLint>(L.rows_used());
  if (ping_pong) {
    if (scratch_.size() != output_->size()) {
      GLint max_size = 0;
      glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_size);
      scratch_ = FieldStorage(output_->size(), precision_, Storage::texture, max_size);
      // Making a texture binds it to the active unit, which may be the output's: bind it again.
      output_->bind_read(static_cast<unsigned>(spec_.fields.size()));
    }
    blit(output_->texture(), scratch_.texture(), static_cast<GLint>(L.width), rows);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, scratch_.texture(),
                           0);
  }
  const std::size_t first = begin * c / vpt, full = total / vpt, rest = total % vpt;
  const unsigned all = 4;
  if (full > first) draw(first, full, all);
  // The last texel's entries below `total` only: fp64 takes two channels per value.
  if (rest > 0) draw(full, full + 1, static_cast<unsigned>(rest * (4 / vpt)));
  if (ping_pong) {
    blit(scratch_.texture(), output_->texture(), static_cast<GLint>(L.width), rows);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, output_->texture(),
                           0);
  }
}

void RasterProgram::blit(unsigned from, unsigned to, int width, int rows) {
  GLuint read = 0;
  glGenFramebuffers(1, &read);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, read);
  glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, from, 0);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, framebuffer_);
  glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, to, 0);
  glBlitFramebuffer(0, 0, width, rows, 0, 0, width, rows, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  counters::add(counters::Kind::gpu_dispatch);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &read);
}

void RasterProgram::draw(std::size_t first_texel, std::size_t end_texel, unsigned channels) {
  const TextureLayout& L = output_->layout();
  glUseProgram(id_);
  glUniform1ui(location("scfd_first"), static_cast<GLuint>(first_texel));
  glUniform1ui(location("scfd_end"), static_cast<GLuint>(end_texel));
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glBindVertexArray(vertex_array_);
  if (end_texel - first_texel == 1) {
    const std::size_t at = L.position(first_texel);
    glViewport(static_cast<GLint>(at % L.width), static_cast<GLint>(at / L.width), 1, 1);
  } else {
    const std::size_t tiles = (end_texel + 255) / 256, tiles_per_row = L.width >> 5;
    const std::size_t rows = (tiles + tiles_per_row - 1) / tiles_per_row * 8;
    glViewport(0, 0, static_cast<GLsizei>(L.width), static_cast<GLsizei>(rows));
  }
  glColorMask(channels > 0, channels > 1, channels > 2, channels > 3);
  if (gl_version() >= 45) glTextureBarrier();  // own-texel reads after earlier draws
  glDrawArrays(GL_TRIANGLES, 0, 3);
  counters::add(counters::Kind::gpu_dispatch);
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  if (debug_enabled()) check_errors(name_.c_str());
}

std::unique_ptr<Body> compile_raster_body(std::string_view kernel, Precision p,
                                          const Defines& defines, Storage /*storage*/) {
  return std::make_unique<RasterProgram>(compile_raster(kernel, p, defines));
}
void clear_texture(FieldStorage& f) {
  SCFD_CHECK(f.kind() == Storage::texture, "clear_texture of a buffer field");
  GLuint fbo = 0;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, f.texture(), 0);
  if (f.precision() == Precision::fp64) {
    const GLuint zero[4] = {0, 0, 0, 0};
    glClearBufferuiv(GL_COLOR, 0, zero);
  } else {
    const GLfloat zero[4] = {0, 0, 0, 0};
    glClearBufferfv(GL_COLOR, 0, zero);
  }
  counters::add(counters::Kind::gpu_dispatch);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
}

}  // namespace scfd::gl
