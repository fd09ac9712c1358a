// STUB: to be replaced by its owner.
#include "mesh_io/generate.hpp"
#include "core/error.hpp"
namespace scfd::mesh_io {
RawMesh generate_square(int, int, double, std::uint64_t) { SCFD_CHECK(false, "not implemented"); }
RawMesh generate_cube(int, int, int, double, std::uint64_t) { SCFD_CHECK(false, "not implemented"); }
}  // namespace scfd::mesh_io
