// The table of backends (see registry.hpp).
#include "backend/registry.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>

#include "backend/cpu/cpu_backend.hpp"
#include "backend/opengl/compute_driver.hpp"
#include "backend/opengl/fragment_driver.hpp"
#include "backend/opengl/gl_backend.hpp"
#include "core/error.hpp"
#include "gl/context.hpp"

namespace scfd::backend {
namespace {

bool cpu_detect(const BackendOptions& o, std::string& reason) {
  reason =
      o.precision == "fp64" ? "the reference backend" : "the cpu backend computes in fp64 only";
  return o.precision == "fp64";
}

std::unique_ptr<Backend> cpu_make(const BackendOptions& o) {
  if (o.precision != "fp64")
    throw input_error("the cpu backend computes in fp64 only (fp32 is a GPU option)");
  return std::make_unique<cpu::CpuBackend>();
}

// gl-compute where an EGL device is a hardware GPU with OpenGL 4.3+ (and fp64 unless fp32 is
// asked for); a software renderer such as llvmpipe runs it correctly but slower than cpu.
bool gl_compute_detect(const BackendOptions& o, std::string& reason) {
  std::vector<gl::DeviceInfo> devices;
  try {
    devices = gl::list_devices();
  } catch (const InputError& e) {
    reason = fmt::format("no usable EGL device ({})", e.what());
    return false;
  }
  const auto usable = [&](const gl::DeviceInfo& d) {
    return !d.software && (d.fp64 || o.precision == "fp32");
  };
  if (std::any_of(devices.begin(), devices.end(), usable)) {
    reason = "a hardware GPU with OpenGL 4.3+ was found";
    return true;
  }
  reason =
      devices.front().software
          ? fmt::format("the only GL device is a software renderer ({})", devices.front().renderer)
          : "the GPU has no fp64 (set solver.precision = \"fp32\" to use it)";
  return false;
}

gl::Precision gl_precision(const BackendOptions& o) {
  if (o.precision == "fp32") return gl::Precision::fp32;
  if (o.precision != "fp64")
    throw input_error("precision '{}' is not known (expected \"fp64\" or \"fp32\")", o.precision);
  return gl::Precision::fp64;
}

std::unique_ptr<Backend> gl_compute_make(const BackendOptions& o) {
  const gl::Precision p = gl_precision(o);
  gl::Storage storage = gl::Storage::buffer;
  if (o.storage == "texture")
    storage = gl::Storage::texture;
  else if (o.storage != "buffer")
    throw input_error("storage '{}' is not known (expected \"buffer\" or \"texture\")", o.storage);
  // No EGL device, a device without GL 4.3, or fp64 asked of a device without it: the
  // InputErrors of gl::Context and gl::require_fp64.
  return std::make_unique<opengl::GlBackend>(std::make_unique<opengl::ComputeDriver>(), p, storage,
                                             o.device, o.debug, o.device_origin);
}

// gl-raster is never the automatic choice: it is the thesis's style and the portable path, not
// the fast one (docs/gpu.md §9); a case asks for it by name.
bool gl_raster_detect(const BackendOptions&, std::string& reason) {
  reason = "gl-raster runs only when asked for (solver.backend = \"gl-raster\")";
  return false;
}

// Fields are always textures: the fragment driver draws into them (solver.storage is a gl-compute
// choice).
std::unique_ptr<Backend> gl_raster_make(const BackendOptions& o) {
  return std::make_unique<opengl::GlBackend>(std::make_unique<opengl::FragmentDriver>(),
                                             gl_precision(o), gl::Storage::texture, o.device,
                                             o.debug, o.device_origin);
}

constexpr std::array<BackendEntry, 3> kTable = {{
    {"gl-compute", "OpenGL 4.3+ through EGL (NVIDIA, AMD, Mesa llvmpipe)", gl_compute_detect,
     gl_compute_make},
    {"cpu", "any machine", cpu_detect, cpu_make},
    {"gl-raster", "the same GL device, kernels as fragment programs (the seed thesis's style)",
     gl_raster_detect, gl_raster_make},
}};

}  // namespace

std::span<const BackendEntry> backend_table() {
  return kTable;
}

const BackendEntry* find_backend(std::string_view name) {
  const auto it = std::find_if(kTable.begin(), kTable.end(),
                               [&](const BackendEntry& e) { return e.name == name; });
  return it == kTable.end() ? nullptr : &*it;
}

std::vector<std::string_view> backend_choices() {
  std::vector<std::string_view> names = {"auto"};
  for (const BackendEntry& e : kTable) names.push_back(e.name);
  return names;
}

std::unique_ptr<Backend> make_backend(const std::string& name, const BackendOptions& options) {
  const BackendEntry* entry = find_backend(name);
  if (entry == nullptr) {
    std::vector<std::string_view> names;
    for (const BackendEntry& e : kTable) names.push_back(e.name);
    std::sort(names.begin(), names.end());
    throw input_error("backend '{}' is not available in this build (available: {})", name,
                      fmt::join(names, ", "));
  }
  return entry->make(options);
}

}  // namespace scfd::backend
