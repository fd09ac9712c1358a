// Backend registry: the name used in case files ("cpu", ...) is the key.
#include <fmt/format.h>

#include "backend/backend.hpp"
#include "backend/cpu/cpu_backend.hpp"
#include "core/error.hpp"

namespace scfd::backend {

std::unique_ptr<Backend> make_backend(const std::string& name, const BackendOptions& options) {
  if (name == "cpu") {
    if (options.precision != "fp64")
      throw input_error("the cpu backend computes in fp64 only (fp32 is a GPU option)");
    return std::make_unique<cpu::CpuBackend>();
  }
  // gl-compute: registered here by src/backend/gl (issue 4, in progress).
  throw input_error("backend '{}' is not available in this build (available: cpu)", name);
}

}  // namespace scfd::backend
