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

void add_declarations(ExpandedSource& s, const KernelSpec& spec, Precision p, Storage storage,
                      std::vector<std::string>& included) {
  const bool d = p == Precision::fp64;
  add_line(s, fmt::format("#define SCFD_FP64 {}", d ? 1 : 0));
  for (const char* lib : {"common.glsl", "storage.glsl"}) {
    if (std::find(included.begin(), included.end(), lib) != included.end()) continue;
    expand_into(s, lib, embedded_text(lib), included);
  }
  unsigned binding = 0;
  for (const KernelSpec::Storage& b : spec.buffers)
    add_line(
        s, fmt::format("layout(std430, binding = {}) {}restrict buffer B_{} {{ {} {}[]; }};",
                       binding++, b.readonly ? "readonly " : "coherent ", b.name, b.type, b.name));
  const auto load = [&](const std::string& f) {
    add_line(
        s, fmt::format("real load_{0}(uint i) {{ return scfd_get(texel_{0}(i / VPT), i % VPT); }}",
                       f));
  };
  if (storage == Storage::buffer) {
    // Fields are arrays of texels (dvec2 / vec4) and, on the next binding, the same buffer as
    // an array of reals for gathers (an 8-byte load where a texel load would move 16; measured
    // faster on an H200). Images are arrays of texels read (old values) and written through one
    // block. All on the bindings after the kernel's own buffers.
    for (const std::string& f : spec.fields) {
      add_line(s, fmt::format("layout(std430, binding = {0}) readonly restrict buffer F_{1} "
                              "{{ realv scfd_f_{1}[]; }};",
                              binding, f));
      add_line(s, fmt::format("layout(std430, binding = {0}) readonly restrict buffer S_{1} "
                              "{{ real scfd_s_{1}[]; }};",
                              binding + 1, f));
      binding += 2;
      add_line(s, fmt::format("realv texel_{0}(uint t) {{ return scfd_f_{0}[t]; }}", f));
      add_line(s, fmt::format("real load_{0}(uint i) {{ return scfd_s_{0}[i]; }}", f));
    }
    for (const std::string& f : spec.images) {
      add_line(s,
               fmt::format("layout(std430, binding = {0}) buffer O_{1} {{ realv scfd_o_{1}[]; }};",
                           binding, f));
      add_line(s,
               fmt::format("layout(std430, binding = {0}) buffer P_{1} {{ real scfd_p_{1}[]; }};",
                           binding + 1, f));
      binding += 2;
      add_line(s, fmt::format("void put_{0}(uint i, real v) {{ scfd_p_{0}[i] = v; }}", f));
      add_line(s, fmt::format("realv texel_{0}(uint t) {{ return scfd_o_{0}[t]; }}", f));
      load(f);
      add_line(s, fmt::format("void store_{0}(uint t, realv v) {{ scfd_o_{0}[t] = v; }}", f));
    }
    if (spec.is_body()) add_line(s, "uniform uint n;");
    return;
  }
  const auto accessors = [&](const std::string& f, const std::string& fetch) {
    add_line(s, fmt::format("uniform uint {}_shift;", f));
    add_line(s, fmt::format("realv texel_{0}(uint t) {{ return scfd_unpack({1}); }}", f, fetch));
    load(f);
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

void add_main(ExpandedSource& s, const KernelSpec& spec, Storage storage) {
  if (!spec.is_body()) return;
  const std::string& out = spec.images[0];
  if (spec.kind == KernelSpec::Kind::texel) {
    // One invocation per output texel.
    add_line(s, "void main() {");
    add_line(s, "  uint t = scfd_gid();");
    add_line(s, "  uint total = n;");
    add_line(s, "  uint first = t * VPT;");
    add_line(s, "  if (first >= total) return;");
    add_line(s, "  realv v = texel(t);");
    add_line(s, "  if (first + VPT > total) {");
    add_line(s, fmt::format("    realv old = texel_{}(t);", out));
    add_line(s, "    for (uint k = 0u; k < VPT; ++k)");
    add_line(s, "      if (first + k >= total) v = scfd_set(v, k, scfd_get(old, k));");
    add_line(s, "  }");
    add_line(s, fmt::format("  store_{}(t, v);", out));
    add_line(s, "}");
    return;
  }
  // One invocation per output element (entry, or vector of entry3): gathers keep one thread per
  // result, as many threads in flight as a scalar kernel (two or four results per thread ran
  // 2-3x slower on an H200, docs/gpu.md §8). A buffer takes each result as a real; a texture is
  // written a whole texel at a time, so there the work group's results meet in shared memory.
  // Elements [scfd_begin, scfd_end) of the n: a halo overlap runs a body in two parts, split at
  // a multiple of the work group and texel size (Backend::row_alignment).
  const int c = spec.components();
  add_line(s, "uniform uint scfd_begin;");
  add_line(s, "uniform uint scfd_end;");
  if (storage == Storage::buffer) {
    add_line(s, "void main() {");
    add_line(s, "  uint e = scfd_begin + scfd_gid();");
    add_line(s, "  if (e >= scfd_end) return;");
    if (spec.kind == KernelSpec::Kind::entry) {
      add_line(s, fmt::format("  put_{}(e, entry(e));", out));
    } else {
      add_line(s, "  real3 v3 = entry3(e);");
      add_line(s, fmt::format("  put_{}(3u * e, v3.x);", out));
      add_line(s, fmt::format("  put_{}(3u * e + 1u, v3.y);", out));
      add_line(s, fmt::format("  put_{}(3u * e + 2u, v3.z);", out));
    }
    add_line(s, "}");
    return;
  }
  add_line(s, fmt::format("#define SCFD_C {}u", c));
  add_line(s, "shared real scfd_results[SCFD_C * LOCAL_SIZE];");
  add_line(s, "void main() {");
  add_line(s, "  uint l = gl_LocalInvocationID.x;");
  add_line(s, "  uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;");
  add_line(s, "  uint e = scfd_begin + group * LOCAL_SIZE + l;");
  if (spec.kind == KernelSpec::Kind::entry) {
    add_line(s, "  scfd_results[l] = e < scfd_end ? entry(e) : real(0);");
  } else {
    add_line(s, "  real3 v3 = e < scfd_end ? entry3(e) : real3(0);");
    add_line(s, "  scfd_results[3u * l] = v3.x;");
    add_line(s, "  scfd_results[3u * l + 1u] = v3.y;");
    add_line(s, "  scfd_results[3u * l + 2u] = v3.z;");
  }
  add_line(s, "  barrier();");
  add_line(s, "  uint total = scfd_end * SCFD_C;");
  add_line(s, "  for (uint k = l; k < SCFD_C * LOCAL_SIZE / VPT; k += LOCAL_SIZE) {");
  add_line(s, "    uint t = scfd_begin * SCFD_C / VPT + group * (SCFD_C * LOCAL_SIZE / VPT) + k;");
  add_line(s, "    uint first = t * VPT;");
  add_line(s, "    if (first >= total) break;");
  add_line(s, fmt::format("    realv v = first + VPT > total ? texel_{}(t) : realv(0);", out));
  add_line(s, "    for (uint j = 0u; j < VPT; ++j)");
  add_line(s, "      if (first + j < total) v = scfd_set(v, j, scfd_results[k * VPT + j]);");
  add_line(s, fmt::format("    store_{}(t, v);", out));
  add_line(s, "  }");
  add_line(s, "}");
}

}  // namespace scfd::gl
