// The first twin test (docs/architecture.md §8.1): kernels/axpy.glsl against the CPU loop it
// implements, y <- y + a x over 100000 entries. fp64 must match bit for bit (the kernel is
// `precise`, no fused multiply-add); fp32 within 1e-6 relative of the double-precision loop.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "gl/field_storage.hpp"
#include "gl/program.hpp"
#include "gl_fixture.hpp"

namespace scfd::gl {
namespace {

constexpr std::size_t kN = 100000;
constexpr double kA = 0.7310585786300049;

template <typename T>
std::vector<T> random_vector(unsigned seed, double lo, double hi) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<T> v(kN);
  for (T& e : v) e = static_cast<T>(u(rng));
  return v;
}

template <typename T>
std::vector<T> gpu_axpy(Precision p, Storage s, const std::vector<T>& x, const std::vector<T>& y) {
  test::gl_context();
  Program prog = compile_compute("axpy", p, {}, s);
  const int max_size = test::gl_context().info().max_texture_size;
  FieldStorage tx(kN, p, s, max_size), ty(kN, p, s, max_size);
  tx.upload(std::vector<double>(x.begin(), x.end()));
  ty.upload(std::vector<double>(y.begin(), y.end()));
  prog.bind({}, {&tx}, {&ty});
  prog.set_real("a", kA);
  prog.run(kN);
  std::vector<double> out(kN);
  ty.download(out);
  return {out.begin(), out.end()};
}

TEST(AxpyTwin, Fp64IsExact) {
  const auto x = random_vector<double>(1, -1.0, 1.0), y = random_vector<double>(2, -1.0, 1.0);
  for (Storage s : {Storage::texture, Storage::buffer}) {
    SCOPED_TRACE(to_string(s));
    const std::vector<double> got = gpu_axpy(Precision::fp64, s, x, y);
    ASSERT_EQ(got.size(), kN);
    std::size_t bad = 0;
    for (std::size_t i = 0; i < kN; ++i) {
      const double want = y[i] + kA * x[i];
      if (got[i] != want && bad++ < 5)
        ADD_FAILURE() << "i=" << i << " " << got[i] << " vs " << want;
    }
    EXPECT_EQ(bad, 0u);
  }
}

TEST(AxpyTwin, Fp32WithinOneMicroRelative) {
  // Positive operands: no cancellation, so a relative bound is meaningful.
  const auto x = random_vector<float>(3, 0.5, 1.5), y = random_vector<float>(4, 1.0, 2.0);
  for (Storage s : {Storage::texture, Storage::buffer}) {
    SCOPED_TRACE(to_string(s));
    const std::vector<float> got = gpu_axpy(Precision::fp32, s, x, y);
    ASSERT_EQ(got.size(), kN);
    std::size_t bad = 0;
    for (std::size_t i = 0; i < kN; ++i) {
      const double want = static_cast<double>(y[i]) + kA * static_cast<double>(x[i]);
      const double rel = std::abs(static_cast<double>(got[i]) - want) / std::abs(want);
      if (rel > 1e-6 && bad++ < 5) ADD_FAILURE() << "i=" << i << " rel " << rel;
    }
    EXPECT_EQ(bad, 0u);
  }
}

}  // namespace
}  // namespace scfd::gl
