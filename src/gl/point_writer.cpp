// Values written into listed entries of a texture field as GL_POINTS (see point_writer.hpp).
#include "gl/point_writer.hpp"

#include <epoxy/gl.h>

#include <cstring>
#include <utility>

#include "core/counters.hpp"
#include "core/error.hpp"
#include "gl/context.hpp"
#include "gl/fragment_source.hpp"

namespace scfd::gl {
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
    counters::add(counters::Kind::gpu_dispatch);
  }
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  if (debug_enabled()) check_errors("point-sprite write");
}

}  // namespace scfd::gl
