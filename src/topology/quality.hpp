// Element quality: the normalised radius ratio q = d * r_in / r_circ (d = dimension), which is 1
// for an equilateral triangle / regular tetrahedron and tends to 0 for degenerate elements.
#pragma once

#include <vector>

#include "topology/mesh.hpp"

namespace scfd::topology {

std::vector<real> cell_quality(const Mesh& m);

}  // namespace scfd::topology
