// STUB: to be replaced by its owner.
#include "topology/build.hpp"
#include "core/error.hpp"
namespace scfd::topology {
Mesh build_mesh(const mesh_io::RawMesh&, const BuildOptions&, std::vector<std::string>*) { SCFD_CHECK(false, "build_mesh not implemented"); }
}  // namespace scfd::topology
