// The compute driver's bodies as Bodies (see body.hpp).
#include "gl/body.hpp"

namespace scfd::gl {

std::unique_ptr<Body> compile_compute_body(std::string_view kernel, Precision p,
                                           const Defines& defines, Storage storage) {
  return std::make_unique<ComputeBody>(start_compute(kernel, p, defines, storage));
}

}  // namespace scfd::gl
