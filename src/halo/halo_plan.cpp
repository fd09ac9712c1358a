// HaloPlan exchanges (see halo_plan.hpp): receives posted first into the backend's staging memory
// or the plan's receive buffer, sends packed by one gather on the backend (posted in begin, or in
// end when the backend's gather is still running: Backend::download_indices_begin; sent from
// where download_indices_end says the values are), MPI_Waitall in end(), then one contiguous
// upload of every received value into the ghost range [n_owned, n_local) (a narrowed plan: one
// scatter of the received values into their ghosts, Backend::upload_indices).
#include <algorithm>
#include <atomic>

#include "core/counters.hpp"
#include "core/error.hpp"
#include "core/mpi_type.hpp"
#include "core/timer.hpp"
#include "halo/halo_plan.hpp"

namespace scfd::halo {

template <typename T>
void HaloPlan::post_receives(std::span<T> recv, int c) {
  for (std::size_t k = 0; k < recv_ranks_.size(); ++k)
    MPI_Irecv(recv.data() + c * recv_offset_[k], c * recv_count_[k], mpi_type<T>(), recv_ranks_[k],
              tag_, comm_, &requests_[k]);
}

template <typename T>
void HaloPlan::post_sends(std::span<const T> send, int c) {
  const std::size_t n_recv = recv_ranks_.size();
  for (std::size_t k = 0; k < send_ranks_.size(); ++k)
    MPI_Isend(send.data() + c * send_offset_[k], c * (send_offset_[k + 1] - send_offset_[k]),
              mpi_type<T>(), send_ranks_[k], tag_, comm_, &requests_[n_recv + k]);
}

std::uint64_t HaloPlan::next_id() {
  static std::atomic<std::uint64_t> next{1};
  return next++;
}

std::uint64_t HaloPlan::list_id(int c, bool receive) const {
  SCFD_CHECK(c >= 1 && c < 128, "{} halo: {} components per entity", entity_name(kind_), c);
  return id_ << 8 | static_cast<std::uint64_t>(c) << 1 | (receive ? 1 : 0);
}

std::span<const index> HaloPlan::send_list(int c) {
  if (c == 1) return send_index_;
  const auto cu = static_cast<std::size_t>(c);
  if (wide_index_.size() <= cu) wide_index_.resize(cu + 1);
  std::vector<index>& wide = wide_index_[cu];
  if (wide.empty() && !send_index_.empty()) {
    wide.reserve(cu * send_index_.size());
    for (index i : send_index_)
      for (index d = 0; d < c; ++d) wide.push_back(c * i + d);
  }
  // Buffers for c components (a rank may receive without sending): grown once, never shrunk.
  send_buf_.resize(std::max(send_buf_.size(), wide.size()));
  recv_buf_.resize(std::max(recv_buf_.size(), cu * static_cast<std::size_t>(n_received())));
  return wide;
}

std::span<const index> HaloPlan::recv_list(int c) {
  if (c == 1) return recv_index_;
  const auto cu = static_cast<std::size_t>(c);
  if (wide_recv_.size() <= cu) wide_recv_.resize(cu + 1);
  std::vector<index>& wide = wide_recv_[cu];
  if (wide.empty() && !recv_index_.empty()) {
    wide.reserve(cu * recv_index_.size());
    for (index i : recv_index_)
      for (index d = 0; d < c; ++d) wide.push_back(c * i + d);
  }
  return wide;
}

// One exchange with the neighbours for the synchronisation counters (core/counters.hpp): an
// empty plan (one rank, a serial mesh) talks to nobody and is not counted.
void HaloPlan::count_exchange(std::size_t bytes) {
  counters::add(counters::Kind::halo_exchange);
  counters::add(counters::Kind::halo_bytes_sent, bytes);
}

double HaloPlan::wait_all() {
  const Timer t;
  const counters::MpiWait waiting;
  MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  const double s = t.seconds();
  totals().wait_seconds += s;
  return s;
}

void HaloPlan::begin(const backend::Backend& be, backend::Field& x, int components) {
  SCFD_CHECK(!in_flight_, "{} halo: begin() while an exchange is in flight", entity_name(kind_));
  SCFD_CHECK(components >= 1 && x.size() == components * n_local_,
             "{} halo: field of {} entries, the plan has {} entities of {} values",
             entity_name(kind_), x.size(), n_local_, components);
  in_flight_ = true;
  pending_ = &x;
  pending_components_ = components;
  begin_seconds_ = 0;
  if (empty()) return;
  const Timer t;
  const std::span<const index> list = send_list(components);
  const std::span<real> send(send_buf_.data(), list.size());
  const std::size_t n_recv =
      static_cast<std::size_t>(components) * static_cast<std::size_t>(n_received());
  // Received in the backend's staging memory, the values need no copy on their way to the device.
  pending_recv_ = on_one_node_ ? be.receive_buffer(n_recv) : std::span<real>{};
  if (pending_recv_.empty()) pending_recv_ = std::span<real>(recv_buf_.data(), n_recv);
  post_receives<real>(pending_recv_, components);
  // A GPU's gather may still run after begin returns: the sends go out in end(), once it is
  // done, and the work queued in between keeps the GPU busy meanwhile.
  pack_pending_ =
      !list.empty() && !be.download_indices_begin(x, list, send, list_id(components, false));
  if (!pack_pending_) post_sends<real>(send, components);
  count_exchange(send.size_bytes());
  begin_seconds_ = t.seconds();
}

void HaloPlan::end(const backend::Backend& be, backend::Field& x, bool joined) {
  SCFD_CHECK(in_flight_, "{} halo: end() without begin()", entity_name(kind_));
  SCFD_CHECK(pending_ == &x, "{} halo: end() on another field than begin()", entity_name(kind_));
  send(be);
  in_flight_ = false;
  pending_ = nullptr;
  ++totals().exchanges;
  if (empty()) return;
  if (!joined) counters::add(counters::Kind::halo_round);
  const Timer t;
  wait_all();
  const std::span<const real> recv = pending_recv_;
  if (!recv.empty()) {
    if (narrowed_)
      be.upload_indices(recv, recv_list(pending_components_), x,
                        list_id(pending_components_, true));
    else
      be.upload_range(recv, x, pending_components_ * n_owned_);
  }
  totals().comm_seconds += begin_seconds_ + t.seconds();
}

void HaloPlan::send(const backend::Backend& be) {
  SCFD_CHECK(in_flight_, "{} halo: send() without begin()", entity_name(kind_));
  if (empty()) return;
  const Timer t;
  // The work queued since begin() (the rows that read no ghost) must reach the GPU before the
  // host waits for the gather and the messages: a fence already passed does not flush, and the
  // driver held that work back while MPI waited (bench --only halo: hidden = work + exchange).
  be.flush();
  if (pack_pending_) {
    const std::span<real> out(send_buf_.data(), send_list(pending_components_).size());
    std::span<const real> values = be.download_indices_end(out);
    if (!on_one_node_ && values.data() != out.data()) {  // see on_one_node_
      std::copy(values.begin(), values.end(), out.begin());
      values = out;
    }
    post_sends<real>(values, pending_components_);
    pack_pending_ = false;
  }
  begin_seconds_ += t.seconds();
}

void HaloPlan::exchange(const backend::Backend& be, backend::Field& x, int components) {
  begin(be, x, components);
  end(be, x);
}

template <typename T>
void HaloPlan::exchange_host(std::span<T> x, std::span<T> send, std::span<T> recv) {
  SCFD_CHECK(!in_flight_, "{} halo: host exchange while an exchange is in flight",
             entity_name(kind_));
  SCFD_CHECK(static_cast<index>(x.size()) == n_local_,
             "{} halo: array of {} entries, the plan has {}", entity_name(kind_), x.size(),
             n_local_);
  ++totals().exchanges;
  if (empty()) return;
  const Timer t;
  post_receives(recv, 1);
  for (std::size_t i = 0; i < send_index_.size(); ++i)
    send[i] = x[static_cast<std::size_t>(send_index_[i])];
  post_sends<T>(send, 1);
  count_exchange(send.size_bytes());
  counters::add(counters::Kind::halo_round);
  wait_all();
  if (narrowed_) {
    for (std::size_t k = 0; k < recv_index_.size(); ++k)
      x[static_cast<std::size_t>(recv_index_[k])] = recv[k];
  } else {
    std::copy(recv.begin(), recv.end(), x.begin() + n_owned_);
  }
  totals().comm_seconds += t.seconds();
}

void HaloPlan::exchange(std::span<real> x) {
  exchange_host<real>(x, std::span<real>(send_buf_.data(), send_index_.size()),
                      std::span<real>(recv_buf_.data(), static_cast<std::size_t>(n_received())));
}

void HaloPlan::exchange(std::span<index> x) {
  std::vector<index> send(send_index_.size()), recv(static_cast<std::size_t>(n_received()));
  exchange_host<index>(x, send, recv);
}

}  // namespace scfd::halo
