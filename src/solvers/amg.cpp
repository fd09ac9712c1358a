// The multigrid hierarchy on a backend and its V-cycle (see amg.hpp).
#include "solvers/amg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <utility>

#include "core/collectives.hpp"
#include "core/counters.hpp"
#include "core/error.hpp"
#include "core/log.hpp"
#include "core/timer.hpp"
#include "halo/halo.hpp"
#include "halo/overlap.hpp"

namespace scfd::solvers {

using backend::Field;

Amg::Amg(const backend::Backend& be, AmgHierarchy&& h, index n_local, int sweeps,
         halo::HaloPlan* plan)
    : be_(be), sweeps_(sweeps) {
  SCFD_CHECK(!h.levels.empty() && sweeps >= 1, "AMG with {} levels and {} sweeps", h.levels.size(),
             sweeps);
  SCFD_CHECK(n_local >= h.levels[0].a.cols, "AMG: fields of {} for {} columns", n_local,
             h.levels[0].a.cols);
  for (std::size_t l = 0; l < h.levels.size(); ++l) {
    AmgLevel& in = h.levels[l];
    const index n = l == 0 ? n_local : in.a.cols;
    Level out;
    out.plan = l == 0 ? plan : in.plan.get();
    out.owned_plan = std::move(in.plan);
    const bool halo_rows = in.a_halo.rows > 0;
    if (halo_rows) {
      SCFD_CHECK(
          sweeps == 1 && in.ap.rows > 0 && static_cast<index>(in.weight.size()) >= in.a_halo.cols,
          "AMG: ghost rows on level {} with {} sweeps, A P {}, {} weights for {} columns", l,
          sweeps, in.ap.rows > 0 ? "kept" : "missing", in.weight.size(), in.a_halo.cols);
      // The level's A enters its cycle only in r = b - A W b (the sweep after the coarse
      // correction takes its residual through A P): A W, its columns scaled by the weights, gives
      // r from b alone, so the rows that read no ghost of b run while b's ghosts come.
      for (index i = 0; i < in.a_halo.rows; ++i)
        for (index k = in.a_halo.offset[i]; k < in.a_halo.offset[i + 1]; ++k)
          in.a_halo.value[k] *= in.weight[static_cast<std::size_t>(in.a_halo.column[k])];
      in.a_halo.inner = backend::leading_rows_below(in.a_halo, in.a.rows);
    }
    if (l + 1 < h.levels.size()) {
      out.a = be.make_matrix(halo_rows ? in.a_halo : in.a);
      out.p = be.make_matrix(in.p);
      out.r = be.make_matrix(in.r);
      std::vector<real> w(static_cast<std::size_t>(n), 0);  // 0 on the ghosts (not a_halo)
      std::copy(in.weight.begin(), in.weight.end(), w.begin());
      out.weight = be.make_field_from(w);
      out.tmp = be.make_field(n);
      if (in.ap.rows > 0) {
        out.ap = be.make_matrix(in.ap);
        out.tmp2 = be.make_field(n);
      }
    }
    if (l > 0) {
      out.rhs = be.make_field(n);
      out.e = be.make_field(n);
    }
    if (halo_rows) {
      out.owned_rhs_plan = std::move(in.rhs_plan);
      out.rhs_plan = out.owned_rhs_plan ? out.owned_rhs_plan.get() : out.plan;
      SCFD_CHECK(out.rhs_plan != nullptr, "AMG: level {} has ghost rows and no plan", l);
    }
    levels_.push_back(std::move(out));
  }
  if (!h.gathered) {
    coarse_inverse_ = be.make_matrix(h.coarse_inverse);
    return;
  }
  AmgHierarchy::Gathered& g = *h.gathered;
  const auto range = [](index first, index n) {
    std::vector<index> v(static_cast<std::size_t>(n));
    std::iota(v.begin(), v.end(), first);
    return v;
  };
  const std::vector<index>& gid = h.levels.back().gid;
  std::unique_ptr<backend::Matrix> select;
  if (!gid.empty()) {
    SparseMatrix s;
    s.rows = static_cast<index>(gid.size());
    s.cols = g.n_global;
    const std::vector<index> offset = range(0, s.rows + 1);
    s.offset.assign(offset.begin(), offset.end());
    s.column.assign(gid.begin(), gid.end());
    s.value.assign(gid.size(), 1);
    select = be.make_matrix(s);
  }
  gathered_ = Gathered{g.first,
                       g.n_mine,
                       range(0, g.n_mine),
                       gid.empty() ? range(g.first, g.n_mine) : std::vector<index>{},
                       all_gather(std::vector<int>{static_cast<int>(g.n_mine)}),
                       std::make_unique<Amg>(be, std::move(*g.hierarchy), g.n_global, sweeps),
                       be.make_field(g.n_global),
                       be.make_field(g.n_global),
                       std::move(select)};
}

void Amg::apply(Field& r, Field& z) const {
  cycle(0, r, z);
}

void Amg::cycle(std::size_t l, Field& b, Field& e) const {
  if (l + 1 == levels_.size()) {
    if (gathered_)
      gathered_cycle(b, e);
    else
      be_.matrix_apply(*coarse_inverse_, b, e);
    return;
  }
  const Level& L = levels_[l];
  const Level& next = levels_[l + 1];
  // With several ranks a level's rows couple to ghosts, whose exchange the rows without a ghost
  // column hide (halo/overlap.hpp).
  const backend::Matrix& a = *L.a;
  const auto sweep = [&](Field& x, Field& y) {
    halo::overlap(L.plan, be_, x,
                  [&](backend::Rows rows) { be_.matrix_jacobi(a, *L.weight, b, x, y, rows); });
  };
  Field* cur = &e;
  Field* other = L.tmp.get();
  // With several ranks the transfers reach across the interfaces (amg_hierarchy.cpp,
  // distributed_transfer): R reads the residual at this level's ghosts, P the coarse correction at
  // the next level's (which the gathered cycle writes itself).
  if (L.rhs_plan != nullptr) {
    // One sweep from e = 0 with A's rows at the ghosts (AmgLevel::a_halo): b's ghosts two
    // couplings deep, then e = W b, r = b - (A W) b and R r from them, with no exchange of e or r.
    // e and the rows of r that read no ghost of b are computed while b's ghosts come; e's ghosts
    // (from b's stale ones) are never read: the cycle's end adds a correction to its owned part.
    // b's ghosts are exchanged in place (the caller's on the finest level: Preconditioner::apply).
    halo::overlap(*L.rhs_plan, be_, b, [&](backend::Rows rows) {
      if (rows != backend::Rows::interface) be_.multiply(*L.weight, b, *cur);
      be_.matrix_residual(a, b, b, *other, rows);
    });
    be_.matrix_apply(*L.r, *other, *next.rhs);
  } else {
    // Pre-smoothing from e = 0: the first sweep is e = W b.
    be_.multiply(*L.weight, b, *cur);
    for (int s = 1; s < sweeps_; ++s) {
      sweep(*cur, *other);
      std::swap(cur, other);
    }
    halo::overlap(L.plan, be_, *cur,
                  [&](backend::Rows rows) { be_.matrix_residual(a, b, *cur, *other, rows); });
    halo::overlap(L.plan, be_, *other,
                  [&](backend::Rows rows) { be_.matrix_apply(*L.r, *other, *next.rhs, rows); });
  }
  cycle(l + 1, *next.rhs, *next.e);
  halo::HaloPlan* coarse_plan = l + 2 == levels_.size() && gathered_ ? nullptr : next.plan;
  int post = sweeps_;  // post-smoothing: as many sweeps, so M is symmetric
  if (L.ap) {
    // x + P e_c + W (r - (A P) e_c): the first sweep from the residual r (in other) without
    // exchanging the corrected iterate x + P e_c; the same sweep as below, in exact arithmetic.
    Field& t = *L.tmp2;
    halo::overlap(coarse_plan, be_, *next.e, [&](backend::Rows rows) {
      be_.matrix_residual(*L.ap, *other, *next.e, t, rows);
    });
    be_.multiply(*L.weight, t, *other);
    be_.matrix_apply_add(*L.p, *next.e, *other, t);
    be_.axpy(1, t, *cur);
    --post;
  } else {
    halo::overlap(coarse_plan, be_, *next.e, [&](backend::Rows rows) {
      be_.matrix_apply_add(*L.p, *next.e, *cur, *other, rows);
    });
    std::swap(cur, other);
  }
  for (int s = 0; s < post; ++s) {
    sweep(*cur, *other);
    std::swap(cur, other);
  }
  // 2 * sweeps swaps in all (one fewer each side with A P): the result is in e.
}

void Amg::gathered_cycle(const Field& b, Field& e) const {
  const Gathered& g = *gathered_;
  std::vector<real>& mine = host_mine_;
  std::vector<real>& all = host_all_;
  mine.resize(static_cast<std::size_t>(g.n_mine));
  be_.download_indices(b, g.owned, mine);  // a GPU's gather into mapped memory, a fence
  counters::add(counters::Kind::coarse_gather);
  all.resize(static_cast<std::size_t>(g.rhs->size()));
  all_gather(mine, g.counts, all);
  be_.upload_range(all, *g.rhs, 0);  // through a staging buffer and a kernel: no wait
  g.amg->apply(*g.rhs, *g.e);
  if (g.select) {  // owned and ghosts: no exchange before the prolongation
    be_.matrix_apply(*g.select, *g.e, e);
    return;
  }
  be_.download_indices(*g.e, g.mine_in_all, mine);  // the finest level: its owned entries
  be_.upload_range(mine, e, 0);
}

AmgOptions amg_options(const backend::Backend& be) {
  AmgOptions options;
  if (be.device_info().index >= 0)
    options.coarse_size = 512;  // on a GPU a level's dispatches cost more than a dense solve
  return options;
}

namespace {

// make_amg's tail: the finest level's narrowed plans (several ranks), the hierarchy stored on
// `be`, the log line.
std::unique_ptr<Amg> store_amg(const backend::Backend& be, AmgHierarchy h, halo::HaloPlan& plan,
                               const std::string& what, const AmgOptions& options,
                               double seconds_before, const Timer& timer) {
  const bool ranks = world_size() > 1;
  // The finest level's exchanges carry only the ghosts its matrix reads (a third of the
  // node-sharing layer for a cell Laplacian; with A's rows at the ghosts, those rows' reads too).
  halo::HaloPlan* fine_plan = &plan;
  if (ranks) {
    AmgLevel& fine = h.levels[0];
    fine.plan = std::make_unique<halo::HaloPlan>(plan.narrowed(halo::ghosts_read(plan, fine.a)));
    fine_plan = fine.plan.get();
    if (fine.a_halo.rows > 0)
      fine.rhs_plan =
          std::make_unique<halo::HaloPlan>(plan.narrowed(halo::ghosts_read(plan, fine.a_halo)));
  }
  const std::string levels = h.describe();
  auto amg = std::make_unique<Amg>(be, std::move(h), plan.n_local(), options.sweeps, fine_plan);
  be.finish();
  amg->setup_seconds = seconds_before + timer.seconds();
  log::info("{} preconditioner: AMG, {}{}, set-up {:.3f} s", what, levels,
            ranks ? " (rank 0's rows)" : "", amg->setup_seconds);
  return amg;
}

}  // namespace

std::unique_ptr<Amg> make_amg(const backend::Backend& be, SparseMatrix a, halo::HaloPlan& plan,
                              const std::string& what) {
  const Timer timer;
  const SetupPart part(Part::multigrid);
  const AmgOptions options = amg_options(be);
  AmgHierarchy h =
      world_size() > 1 ? build_amg(std::move(a), plan, options) : build_amg(std::move(a), options);
  return store_amg(be, std::move(h), plan, what, options, 0, timer);
}

AmgHierarchy build_amg_alone(SparseMatrix a, const AmgOptions& options) {
  const SetupPart part(Part::multigrid);
  return build_amg(std::move(a), options);
}

std::unique_ptr<Amg> make_amg(const backend::Backend& be, AmgHierarchy h, halo::HaloPlan& plan,
                              const std::string& what, double host_seconds) {
  SCFD_CHECK(world_size() == 1, "a hierarchy built alone on {} ranks", world_size());
  const Timer timer;
  const SetupPart part(Part::multigrid);
  return store_amg(be, std::move(h), plan, what, amg_options(be), host_seconds, timer);
}

}  // namespace scfd::solvers
