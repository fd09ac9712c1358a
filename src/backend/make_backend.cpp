// Backend registry: the name used in case files ("cpu", ...) is the key.
#include <fmt/format.h>

#include "backend/backend.hpp"
#include "backend/cpu/cpu_backend.hpp"
#include "core/error.hpp"

namespace scfd::backend {

std::unique_ptr<Backend> make_backend(const std::string& name) {
  if (name == "cpu") return std::make_unique<cpu::CpuBackend>();
  throw input_error("backend '{}' is not available in this build (available: cpu)", name);
}

}  // namespace scfd::backend
