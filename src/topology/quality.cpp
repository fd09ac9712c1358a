// STUB: to be replaced by its owner.
#include "topology/quality.hpp"
#include "core/error.hpp"
namespace scfd::topology {
std::vector<real> cell_quality(const Mesh&) { SCFD_CHECK(false, "cell_quality not implemented"); }
}  // namespace scfd::topology
