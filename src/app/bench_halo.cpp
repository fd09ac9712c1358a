// `streamcfd bench --only halo`: what a halo exchange and a global sum cost at the mesh's real
// plan sizes, and how much of an exchange inner work hides (issue 39, docs/scaling.md).
//
// Per plan (nodes, edges, faces, cells) with ghosts on some rank:
//   - "halo <entity>": one exchange of a field of the plan's entities (begin + end, no work
//     between), per call; and its parts alone: "pack <entity>" (the device gather the host reads,
//     Backend::download_indices), "unpack <entity>" (Backend::upload_range of the ghosts) and
//     "messages <entity>" (the same messages between host arrays);
//   - "hidden <entity> xW": the exchange with W copies of a field of the plan's owned entities
//     between begin and end, and the same W copies alone ("work <entity> xW"); the exposed time of
//     the exchange is the difference.
// Then the same "halo", "work" and "hidden" rows for the narrowed plans the Navier-Stokes
// operators exchange through ("cell (cell_reads)", "face (face_reads)", "face (rotation_reads)",
// "curl (curl_reads)": physics/ns/operators.hpp), which send what a solver's exchange sends.
// And "global sum": a dot product into a slot of Scalars, the ranks' sums added on the host, the
// total written back (solvers/scalar_sums.hpp), which every Krylov iteration does.
#include <fmt/format.h>

#include <string>
#include <utility>
#include <vector>

#include "app/bench.hpp"
#include "backend/traffic.hpp"
#include "core/collectives.hpp"
#include "physics/ns/operators.hpp"
#include "solvers/scalar_sums.hpp"

namespace scfd::app::bench {
namespace {

constexpr int kWorkCopies[] = {1, 4, 16};

// The rows of one plan (see the top of this file); `parts`: also its pack, unpack and messages
// alone (the full plans: a narrowed plan packs and unpacks the same way, fewer values).
void time_plan(const backend::Backend& be, const topology::Mesh& m, const TimingOptions& o,
               const std::string& name, halo::HaloPlan& plan, bool parts,
               std::vector<Timing>& out) {
  auto x = be.make_field(plan.n_local());
  be.fill(*x, 1);
  const auto sent = static_cast<double>(plan.send_indices().size() * real_bytes(be));
  Timing t{"halo " + name, plan.n_received()};
  t.bytes = sent;
  time_calls(
      be, o, [&] { plan.exchange(be, *x); }, t);
  out.push_back(t);

  if (parts) {
    // The pack (a gather on the device read by the host), the unpack (the ghost values written
    // into the field) and the messages alone (a host exchange).
    std::vector<real> send(plan.send_indices().size()), ghosts(plan.n_ghosts());
    Timing pack{"pack " + name, static_cast<index>(send.size())};
    pack.bytes = sent;
    time_calls(
        be, o, [&] { be.download_indices(*x, plan.send_indices(), send); }, pack);
    Timing unpack{"unpack " + name, plan.n_ghosts()};
    unpack.bytes = static_cast<double>(ghosts.size() * real_bytes(be));
    time_calls(
        be, o,
        [&] {
          if (!ghosts.empty()) be.upload_range(ghosts, *x, plan.n_owned());
        },
        unpack);
    std::vector<real> host(plan.n_local(), 1);
    Timing messages{"messages " + name, plan.n_ghosts()};
    messages.bytes = sent;
    time_calls(
        be, o, [&] { plan.exchange(std::span<real>(host)); }, messages);
    out.push_back(pack);
    out.push_back(unpack);
    out.push_back(messages);
  }

  // Inner work: copies of a field of the owned entities, between begin and end.
  const index n = std::max<index>(plan.n_owned(), 1);
  auto a = be.make_field(n), b = be.make_field(n);
  be.fill(*a, 1);
  const double copy_bytes = backend::traffic_bytes("copy", m, n, real_bytes(be));
  for (const int w : kWorkCopies) {
    const auto work = [&] {
      for (int k = 0; k < w; ++k) be.copy(*a, *b);
    };
    Timing alone{fmt::format("work {} x{}", name, w), n};
    alone.bytes = w * copy_bytes;
    time_calls(be, o, work, alone);
    Timing hidden{fmt::format("hidden {} x{}", name, w), n};
    hidden.bytes = w * copy_bytes + sent;
    time_calls(
        be, o,
        [&] {
          plan.begin(be, *x);
          work();
          plan.end(be, *x);
        },
        hidden);
    out.push_back(alone);
    out.push_back(hidden);
  }
}

}  // namespace

std::vector<Timing> halo_timings(const backend::Backend& be, const topology::Mesh& m,
                                 halo::Halo& halo, const TimingOptions& o) {
  std::vector<Timing> out;
  for (const halo::Entity e :
       {halo::Entity::node, halo::Entity::edge, halo::Entity::face, halo::Entity::cell}) {
    halo::HaloPlan& plan = halo.plan(e);
    if (any_rank(!plan.empty())) time_plan(be, m, o, halo::entity_name(e), plan, true, out);
  }
  // The plans the Navier-Stokes operators exchange through, narrowed to the ghosts each product
  // reads (physics/ns/operators.hpp): what a solver's exchange actually sends.
  std::pair<const char*, halo::HaloPlan> narrowed[] = {
      {"cell (cell_reads)", halo.cells.narrowed(physics::ns::cell_reads(m))},
      {"face (face_reads)", halo.faces.narrowed(physics::ns::face_reads(m))},
      {"face (rotation_reads)", halo.faces.narrowed(physics::ns::rotation_reads(m))},
      {"curl (curl_reads)", physics::ns::curl_plan(halo, m).narrowed(physics::ns::curl_reads(m))}};
  for (auto& [name, plan] : narrowed)
    if (any_rank(!plan.empty())) time_plan(be, m, o, name, plan, false, out);

  const index n = std::max<index>(m.n_owned_nodes, 1);
  auto x = be.make_field(n);
  be.fill(*x, 1);
  auto s = be.make_scalars(2);
  std::vector<real> values(2);
  Timing sum{"global sum", n};
  sum.bytes = backend::traffic_bytes("dot", m, n, real_bytes(be));
  time_calls(
      be, o,
      [&] {
        be.dot(*x, *x, n, *s, 0);
        solvers::sum_slots_over_ranks(be, *s, values, {0});
      },
      sum);
  out.push_back(sum);
  return out;
}

}  // namespace scfd::app::bench
