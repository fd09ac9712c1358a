// What GlBackend offers besides the Backend interface, for each driver, precision and storage:
// its GL precision and storage (gl_precision(), storage_kind()) and the device it runs on
// (device(): a renderer string); and make_backend's errors, one line each. Everything a
// GlBackend computes is checked against the cpu backend through the backend table in
// tests/conformance.
#include <gtest/gtest.h>

#include <memory>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include "backend/opengl/compute_driver.hpp"
#include "backend/opengl/fragment_driver.hpp"
#include "backend/opengl/gl_backend.hpp"
#include "core/counters.hpp"
#include "core/error.hpp"

namespace scfd::gl {
// Test names and messages show "fp64"/"fp32" instead of the enum's bytes.
void PrintTo(Precision p, std::ostream* os) {
  *os << to_string(p);
}
}  // namespace scfd::gl

namespace scfd::backend::opengl {
namespace {

using scfd::gl::Precision;
using scfd::gl::Storage;

// The driver of a GlBackend under test.
enum class DriverKind { compute, raster };

std::unique_ptr<Driver> make_driver(DriverKind kind) {
  if (kind == DriverKind::raster) return std::make_unique<FragmentDriver>();
  return std::make_unique<ComputeDriver>();
}

// gl-compute on both field storages, and gl-raster (the fragment driver, on textures).
class GlBackendApi : public ::testing::TestWithParam<std::tuple<Precision, Storage, DriverKind>> {};

TEST_P(GlBackendApi, PrecisionStorageAndDevice) {
  const auto [precision, storage, driver] = GetParam();
  const GlBackend gpu(make_driver(driver), precision, storage, -1, /*debug=*/true);
  EXPECT_EQ(gpu.name(), driver == DriverKind::raster ? "gl-raster" : "gl-compute");
  EXPECT_EQ(gpu.precision(), precision == Precision::fp64 ? "fp64" : "fp32");
  EXPECT_EQ(gpu.gl_precision(), precision);
  EXPECT_EQ(gpu.storage_kind(), storage);
  EXPECT_FALSE(gpu.device().renderer.empty());
}

// Every command that runs work on the GPU is counted (counters::Kind::gpu_dispatch, the run
// summary's gpu_dispatches): an axpy is one kernel, a copy one command at least; the cpu backend
// queues none.
TEST_P(GlBackendApi, CountsItsDispatches) {
  const auto [precision, storage, driver] = GetParam();
  const GlBackend gpu(make_driver(driver), precision, storage, -1, /*debug=*/true);
  auto x = gpu.make_field(1000), y = gpu.make_field(1000);
  gpu.fill(*x, 1);
  gpu.fill(*y, 2);
  counters::Snapshot before = counters::snapshot();
  gpu.axpy(0.5, *x, *y);
  EXPECT_EQ((counters::snapshot() - before)[counters::Kind::gpu_dispatch], 1U);
  before = counters::snapshot();
  gpu.copy(*x, *y);
  EXPECT_GE((counters::snapshot() - before)[counters::Kind::gpu_dispatch], 1U);
  const auto cpu = make_backend("cpu");
  auto a = cpu->make_field(1000), b = cpu->make_field(1000);
  before = counters::snapshot();
  cpu->axpy(0.5, *a, *b);
  cpu->copy(*a, *b);
  EXPECT_EQ((counters::snapshot() - before)[counters::Kind::gpu_dispatch], 0U);
}

// The driver's start_builds (Backend::start_kernel_builds on a GPU whose driver compiles in its
// threads) starts the builds that first uses would make; the work afterwards runs on them.
TEST_P(GlBackendApi, StartedBuildsServeTheFirstUses) {
  const auto [precision, storage, driver] = GetParam();
  const GlBackend gpu(make_driver(driver), precision, storage, -1, /*debug=*/true);
  gpu.driver().start_builds();
  auto x = gpu.make_field(1000), y = gpu.make_field(1000);
  gpu.fill(*x, 1);
  gpu.fill(*y, 2);
  gpu.axpy(0.5, *x, *y);
  const auto s = gpu.make_scalars(2);
  gpu.dot(*x, *y, 1000, *s, 0);
  std::vector<real> out(2);
  gpu.read_scalars(*s, out);
  EXPECT_EQ(out[0], 2500);
  EXPECT_EQ(gpu.dot(*x, *y, 1000), 2500);
}

INSTANTIATE_TEST_SUITE_P(
    gl, GlBackendApi,
    ::testing::Values(std::tuple(Precision::fp64, Storage::buffer, DriverKind::compute),
                      std::tuple(Precision::fp64, Storage::texture, DriverKind::compute),
                      std::tuple(Precision::fp64, Storage::texture, DriverKind::raster),
                      std::tuple(Precision::fp32, Storage::buffer, DriverKind::compute),
                      std::tuple(Precision::fp32, Storage::texture, DriverKind::compute),
                      std::tuple(Precision::fp32, Storage::texture, DriverKind::raster)),
    [](const auto& p) {
      return std::string(scfd::gl::to_string(std::get<0>(p.param))) + "_" +
             (std::get<2>(p.param) == DriverKind::raster
                  ? std::string("raster")
                  : std::string(scfd::gl::to_string(std::get<1>(p.param))));
    });

std::string error_of(const std::string& name, const BackendOptions& options) {
  try {
    make_backend(name, options);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(MakeBackend, MakesGlCompute) {
  const auto be = make_backend("gl-compute", {.precision = "fp32"});
  EXPECT_EQ(be->name(), "gl-compute");
  EXPECT_EQ(be->precision(), "fp32");
}

TEST(MakeBackend, ErrorsAreOneLine) {
  for (const auto& [name, precision, expected] :
       {std::tuple{"cpu", "fp32", "fp64 only"}, std::tuple{"cuda", "fp64", "cpu, gl-compute"},
        std::tuple{"gl-compute", "fp16", "\"fp64\" or \"fp32\""}}) {
    const std::string e = error_of(name, {.precision = precision});
    EXPECT_NE(e.find(expected), std::string::npos) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
}

}  // namespace
}  // namespace scfd::backend::opengl
