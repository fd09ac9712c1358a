// The GLSL of the fragment driver and its compilation (see fragment_source.hpp).
#include "gl/fragment_source.hpp"

#include <epoxy/gl.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "core/error.hpp"
#include "gl/context.hpp"

namespace scfd::gl {
namespace {

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

// The lines before the index arrays: the version, doubles below GLSL 4.00, the `real` types, the
// caller's defines, SCFD_FP64 and storage.glsl.
void add_prelude(ExpandedSource& s, std::string_view name, Precision p, const Defines& defines,
                 std::vector<std::string>& included) {
  const bool d = p == Precision::fp64;
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
  expand_into(s, "storage.glsl", embedded_text("storage.glsl"), included);
}

// Each `// scfd: index` array as a buffer texture with its accessor scfd_ix_<name>(i); appends
// the textures' formats to `formats` and returns the arrays' names.
std::vector<std::string> add_index_arrays(ExpandedSource& s, std::string_view name,
                                          const KernelSpec& spec, Precision p,
                                          const Defines& defines, std::vector<unsigned>& formats) {
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
  return index_names;
}

// A field read through a sampler: its shift, texel_<f>(t) and load_<f>(i).
void add_field(ExpandedSource& s, const std::string& f, bool d) {
  add_line(s, fmt::format("uniform uint {}_shift;", f));
  add_line(s, fmt::format("uniform {} scfd_f_{};", d ? "usampler2D" : "sampler2D", f));
  add_line(s, fmt::format("realv texel_{0}(uint t) {{ return scfd_unpack(texelFetch(scfd_f_{0}, "
                          "scfd_texel(t, {0}_shift), 0)); }}",
                          f));
  add_line(s, fmt::format(
                  "real load_{0}(uint i) {{ return scfd_get(texel_{0}(i / VPT), i % VPT); }}", f));
}

// main(): the fragment's texel t of output `out` from its position, the body over the texel's
// entries (entry), elements (entry3) or the texel itself (texel), and the packed texel.
void add_fragment_main(ExpandedSource& s, const KernelSpec& spec, const std::string& out) {
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

}  // namespace

void add_line(ExpandedSource& s, const std::string& line, const char* origin) {
  s.text += line + "\n";
  s.lines.push_back({origin, static_cast<int>(s.lines.size()) + 1});
}

// GLSL 4.50 where the context has it (the own-texel reads of element-wise bodies need GL 4.5),
// 4.00 below, 3.30 on a 3.3 context (no `precise`; doubles through ARB_gpu_shader_fp64).
std::string version_line() {
  const int v = gl_version();
  return v >= 45 ? "#version 450 core" : v >= 40 ? "#version 400 core" : "#version 330 core";
}

ExpandedSource fragment_source(std::string_view name, std::string_view text, Precision p,
                               const Defines& defines, const KernelSpec& spec,
                               std::vector<unsigned>& formats) {
  const bool d = p == Precision::fp64;
  ExpandedSource s;
  std::vector<std::string> included;
  add_prelude(s, name, p, defines, included);
  const std::vector<std::string> index_names = add_index_arrays(s, name, spec, p, defines, formats);
  for (const std::string& f : spec.fields) add_field(s, f, d);
  const std::string& out = spec.images[0];
  add_field(s, out, d);  // element-wise bodies read the old value of the texel they write
  add_line(s, "uniform uint n;");
  add_line(s, "uniform uint scfd_first;");  // the texels drawn: [scfd_first, scfd_end)
  add_line(s, "uniform uint scfd_end;");
  add_line(s, fmt::format("out {} scfd_out;", d ? "uvec4" : "vec4"));

  const std::size_t body_start = s.text.size();
  expand_into(s, name, text, included);
  s.text.replace(body_start, std::string::npos,
                 rewrite_index_reads(std::string_view(s.text).substr(body_start), index_names));
  add_fragment_main(s, spec, out);
  return s;
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

}  // namespace scfd::gl
