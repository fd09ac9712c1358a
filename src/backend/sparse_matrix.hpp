// A sparse matrix on the host in compressed sparse row form (CSR), the exchange format between
// code that assembles or coarsens a linear operator (solvers/amg.hpp, solvers/assembly.hpp) and
// the backend that stores and applies it (Backend::make_matrix).
#pragma once

#include <vector>

#include "core/types.hpp"

namespace scfd::backend {

struct SparseMatrix {
  index rows = 0, cols = 0;
  std::vector<index> offset{0};  // rows + 1 entries: row i holds entries offset[i]..offset[i+1]
  std::vector<index> column;     // one per entry, < cols
  std::vector<real> value;       // one per entry

  index entries() const { return static_cast<index>(column.size()); }
  // Throws (SCFD_CHECK) unless the arrays describe a rows x cols matrix.
  void check() const;
};

}  // namespace scfd::backend
