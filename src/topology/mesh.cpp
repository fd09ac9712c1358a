// Mesh bookkeeping: Euler characteristic and memory footprint.
// chi = V - E + F - C (3D) or V - E + C (2D), the alternating sum of the numbers of simplices,
// equals 1 - (handles) + (cavities) for a connected 3D domain and 1 - (holes) in 2D.
// Reference: e.g. Hatcher, "Algebraic Topology" (2002), §2.2 (Euler characteristic).
#include "topology/mesh.hpp"

namespace scfd::topology {
namespace {
template <typename T>
std::size_t bytes_of(const std::vector<T>& v) {
  return v.size() * sizeof(T);
}
std::size_t bytes_of(const Csr& c) {
  return bytes_of(c.offset) + bytes_of(c.item) + bytes_of(c.sign);
}
}  // namespace

long long Mesh::euler_characteristic() const {
  const long long v = n_nodes, e = n_edges, f = n_faces, c = n_cells;
  return dim == 3 ? v - e + f - c : v - e + c;
}

std::size_t Mesh::bytes() const {
  std::size_t b =
      bytes_of(node_x) + bytes_of(node_tag) + bytes_of(cell_nodes) + bytes_of(cell_faces) +
      bytes_of(cell_face_sign) + bytes_of(cell_region) + bytes_of(cell_tag) + bytes_of(face_nodes) +
      bytes_of(face_cells) + bytes_of(face_patch) + bytes_of(edge_nodes) + bytes_of(face_curl) +
      bytes_of(face_curl_sign) + bytes_of(curl_faces) + bytes_of(node_cells) +
      bytes_of(node_edges) + bytes_of(cell_volume) + bytes_of(cell_centroid) +
      bytes_of(cell_circumcentre) + bytes_of(face_area) + bytes_of(face_normal) +
      bytes_of(face_centre) + bytes_of(face_dist) + bytes_of(node_dual_volume) +
      bytes_of(edge_dual_normal) + bytes_of(edge_stiffness) + bytes_of(node_gid) +
      bytes_of(edge_gid) + bytes_of(face_gid) + bytes_of(cell_gid) + bytes_of(node_ghost_owner) +
      bytes_of(edge_ghost_owner) + bytes_of(face_ghost_owner) + bytes_of(cell_ghost_owner);
  for (const Patch& p : patches) b += bytes_of(p.faces) + bytes_of(p.edges) + bytes_of(p.nodes);
  return b;
}

}  // namespace scfd::topology
