// HaloPlan: the halo exchange of one entity kind (nodes, edges, faces or cells) of a distributed
// mesh (docs/architecture.md §5, §8.9). Built once, collectively, from the parallel decomposition
// of a local Mesh (topology/mesh.hpp): owned entities first, ghosts last grouped by owner rank in
// ascending order, so the ghosts that neighbour r fills are one contiguous range.
//
// Building: each rank sends every owner the global ids of the ghosts it holds from that owner
// (MPI_Alltoall of the counts, MPI_Alltoallv of the ids); the owner maps the ids to its local
// indices. The result, per neighbour: the owned indices it sends (in the order the receiver
// keeps its ghosts) and the ghost range it receives. Send and receive buffers are allocated here,
// once; an exchange allocates nothing.
//
// Exchange with overlap (one exchange in flight per plan):
//
//   plan.begin(be, x);      // post MPI_Irecv (into the backend's staging memory where it has
//                           // some: Backend::receive_buffer), queue the pack of the sends on the
//                           // device (one gather: Backend::download_indices_begin); MPI_Isend
//                           // if it is done
//   ... compute the owned entities whose stencil reads no ghost of x ...
//   plan.end(be, x);        // wait for the pack and MPI_Isend from where it is (a GPU's gather
//                           // runs while the inner work is queued; gl-compute sends from the
//                           // gather's mapped memory), MPI_Waitall, then one upload into the
//                           // ghost range [n_owned, n) (a narrowed plan: a scatter)
//   ... compute the remaining owned entities (those whose stencil reads a ghost) ...
//
// x must not be written between begin and end (its owned values are already packed, but a GPU
// backend may still be reading them; its ghost values are overwritten by end). exchange() is
// begin + end with no work between. The host-array versions exchange set-up data (masks, ids)
// that lives outside a backend; they are blocking.
//
// A serial mesh (no global ids) or a one-rank communicator gives an empty plan: begin, end and
// exchange do nothing. The communicator is not duplicated: it must outlive the plan. Each plan
// uses its own message tag (from its entity kind), so the plans of one Halo may be in flight at
// the same time.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "backend/backend.hpp"
#include "core/types.hpp"

namespace scfd::halo {

enum class Entity { node, edge, face, cell };
const char* entity_name(Entity e);

// Traffic of one plan, for the run summary. Per-exchange figures describe one exchange of one
// `real` field; the accumulated figures cover every exchange since the plan was built.
struct HaloStats {
  int neighbours = 0;              // distinct ranks this rank sends to or receives from
  int messages_sent = 0;           // per exchange (= ranks this rank sends to)
  int messages_received = 0;       // per exchange (= ranks this rank receives from)
  std::size_t bytes_sent = 0;      // per exchange
  std::size_t bytes_received = 0;  // per exchange
  long long exchanges = 0;         // completed exchanges (field and host)
  double wait_seconds = 0;         // accumulated time blocked in MPI_Waitall (end / host exchange)
  double comm_seconds = 0;         // accumulated time inside begin + end (pack, post, wait, upload)
};

class HaloPlan {
 public:
  HaloPlan() = default;  // the empty plan
  HaloPlan(const HaloPlan&) = delete;
  HaloPlan& operator=(const HaloPlan&) = delete;
  HaloPlan(HaloPlan&&) = default;
  HaloPlan& operator=(HaloPlan&&) = default;

  // Collective on comm. n_local = gid.size() local entities, [0, n_owned) owned; ghost_owner
  // holds the owner rank of each ghost (n_local - n_owned entries, ascending). An empty gid
  // (serial mesh) means everything is owned. SCFD_CHECK: ghosts grouped by ascending owner, no
  // ghost owned by this rank, and every requested id is owned by the rank asked.
  static HaloPlan build(Entity kind, index n_owned, std::span<const index> gid,
                        std::span<const int> ghost_owner, MPI_Comm comm);

  // A plan over the same entities whose exchanges carry only `ghosts` (local indices in
  // [n_owned, n_local), ascending, distinct): the ghosts that the owned rows of the operator
  // after the exchange read. A plan sends a rank's whole node-sharing ghost layer, while a face
  // stencil reads a third of it or less. The other ghosts of an exchanged field keep their values
  // (stale: nothing after the exchange may read them). Built with the neighbours only (no
  // collective over the communicator), so every rank with ghosts or sends in this plan calls it,
  // in the same order as the others; each narrowed plan has its own message tag, so it may be in
  // flight beside this one. It takes this plan's overlap setting and adds its exchange counts
  // and times to this plan's statistics, so this plan must outlive it and stay where it is.
  HaloPlan narrowed(std::span<const index> ghosts);

  // Field exchange on a backend (see the header comment). A field of `components` values per
  // entity (3 for the vectors at cells: x, y, z interleaved) has x.size() = components n_local();
  // every value of an entity travels with it. The first exchange with a component count above 1
  // sizes the plan's buffers for it; no exchange allocates after that.
  void begin(const backend::Backend& be, backend::Field& x, int components = 1);
  // joined: x was in flight together with an exchange that counted this wait already
  // (counters::Kind::halo_round; halo::overlap_together).
  void end(const backend::Backend& be, backend::Field& x, bool joined = false);
  void exchange(const backend::Backend& be, backend::Field& x, int components = 1);
  // The first half of end(): flushes the work queued since begin() to the device, waits for
  // begin's pack and posts the sends (end() does it if not done). Called on each of several
  // plans in flight before any end() (halo::overlap_together), it puts all their messages on
  // the way before the host waits for one: the exchanges then cost about one round instead of
  // one each.
  void send(const backend::Backend& be);
  bool in_flight() const { return in_flight_; }
  // Whether halo::overlap computes the inner part between begin and end, or exchanges first (the
  // default: without asynchronous MPI progress the overlap measured slower, docs/scaling.md).
  bool overlap() const { return overlap_; }
  void set_overlap(bool on) { overlap_ = on; }

  // Blocking exchanges of host arrays of n_local() entries (set-up data). The real version uses
  // the plan's buffers; the index version allocates its own (set-up only).
  void exchange(std::span<real> x);
  void exchange(std::span<index> x);

  bool empty() const { return send_ranks_.empty() && recv_ranks_.empty(); }
  Entity kind() const { return kind_; }
  index n_owned() const { return n_owned_; }
  index n_local() const { return n_local_; }
  index n_ghosts() const { return n_local_ - n_owned_; }
  // The ghosts an exchange fills: all of them, or those a narrowed plan was given.
  index n_received() const { return recv_offset_.back(); }
  bool is_narrowed() const { return narrowed_; }

  // The plan itself, for tests and diagnostics. Send: neighbour send_ranks()[k] gets the owned
  // entities send_indices()[send_offsets()[k] .. send_offsets()[k+1]). Receive: neighbour
  // recv_ranks()[k] fills ghosts [recv_starts()[k], recv_starts()[k] + recv_counts()[k]); in a
  // narrowed plan it fills recv_indices()[o .. o + recv_counts()[k]) with o = recv_offsets()[k]
  // (recv_starts() then holds the neighbour's first ghost).
  std::span<const int> send_ranks() const { return send_ranks_; }
  std::span<const index> send_offsets() const { return send_offset_; }
  std::span<const index> send_indices() const { return send_index_; }
  std::span<const int> recv_ranks() const { return recv_ranks_; }
  std::span<const index> recv_starts() const { return recv_start_; }
  std::span<const index> recv_counts() const { return recv_count_; }
  std::span<const index> recv_offsets() const { return recv_offset_; }
  std::span<const index> recv_indices() const { return recv_index_; }

  // A narrowed plan's accumulated figures (exchanges, times) go to the plan it was narrowed from,
  // so Halo::total() covers them; its per-exchange figures are its own.
  const HaloStats& stats() const { return stats_; }

 private:
  static std::uint64_t next_id();
  // The id of send_list(c) or recv_list(c).
  std::uint64_t list_id(int c, bool receive) const;
  template <typename T>
  void post_receives(std::span<T> recv, int components);
  template <typename T>
  void post_sends(std::span<const T> send, int components);
  // The owned values to send for a field of c components (send_index_ widened, built once), and
  // the entries a narrowed plan receives (recv_index_ widened).
  std::span<const index> send_list(int c);
  std::span<const index> recv_list(int c);
  double wait_all();
  static void count_exchange(std::size_t bytes);
  template <typename T>
  void exchange_host(std::span<T> x, std::span<T> send, std::span<T> recv);
  void finish_stats();
  // Where the accumulated figures go: stats_, or the parent's of a narrowed plan.
  HaloStats& totals() { return parent_stats_ != nullptr ? *parent_stats_ : stats_; }

  Entity kind_ = Entity::cell;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int tag_ = 0;
  index n_owned_ = 0, n_local_ = 0;
  std::vector<int> send_ranks_;
  std::vector<index> send_offset_{0};
  std::vector<index> send_index_;
  std::vector<std::vector<index>> wide_index_;  // [c]: send_index_ widened to c values each
  std::vector<int> recv_ranks_;
  std::vector<index> recv_start_, recv_count_;
  std::vector<index> recv_offset_{0};  // per neighbour, where its values start in recv_buf_
  std::vector<index> recv_index_;      // narrowed: the ghosts received, in recv_buf_'s order
  std::vector<std::vector<index>> wide_recv_;  // [c]: recv_index_ widened to c values each
  bool narrowed_ = false;
  // Every neighbour runs on this node: receives may land in the backend's staging memory
  // (Backend::receive_buffer). Between nodes a transport may have to register a receive buffer
  // with the network card, which memory mapped from a GPU driver may not allow.
  bool on_one_node_ = false;
  int narrowings_ = 0;                     // narrowed plans made from this one (their tags)
  std::vector<real> send_buf_, recv_buf_;  // send_index_.size() and n_received() per component
  // Names this plan's index lists to the backend for good (Backend::download_indices_begin's
  // list_id): a new id for every plan made, never reused; a move takes it along with the lists.
  std::uint64_t id_ = next_id();
  std::vector<MPI_Request> requests_;  // one per neighbour message
  bool in_flight_ = false;
  bool pack_pending_ = false;  // begin's gather is still running on the backend: end sends
  bool overlap_ = false;
  const backend::Field* pending_ = nullptr;  // the field between begin and end
  int pending_components_ = 1;
  // Where the pending exchange receives: the backend's staging memory (Backend::receive_buffer),
  // or recv_buf_.
  std::span<real> pending_recv_;
  double begin_seconds_ = 0;  // time spent in the pending begin
  HaloStats stats_;
  HaloStats* parent_stats_ = nullptr;  // narrowed: the parent plan's (which outlives it)
};

}  // namespace scfd::halo
