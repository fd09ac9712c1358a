// Halo exchange of a field with 3 values per entity (cell vectors: velocity, convective
// acceleration), built on the lists of a scalar HaloPlan: the same neighbours, sends and ghost
// ranges, each entry widened to 3 consecutive values. Blocking (begin + end in one call): the
// model exchanges vectors twice per step, outside the solver loops.
#pragma once

#include <mpi.h>

#include <vector>

#include "backend/backend.hpp"
#include "halo/halo_plan.hpp"

namespace scfd::physics {

class VectorHalo {
 public:
  // `plan` must outlive this object; comm is the communicator the plan was built on.
  VectorHalo(const halo::HaloPlan& plan, MPI_Comm comm);
  // Fills the ghost entries [3 n_owned, 3 n_local) of x from their owners.
  void exchange(const backend::Backend& be, backend::Field& x);

 private:
  const halo::HaloPlan& plan_;
  MPI_Comm comm_;
  std::vector<index> send_index_;
  std::vector<real> send_, recv_;
  std::vector<MPI_Request> requests_;
};

}  // namespace scfd::physics
