// Embedded kernels: every one compiles for fp32 and fp64; includes resolve once; a planted error
// is reported at its own kernels/<file>:<line>, also after an #include.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "core/error.hpp"
#include "gl/field_storage.hpp"
#include "gl/program.hpp"
#include "gl_fixture.hpp"

namespace scfd::gl {
namespace {

std::string compile_error(std::string_view name, std::string_view text) {
  try {
    compile_compute_source(name, text, Precision::fp64);
  } catch (const CompileError& e) {
    return e.what();
  }
  return "(compiled without error)";
}

TEST(Kernels, EveryKernelCompilesInBothPrecisions) {
  test::gl_context();
  const std::vector<std::string> names = compilable_kernels();
  ASSERT_GE(names.size(), 2u);
  for (const std::string& k : names)
    for (Precision p : {Precision::fp32, Precision::fp64}) {
      SCOPED_TRACE(k + " " + std::string(to_string(p)));
      Program prog = compile_compute(k, p);
      EXPECT_EQ(prog.local_size(), 256u);
      EXPECT_NE(prog.id(), 0u);
    }
}

// start_compute returns before the build is known to work; the first use waits for it and
// throws its error, with the line, and the program is empty after that.
TEST(Kernels, StartedBuildsReportOnFirstUse) {
  test::gl_context();
  Program good = start_compute("copy", Precision::fp64, {{"LOCAL_SIZE", "64"}});
  EXPECT_NE(good.id(), 0u);
  EXPECT_EQ(good.local_size(), 64u);
  Program bad = start_compute_source("broken", "// line 1\nvoid main() {\n  int x = nope;\n}\n",
                                     Precision::fp64);
  try {
    (void)bad.local_size();
    FAIL() << "no error";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("kernels/broken.glsl:3:"), std::string::npos) << e.what();
  }
  EXPECT_EQ(bad.id(), 0u);
  // A started build dropped unused, and one moved before its first use.
  { Program unused = start_compute("copy", Precision::fp32); }
  Program moved = start_compute("copy", Precision::fp32);
  Program target = std::move(moved);
  EXPECT_EQ(target.local_size(), 256u);
}

TEST(Kernels, IncludeOnlyFilesAreNotCompilable) {
  for (const std::string& k : compilable_kernels()) EXPECT_NE(k, "common.glsl");
}

TEST(Kernels, IncludeResolvesOnce) {
  const std::string s = kernel_source("dot");  // includes reduce.glsl
  const auto first = s.find("red_t scfd_workgroup_reduce(");
  ASSERT_NE(first, std::string::npos);
  EXPECT_EQ(s.find("red_t scfd_workgroup_reduce(", first + 1), std::string::npos);
  EXPECT_EQ(s.find("\n#include"), std::string::npos);
  // A second include of the same file (directly or through another) adds nothing.
  test::gl_context();
  EXPECT_NO_THROW(compile_compute_source(
      "twice", "#include \"common.glsl\"\n#include \"common.glsl\"\nvoid main() {}\n",
      Precision::fp32));
}

TEST(Kernels, LocalSizeDefineOverridesDefault) {
  test::gl_context();
  Program p = compile_compute("copy", Precision::fp32, {{"LOCAL_SIZE", "32"}});
  EXPECT_EQ(p.local_size(), 32u);
}

TEST(Kernels, ErrorLineWithoutInclude) {
  test::gl_context();
  const std::string e = compile_error("broken", "// line 1\nvoid main() {\n  int x = nope;\n}\n");
  EXPECT_NE(e.find("kernels/broken.glsl:3:"), std::string::npos) << e;
  EXPECT_EQ(e.find("<prelude>"), std::string::npos) << e;
}

TEST(Kernels, ErrorLineAfterInclude) {
  test::gl_context();
  const std::string text =
      "// line 1\n"
      "#include \"common.glsl\"\n"
      "layout(std430, binding = 0) buffer B { real v[]; };\n"
      "void main() {\n"
      "  v[scfd_gid()] = undefined_name;\n"  // line 5
      "}\n";
  const std::string e = compile_error("after_include.glsl", text);
  EXPECT_NE(e.find("kernels/after_include.glsl:5:"), std::string::npos) << e;
  EXPECT_NE(e.find("undefined_name"), std::string::npos) << e;
}

TEST(Kernels, UnknownIncludeNamesItsLine) {
  const std::string e = compile_error("inc", "\n\n#include \"missing.glsl\"\nvoid main() {}\n");
  EXPECT_NE(e.find("kernels/inc.glsl:3:"), std::string::npos) << e;
  EXPECT_NE(e.find("missing.glsl"), std::string::npos) << e;
}

TEST(Kernels, RewriteLogMapsMesaAndNvidiaFormats) {
  const std::vector<LineOrigin> lines = {
      {"<prelude>", 1}, {"kernels/a.glsl", 1}, {"kernels/common.glsl", 7}};
  EXPECT_EQ(rewrite_log("0:3(5): error: bad\n", lines, "a.glsl"),
            "kernels/common.glsl:7: error: bad");
  EXPECT_EQ(rewrite_log("0(2) : error C0000: bad", lines, "a.glsl"),
            "kernels/a.glsl:1: error C0000: bad");
  EXPECT_EQ(rewrite_log("link failed", lines, "a.glsl"), "kernels/a.glsl: link failed");
}

}  // namespace
}  // namespace scfd::gl

namespace scfd::gl {
namespace {

// Field textures: power-of-two width of at least 256 texels, height a multiple of 8, enough
// texels for every value; a field beyond the device's texture size is an InputError.
TEST(TextureLayout, PowerOfTwoWidthAndPaddedHeight) {
  for (const std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{72'000'000}})
    for (const Precision p : {Precision::fp32, Precision::fp64}) {
      const TextureLayout l = TextureLayout::of(n, p, 32768);
      EXPECT_EQ(l.per_texel, p == Precision::fp64 ? 2u : 4u);
      EXPECT_EQ(l.width, 1u << l.shift);
      EXPECT_GE(l.width, 256u);
      EXPECT_EQ(l.height % 8, 0u);
      EXPECT_GE(std::size_t{l.width} * l.height * l.per_texel, n);
      EXPECT_LE(l.height, l.width + 8);  // near square: no side reaches the limit early
    }
  EXPECT_THROW((void)TextureLayout::of(std::size_t{1} << 31, Precision::fp64, 16384), InputError);
}

TEST(KernelSpec, MalformedLineNamesFileAndLine) {
  try {
    (void)parse_spec("bad.glsl", "// one\n// scfd: body sideways y\n");
    FAIL() << "no error";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("kernels/bad.glsl:2:"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace scfd::gl

namespace scfd::gl {
namespace {

// The tile map is a bijection onto the texture: every texel of every tile lands on its own
// position, tiles of 32 x 8 texels in row-major order.
TEST(TextureLayout, TilesCoverTheTextureOnce) {
  const TextureLayout l = TextureLayout::of(300'000, Precision::fp64, 16384);
  std::vector<int> hits(std::size_t{l.width} * l.height, 0);
  for (std::size_t t = 0; t < hits.size(); ++t) ++hits.at(l.position(t));
  EXPECT_EQ(std::count(hits.begin(), hits.end(), 1), static_cast<long>(hits.size()));
  EXPECT_EQ(l.position(0), 0u);
  EXPECT_EQ(l.position(32), l.width);  // second row of the first tile
  EXPECT_EQ(l.position(256), 32u);     // first texel of the second tile
  EXPECT_LE(l.rows_used(), l.height);
}

}  // namespace
}  // namespace scfd::gl
