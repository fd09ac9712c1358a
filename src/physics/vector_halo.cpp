// 3-component halo exchange (see vector_halo.hpp). The message tag differs from the scalar
// plans' tags, so a vector exchange never matches a scalar message.
#include "physics/vector_halo.hpp"

#include "core/error.hpp"

namespace scfd::physics {
namespace {
constexpr int kTag = 7103;
}

VectorHalo::VectorHalo(const halo::HaloPlan& plan, MPI_Comm comm) : plan_(plan), comm_(comm) {
  for (index i : plan.send_indices())
    for (index d = 0; d < 3; ++d) send_index_.push_back(3 * i + d);
  send_.resize(send_index_.size());
  recv_.resize(3 * static_cast<std::size_t>(plan.n_ghosts()));
  requests_.resize(plan.send_ranks().size() + plan.recv_ranks().size());
}

void VectorHalo::exchange(const backend::Backend& be, backend::Field& x) {
  SCFD_CHECK(x.size() == 3 * plan_.n_local(), "vector halo: field of {} values for {} entities",
             x.size(), plan_.n_local());
  if (plan_.empty()) return;
  const auto recv_ranks = plan_.recv_ranks();
  const auto send_ranks = plan_.send_ranks();
  const auto offsets = plan_.send_offsets();
  std::size_t r = 0;
  for (std::size_t k = 0; k < recv_ranks.size(); ++k)
    MPI_Irecv(recv_.data() + 3 * (plan_.recv_starts()[k] - plan_.n_owned()),
              3 * plan_.recv_counts()[k], MPI_DOUBLE, recv_ranks[k], kTag, comm_, &requests_[r++]);
  if (!send_index_.empty()) be.download_indices(x, send_index_, send_);
  for (std::size_t k = 0; k < send_ranks.size(); ++k)
    MPI_Isend(send_.data() + 3 * offsets[k], 3 * (offsets[k + 1] - offsets[k]), MPI_DOUBLE,
              send_ranks[k], kTag, comm_, &requests_[r++]);
  MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  if (!recv_.empty()) be.upload_range(recv_, x, 3 * plan_.n_owned());
}

}  // namespace scfd::physics
