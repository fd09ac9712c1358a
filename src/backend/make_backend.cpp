// Backend registry: the name used in case files ("cpu", "gl-compute") is the key.
#include <fmt/format.h>

#include "backend/backend.hpp"
#include "backend/cpu/cpu_backend.hpp"
#include "backend/gl/gl_backend.hpp"
#include "core/error.hpp"

namespace scfd::backend {

std::unique_ptr<Backend> make_backend(const std::string& name, const BackendOptions& options) {
  if (name == "cpu") {
    if (options.precision != "fp64")
      throw input_error("the cpu backend computes in fp64 only (fp32 is a GPU option)");
    return std::make_unique<cpu::CpuBackend>();
  }
  if (name == "gl-compute") {
    gl::Precision p = gl::Precision::fp64;
    if (options.precision == "fp32")
      p = gl::Precision::fp32;
    else if (options.precision != "fp64")
      throw input_error("precision '{}' is not known (expected \"fp64\" or \"fp32\")",
                        options.precision);
    // No EGL device, a device without GL 4.3, or fp64 asked of a device without it: the
    // InputErrors of gl::Context and gl::require_fp64.
    return std::make_unique<glc::GlBackend>(p, options.device, options.debug);
  }
  throw input_error("backend '{}' is not available in this build (available: cpu, gl-compute)",
                    name);
}

}  // namespace scfd::backend
