// HaloPlan on a synthetic decomposition (synthetic_layout.hpp: interleaved ownership, scrambled
// local order, an asymmetric ghost pattern), run at np = 1..4: the canonical global-id test
// (docs/architecture.md §8.9) for fields and host arrays, begin / interior work / end, no
// allocation per exchange, two plans in flight, and the statistics.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "backend/cpu/cpu_backend.hpp"
#include "core/counters.hpp"
#include "halo/alloc_counter.hpp"
#include "halo/halo_plan.hpp"
#include "halo/overlap.hpp"
#include "halo/synthetic_layout.hpp"

namespace scfd::halo {
namespace {

using backend::cpu::CpuBackend;
using backend::cpu::host;

HaloPlan plan_of(const test::Layout& l, Entity kind = Entity::cell) {
  return HaloPlan::build(kind, l.n_owned, l.gid, l.ghost_owner, MPI_COMM_WORLD);
}

// scale * gid + shift on owned entities, -1 on ghosts.
std::vector<real> owned_values(const test::Layout& l, real scale = 1, real shift = 0) {
  std::vector<real> v(l.gid.size(), real(-1));
  for (index i = 0; i < l.n_owned; ++i)
    v[static_cast<std::size_t>(i)] = scale * l.gid[static_cast<std::size_t>(i)] + shift;
  return v;
}

// Local entities whose value is not scale * gid + shift.
int mismatches(std::span<const real> x, const test::Layout& l, real scale = 1, real shift = 0) {
  int bad = 0;
  for (std::size_t i = 0; i < l.gid.size(); ++i)
    if (x[i] != scale * l.gid[i] + shift) ++bad;
  return bad;
}

TEST(HaloPlanSynthetic, PlanMatchesLayout) {
  const auto l = test::synthetic_layout(MPI_COMM_WORLD);
  const HaloPlan p = plan_of(l);
  EXPECT_EQ(p.n_owned(), l.n_owned);
  EXPECT_EQ(p.n_local(), static_cast<index>(l.gid.size()));
  EXPECT_EQ(static_cast<int>(p.recv_ranks().size()), l.expected_recv_ranks);
  EXPECT_EQ(static_cast<int>(p.send_ranks().size()), l.expected_send_ranks);
  // The receive ranges tile the ghost range in owner order.
  index next = p.n_owned();
  for (std::size_t k = 0; k < p.recv_ranks().size(); ++k) {
    EXPECT_EQ(p.recv_starts()[k], next);
    next += p.recv_counts()[k];
  }
  EXPECT_EQ(next, p.n_local());
  for (const index i : p.send_indices()) {
    EXPECT_GE(i, 0);
    EXPECT_LT(i, p.n_owned());
  }
}

TEST(HaloPlanSynthetic, GhostsReceiveTheirGlobalIds) {
  const auto l = test::synthetic_layout(MPI_COMM_WORLD);
  HaloPlan p = plan_of(l);
  const CpuBackend be;
  auto x = be.make_field(p.n_local());
  be.upload(owned_values(l), *x);
  p.exchange(be, *x);
  EXPECT_EQ(mismatches(host(*x), l), 0);
}

TEST(HaloPlanSynthetic, BeginInteriorEndMatchesExchange) {
  const auto l = test::synthetic_layout(MPI_COMM_WORLD);
  HaloPlan p = plan_of(l);
  const CpuBackend be;
  auto x = be.make_field(p.n_local());
  auto y = be.make_field(p.n_local());
  be.upload(owned_values(l), *x);
  p.begin(be, *x);
  EXPECT_TRUE(p.in_flight());
  // Interior work between begin and end: reads x's owned values, writes another field.
  be.copy(*x, *y);
  be.axpy(real(1), *x, *y);  // y = 2 x
  // Ghosts of x are written by end(), not before.
  EXPECT_EQ(mismatches(host(*y), l, 2), static_cast<int>(p.n_ghosts()));
  p.end(be, *x);
  EXPECT_FALSE(p.in_flight());
  EXPECT_EQ(mismatches(host(*x), l), 0);
}

TEST(HaloPlanSynthetic, RepeatedExchangesAllocateNothing) {
  const auto l = test::synthetic_layout(MPI_COMM_WORLD);
  HaloPlan p = plan_of(l);
  const CpuBackend be;
  auto x = be.make_field(p.n_local());
  const long exchanges_before = p.stats().exchanges;
  {  // The counter sees heap allocations (positive control).
    const long before = test::allocations();
    auto probe = std::make_unique<std::vector<real>>(3);
    EXPECT_GT(test::allocations() - before, 0);
  }
  for (int k = 1; k <= 5; ++k) {
    const auto values = owned_values(l, k, -k);
    be.upload(values, *x);
    const long before = test::allocations();
    p.begin(be, *x);
    p.end(be, *x);
    EXPECT_EQ(test::allocations() - before, 0) << "exchange " << k;
    EXPECT_EQ(mismatches(host(*x), l, k, -k), 0) << "exchange " << k;
  }
  EXPECT_EQ(p.stats().exchanges - exchanges_before, 5);
}

TEST(HaloPlanSynthetic, HostExchangeRealAndIndex) {
  const auto l = test::synthetic_layout(MPI_COMM_WORLD);
  HaloPlan p = plan_of(l);
  auto v = owned_values(l, 3, 1);
  p.exchange(std::span<real>(v));
  EXPECT_EQ(mismatches(v, l, 3, 1), 0);
  std::vector<index> ids(l.gid.size(), kNone);
  std::copy(l.gid.begin(), l.gid.begin() + l.n_owned, ids.begin());
  p.exchange(std::span<index>(ids));
  EXPECT_EQ(ids, l.gid);
}

TEST(HaloPlanSynthetic, TwoPlansInFlightAtOnce) {
  const auto l = test::synthetic_layout(MPI_COMM_WORLD);
  HaloPlan a = plan_of(l, Entity::node), b = plan_of(l, Entity::edge);
  const CpuBackend be;
  auto x = be.make_field(a.n_local()), y = be.make_field(b.n_local());
  be.upload(owned_values(l, 1, 0), *x);
  be.upload(owned_values(l, 2, 0), *y);
  a.begin(be, *x);
  b.begin(be, *y);
  b.end(be, *y);
  a.end(be, *x);
  EXPECT_EQ(mismatches(host(*x), l, 1, 0), 0);
  EXPECT_EQ(mismatches(host(*y), l, 2, 0), 0);
}

// halo::overlap_together: two plans in flight, every inner part queued before the first wait,
// each interface part after its own exchange; the exchanges count two, the wait one round.
TEST(HaloPlanSynthetic, OverlapTogetherWaitsOnceForTwoExchanges) {
  const auto l = test::synthetic_layout(MPI_COMM_WORLD);
  HaloPlan a = plan_of(l, Entity::node), b = plan_of(l, Entity::edge);
  const CpuBackend be;
  auto x = be.make_field(a.n_local()), y = be.make_field(b.n_local());
  for (const bool overlap : {false, true}) {
    a.set_overlap(overlap);
    b.set_overlap(overlap);
    be.upload(owned_values(l, 1, 0), *x);
    be.upload(owned_values(l, 2, 0), *y);
    std::vector<std::pair<char, backend::Rows>> calls;
    // Each part sees its own field's ghosts once its rows are past the inner ones.
    int ghosts_seen = 0;
    const auto op = [&](char name, backend::Field& f, real scale) {
      return [&, name, scale, field = &f](backend::Rows rows) {
        calls.emplace_back(name, rows);
        if (rows != backend::Rows::inner)
          ghosts_seen += mismatches(host(*field), l, scale, 0) == 0 ? 1 : 0;
      };
    };
    const counters::Snapshot before = counters::snapshot();
    overlap_together(be, part(a, *x, op('a', *x, 1)), part(b, *y, op('b', *y, 2)));
    const counters::Snapshot d = counters::snapshot() - before;
    using R = backend::Rows;
    const bool split = overlap && !a.empty();
    const std::vector<std::pair<char, R>> expected =
        split ? std::vector<std::pair<char, R>>{{'a', R::inner},
                                                {'b', R::inner},
                                                {'a', R::interface},
                                                {'b', R::interface}}
              : std::vector<std::pair<char, R>>{{'a', R::all}, {'b', R::all}};
    EXPECT_EQ(calls, expected) << "overlap " << overlap;
    EXPECT_EQ(ghosts_seen, 2);
    const std::uint64_t sending = a.empty() ? 0 : 1;
    EXPECT_EQ(d[counters::Kind::halo_exchange], 2 * sending);
    EXPECT_EQ(d[counters::Kind::halo_round], sending);
  }
}

// A narrowed plan: the ghosts kept are every other one (the first of each neighbour's range
// included, and on rank 1 none at all from its first owner); they receive their owners' values,
// the ghosts left out keep theirs, for a field of one and of three components and a host array,
// while the full plan is in flight beside it; the plan sends and receives only what is kept.
TEST(HaloPlanSynthetic, NarrowedPlanFillsOnlyItsGhosts) {
  const auto l = test::synthetic_layout(MPI_COMM_WORLD);
  HaloPlan full = plan_of(l);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<index> kept;
  std::vector<char> is_kept(l.gid.size(), 0);
  for (std::size_t k = 0; k < full.recv_ranks().size(); ++k) {
    const index start = full.recv_starts()[k];
    if (rank == 1 && full.recv_ranks()[k] == 0) continue;
    for (index g = start; g < start + full.recv_counts()[k]; g += 2) {
      kept.push_back(g);
      is_kept[static_cast<std::size_t>(g)] = 1;
    }
  }
  HaloPlan narrow = full.narrowed(kept);
  EXPECT_TRUE(narrow.is_narrowed());
  EXPECT_EQ(narrow.n_received(), static_cast<index>(kept.size()));
  EXPECT_EQ(std::vector<index>(narrow.recv_indices().begin(), narrow.recv_indices().end()), kept);
  long long sends = static_cast<long long>(narrow.send_indices().size());
  long long receives = narrow.n_received();
  MPI_Allreduce(MPI_IN_PLACE, &sends, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &receives, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(sends, receives);  // every value sent is one kept ghost somewhere
  EXPECT_EQ(narrow.stats().bytes_received, kept.size() * sizeof(real));

  const CpuBackend be;
  for (const int c : {1, 3}) {
    std::vector<real> start(static_cast<std::size_t>(c) * l.gid.size(), real(-7));
    for (index i = 0; i < l.n_owned; ++i)
      for (int d = 0; d < c; ++d)
        start[static_cast<std::size_t>(c) * static_cast<std::size_t>(i) +
              static_cast<std::size_t>(d)] = 10 * l.gid[static_cast<std::size_t>(i)] + d;
    auto x = be.make_field(c * full.n_local()), y = be.make_field(full.n_local());
    be.upload(start, *x);
    be.upload(owned_values(l, 2, 0), *y);
    full.begin(be, *y);
    narrow.exchange(be, *x, c);
    full.end(be, *y);
    EXPECT_EQ(mismatches(host(*y), l, 2, 0), 0);
    const std::span<const real> got = host(*x);
    int bad = 0;
    for (std::size_t i = static_cast<std::size_t>(l.n_owned); i < l.gid.size(); ++i)
      for (int d = 0; d < c; ++d) {
        const real want = is_kept[i] ? 10 * l.gid[i] + d : real(-7);
        if (got[static_cast<std::size_t>(c) * i + static_cast<std::size_t>(d)] != want) ++bad;
      }
    EXPECT_EQ(bad, 0) << c << " components";
  }
  std::vector<real> v = owned_values(l, 3, 1);
  narrow.exchange(std::span<real>(v));
  for (std::size_t i = static_cast<std::size_t>(l.n_owned); i < l.gid.size(); ++i)
    EXPECT_EQ(v[i], is_kept[i] ? 3 * l.gid[i] + 1 : real(-1)) << "host, local " << i;
}

// A cpu backend that hands out receive buffers as gl-compute does (Backend::receive_buffer) and
// records the index list ids the plans pass.
class StagingBackend : public CpuBackend {
 public:
  std::span<real> receive_buffer(std::size_t n) const override {
    std::vector<real>& s = slots_[next_++ % slots_.size()];
    s.assign(n, real(-99));
    return s;
  }
  void upload_range(std::span<const real> values, backend::Field& x, index offset) const override {
    count(values);
    CpuBackend::upload_range(values, x, offset);
  }
  void upload_indices(std::span<const real> values, std::span<const index> indices,
                      backend::Field& x, std::uint64_t list_id) const override {
    count(values);
    receive_ids.push_back(list_id);
    CpuBackend::upload_indices(values, indices, x, list_id);
  }
  bool download_indices_begin(const backend::Field& x, std::span<const index> indices,
                              std::span<real> out, std::uint64_t list_id) const override {
    send_ids.push_back(list_id);
    return CpuBackend::download_indices_begin(x, indices, out, list_id);
  }
  mutable int in_place = 0, copied = 0;  // uploads from a handed-out buffer, and others
  mutable std::vector<std::uint64_t> send_ids, receive_ids;

 private:
  void count(std::span<const real> values) const {
    const bool mine = std::any_of(slots_.begin(), slots_.end(), [&](const std::vector<real>& s) {
      return !s.empty() && s.data() == values.data();
    });
    ++(mine ? in_place : copied);
  }
  mutable std::array<std::vector<real>, 4> slots_;
  mutable std::size_t next_ = 0;
};

// Under mpirun on one node every exchange receives into the backend's buffer and uploads from
// it; the index lists carry ids that name one list each (plan, direction, components) and stay
// the same from one exchange to the next.
TEST(HaloPlanSynthetic, ReceivesLandInTheBackendsBufferAndListsHaveIds) {
  const auto l = test::synthetic_layout(MPI_COMM_WORLD);
  HaloPlan full = plan_of(l);
  std::vector<index> kept;
  for (index g = full.n_owned(); g < full.n_local(); g += 2) kept.push_back(g);
  HaloPlan narrow = full.narrowed(kept);
  const StagingBackend be;
  for (int pass = 0; pass < 2; ++pass) {
    auto x = be.make_field(full.n_local()), v = be.make_field(3 * full.n_local());
    be.upload(owned_values(l, 5, 1), *x);
    full.exchange(be, *x);
    EXPECT_EQ(mismatches(host(*x), l, 5, 1), 0);
    narrow.exchange(be, *v, 3);
    narrow.exchange(be, *x);
  }
  EXPECT_EQ(be.copied, 0);
  EXPECT_EQ(be.in_place, (full.n_received() > 0 ? 2 : 0) + (narrow.n_received() > 0 ? 4 : 0));
  std::vector<std::uint64_t> ids = be.send_ids;
  ids.insert(ids.end(), be.receive_ids.begin(), be.receive_ids.end());
  EXPECT_TRUE(std::none_of(ids.begin(), ids.end(), [](std::uint64_t id) { return id == 0; }));
  const auto distinct = [](std::vector<std::uint64_t> v) {
    std::sort(v.begin(), v.end());
    return std::unique(v.begin(), v.end()) - v.begin();
  };
  // Two passes of the same exchanges: the second pass repeats the first's ids.
  EXPECT_EQ(2 * distinct(be.send_ids), static_cast<long>(be.send_ids.size()));
  EXPECT_EQ(2 * distinct(be.receive_ids), static_cast<long>(be.receive_ids.size()));
  EXPECT_EQ(distinct(ids), distinct(be.send_ids) + distinct(be.receive_ids));
}

TEST(HaloPlanSynthetic, StatisticsAddUpOverRanks) {
  const auto l = test::synthetic_layout(MPI_COMM_WORLD);
  HaloPlan p = plan_of(l);
  const HaloStats& s = p.stats();
  EXPECT_EQ(s.messages_sent, l.expected_send_ranks);
  EXPECT_EQ(s.messages_received, l.expected_recv_ranks);
  EXPECT_EQ(s.bytes_received, static_cast<std::size_t>(p.n_ghosts()) * sizeof(real));
  EXPECT_EQ(s.bytes_sent, p.send_indices().size() * sizeof(real));
  EXPECT_GE(s.neighbours, std::max(s.messages_sent, s.messages_received));
  EXPECT_LE(s.neighbours, s.messages_sent + s.messages_received);
  long long local[4] = {s.messages_sent, s.messages_received, static_cast<long long>(s.bytes_sent),
                        static_cast<long long>(s.bytes_received)};
  long long sum[4] = {};
  MPI_Allreduce(local, sum, 4, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(sum[0], sum[1]);
  EXPECT_EQ(sum[2], sum[3]);
  const CpuBackend be;
  auto x = be.make_field(p.n_local());
  p.exchange(be, *x);
  EXPECT_EQ(s.exchanges, 1);
  EXPECT_GE(s.wait_seconds, 0.0);
  EXPECT_GE(s.comm_seconds, s.wait_seconds);
}

TEST(HaloPlanSynthetic, SerialLayoutGivesEmptyPlan) {
  HaloPlan p = HaloPlan::build(Entity::node, 7, {}, {}, MPI_COMM_WORLD);
  EXPECT_TRUE(p.empty());
  EXPECT_EQ(p.n_local(), 7);
  const CpuBackend be;
  auto x = be.make_field(7);
  be.fill(*x, real(4));
  p.exchange(be, *x);
  for (const real v : host(*x)) EXPECT_EQ(v, 4.0);
  EXPECT_EQ(p.stats().messages_sent, 0);
  EXPECT_EQ(p.stats().neighbours, 0);
}

}  // namespace
}  // namespace scfd::halo
