// Serialisation of a whole Mesh into one byte buffer, to send a rank its mesh (distribute.hpp).
// Every field of topology::Mesh is listed once, in pack.cpp's visit_mesh, which both directions
// use; the round-trip test compares every field and guards sizeof(Mesh), so a field added to Mesh
// without being added here fails a test. The buffer is for the same build on the same machine
// type (native endianness and sizes), not a file format.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "topology/mesh.hpp"

namespace scfd::partition {

std::vector<std::byte> pack(const topology::Mesh& mesh);

// The mesh packed into BYTES; SCFD_CHECK if the buffer is truncated, too long or not a packed
// mesh.
topology::Mesh unpack(std::span<const std::byte> bytes);

}  // namespace scfd::partition
