// STUB: to be replaced by its owner.
#include "mesh_io/gmsh.hpp"
#include "core/error.hpp"
namespace scfd::mesh_io {
RawMesh read_gmsh(const std::string& path) { SCFD_CHECK(false, "read_gmsh not implemented: {}", path); }
}  // namespace scfd::mesh_io
