// The [boundary.NAME] tables of a case file against the patches of the mesh, shared by every model:
// a table for a patch the mesh does not have, or a patch without a table, is a one-line
// InputError naming the file, the key and the valid names.
#pragma once

#include <string>
#include <vector>

#include "config/case.hpp"
#include "topology/mesh.hpp"

namespace scfd::physics {

// Patch names in mesh order (the index of a patch is its position here).
std::vector<std::string> patch_names(const topology::Mesh& m);

// "boundary.NAME" for the patch at index `patch`, NAME quoted where TOML needs it
// (boundary.'side walls').
std::string boundary_key(const topology::Mesh& m, int patch);

// Checks that the case has exactly one [boundary.NAME] table per patch. `types` is the list of
// valid `type` values, shown in the error for a patch without a table
// (e.g. "wall | moving-wall | velocity").
void check_boundary_tables(const config::Case& c, const topology::Mesh& m,
                           const std::string& types);

}  // namespace scfd::physics
