// The fragment driver (gl/raster.hpp): kernel bodies drawn as fragment programs over their output
// texture. Twins on the host: a gather through index buffer textures, a vector body (entry3) and
// an element-wise body that reads the texel it writes (axpy), each writing entries [0, n) of a
// longer field and nothing past them; reductions against the same fold order on the host;
// point-sprite writes of listed entries. fp64 bit for bit, fp32 to 1e-6 relative. Every embedded
// body compiles under the driver.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <span>
#include <vector>

#include "gl/buffer.hpp"
#include "gl/context.hpp"
#include "gl/field_storage.hpp"
#include "gl/fragment_source.hpp"
#include "gl/point_writer.hpp"
#include "gl/raster.hpp"
#include "gl/raster_reducer.hpp"

namespace scfd::gl {
namespace {

// A context of GL 3.3 or newer (the newest the device gives): ctest also runs this file with
// Mesa forced to GL 3.3 (tests/gl/CMakeLists.txt), where in-place bodies ping-pong.
const Context& raster_context() {
  static const Context ctx = Context::create(-1, /*debug=*/true, /*min_gl=*/33);
  return ctx;
}

std::vector<double> random_values(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> v(n);
  for (double& e : v) e = u(rng);
  return v;
}

FieldStorage field(const std::vector<double>& values, Precision p) {
  FieldStorage f(values.size(), p, Storage::texture, raster_context().info().max_texture_size);
  f.upload(values);
  return f;
}

std::vector<double> download(const FieldStorage& f) {
  std::vector<double> out(f.size());
  f.download(out);
  return out;
}

double round_to(Precision p, double v) {
  return p == Precision::fp64 ? v : static_cast<double>(static_cast<float>(v));
}

// got[i] against want[i] (bit for bit in fp64, 1e-6 relative in fp32).
void expect_equal(Precision p, const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double tol = p == Precision::fp64 ? 0 : 1e-6 * (1 + std::abs(want[i]));
    if (!(std::abs(got[i] - want[i]) <= tol) && bad++ < 5)
      ADD_FAILURE() << to_string(p) << " entry " << i << ": " << got[i] << " vs " << want[i];
  }
  EXPECT_EQ(bad, 0u);
}

TEST(RasterDriver, RewritesIndexReadsOnly) {
  const std::vector<std::string> names = {"column", "value", "len"};
  EXPECT_EQ(rewrite_index_reads("s += value[at] * x(column[k + column[2]]);", names),
            "s += scfd_ix_value(at) * x(scfd_ix_column(k + scfd_ix_column(2)));");
  EXPECT_EQ(rewrite_index_reads("a_value[1] + values[2] + len [3] + m[len[4]]", names),
            "a_value[1] + values[2] + len [3] + m[scfd_ix_len(4)]");
}

constexpr const char* kGather = R"(// scfd: body entry y
// scfd: in x
// scfd: index int other
// scfd: index real weight
real entry(uint i) {
  precise real v = weight[i] * load_x(uint(other[i])) + load_x(i);
  return v;
}
)";

// y_i = w_i x[other_i] + x_i for i < n in a field of n + 3 entries: several rows of 32 x 8 tiles,
// and a last texel that holds entries past n.
TEST(RasterDriver, GatherBodyMatchesTheHost) {
  raster_context();
  for (const Precision p : {Precision::fp64, Precision::fp32}) {
    const std::size_t n = 70001;
    RasterProgram prog = compile_raster_source("test_gather", kGather, p);
    std::vector<double> x = random_values(n + 3, 1), w = random_values(n, 2);
    for (double& v : x) v = round_to(p, v);
    for (double& v : w) v = round_to(p, v);
    std::vector<std::int32_t> other(n);
    for (std::size_t i = 0; i < n; ++i) other[i] = static_cast<std::int32_t>((i * 7919) % (n + 3));
    const Buffer b_other = Buffer::from(std::span<const std::int32_t>(other));
    const Buffer b_weight =
        p == Precision::fp64
            ? Buffer::from(std::span<const double>(w))
            : Buffer::from(std::span<const float>(std::vector<float>(w.begin(), w.end())));
    FieldStorage fx = field(x, p), fy = field(std::vector<double>(n + 3, 9.0), p);
    prog.bind({&b_other, &b_weight}, {&fx}, {&fy});
    prog.run(n);
    std::vector<double> want(n + 3, 9.0);
    for (std::size_t i = 0; i < n; ++i)
      want[i] = round_to(p, w[i] * x[static_cast<std::size_t>(other[i])] + x[i]);
    expect_equal(p, download(fy), want);
  }
}

constexpr const char* kVector = R"(// scfd: body entry3 u
// scfd: in x
real3 entry3(uint e) {
  real v = load_x(e);
  return real3(v, real(2) * v, v + real(1));
}
)";

// A vector per element: entries 3e..3e+2 for e < n (texels that straddle two elements included),
// the field's last two entries untouched.
TEST(RasterDriver, VectorBodyMatchesTheHost) {
  raster_context();
  for (const Precision p : {Precision::fp64, Precision::fp32}) {
    const std::size_t n = 3001;
    RasterProgram prog = compile_raster_source("test_vector", kVector, p);
    std::vector<double> x = random_values(n, 3);
    for (double& v : x) v = round_to(p, v);
    FieldStorage fx = field(x, p), fu = field(std::vector<double>(3 * n + 2, 9.0), p);
    prog.bind({}, {&fx}, {&fu});
    prog.run(n);
    std::vector<double> want(3 * n + 2, 9.0);
    for (std::size_t e = 0; e < n; ++e) {
      want[3 * e] = x[e];
      want[3 * e + 1] = 2 * x[e];
      want[3 * e + 2] = round_to(p, x[e] + 1);
    }
    expect_equal(p, download(fu), want);
  }
}

// kernels/axpy.glsl, an element-wise body that reads the texel it writes, over the first n of
// n + 1 entries; then kernels/multiply.glsl with its output bound as an input.
TEST(RasterDriver, ElementWiseBodyUpdatesInPlace) {
  raster_context();
  for (const Precision p : {Precision::fp64, Precision::fp32}) {
    const std::size_t n = 100001;
    RasterProgram prog = compile_raster("axpy", p);
    std::vector<double> x = random_values(n + 1, 4), y = random_values(n + 1, 5);
    for (double& v : x) v = round_to(p, v);
    for (double& v : y) v = round_to(p, v);
    FieldStorage fx = field(x, p), fy = field(y, p);
    const double a = 0.7310585786300049;
    prog.bind({}, {&fx}, {&fy});
    prog.set_real("a", a);
    prog.run(n);
    std::vector<double> want = y;
    for (std::size_t i = 0; i < n; ++i) want[i] = round_to(p, y[i] + round_to(p, a) * x[i]);
    expect_equal(p, download(fy), want);
    // The output bound as an input too (y <- x .* y, as the models mask fields in place).
    RasterProgram mul = compile_raster("multiply", p);
    mul.bind({}, {&fx, &fy}, {&fy});
    mul.run(n);
    for (std::size_t i = 0; i < n; ++i) want[i] = round_to(p, x[i] * want[i]);
    expect_equal(p, download(fy), want);
  }
}

// The host twin of RasterReducer: blocks of kFold in order, pass after pass, each partial rounded
// to the field precision.
double fold(RasterReducer::Op op, std::vector<double> v, const std::vector<double>& w,
            Precision p) {
  const std::size_t f = RasterReducer::kFold;
  bool first = true;
  while (true) {
    std::vector<double> next((v.size() + f - 1) / f);
    for (std::size_t j = 0; j < next.size(); ++j) {
      double s = 0;
      for (std::size_t i = j * f; i < std::min(v.size(), (j + 1) * f); ++i) {
        if (op == RasterReducer::Op::max_abs)
          s = std::max(s, std::abs(v[i]));
        else if (op == RasterReducer::Op::dot && first)
          s = round_to(p, s + round_to(p, v[i] * w[i]));
        else
          s = round_to(p, s + v[i]);
      }
      next[j] = s;
    }
    if (next.size() == 1) return next[0];
    v = std::move(next);
    first = false;
  }
}

// Sum, dot and max |x| of 1,000,003 entries (five passes) and of 1, 16 and 17, read back and
// stored into a buffer slot on the device: the host twin's value, bit for bit in fp64.
TEST(RasterDriver, ReductionsFoldInAFixedOrder) {
  raster_context();
  for (const Precision p : {Precision::fp64, Precision::fp32}) {
    RasterReducer reducer(p, raster_context().info().max_texture_size);
    for (const std::size_t n :
         {std::size_t{1}, std::size_t{16}, std::size_t{17}, std::size_t{1000003}}) {
      std::vector<double> x = random_values(n + 2, 6), y = random_values(n + 2, 7);
      for (double& v : x) v = round_to(p, v);
      for (double& v : y) v = round_to(p, v);
      FieldStorage fx = field(x, p), fy = field(y, p);
      x.resize(n);
      y.resize(n);
      using Op = RasterReducer::Op;
      for (const Op op : {Op::sum, Op::dot, Op::max_abs}) {
        const double want = fold(op, x, y, p);
        const double got = reducer.reduce(op, fx, &fy, n);
        const double tol = p == Precision::fp64 ? 0 : 1e-6 * (1 + std::abs(want));
        EXPECT_LE(std::abs(got - want), tol)
            << to_string(p) << " n " << n << " op " << static_cast<int>(op);
        Buffer slots(64);
        slots.upload_bytes(std::vector<char>(64, 0).data(), 64, 0);
        reducer.reduce_into(op, fx, &fy, n, slots, 16);
        const std::vector<char> bytes = slots.download<char>();
        double on_device = 0;
        if (p == Precision::fp64) {
          std::memcpy(&on_device, bytes.data() + 16, 8);
        } else {
          float v = 0;
          std::memcpy(&v, bytes.data() + 16, 4);
          on_device = static_cast<double>(v);
        }
        EXPECT_EQ(on_device, got) << to_string(p) << " n " << n;
      }
    }
  }
}

// GL_POINTS write the listed entries, whatever their place in a texel, and nothing else: a
// field of 9s gets values at every 7th entry and at the last one, twice through the same points.
TEST(RasterDriver, PointsWriteExactlyTheListedEntries) {
  raster_context();
  for (const Precision p : {Precision::fp64, Precision::fp32}) {
    const std::size_t n = 50003;
    FieldStorage f = field(std::vector<double>(n, 9.0), p);
    std::vector<std::size_t> entries;
    for (std::size_t i = 3; i < n; i += 7) entries.push_back(i);
    entries.push_back(n - 1);
    PointWriter writer(p);
    PointWriter::Points points = writer.points(entries, f.layout());
    std::vector<double> want(n, 9.0);
    for (const unsigned seed : {8u, 9u}) {
      std::vector<double> values = random_values(entries.size(), seed);
      for (double& v : values) v = round_to(p, v);
      writer.write(points, values, f);
      for (std::size_t k = 0; k < entries.size(); ++k) want[entries[k]] = values[k];
      expect_equal(p, download(f), want);
    }
    PointWriter::Points none = writer.points({}, f.layout());
    writer.write(none, {}, f);
    expect_equal(p, download(f), want);
  }
}

// Every body in kernels/ builds under the fragment driver, fp32 and fp64.
TEST(RasterDriver, EveryBodyCompiles) {
  raster_context();
  int bodies = 0;
  for (const std::string& kernel : compilable_kernels()) {
    if (!parse_spec(kernel, embedded_text(kernel)).is_body()) continue;
    ++bodies;
    for (const Precision p : {Precision::fp32, Precision::fp64}) {
      try {
        // The accumulators of gl-raster are the fields' precision (gl_backend.cpp).
        const bool d = p == Precision::fp64;
        compile_raster(kernel, p,
                       {{"acc", d ? "double" : "float"}, {"acc2", d ? "dvec2" : "vec2"}});
      } catch (const CompileError& e) {
        ADD_FAILURE() << e.what();
      }
    }
  }
  EXPECT_GT(bodies, 20);
}

}  // namespace
}  // namespace scfd::gl
