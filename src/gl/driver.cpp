// The compute driver of kernel bodies (see driver.hpp).
#include "gl/driver.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "gl/program.hpp"

namespace scfd::gl {
namespace {

std::vector<std::string> words(std::string_view s) {
  std::istringstream in{std::string(s)};
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

void add_line(ExpandedSource& s, const std::string& line) {
  s.text += line + "\n";
  s.lines.push_back({"<driver>", static_cast<int>(s.lines.size()) + 1});
}

}  // namespace

KernelSpec parse_spec(std::string_view name, std::string_view text) {
  KernelSpec spec;
  std::istringstream in{std::string(text)};
  int line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    constexpr std::string_view tag = "// scfd:";
    if (!line.starts_with(tag)) continue;
    const std::vector<std::string> w = words(std::string_view(line).substr(tag.size()));
    const auto fail = [&](std::string_view why) {
      throw CompileError(fmt::format("kernels/{}:{}: error: {}", name, line_no, why));
    };
    if (w.empty()) fail("empty scfd: line");
    const std::string& key = w[0];
    if (key == "include-only") continue;
    if (key == "kernel") {
      spec.kind = KernelSpec::Kind::kernel;
    } else if (key == "body") {
      if (w.size() != 3) fail("expected `// scfd: body entry|entry3|texel <output>`");
      if (w[1] == "entry")
        spec.kind = KernelSpec::Kind::entry;
      else if (w[1] == "entry3")
        spec.kind = KernelSpec::Kind::entry3;
      else if (w[1] == "texel")
        spec.kind = KernelSpec::Kind::texel;
      else
        fail("body kind must be entry, entry3 or texel");
      spec.images.insert(spec.images.begin(), w[2]);
    } else if (key == "in") {
      spec.fields.insert(spec.fields.end(), w.begin() + 1, w.end());
    } else if (key == "image") {
      spec.images.insert(spec.images.end(), w.begin() + 1, w.end());
    } else if (key == "index" || key == "buffer") {
      if (w.size() < 3) fail(fmt::format("expected `// scfd: {} <type> <name> ...`", key));
      for (std::size_t k = 2; k < w.size(); ++k)
        spec.buffers.push_back({w[1], w[k], key == "index"});
    } else {
      fail(fmt::format("unknown scfd: line '{}'", key));
    }
  }
  // GLSL reserves names with "__"; a name ending in '_' would make one of `<name>_shift`.
  for (const auto* names : {&spec.fields, &spec.images})
    for (const std::string& n : *names)
      if (n.find("__") != std::string::npos || n.ends_with('_'))
        throw CompileError(fmt::format(
            "kernels/{}: error: field name '{}' (no '__', no trailing '_': GLSL reserves '__')",
            name, n));
  if (spec.is_body() && spec.images.size() != 1) {
    throw CompileError(fmt::format("kernels/{}: error: a body writes its output only", name));
  }
  return spec;
}

void add_declarations(ExpandedSource& s, const KernelSpec& spec, Precision p,
                      std::vector<std::string>& included) {
  const bool d = p == Precision::fp64;
  add_line(s, fmt::format("#define SCFD_FP64 {}", d ? 1 : 0));
  for (const char* lib : {"common.glsl", "storage.glsl"}) {
    if (std::find(included.begin(), included.end(), lib) != included.end()) continue;
    expand_into(s, lib, embedded_text(lib), included);
  }
  unsigned binding = 0;
  for (const KernelSpec::Storage& b : spec.buffers)
    add_line(s, fmt::format("layout(std430, binding = {}) {}restrict buffer B_{} {{ {} {}[]; }};",
                            binding++, b.readonly ? "readonly " : "", b.name, b.type, b.name));
  const auto accessors = [&](const std::string& f, const std::string& fetch) {
    add_line(s, fmt::format("uniform uint {}_shift;", f));
    add_line(s, fmt::format("realv texel_{0}(uint t) {{ return scfd_unpack({1}); }}", f, fetch));
    add_line(
        s, fmt::format("real load_{0}(uint i) {{ return scfd_get(texel_{0}(i / VPT), i % VPT); }}",
                       f));
  };
  unsigned unit = 0;
  for (const std::string& f : spec.fields) {
    add_line(s, fmt::format("layout(binding = {}) uniform {} scfd_f_{};", unit++,
                            d ? "usampler2D" : "sampler2D", f));
    accessors(f, fmt::format("texelFetch(scfd_f_{0}, scfd_texel(t, {0}_shift), 0)", f));
  }
  // Images are write-only; their old values are read through a sampler on the same texture
  // (units after the fields'). Measured on an H200: a read-write image stores far slower.
  unsigned image = 0;
  for (const std::string& f : spec.images) {
    add_line(s, fmt::format("layout(binding = {}, {}) uniform writeonly restrict {} scfd_i_{};",
                            image++, d ? "rgba32ui" : "rgba32f", d ? "uimage2D" : "image2D", f));
    add_line(s, fmt::format("layout(binding = {}) uniform {} scfd_f_{};", unit++,
                            d ? "usampler2D" : "sampler2D", f));
    accessors(f, fmt::format("texelFetch(scfd_f_{0}, scfd_texel(t, {0}_shift), 0)", f));
    add_line(s, fmt::format("void store_{0}(uint t, realv v) {{ "
                            "imageStore(scfd_i_{0}, scfd_texel(t, {0}_shift), scfd_pack(v)); }}",
                            f));
  }
  if (spec.is_body()) add_line(s, "uniform uint n;");
}

void add_main(ExpandedSource& s, const KernelSpec& spec) {
  if (!spec.is_body()) return;
  const std::string& out = spec.images[0];
  add_line(s, "void main() {");
  add_line(s, "  uint t = scfd_gid();");
  add_line(s, fmt::format("  uint total = n * {}u;", spec.components()));
  add_line(s, "  uint first = t * VPT;");
  add_line(s, "  if (first >= total) return;");
  switch (spec.kind) {
    case KernelSpec::Kind::entry:
      add_line(s, fmt::format("  realv v = first + VPT > total ? texel_{}(t) : realv(0);", out));
      add_line(s, "  for (uint k = 0u; k < VPT; ++k)");
      add_line(s, "    if (first + k < total) v = scfd_set(v, k, entry(first + k));");
      break;
    case KernelSpec::Kind::entry3:
      add_line(s, fmt::format("  realv v = first + VPT > total ? texel_{}(t) : realv(0);", out));
      add_line(s, "  uint last = 0xffffffffu;");
      add_line(s, "  real3 e = real3(0);");
      add_line(s, "  for (uint k = 0u; k < VPT; ++k) {");
      add_line(s, "    uint i = first + k;");
      add_line(s, "    if (i >= total) break;");
      add_line(s, "    uint c = i / 3u;");
      add_line(s, "    if (c != last) { e = entry3(c); last = c; }");
      add_line(s, "    uint j = i - 3u * c;");
      add_line(s, "    v = scfd_set(v, k, j == 0u ? e.x : j == 1u ? e.y : e.z);");
      add_line(s, "  }");
      break;
    default:
      add_line(s, "  realv v = texel(t);");
      add_line(s, "  if (first + VPT > total) {");
      add_line(s, fmt::format("    realv old = texel_{}(t);", out));
      add_line(s, "    for (uint k = 0u; k < VPT; ++k)");
      add_line(s, "      if (first + k >= total) v = scfd_set(v, k, scfd_get(old, k));");
      add_line(s, "  }");
      break;
  }
  add_line(s, fmt::format("  store_{}(t, v);", out));
  add_line(s, "}");
}

}  // namespace scfd::gl
