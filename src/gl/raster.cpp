// The fragment driver of kernel bodies and its programs (see raster.hpp).
#include "gl/raster.hpp"

#include <epoxy/gl.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <utility>

#include "core/error.hpp"
#include "gl/buffer.hpp"
#include "gl/context.hpp"
#include "gl/field_storage.hpp"

namespace scfd::gl {
namespace {

void add_line(ExpandedSource& s, const std::string& line, const char* origin = "<driver>") {
  s.text += line + "\n";
  s.lines.push_back({origin, static_cast<int>(s.lines.size()) + 1});
}

// GLSL 4.50 where the context has it (the own-texel reads of element-wise bodies need GL 4.5),
// 4.00 below, 3.30 on a 3.3 context (no `precise`; doubles through ARB_gpu_shader_fp64).
std::string version_line() {
  const int v = gl_version();
  return v >= 45 ? "#version 450 core" : v >= 40 ? "#version 400 core" : "#version 330 core";
}

const std::string* find_define(const Defines& defines, std::string_view key) {
  for (const auto& [k, v] : defines)
    if (k == key) return &v;
  return nullptr;
}

// An index array as a buffer texture: the sampler type, the texture's internal format and the
// accessor's return type and expression of the fetched texel `v`.
struct IndexAccess {
  const char* sampler;
  unsigned format;
  std::string type, value;
};

IndexAccess index_access(std::string_view kernel, const std::string& declared, Precision p,
                         const Defines& defines) {
  std::string type = declared;
  if (type == "real") type = p == Precision::fp64 ? "double" : "float";
  if (type == "acc") {
    const std::string* acc = find_define(defines, "acc");
    type = acc != nullptr ? *acc : (p == Precision::fp64 ? "double" : "float");
  }
  if (type == "int") return {"isamplerBuffer", GL_R32I, "int", "v.x"};
  if (type == "uint") return {"usamplerBuffer", GL_R32UI, "uint", "v.x"};
  if (type == "float") return {"samplerBuffer", GL_R32F, "float", "v.x"};
  if (type == "double") return {"usamplerBuffer", GL_RG32UI, "double", "packDouble2x32(v.xy)"};
  throw CompileError(fmt::format(
      "kernels/{}: error: index array of type '{}' has no buffer-texture form", kernel, declared));
}

bool identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

ExpandedSource fragment_source(std::string_view name, std::string_view text, Precision p,
                               const Defines& defines, const KernelSpec& spec,
                               std::vector<unsigned>& formats) {
  const bool d = p == Precision::fp64;
  ExpandedSource s;
  const std::string version = version_line();
  add_line(s, version, "<prelude>");
  if (version.find("330") != std::string::npos) {
    if (d) {  // doubles below GLSL 4.00 come with the extension (DeviceInfo::fp64 says so)
      if (!epoxy_has_gl_extension("GL_ARB_gpu_shader_fp64"))
        throw CompileError(
            fmt::format("kernels/{}: fp64 needs GL 4.0 or ARB_gpu_shader_fp64", name));
      add_line(s, "#extension GL_ARB_gpu_shader_fp64 : require", "<prelude>");
    }
    add_line(s, "#define precise", "<prelude>");
  }
  add_line(s, fmt::format("#define real {}", d ? "double" : "float"), "<prelude>");
  for (int n = 2; n <= 4; ++n)
    add_line(s, fmt::format("#define real{} {}vec{}", n, d ? "d" : "", n), "<prelude>");
  for (const auto& [key, value] : defines) add_line(s, "#define " + key + " " + value, "<prelude>");
  add_line(s, fmt::format("#define SCFD_FP64 {}", d ? 1 : 0));
  std::vector<std::string> included;
  expand_into(s, "storage.glsl", embedded_text("storage.glsl"), included);

  std::vector<std::string> index_names;
  for (const KernelSpec::Storage& b : spec.buffers) {
    if (!b.readonly)
      throw CompileError(
          fmt::format("kernels/{}: error: a body under the fragment driver writes only its "
                      "output ('buffer {}')",
                      name, b.name));
    const IndexAccess a = index_access(name, b.type, p, defines);
    formats.push_back(a.format);
    index_names.push_back(b.name);
    add_line(s, fmt::format("uniform {} scfd_b_{};", a.sampler, b.name));
    add_line(s, fmt::format("{0} scfd_ix_{1}(uint i) {{ {2} v = texelFetch(scfd_b_{1}, int(i)); "
                            "return {3}; }}",
                            a.type, b.name,
                            a.format == GL_R32I   ? "ivec4"
                            : a.format == GL_R32F ? "vec4"
                                                  : "uvec4",
                            a.value));
  }
  const auto field = [&](const std::string& f) {
    add_line(s, fmt::format("uniform uint {}_shift;", f));
    add_line(s, fmt::format("uniform {} scfd_f_{};", d ? "usampler2D" : "sampler2D", f));
    add_line(s, fmt::format("realv texel_{0}(uint t) {{ return scfd_unpack(texelFetch(scfd_f_{0}, "
                            "scfd_texel(t, {0}_shift), 0)); }}",
                            f));
    add_line(
        s, fmt::format("real load_{0}(uint i) {{ return scfd_get(texel_{0}(i / VPT), i % VPT); }}",
                       f));
  };
  for (const std::string& f : spec.fields) field(f);
  const std::string& out = spec.images[0];
  field(out);  // element-wise bodies read the old value of the texel they write
  add_line(s, "uniform uint n;");
  add_line(s, "uniform uint scfd_first;");  // the texels drawn: [scfd_first, scfd_end)
  add_line(s, "uniform uint scfd_end;");
  add_line(s, fmt::format("out {} scfd_out;", d ? "uvec4" : "vec4"));

  const std::size_t body_start = s.text.size();
  expand_into(s, name, text, included);
  s.text.replace(body_start, std::string::npos,
                 rewrite_index_reads(std::string_view(s.text).substr(body_start), index_names));

  add_line(s, "void main() {");
  add_line(s, "  uvec2 p = uvec2(gl_FragCoord.xy);");
  add_line(s, fmt::format("  uint tiles_per_row = (1u << {}_shift) >> 5u;", out));
  add_line(s, "  uint tile = (p.y >> 3u) * tiles_per_row + (p.x >> 5u);");
  add_line(s, "  uint t = (tile << 8u) | ((p.y & 7u) << 5u) | (p.x & 31u);");
  add_line(s, "  if (t < scfd_first || t >= scfd_end) discard;");
  add_line(s, "  realv v = realv(0);");
  if (spec.kind == KernelSpec::Kind::texel) {
    add_line(s, "  v = texel(t);");
  } else if (spec.kind == KernelSpec::Kind::entry) {
    add_line(s, "  for (uint k = 0u; k < VPT; ++k)");
    add_line(s, "    if (t * VPT + k < n) v = scfd_set(v, k, entry(t * VPT + k));");
  } else {  // entry3: the texel's entries belong to at most two elements
    add_line(s, "  uint total = 3u * n, j0 = t * VPT;");
    add_line(s, "  uint e0 = j0 / 3u, e1 = min(j0 + VPT - 1u, total - 1u) / 3u;");
    add_line(s, "  real3 a = entry3(e0);");
    add_line(s, "  real3 b = e1 != e0 ? entry3(e1) : a;");
    add_line(s, "  for (uint k = 0u; k < VPT; ++k) {");
    add_line(s, "    uint j = j0 + k;");
    add_line(s, "    if (j >= total) break;");
    add_line(s, "    real3 w = j / 3u == e0 ? a : b;");
    add_line(s, "    uint c = j % 3u;");
    add_line(s, "    v = scfd_set(v, k, c == 0u ? w.x : c == 1u ? w.y : w.z);");
    add_line(s, "  }");
  }
  add_line(s, "  scfd_out = scfd_pack(v);");
  add_line(s, "}");
  return s;
}

std::string info_log(GLuint object, bool program) {
  GLint n = 0;
  if (program)
    glGetProgramiv(object, GL_INFO_LOG_LENGTH, &n);
  else
    glGetShaderiv(object, GL_INFO_LOG_LENGTH, &n);
  std::string log(static_cast<std::size_t>(std::max(n, 1)), '\0');
  if (program)
    glGetProgramInfoLog(object, n, nullptr, log.data());
  else
    glGetShaderInfoLog(object, n, nullptr, log.data());
  return log.c_str();
}

GLuint compile_shader(GLenum kind, const ExpandedSource& s, std::string_view name, Precision p) {
  const GLuint shader = glCreateShader(kind);
  const char* src = s.text.c_str();
  const auto len = static_cast<GLint>(s.text.size());
  glShaderSource(shader, 1, &src, &len);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    const std::string log = info_log(shader, false);
    glDeleteShader(shader);
    throw CompileError(fmt::format("kernels/{} ({}, fragment driver) does not compile:\n{}", name,
                                   to_string(p), rewrite_log(log, s.lines, name)));
  }
  return shader;
}

// Links a vertex and a fragment shader (both deleted here) whose output is `scfd_out`; 0 and the
// log in `log` when the link fails.
GLuint link_program(GLuint vertex, GLuint fragment, std::string& log) {
  const GLuint program = glCreateProgram();
  glAttachShader(program, vertex);
  glAttachShader(program, fragment);
  glBindFragDataLocation(program, 0, "scfd_out");
  glLinkProgram(program);
  glDeleteShader(vertex);
  glDeleteShader(fragment);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (ok) return program;
  log = info_log(program, true);
  glDeleteProgram(program);
  return 0;
}

// A triangle that covers the viewport (no vertex attributes).
ExpandedSource vertex_source() {
  ExpandedSource s;
  add_line(s, version_line());
  add_line(s, "void main() {");
  add_line(s, "  vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));");
  add_line(s, "  gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);");
  add_line(s, "}");
  return s;
}

}  // namespace

std::string rewrite_index_reads(std::string_view text, const std::vector<std::string>& names) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    bool replaced = false;
    if (identifier_char(text[i]) && (i == 0 || !identifier_char(text[i - 1]))) {
      for (const std::string& name : names) {
        const std::size_t end = i + name.size();
        if (text.compare(i, name.size(), name) != 0 || end >= text.size() || text[end] != '[')
          continue;
        out += "scfd_ix_" + name + "(";
        int depth = 1;
        std::size_t k = end + 1;
        for (; k < text.size() && depth > 0; ++k) {
          if (text[k] == '[') ++depth;
          if (text[k] == ']' && --depth == 0) break;
        }
        // The subscript itself may read index arrays (nested reads are rewritten too).
        out += rewrite_index_reads(text.substr(end + 1, k - end - 1), names) + ")";
        i = k + 1;
        replaced = true;
        break;
      }
    }
    if (!replaced) {
      // Copy the rest of an identifier at once so that a name's suffix never matches.
      if (identifier_char(text[i])) {
        while (i < text.size() && identifier_char(text[i])) out += text[i++];
      } else {
        out += text[i++];
      }
    }
  }
  return out;
}

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
    : id_(std::exchange(o.id_, 0)),
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
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  if (debug_enabled()) check_errors(name_.c_str());
}

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
  if (precision_ == Precision::fp64)
    glReadPixels(0, 0, 1, 1, GL_RG_INTEGER, GL_UNSIGNED_INT, at);  // the bits of entry 0
  else
    glReadPixels(0, 0, 1, 1, GL_RED, GL_FLOAT, at);
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
  return v;
}

void RasterReducer::reduce_into(Op op, const FieldStorage& x, const FieldStorage* y, std::size_t n,
                                Buffer& out, std::size_t offset) {
  const std::size_t bytes = precision_ == Precision::fp64 ? 8 : 4;
  SCFD_CHECK(offset + bytes <= out.size() && offset % bytes == 0,
             "raster reduction into byte {} of a {}-byte buffer", offset, out.size());
  const FieldStorage* r = run(op, x, y, n);
  if (r == nullptr) {
    const double zero = 0;
    const float zero32 = 0;
    out.upload_bytes(precision_ == Precision::fp64 ? static_cast<const void*>(&zero) : &zero32,
                     bytes, offset);
    return;
  }
  glBindBuffer(GL_PIXEL_PACK_BUFFER, out.id());
  read_value(*r, reinterpret_cast<void*>(offset));  // NOLINT: an offset into the bound buffer
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);  // a GL command: later draws and dispatches see it
}

namespace {

GLuint link_points_program(Precision p) {
  ExpandedSource vs, fs;
  const std::string version = version_line();
  for (ExpandedSource* s : {&vs, &fs}) add_line(*s, version);
  add_line(vs, "layout(location = 0) in uvec2 texel;");
  add_line(vs, "layout(location = 1) in uvec2 bits;");
  add_line(vs, "uniform vec2 size;");
  add_line(vs, "flat out uvec2 value;");
  add_line(vs, "void main() {");
  add_line(vs, "  value = bits;");
  add_line(vs, "  gl_Position = vec4((vec2(texel) + 0.5) / size * 2.0 - 1.0, 0.0, 1.0);");
  add_line(vs, "}");
  add_line(fs, "flat in uvec2 value;");
  const bool d = p == Precision::fp64;
  add_line(fs, d ? "out uvec4 scfd_out;" : "out vec4 scfd_out;");
  add_line(fs, "void main() {");
  // Every place of the texel gets the value; the draw's colour mask keeps one.
  add_line(
      fs, d ? "  scfd_out = uvec4(value, value);" : "  scfd_out = vec4(uintBitsToFloat(value.x));");
  add_line(fs, "}");
  std::string log;
  const GLuint program = link_program(compile_shader(GL_VERTEX_SHADER, vs, "<points>", p),
                                      compile_shader(GL_FRAGMENT_SHADER, fs, "<points>", p), log);
  SCFD_CHECK(program != 0, "the point-sprite program does not link: {}", log);
  return program;
}

}  // namespace

PointWriter::PointWriter(Precision p) : precision_(p), program_(link_points_program(p)) {
  size_location_ = glGetUniformLocation(program_, "size");
  glGenFramebuffers(1, &framebuffer_);
  glGenVertexArrays(1, &vertex_array_);
}

PointWriter::PointWriter(PointWriter&& o) noexcept
    : precision_(o.precision_),
      program_(std::exchange(o.program_, 0)),
      framebuffer_(std::exchange(o.framebuffer_, 0)),
      vertex_array_(std::exchange(o.vertex_array_, 0)),
      size_location_(o.size_location_) {}

PointWriter& PointWriter::operator=(PointWriter&& o) noexcept {
  PointWriter moved(std::move(o));  // releases this one's GL names on leaving
  std::swap(precision_, moved.precision_);
  std::swap(program_, moved.program_);
  std::swap(framebuffer_, moved.framebuffer_);
  std::swap(vertex_array_, moved.vertex_array_);
  std::swap(size_location_, moved.size_location_);
  return *this;
}

PointWriter::~PointWriter() {
  if (vertex_array_) glDeleteVertexArrays(1, &vertex_array_);
  if (framebuffer_) glDeleteFramebuffers(1, &framebuffer_);
  if (program_) glDeleteProgram(program_);
}

PointWriter::Points PointWriter::points(std::span<const std::size_t> entries,
                                        const TextureLayout& layout) const {
  Points p;
  p.layout = layout;
  const std::size_t vpt = layout.per_texel;
  for (const std::size_t e : entries) {
    SCFD_CHECK(e / vpt < layout.texels_used, "point for entry {} of a field of {} texels", e,
               layout.texels_used);
    ++p.count[e % vpt];
  }
  for (std::size_t k = 1; k < vpt; ++k) p.first[k] = p.first[k - 1] + p.count[k - 1];
  std::size_t next[4] = {p.first[0], p.first[1], p.first[2], p.first[3]};
  std::vector<std::uint32_t> xy(2 * entries.size());
  p.order.resize(entries.size());
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const std::size_t v = next[entries[k] % vpt]++, at = layout.position(entries[k] / vpt);
    p.order[k] = v;
    xy[2 * v] = static_cast<std::uint32_t>(at % layout.width);
    xy[2 * v + 1] = static_cast<std::uint32_t>(at / layout.width);
  }
  if (!entries.empty()) {
    p.positions = Buffer::from(std::span<const std::uint32_t>(xy));
    p.values = Buffer(8 * entries.size());
  }
  return p;
}

void PointWriter::write(Points& p, std::span<const double> values, FieldStorage& f) {
  SCFD_CHECK(values.size() == p.order.size(), "{} values for {} points", values.size(),
             p.order.size());
  SCFD_CHECK(f.precision() == precision_ && f.kind() == Storage::texture &&
                 f.layout().width == p.layout.width && f.layout().per_texel == p.layout.per_texel,
             "points of another layout or precision written into a field");
  if (values.empty()) return;
  std::vector<std::uint32_t> bits(2 * values.size(), 0);
  for (std::size_t k = 0; k < values.size(); ++k) {
    std::uint32_t* at = &bits[2 * p.order[k]];
    if (precision_ == Precision::fp64) {
      std::memcpy(at, &values[k], 8);
    } else {
      const auto v = static_cast<float>(values[k]);
      std::memcpy(at, &v, 4);
    }
  }
  p.values.upload(std::span<const std::uint32_t>(bits));
  const TextureLayout& L = f.layout();
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, f.texture(), 0);
  glViewport(0, 0, static_cast<GLsizei>(L.width), static_cast<GLsizei>(L.height));
  glUseProgram(program_);
  glUniform2f(size_location_, static_cast<float>(L.width), static_cast<float>(L.height));
  glBindVertexArray(vertex_array_);
  glBindBuffer(GL_ARRAY_BUFFER, p.positions.id());
  glEnableVertexAttribArray(0);
  glVertexAttribIPointer(0, 2, GL_UNSIGNED_INT, 0, nullptr);
  glBindBuffer(GL_ARRAY_BUFFER, p.values.id());
  glEnableVertexAttribArray(1);
  glVertexAttribIPointer(1, 2, GL_UNSIGNED_INT, 0, nullptr);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  const bool d = precision_ == Precision::fp64;
  for (std::size_t k = 0; k < L.per_texel; ++k) {
    if (p.count[k] == 0) continue;
    if (d)
      glColorMask(k == 0, k == 0, k == 1, k == 1);
    else
      glColorMask(k == 0, k == 1, k == 2, k == 3);
    glDrawArrays(GL_POINTS, static_cast<GLint>(p.first[k]), static_cast<GLsizei>(p.count[k]));
  }
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  if (debug_enabled()) check_errors("point-sprite write");
}

std::string_view to_string(Driver d) {
  return d == Driver::compute ? "compute" : "fragment";
}

void BodyProgram::bind(std::initializer_list<const Buffer*> buffers,
                       std::initializer_list<const FieldStorage*> fields,
                       std::initializer_list<const FieldStorage*> images) {
  if (is_raster_)
    raster_.bind(buffers, fields, images);
  else
    compute_.bind(buffers, fields, images);
}

void BodyProgram::run(std::size_t n) {
  if (is_raster_)
    raster_.run(n);
  else
    compute_.run(n);
}

void BodyProgram::run(std::size_t n, std::size_t begin, std::size_t end) {
  if (is_raster_)
    raster_.run(n, begin, end);
  else
    compute_.run(n, begin, end);
}

void BodyProgram::set(const char* uniform, std::int32_t v) {
  if (is_raster_)
    raster_.set(uniform, v);
  else
    compute_.set(uniform, v);
}

void BodyProgram::set(const char* uniform, std::uint32_t v) {
  if (is_raster_)
    raster_.set(uniform, v);
  else
    compute_.set(uniform, v);
}

void BodyProgram::set_real(const char* uniform, double v) {
  if (is_raster_)
    raster_.set_real(uniform, v);
  else
    compute_.set_real(uniform, v);
}

BodyProgram compile_body(std::string_view kernel, Driver driver, Precision p,
                         const Defines& defines, Storage storage) {
  if (driver == Driver::raster) return BodyProgram(compile_raster(kernel, p, defines));
  return BodyProgram(compile_compute(kernel, p, defines, storage));
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
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
}

}  // namespace scfd::gl
