// `streamcfd check-kernels [--device N] [--debug] [--backend gl-compute|gl-raster]`: opens a GL
// context on one EGL device, prints the device line, and compiles every embedded kernel
// (kernels/*.glsl minus include-only files) for fp32 and fp64 (fp64 skipped with a note on
// devices without it): gl-compute builds each as a compute shader for buffer and texture fields,
// gl-raster builds each body under the fragment driver (gl/raster.hpp; kernels with their own main
// are gl-compute's only and listed as such). One line per kernel and precision; exit 0 when all
// compile, 1 otherwise, 2 without a usable device (InputError).
// CI runs it on llvmpipe (docs/architecture.md §8.2). SCFD_GL_DEVICE overrides --device.
#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <string>

#include "app/commands.hpp"
#include "core/log.hpp"
#include "gl/context.hpp"
#include "gl/program.hpp"
#include "gl/raster.hpp"

namespace scfd::app {
namespace {

struct CheckKernelsOptions {
  int device = -1;
  bool debug = false;
  std::string backend = "gl-compute";
};

// One kernel under the fragment driver for one precision; false on a compile error.
bool check_raster(const std::string& kernel, gl::Precision p) {
  try {
    gl::compile_raster(kernel, p, {{"acc", p == gl::Precision::fp64 ? "double" : "float"}});
    log::info("  {:<24} {}  fragment  ok", kernel, gl::to_string(p));
    return true;
  } catch (const gl::CompileError& e) {
    log::info("  {:<24} {}  fragment  FAILED", kernel, gl::to_string(p));
    std::fprintf(stderr, "%s\n", e.what());
    return false;
  }
}

// Compiles one kernel for one precision and field storage and prints its line; returns false on
// a compile error.
bool check_one(const std::string& kernel, gl::Precision p, gl::Storage s) {
  try {
    gl::Program prog = gl::compile_compute(kernel, p, {}, s);
    log::info("  {:<24} {}  {:<7}  ok (local size {})", kernel, gl::to_string(p), gl::to_string(s),
              prog.local_size());
    return true;
  } catch (const gl::CompileError& e) {
    log::info("  {:<24} {}  {:<7}  FAILED", kernel, gl::to_string(p), gl::to_string(s));
    std::fprintf(stderr, "%s\n", e.what());
    return false;
  }
}

int run_check_kernels(const CheckKernelsOptions& opt) {
  const gl::Context ctx =
      gl::Context::create(opt.device, opt.debug, opt.backend == "gl-raster" ? 33 : 43);
  const gl::DeviceInfo& d = ctx.info();
  log::info("{}", gl::describe(d));
  int failed = 0, total = 0;
  if (opt.backend == "gl-raster") {
    for (const std::string& kernel : gl::compilable_kernels()) {
      if (!gl::parse_spec(kernel, gl::embedded_text(kernel)).is_body()) {
        log::info("  {:<24} not a body: gl-compute only", kernel);
        continue;
      }
      for (const gl::Precision p : {gl::Precision::fp32, gl::Precision::fp64}) {
        if (p == gl::Precision::fp64 && !d.fp64) {
          log::info("  {:<24} fp64  fragment  skipped (device has no double precision)", kernel);
          continue;
        }
        ++total;
        if (!check_raster(kernel, p)) ++failed;
      }
    }
    log::info("{} of {} kernel builds compiled", total - failed, total);
    return failed == 0 ? 0 : 1;
  }
  for (const std::string& kernel : gl::compilable_kernels())
    for (const gl::Storage s : {gl::Storage::buffer, gl::Storage::texture}) {
      ++total;
      if (!check_one(kernel, gl::Precision::fp32, s)) ++failed;
      if (!d.fp64) {
        log::info("  {:<24} fp64  {:<7}  skipped (device has no double precision)", kernel,
                  gl::to_string(s));
        continue;
      }
      ++total;
      if (!check_one(kernel, gl::Precision::fp64, s)) ++failed;
    }
  log::info("{} of {} kernel builds compiled", total - failed, total);
  return failed == 0 ? 0 : 1;
}

}  // namespace

Command add_check_kernels_command(CLI::App& app) {
  auto opt = std::make_shared<CheckKernelsOptions>();
  CLI::App* sub = app.add_subcommand(
      "check-kernels",
      "Compile every GLSL kernel for fp32 and fp64, buffer and texture fields, on one EGL device");
  sub->add_option("--device", opt->device,
                  "EGL device index (default: node-local MPI rank mod device count; the "
                  "environment variable SCFD_GL_DEVICE overrides it)");
  sub->add_flag("--debug", opt->debug, "KHR_debug output and a GL error check after each call");
  sub->add_option("--backend", opt->backend,
                  "gl-compute: compute shaders, buffer and texture fields; gl-raster: the bodies "
                  "as fragment programs")
      ->check(CLI::IsMember({"gl-compute", "gl-raster"}))
      ->capture_default_str();
  return [opt] { return run_check_kernels(*opt); };
}

}  // namespace scfd::app
