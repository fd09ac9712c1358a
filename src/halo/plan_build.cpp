// Building a HaloPlan (see halo_plan.hpp): group the ghosts by owner, ask each owner for its
// entities by global id (MPI_Alltoall of counts, MPI_Alltoallv of ids), map the ids the others
// ask for to owned local indices, and allocate the exchange buffers once.
#include <algorithm>
#include <iterator>
#include <numeric>
#include <utility>

#include "core/error.hpp"
#include "core/mpi_type.hpp"
#include "halo/halo_plan.hpp"

namespace scfd::halo {
namespace {

// Tags below MPI's guaranteed minimum MPI_TAG_UB (32767), one per entity kind; a plan's narrowed
// plans take its tag plus multiples of kNarrowedTagStep.
constexpr int kTagBase = 23100;
constexpr int kNarrowedTagStep = 8;
constexpr int kTagLimit = 32767;

struct Ranks {
  int rank = 0, size = 1;
};

Ranks ranks_of(MPI_Comm comm) {
  Ranks r;
  MPI_Comm_rank(comm, &r.rank);
  MPI_Comm_size(comm, &r.size);
  return r;
}

// Whether every rank in `neighbours` runs on this rank's node (MPI_COMM_TYPE_SHARED). Collective
// on comm.
bool on_this_node(MPI_Comm comm, const std::vector<int>& neighbours) {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int n = 0;
  MPI_Comm_size(node, &n);
  MPI_Group node_group = MPI_GROUP_NULL, comm_group = MPI_GROUP_NULL;
  MPI_Comm_group(node, &node_group);
  MPI_Comm_group(comm, &comm_group);
  std::vector<int> mine(static_cast<std::size_t>(n)), theirs(static_cast<std::size_t>(n));
  std::iota(mine.begin(), mine.end(), 0);
  MPI_Group_translate_ranks(node_group, n, mine.data(), comm_group, theirs.data());
  MPI_Group_free(&node_group);
  MPI_Group_free(&comm_group);
  MPI_Comm_free(&node);
  std::sort(theirs.begin(), theirs.end());
  return std::all_of(neighbours.begin(), neighbours.end(),
                     [&](int r) { return std::binary_search(theirs.begin(), theirs.end(), r); });
}

// Sorted (global id, local index) pairs of the owned entities, for lookups by id.
std::vector<std::pair<index, index>> owned_by_gid(index n_owned, std::span<const index> gid) {
  std::vector<std::pair<index, index>> v(static_cast<std::size_t>(n_owned));
  for (index i = 0; i < n_owned; ++i)
    v[static_cast<std::size_t>(i)] = {gid[static_cast<std::size_t>(i)], i};
  std::sort(v.begin(), v.end());
  for (std::size_t i = 1; i < v.size(); ++i)
    SCFD_CHECK(v[i].first != v[i - 1].first, "global id {} is owned twice (local {} and {})",
               v[i].first, v[i - 1].second, v[i].second);
  return v;
}

index local_of(const std::vector<std::pair<index, index>>& owned, index gid, int asker, int me) {
  auto it = std::lower_bound(owned.begin(), owned.end(), std::pair<index, index>{gid, kNone});
  SCFD_CHECK(it != owned.end() && it->first == gid,
             "rank {} asked rank {} for global id {}, which rank {} does not own", asker, me, gid,
             me);
  return it->second;
}

std::vector<int> displacements(const std::vector<int>& counts) {
  std::vector<int> d(counts.size(), 0);
  for (std::size_t r = 1; r < counts.size(); ++r) d[r] = d[r - 1] + counts[r - 1];
  return d;
}

// Receive side: one contiguous ghost range per owner, owners ascending (the Mesh contract).
void group_ghosts(std::span<const int> owner, index n_owned, Ranks me, std::vector<int>& ranks,
                  std::vector<index>& start, std::vector<index>& count) {
  for (std::size_t g = 0; g < owner.size(); ++g) {
    const int r = owner[g];
    SCFD_CHECK(r >= 0 && r < me.size && r != me.rank,
               "ghost {} has owner rank {} (this is rank {} of {})",
               n_owned + static_cast<index>(g), r, me.rank, me.size);
    if (ranks.empty() || ranks.back() != r) {
      SCFD_CHECK(ranks.empty() || ranks.back() < r,
                 "ghosts are not grouped by ascending owner: rank {} after rank {} at ghost {}", r,
                 ranks.back(), n_owned + static_cast<index>(g));
      ranks.push_back(r);
      start.push_back(n_owned + static_cast<index>(g));
      count.push_back(0);
    }
    ++count.back();
  }
}

}  // namespace

const char* entity_name(Entity e) {
  switch (e) {
    case Entity::node:
      return "node";
    case Entity::edge:
      return "edge";
    case Entity::face:
      return "face";
    case Entity::cell:
      return "cell";
  }
  return "?";
}

HaloPlan HaloPlan::build(Entity kind, index n_owned, std::span<const index> gid,
                         std::span<const int> ghost_owner, MPI_Comm comm) {
  HaloPlan p;
  p.kind_ = kind;
  p.comm_ = comm;
  p.tag_ = kTagBase + static_cast<int>(kind);
  const index n_local = gid.empty() ? n_owned : static_cast<index>(gid.size());
  SCFD_CHECK(n_owned >= 0 && n_owned <= n_local, "{} halo: {} owned of {} local", entity_name(kind),
             n_owned, n_local);
  SCFD_CHECK(static_cast<index>(ghost_owner.size()) == n_local - n_owned,
             "{} halo: {} ghost owners for {} ghosts", entity_name(kind), ghost_owner.size(),
             n_local - n_owned);
  p.n_owned_ = n_owned;
  p.n_local_ = n_local;
  const Ranks me = ranks_of(comm);
  if (me.size == 1) {
    SCFD_CHECK(n_local == n_owned, "{} halo: ghosts on a one-rank communicator", entity_name(kind));
    return p;
  }
  group_ghosts(ghost_owner, n_owned, me, p.recv_ranks_, p.recv_start_, p.recv_count_);

  // Tell every owner how many of its entities this rank needs, then which ones (by global id).
  const auto n_ranks = static_cast<std::size_t>(me.size);
  std::vector<int> want(n_ranks, 0), give(n_ranks, 0);
  for (std::size_t k = 0; k < p.recv_ranks_.size(); ++k)
    want[static_cast<std::size_t>(p.recv_ranks_[k])] = p.recv_count_[k];
  MPI_Alltoall(want.data(), 1, MPI_INT, give.data(), 1, MPI_INT, comm);
  const auto want_displ = displacements(want), give_displ = displacements(give);
  std::vector<index> asked(static_cast<std::size_t>(give_displ.back() + give.back()));
  const MPI_Datatype id_type = mpi_type<index>();
  MPI_Alltoallv(gid.empty() ? nullptr : gid.data() + n_owned, want.data(), want_displ.data(),
                id_type, asked.data(), give.data(), give_displ.data(), id_type, comm);

  // Send side: the owned local index of every id asked for, grouped by asking rank ascending.
  const auto owned = owned_by_gid(asked.empty() ? 0 : n_owned, gid);  // a serial gid may be empty
  p.send_index_.reserve(asked.size());
  for (int r = 0; r < me.size; ++r) {
    const auto ru = static_cast<std::size_t>(r);
    if (give[ru] == 0) continue;
    p.send_ranks_.push_back(r);
    for (int k = 0; k < give[ru]; ++k)
      p.send_index_.push_back(local_of(
          owned, asked[static_cast<std::size_t>(give_displ[ru]) + static_cast<std::size_t>(k)], r,
          me.rank));
    p.send_offset_.push_back(static_cast<index>(p.send_index_.size()));
  }
  for (const index count : p.recv_count_) p.recv_offset_.push_back(p.recv_offset_.back() + count);
  std::vector<int> neighbours = p.send_ranks_;
  neighbours.insert(neighbours.end(), p.recv_ranks_.begin(), p.recv_ranks_.end());
  p.on_one_node_ = on_this_node(comm, neighbours);
  p.send_buf_.resize(p.send_index_.size());
  p.recv_buf_.resize(static_cast<std::size_t>(p.n_ghosts()));
  p.requests_.assign(p.send_ranks_.size() + p.recv_ranks_.size(), MPI_REQUEST_NULL);
  p.finish_stats();
  return p;
}

// Narrowing: each rank tells every owner it receives from which of that owner's ghosts it keeps
// (positions in the owner's ghost range, so no global ids are needed), counts first, then the
// lists; the owner keeps the same positions of its send list to that rank. Neighbours that end
// up with nothing to send or receive drop out of the plan.
HaloPlan HaloPlan::narrowed(std::span<const index> ghosts) {
  HaloPlan p;
  p.kind_ = kind_;
  p.comm_ = comm_;
  p.n_owned_ = n_owned_;
  p.n_local_ = n_local_;
  p.narrowed_ = true;
  p.overlap_ = overlap_;
  p.on_one_node_ = on_one_node_;
  p.parent_stats_ = &totals();
  p.tag_ = tag_ + kNarrowedTagStep * ++narrowings_;
  SCFD_CHECK(p.tag_ <= kTagLimit, "{} halo: too many narrowed plans ({})", entity_name(kind_),
             narrowings_);
  for (std::size_t g = 0; g < ghosts.size(); ++g)
    SCFD_CHECK(
        ghosts[g] >= n_owned_ && ghosts[g] < n_local_ && (g == 0 || ghosts[g - 1] < ghosts[g]),
        "{} halo: narrowed to ghost {} (ghosts are [{}, {}), ascending)", entity_name(kind_),
        ghosts[g], n_owned_, n_local_);
  if (empty()) {
    p.finish_stats();
    return p;
  }

  // Receive side: the kept ghosts of each owner, as positions in its range.
  const std::size_t n_recv = recv_ranks_.size(), n_send = send_ranks_.size();
  std::vector<std::vector<index>> keep(n_recv);
  std::size_t k = 0;
  for (const index g : ghosts) {
    while (g >= recv_start_[k] + recv_count_[k]) ++k;
    keep[k].push_back(g - recv_start_[k]);
  }
  std::vector<index> keep_count(n_recv), give_count(n_send);
  std::vector<MPI_Request> req(n_recv + n_send, MPI_REQUEST_NULL);
  const MPI_Datatype id_type = mpi_type<index>();
  for (std::size_t j = 0; j < n_send; ++j)
    MPI_Irecv(&give_count[j], 1, id_type, send_ranks_[j], p.tag_, comm_, &req[j]);
  for (std::size_t j = 0; j < n_recv; ++j) {
    keep_count[j] = static_cast<index>(keep[j].size());
    MPI_Isend(&keep_count[j], 1, id_type, recv_ranks_[j], p.tag_, comm_, &req[n_send + j]);
  }
  MPI_Waitall(static_cast<int>(req.size()), req.data(), MPI_STATUSES_IGNORE);
  std::vector<std::vector<index>> give(n_send);
  for (std::size_t j = 0; j < n_send; ++j) {
    give[j].resize(static_cast<std::size_t>(give_count[j]));
    MPI_Irecv(give[j].data(), static_cast<int>(give_count[j]), id_type, send_ranks_[j], p.tag_,
              comm_, &req[j]);
  }
  for (std::size_t j = 0; j < n_recv; ++j)
    MPI_Isend(keep[j].data(), static_cast<int>(keep_count[j]), id_type, recv_ranks_[j], p.tag_,
              comm_, &req[n_send + j]);
  MPI_Waitall(static_cast<int>(req.size()), req.data(), MPI_STATUSES_IGNORE);

  for (std::size_t j = 0; j < n_recv; ++j) {
    if (keep[j].empty()) continue;
    p.recv_ranks_.push_back(recv_ranks_[j]);
    p.recv_start_.push_back(recv_start_[j]);
    p.recv_count_.push_back(keep_count[j]);
    for (const index pos : keep[j]) p.recv_index_.push_back(recv_start_[j] + pos);
    p.recv_offset_.push_back(static_cast<index>(p.recv_index_.size()));
  }
  for (std::size_t j = 0; j < n_send; ++j) {
    if (give[j].empty()) continue;
    const index first = send_offset_[j], count = send_offset_[j + 1] - first;
    p.send_ranks_.push_back(send_ranks_[j]);
    for (const index pos : give[j]) {
      SCFD_CHECK(pos >= 0 && pos < count, "{} halo: rank {} kept position {} of {} sent",
                 entity_name(kind_), send_ranks_[j], pos, count);
      p.send_index_.push_back(
          send_index_[static_cast<std::size_t>(first) + static_cast<std::size_t>(pos)]);
    }
    p.send_offset_.push_back(static_cast<index>(p.send_index_.size()));
  }
  p.send_buf_.resize(p.send_index_.size());
  p.recv_buf_.resize(p.recv_index_.size());
  p.requests_.assign(p.send_ranks_.size() + p.recv_ranks_.size(), MPI_REQUEST_NULL);
  p.finish_stats();
  return p;
}

void HaloPlan::finish_stats() {
  std::vector<int> all;
  std::set_union(send_ranks_.begin(), send_ranks_.end(), recv_ranks_.begin(), recv_ranks_.end(),
                 std::back_inserter(all));
  stats_.neighbours = static_cast<int>(all.size());
  stats_.messages_sent = static_cast<int>(send_ranks_.size());
  stats_.messages_received = static_cast<int>(recv_ranks_.size());
  stats_.bytes_sent = send_index_.size() * sizeof(real);
  stats_.bytes_received = static_cast<std::size_t>(n_received()) * sizeof(real);
}

}  // namespace scfd::halo
