// The traffic model of the backend operations: the bytes one call moves between memory and the
// cores, by the data layout of the gl-compute kernels (4-byte indices, sliced-ELL lists of
// kTrafficSellChunk rows per slice). `streamcfd bench` divides it by the measured time to report
// a bandwidth and its ratio to the copy bandwidth of the same run. One model serves every backend,
// so the same kernel has the same bytes on cpu and GPU (the cpu twins read their lists in a
// slightly different layout, so their figure is the same work, not exactly their own traffic).
#pragma once

#include <string_view>

#include "core/types.hpp"
#include "topology/mesh.hpp"

namespace scfd::backend {

// Rows per slice of the sliced-ELL lists the model assumes (the gl-compute layout).
inline constexpr index kTrafficSellChunk = 32;

// Bytes of one call of `op` on mesh m with reals of `real_bytes` (8 fp64, 4 fp32). Vector
// operations ("copy", "scale", "dot", "axpy", "xpay", "pcg_update", "pcg_direction") by their
// field length n; the operators ("gradient", ..., "node_system_apply") by the mesh, ignoring n.
// SCFD_CHECK for an unknown name.
double traffic_bytes(std::string_view op, const topology::Mesh& m, index n, int real_bytes);

}  // namespace scfd::backend
