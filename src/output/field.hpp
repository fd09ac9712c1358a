// Field: a named, read-only view of one result array (per node or per cell) handed to the
// output writers. The writer does not copy or own the data; it reads it during write() only.
#pragma once

#include <span>
#include <string>

#include "core/types.hpp"

namespace scfd::output {

struct Field {
  std::string name;            // unique among all fields of one write (VTK array name)
  int components = 1;          // 1 (scalar) or 3 (vector, stored xyzxyz...; 2D: z = 0)
  std::span<const real> data;  // n * components values, n = number of nodes or cells
};

}  // namespace scfd::output
