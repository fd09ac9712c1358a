// HaloPlan exchanges (see halo_plan.hpp): receives posted first into the plan's receive buffer,
// sends packed by one gather on the backend, MPI_Waitall in end(), then one contiguous upload of
// every received value into the ghost range [n_owned, n_local).
#include <algorithm>

#include "core/error.hpp"
#include "core/timer.hpp"
#include "halo/halo_plan.hpp"
#include "halo/mpi_type.hpp"

namespace scfd::halo {

template <typename T>
void HaloPlan::post_receives(std::span<T> recv) {
  for (std::size_t k = 0; k < recv_ranks_.size(); ++k)
    MPI_Irecv(recv.data() + (recv_start_[k] - n_owned_), recv_count_[k], detail::mpi_type<T>(),
              recv_ranks_[k], tag_, comm_, &requests_[k]);
}

template <typename T>
void HaloPlan::post_sends(std::span<const T> send) {
  const std::size_t n_recv = recv_ranks_.size();
  for (std::size_t k = 0; k < send_ranks_.size(); ++k)
    MPI_Isend(send.data() + send_offset_[k], send_offset_[k + 1] - send_offset_[k],
              detail::mpi_type<T>(), send_ranks_[k], tag_, comm_, &requests_[n_recv + k]);
}

double HaloPlan::wait_all() {
  const Timer t;
  MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  const double s = t.seconds();
  stats_.wait_seconds += s;
  return s;
}

void HaloPlan::begin(const backend::Backend& be, backend::Field& x) {
  SCFD_CHECK(!in_flight_, "{} halo: begin() while an exchange is in flight", entity_name(kind_));
  SCFD_CHECK(x.size() == n_local_, "{} halo: field of {} entries, the plan has {}",
             entity_name(kind_), x.size(), n_local_);
  in_flight_ = true;
  pending_ = &x;
  begin_seconds_ = 0;
  if (empty()) return;
  const Timer t;
  post_receives<real>(recv_buf_);
  if (!send_index_.empty()) be.download_indices(x, send_index_, send_buf_);
  post_sends<real>(send_buf_);
  begin_seconds_ = t.seconds();
}

void HaloPlan::end(const backend::Backend& be, backend::Field& x) {
  SCFD_CHECK(in_flight_, "{} halo: end() without begin()", entity_name(kind_));
  SCFD_CHECK(pending_ == &x, "{} halo: end() on another field than begin()", entity_name(kind_));
  in_flight_ = false;
  pending_ = nullptr;
  ++stats_.exchanges;
  if (empty()) return;
  const Timer t;
  wait_all();
  if (!recv_buf_.empty()) be.upload_range(recv_buf_, x, n_owned_);
  stats_.comm_seconds += begin_seconds_ + t.seconds();
}

void HaloPlan::exchange(const backend::Backend& be, backend::Field& x) {
  begin(be, x);
  end(be, x);
}

template <typename T>
void HaloPlan::exchange_host(std::span<T> x, std::span<T> send, std::span<T> recv) {
  SCFD_CHECK(!in_flight_, "{} halo: host exchange while an exchange is in flight",
             entity_name(kind_));
  SCFD_CHECK(static_cast<index>(x.size()) == n_local_,
             "{} halo: array of {} entries, the plan has {}", entity_name(kind_), x.size(),
             n_local_);
  ++stats_.exchanges;
  if (empty()) return;
  const Timer t;
  post_receives(recv);
  for (std::size_t i = 0; i < send_index_.size(); ++i)
    send[i] = x[static_cast<std::size_t>(send_index_[i])];
  post_sends<T>(send);
  wait_all();
  std::copy(recv.begin(), recv.end(), x.begin() + n_owned_);
  stats_.comm_seconds += t.seconds();
}

void HaloPlan::exchange(std::span<real> x) {
  exchange_host<real>(x, send_buf_, recv_buf_);
}

void HaloPlan::exchange(std::span<index> x) {
  std::vector<index> send(send_index_.size()), recv(static_cast<std::size_t>(n_ghosts()));
  exchange_host<index>(x, send, recv);
}

}  // namespace scfd::halo
