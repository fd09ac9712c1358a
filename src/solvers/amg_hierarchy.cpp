// The smoothed-aggregation hierarchy on the host, one rank or distributed (see amg.hpp; the
// method and its choices: docs/methods.md).
#include "solvers/amg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>
#include <utility>

#include "core/collectives.hpp"
#include "core/error.hpp"
#include "core/threads.hpp"
#include "solvers/sparse_algebra.hpp"

namespace scfd::solvers {
namespace {

real entry_at(const SparseMatrix& a, index i, index j) {
  for (index k = a.offset[i]; k < a.offset[i + 1]; ++k)
    if (a.column[k] == j) return a.value[k];
  return 0;
}

std::vector<real> diagonal_of(const SparseMatrix& a) {
  std::vector<real> d(static_cast<std::size_t>(a.rows));
  parallel_for(a.rows, [&](index first, index end) {
    for (index i = first; i < end; ++i) {
      d[i] = entry_at(a, i, i);
      SCFD_CHECK(d[i] > 0, "AMG: diagonal entry {} of a {}-row matrix is {} (not > 0)", i, a.rows,
                 d[i]);
    }
  });
  return d;
}

// Why level `level`'s matrix cannot be smoothed (empty: it can): a diagonal entry that is not
// positive. A symmetric positive definite fine matrix has positive diagonals on every Galerkin
// level in exact arithmetic; in floating point a mesh whose cells are stretched by many orders
// of magnitude loses that (cavity-1 with x scaled by 1e8: -1e-9 on level 1).
std::string diagonal_problem(const SparseMatrix& a, std::size_t level) {
  // The first such row: each chunk's first, then the least (chunks in row order).
  const std::vector<index> bounds = chunk_bounds(a.rows);
  std::vector<index> bad(bounds.size(), a.rows);
  for_chunks(bounds, [&](std::size_t c, index first, index end) {
    for (index i = first; i < end && bad[c] == a.rows; ++i)
      if (!(entry_at(a, i, i) > 0)) bad[c] = i;
  });
  const index i = *std::min_element(bad.begin(), bad.end());
  if (i == a.rows) return {};
  return fmt::format(
      "multigrid: diagonal entry {} of level {} ({} rows) is {}, not > 0: the matrix is not "
      "positive definite in floating point, as on a mesh with cells stretched by many orders of "
      "magnitude; improve the mesh or set solver.preconditioner = \"jacobi\"",
      i, level, a.rows, entry_at(a, i, i));
}

// The spectral radius of D^-1 A by 20 power iterations (an estimate from below, enlarged by 5 %:
// it sets damping factors, which need the upper end of the spectrum).
real jacobi_radius(const SparseMatrix& a, const std::vector<real>& d) {
  const auto n = static_cast<std::size_t>(a.rows);
  std::vector<real> x(n), y(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = 1 + real(i % 7) / 7;  // not an eigenvector
  real lambda = 1;
  // Rows on the host threads; each chunk's largest |y| and |x| (maxima: the same in any order).
  const std::vector<index> bounds = block_bounds(a.rows);
  std::vector<real> chunk_y(bounds.size()), chunk_x(bounds.size());
  for (int it = 0; it < 20; ++it) {
    for_chunks(bounds, [&](std::size_t c, index first, index end) {
      real ymax = 0, xmax = 0;
      for (index i = first; i < end; ++i) {
        real s = 0;
        for (index k = a.offset[i]; k < a.offset[i + 1]; ++k) s += a.value[k] * x[a.column[k]];
        y[i] = s / d[i];
        ymax = std::max(ymax, std::abs(y[i]));
        xmax = std::max(xmax, std::abs(x[i]));
      }
      chunk_y[c] = ymax;
      chunk_x[c] = xmax;
    });
    const real norm = *std::max_element(chunk_y.begin(), chunk_y.end());
    if (!(norm > 0)) break;
    lambda = norm / *std::max_element(chunk_x.begin(), chunk_x.end());
    parallel_for(a.rows, [&](index first, index end) {
      for (index i = first; i < end; ++i) x[i] = y[i] / norm;
    });
  }
  return 1.05 * lambda;
}

// Whether row i has an entry off the diagonal that is not zero.
bool has_neighbours(const SparseMatrix& a, index i) {
  for (index k = a.offset[i]; k < a.offset[i + 1]; ++k)
    if (a.column[k] != i && a.value[k] != 0) return true;
  return false;
}

// The piecewise-constant basis of the aggregates with columns of unit length (rows:
// agg.size(); a row in no aggregate is empty).
SparseMatrix unit_basis(const std::vector<index>& agg, index n_aggregates) {
  std::vector<real> size(static_cast<std::size_t>(n_aggregates), 0);
  for (const index g : agg)
    if (g >= 0) size[g] += 1;
  SparseMatrix t;
  t.rows = static_cast<index>(agg.size());
  t.cols = n_aggregates;
  for (const index g : agg) {
    if (g >= 0) {
      t.column.push_back(g);
      t.value.push_back(1 / std::sqrt(size[g]));
    }
    t.offset.push_back(t.entries());
  }
  return t;
}

// A basis t (a row per column of a, at most one entry per row) smoothed by one damped-Jacobi
// step on a's rows: P = (I - omega D^-1 A) T, rows: a.rows. Row i of A T is formed as multiply()
// forms it (columns in the order first reached) and scaled in place: no A T is kept.
SparseMatrix smooth_basis(const SparseMatrix& a, const std::vector<real>& d, real omega,
                          const SparseMatrix& t) {
  SCFD_CHECK(a.cols == t.rows, "smoothing a basis of {} rows with {} columns", t.rows, a.cols);
  return backend::rows_on_threads(a.rows, t.cols, [&] {
    return
        [&, where = std::vector<index>(static_cast<std::size_t>(t.cols), -1)](
            index i, backend::HostArray<index>& column, backend::HostArray<real>& value) mutable {
          const auto row_start = static_cast<index>(column.size());
          append_product_row(a, t, i, where, column, value);
          const bool in_basis = t.offset[i] < t.offset[i + 1];
          const index own = in_basis ? t.column[t.offset[i]] : -1;
          bool has_own = !in_basis;
          for (auto k = static_cast<std::size_t>(row_start); k < column.size(); ++k) {
            real v = -omega / d[i] * value[k];
            if (column[k] == own) {
              v += t.value[t.offset[i]];
              has_own = true;
            }
            value[k] = v;
          }
          // A row whose aggregate is not among the columns of A T (an isolated row) keeps T's
          // entry.
          if (!has_own) {
            column.push_back(own);
            value.push_back(t.value[t.offset[i]]);
          }
        };
  });
}

// The rows of each aggregate, ascending: rows[start[g], start[g + 1]) for aggregate g (rows in no
// aggregate are left out).
struct AggregateRows {
  std::vector<index> start, rows;
};
AggregateRows aggregate_rows(const std::vector<index>& agg, index n) {
  AggregateRows r;
  r.start.assign(static_cast<std::size_t>(n) + 1, 0);
  for (const index g : agg)
    if (g >= 0) ++r.start[g + 1];
  std::partial_sum(r.start.begin(), r.start.end(), r.start.begin());
  r.rows.resize(static_cast<std::size_t>(r.start.back()));
  std::vector<index> fill(r.start.begin(), r.start.end() - 1);
  for (std::size_t i = 0; i < agg.size(); ++i)
    if (agg[i] >= 0) r.rows[fill[agg[i]]++] = static_cast<index>(i);
  return r;
}

// When the aggregates are small (graphs of few neighbours: the cells of a tetrahedral mesh have
// 4), the smoothed P makes the coarse operator denser than half the fine one, and the cycle costs
// more than it saves. Then pairs of aggregates are merged: in the graph of agg's aggregates (B =
// T^T |A| T, T's columns their indicator vectors), each aggregate not yet paired joins its most
// strongly coupled unpaired neighbour (Notay's pairwise aggregation applied to the aggregates),
// which about halves their number; rows left out stay out.
std::vector<index> pair_aggregates(const SparseMatrix& a, const std::vector<index>& agg,
                                   index& n_aggregates) {
  // Row g of B as the products T^T (|A| T) would form it (the same sums in the same order,
  // columns in the order first reached): for each row i of g, ascending, row i of |A| T (the
  // couplings of i summed per aggregate), then added in. Every row on the host threads, then the
  // pairs by one serial pass over them.
  const index n = n_aggregates;
  const AggregateRows members = aggregate_rows(agg, n);
  const SparseMatrix b = backend::rows_on_threads(n, n, [&] {
    return [&, in_row = std::vector<index>(static_cast<std::size_t>(n), -1),
            in_b = std::vector<index>(static_cast<std::size_t>(n), -1),
            row_at = std::vector<index>(static_cast<std::size_t>(n)),
            b_at = std::vector<index>(static_cast<std::size_t>(n)), row_col = std::vector<index>{},
            row_val = std::vector<real>{}](index g, backend::HostArray<index>& b_col,
                                           backend::HostArray<real>& b_val) mutable {
      for (index m = members.start[g]; m < members.start[g + 1]; ++m) {
        const index i = members.rows[m];
        row_col.clear();
        row_val.clear();
        for (index k = a.offset[i]; k < a.offset[i + 1]; ++k) {
          const index h = agg[a.column[k]];
          if (h < 0) continue;
          if (in_row[h] != i) {
            in_row[h] = i;
            row_at[h] = static_cast<index>(row_col.size());
            row_col.push_back(h);
            row_val.push_back(0);
          }
          row_val[row_at[h]] += std::abs(a.value[k]);
        }
        for (std::size_t e = 0; e < row_col.size(); ++e) {
          const index h = row_col[e];
          if (in_b[h] != g) {
            in_b[h] = g;
            b_at[h] = static_cast<index>(b_col.size());
            b_col.push_back(h);
            b_val.push_back(0);
          }
          b_val[b_at[h]] += row_val[e];
        }
      }
    };
  });
  // Each aggregate not yet paired joins its most strongly coupled unpaired neighbour (the first
  // of equals in the row's order).
  std::vector<index> pair(static_cast<std::size_t>(n), -1);
  index paired = 0;
  for (index g = 0; g < n; ++g) {
    if (pair[g] >= 0) continue;
    index best = -1;
    real strongest = 0;
    for (index e = b.offset[g]; e < b.offset[g + 1]; ++e) {
      const index h = b.column[e];
      if (h != g && pair[h] < 0 && b.value[e] > strongest) {
        strongest = b.value[e];
        best = h;
      }
    }
    pair[g] = paired;
    if (best >= 0) pair[best] = paired;
    ++paired;
  }
  std::vector<index> out(agg.size());
  parallel_for(static_cast<index>(agg.size()), [&](index first, index end) {
    for (index i = first; i < end; ++i) out[i] = agg[i] >= 0 ? pair[agg[i]] : agg[i];
  });
  n_aggregates = paired;
  return out;
}

}  // namespace

std::vector<index> aggregate(const SparseMatrix& a, real strength, index& n_aggregates) {
  const std::vector<real> d = diagonal_of(a);
  // Strong neighbours, as CSR positions of a flagged (rows on the host threads; the greedy passes
  // below stay serial).
  std::vector<char> strong(a.column.size(), 0);
  std::vector<index> n_strong(static_cast<std::size_t>(a.rows), 0);
  parallel_for(a.rows, [&](index first, index end) {
    for (index i = first; i < end; ++i)
      for (index k = a.offset[i]; k < a.offset[i + 1]; ++k) {
        const index j = a.column[k];
        if (j != i && std::abs(a.value[k]) >= strength * std::sqrt(d[i] * d[j]) &&
            a.value[k] != 0) {
          strong[k] = 1;
          ++n_strong[i];
        }
      }
  });
  constexpr index kFree = -2, kIsolated = -1;
  std::vector<index> agg(static_cast<std::size_t>(a.rows), kFree);
  n_aggregates = 0;
  parallel_for(a.rows, [&](index begin, index end) {
    for (index i = begin; i < end; ++i)
      if (n_strong[i] == 0) agg[i] = kIsolated;
  });
  // 1: a free row whose strong neighbours are all free seeds an aggregate of them all.
  for (index i = 0; i < a.rows; ++i) {
    if (agg[i] != kFree) continue;
    bool all_free = true;
    for (index k = a.offset[i]; k < a.offset[i + 1] && all_free; ++k)
      all_free = !strong[k] || agg[a.column[k]] == kFree;
    if (!all_free) continue;
    agg[i] = n_aggregates;
    for (index k = a.offset[i]; k < a.offset[i + 1]; ++k)
      if (strong[k]) agg[a.column[k]] = n_aggregates;
    ++n_aggregates;
  }
  // 2: a free row joins the aggregate of its strongest aggregated neighbour (from step 1: each
  // row on its own, on the host threads).
  const std::vector<index> first = agg;
  parallel_for(a.rows, [&](index begin, index end) {
    for (index i = begin; i < end; ++i) {
      if (first[i] != kFree) continue;
      real best = 0;
      for (index k = a.offset[i]; k < a.offset[i + 1]; ++k)
        if (strong[k] && first[a.column[k]] >= 0 && std::abs(a.value[k]) > best) {
          best = std::abs(a.value[k]);
          agg[i] = first[a.column[k]];
        }
    }
  });
  // 3: what is left forms aggregates with its free strong neighbours.
  for (index i = 0; i < a.rows; ++i) {
    if (agg[i] != kFree) continue;
    agg[i] = n_aggregates;
    for (index k = a.offset[i]; k < a.offset[i + 1]; ++k)
      if (strong[k] && agg[a.column[k]] == kFree) agg[a.column[k]] = n_aggregates;
    ++n_aggregates;
  }
  return agg;
}

// Aggregates I and J are coupled when J holds a row within three couplings of I (P's columns
// reach one coupling beyond their aggregates, A one more): a search of three layers from each
// sampled aggregate, against a product that coarsen() would otherwise compute and throw away.
double estimated_coarse_entries(const SparseMatrix& a, const std::vector<index>& agg, index n) {
  if (n == 0) return 0;
  const AggregateRows members = aggregate_rows(agg, n);
  const index step = std::max<index>(1, n / kSampledAggregates);
  const index sampled = (n + step - 1) / step;  // aggregates 0, step, 2 step, ...
  // The samples on the host threads, each chunk with marks for the level's rows and aggregates:
  // as many chunks as keep those marks within about 2^24 entries (the finest level's on one).
  const index most_chunks =
      std::max<index>(1, (index{1} << 24) / static_cast<index>(agg.size() + members.start.size()));
  const std::vector<index> bounds =
      chunk_bounds(sampled, std::max<index>(1, sampled / most_chunks));
  std::vector<double> entries(bounds.size() - 1, 0);  // whole numbers: any order, the same sum
  for_chunks(bounds, [&](std::size_t c, index first, index end) {
    std::vector<index> row_seen(agg.size(), -1), agg_seen(static_cast<std::size_t>(n), -1), reached;
    for (index s = first; s < end; ++s) {
      const index g = s * step;
      reached.assign(members.rows.begin() + members.start[g],
                     members.rows.begin() + members.start[g + 1]);
      for (const index i : reached) row_seen[i] = g;
      // (On a small dense level the whole level is reached before the third layer: then stop.)
      for (int layer = 0; layer < 3 && reached.size() < agg.size(); ++layer) {
        const std::size_t last = reached.size();
        for (std::size_t r = 0; r < last; ++r)
          for (index k = a.offset[reached[r]]; k < a.offset[reached[r] + 1]; ++k)
            if (const index j = a.column[k]; row_seen[j] != g) {
              row_seen[j] = g;
              reached.push_back(j);
            }
      }
      for (const index i : reached)
        if (const index h = agg[i]; h >= 0 && agg_seen[h] != g) {
          agg_seen[h] = g;
          entries[c] += 1;
        }
    }
  });
  double total = 0;
  for (const double e : entries) total += e;
  return total / static_cast<double>(sampled) * static_cast<double>(n);
}

real AmgHierarchy::operator_complexity() const {
  real total = 0;
  for (const AmgLevel& l : levels) total += static_cast<real>(l.a.entries());
  return levels.empty() ? 0 : total / static_cast<real>(std::max<index>(1, levels[0].a.entries()));
}

std::string AmgHierarchy::describe() const {
  std::string rows;
  for (const AmgLevel& l : levels) rows += fmt::format("{}{}", rows.empty() ? "" : " / ", l.a.rows);
  std::string text = fmt::format("{} level{} ({} rows), operator complexity {:.2f}", levels.size(),
                                 levels.size() == 1 ? "" : "s", rows, operator_complexity());
  if (gathered)
    text += fmt::format("; gathered at {} rows in all: {}", gathered->n_global,
                        gathered->hierarchy->describe());
  return text;
}

namespace {

// One level's smoother weights: omega / a_ii, 1 / a_ii on rows without neighbours.
std::vector<real> smoother_weights(const SparseMatrix& a, const std::vector<real>& d, real omega) {
  std::vector<real> w(d.size());
  parallel_for(a.rows, [&](index first, index end) {
    for (index i = first; i < end; ++i) w[i] = (has_neighbours(a, i) ? omega : 1) / d[i];
  });
  return w;
}

// The aggregates and smoothed prolongation of a level from its (owned) block; false when
// coarsening stalls. When the coarse operator would be denser than half the fine one, pairs of
// aggregates are taken instead. With several ranks only the aggregates are kept
// (distributed_transfer smooths P with the whole operator).
struct Coarsening {
  std::vector<index> agg;
  index n = 0;
  SparseMatrix p, r, coarse;  // r: P^T, coarse: P^T own P
};
// A sampled estimate above this multiple of the limit pairs without computing the product first
// (0.2 % off the count on the finest level of a 1M-tetrahedron cube).
constexpr double kClearlyDenser = 1.15;

bool coarsen(const SparseMatrix& own, const std::vector<real>& d, real omega, real strength,
             Coarsening& c) {
  c.agg = aggregate(own, strength, c.n);
  // Too little coarsening to pay for a level: then every coupling counts as strong.
  const auto stalled = [&] { return c.n == 0 || c.n > own.rows * 9 / 10; };
  if (stalled()) c.agg = aggregate(own, 0, c.n);
  if (stalled()) return false;
  const auto galerkin = [&] {
    c.p = smooth_basis(own, d, omega, unit_basis(c.agg, c.n));
    c.r = transpose(c.p);
    c.coarse = multiply(c.r, multiply(own, c.p));
  };
  const double limit = static_cast<double>(own.entries()) / 2;
  // Pairs at once where the count is exact or the estimate leaves no doubt (every level of a
  // tetrahedral mesh's pressure Laplacian: 1.4x the limit on the finest); else the product
  // decides, as it always did.
  const bool exact = c.n <= kSampledAggregates;
  const bool paired =
      estimated_coarse_entries(own, c.agg, c.n) > (exact ? 1.0 : kClearlyDenser) * limit;
  if (paired) c.agg = pair_aggregates(own, c.agg, c.n);
  galerkin();
  if (!paired && !exact && static_cast<double>(c.coarse.entries()) > limit) {
    c.agg = pair_aggregates(own, c.agg, c.n);
    galerkin();
  }
  return true;
}

}  // namespace

AmgHierarchy build_amg(SparseMatrix a, const AmgOptions& options) {
  a.check();
  SCFD_CHECK(a.rows == a.cols, "AMG of a {} x {} matrix", a.rows, a.cols);
  AmgHierarchy h;
  h.levels.emplace_back().a = std::move(a);
  for (;;) {
    AmgLevel& level = h.levels.back();
    if (std::string why = diagonal_problem(level.a, h.levels.size() - 1); !why.empty())
      throw InputError(why);
    const std::vector<real> d = diagonal_of(level.a);
    const real omega = real(4) / 3 / jacobi_radius(level.a, d);
    level.weight = smoother_weights(level.a, d, omega);
    if (level.a.rows <= options.coarse_size ||
        static_cast<int>(h.levels.size()) >= options.max_levels)
      break;
    Coarsening c;
    if (!coarsen(level.a, d, omega, options.strength, c)) break;
    level.p = std::move(c.p);
    level.r = std::move(c.r);  // the Galerkin product's transpose, not formed twice
    h.levels.emplace_back().a = std::move(c.coarse);
  }
  SCFD_CHECK(h.levels.back().a.rows <= 1000,
             "AMG: coarsening stalled at {} rows (too many for the dense coarse solve)",
             h.levels.back().a.rows);
  // A coarsest level that is not positive semi-definite (its Galerkin products lost it in
  // floating point, with positive diagonals left) would make the cycle indefinite and CG diverge.
  real lowest_pivot = 0;
  h.coarse_inverse = generalized_inverse(h.levels.back().a, &lowest_pivot);
  if (lowest_pivot < -1e-6)
    throw InputError(fmt::format(
        "multigrid: the coarsest level ({} rows) is not positive semi-definite in floating point "
        "(a pivot of {:.3g} times its largest diagonal entry), as on a mesh with cells stretched "
        "by many orders of magnitude; improve the mesh or set solver.preconditioner = \"jacobi\"",
        h.levels.back().a.rows, lowest_pivot));
  return h;
}

namespace {

// The rows of p (this rank's rows, columns numbered globally) at every local entity of `plan`:
// the owned rows, then the ghosts' rows from their owners (exchanged as planes of column and
// value). Collective.
SparseMatrix rows_with_ghosts(const SparseMatrix& p, halo::HaloPlan& plan) {
  index width = 0;
  for (index i = 0; i < p.rows; ++i) width = std::max(width, p.offset[i + 1] - p.offset[i]);
  width = static_cast<index>(global_max(static_cast<real>(width)));
  const auto n_local = static_cast<std::size_t>(plan.n_local());
  const auto owned = static_cast<std::size_t>(p.rows);
  // Plane k holds entry k of every row (column -1 past a row's end); one pair of planes is reused
  // for every k, and each plane's ghost entries are kept as (ghost, column, value) in plane order.
  std::vector<real> col(n_local), val(n_local);
  std::vector<index> ghost, ghost_col;
  std::vector<real> ghost_val;
  for (index k = 0; k < width; ++k) {
    for (std::size_t i = 0; i < owned; ++i) {
      const bool entry = p.offset[i] + k < p.offset[i + 1];
      col[i] = entry ? static_cast<real>(p.column[p.offset[i] + k]) : -1;
      val[i] = entry ? p.value[p.offset[i] + k] : 0;
    }
    plan.exchange(col);
    plan.exchange(val);
    for (std::size_t i = owned; i < n_local; ++i)
      if (col[i] >= 0) {
        ghost.push_back(static_cast<index>(i - owned));
        ghost_col.push_back(static_cast<index>(col[i]));
        ghost_val.push_back(val[i]);
      }
  }
  // The owned rows as they are, then each ghost's entries by plane (a stable sort by ghost).
  SparseMatrix out;
  out.rows = plan.n_local();
  out.cols = p.cols;
  out.offset.assign(p.offset.begin(), p.offset.end());
  out.offset.resize(n_local + 1);
  for (std::size_t i = owned; i < n_local; ++i) out.offset[i + 1] = 0;
  for (const index g : ghost) ++out.offset[owned + static_cast<std::size_t>(g) + 1];
  for (std::size_t i = owned; i < n_local; ++i) out.offset[i + 1] += out.offset[i];
  out.column.resize(static_cast<std::size_t>(out.offset[n_local]));
  out.value.resize(out.column.size());
  std::copy(p.column.begin(), p.column.end(), out.column.begin());
  std::copy(p.value.begin(), p.value.end(), out.value.begin());
  std::vector<index> next(out.offset.begin() + static_cast<std::ptrdiff_t>(owned),
                          out.offset.end() - 1);
  for (std::size_t e = 0; e < ghost.size(); ++e) {
    const index at = next[static_cast<std::size_t>(ghost[e])]++;
    out.column[static_cast<std::size_t>(at)] = ghost_col[e];
    out.value[static_cast<std::size_t>(at)] = ghost_val[e];
  }
  return out;
}

// The first global number of every rank's entities (and the total at the end).
std::vector<index> global_offsets(index mine) {
  const std::vector<index> counts = all_gather(std::vector<index>{mine});
  std::vector<index> first(counts.size() + 1, 0);
  for (std::size_t r = 0; r < counts.size(); ++r) first[r + 1] = first[r] + counts[r];
  return first;
}

// A coarse level's local numbering: every local entity's global number (this rank's first,
// then the ghosts, ascending, so grouped by owner rank as a HaloPlan wants them) and each ghost's
// owner.
struct CoarseNumbering {
  std::vector<index> gid;
  std::vector<int> owner;
};
// This rank's entities (global numbers coarse_first[me] ..) and `ghosts` (global numbers of other
// ranks' entities, repeats allowed).
CoarseNumbering coarse_numbering(std::vector<index> ghosts, const std::vector<index>& coarse_first,
                                 int me) {
  CoarseNumbering out;
  for (index g = coarse_first[me]; g < coarse_first[me + 1]; ++g) out.gid.push_back(g);
  std::sort(ghosts.begin(), ghosts.end());
  ghosts.erase(std::unique(ghosts.begin(), ghosts.end()), ghosts.end());
  for (const index j : ghosts) {
    out.gid.push_back(j);
    out.owner.push_back(static_cast<int>(
        std::upper_bound(coarse_first.begin(), coarse_first.end(), j) - coarse_first.begin() - 1));
  }
  return out;
}

// The local numbering of a coarse level whose columns hold global coarse numbers (coarse_first:
// the first global number of every rank's aggregates): this rank's aggregates, then the others
// its rows (of `coarse`) or the fine rows' prolongation (`p`) couple to, or the fine rows' A P
// (`ap`) reads, or `extra` names. Renumbers the columns of all three.
CoarseNumbering number_coarse(SparseMatrix& coarse, SparseMatrix& p, SparseMatrix& ap,
                              const std::vector<index>& coarse_first, int me,
                              std::vector<index> extra = {}) {
  const index mine = coarse_first[me], next = coarse_first[me + 1];
  std::vector<index>& ghosts = extra;
  for (const SparseMatrix* m : {&coarse, &p, &ap})
    for (const index j : m->column)
      if (j < mine || j >= next) ghosts.push_back(j);
  CoarseNumbering out = coarse_numbering(std::move(ghosts), coarse_first, me);
  const auto first_ghost = out.gid.begin() + (next - mine);
  for (SparseMatrix* m : {&coarse, &p, &ap}) {
    for (index& j : m->column)
      j = j >= mine && j < next
              ? j - mine
              : static_cast<index>(std::lower_bound(first_ghost, out.gid.end(), j) -
                                   out.gid.begin());
    m->cols = static_cast<index>(out.gid.size());
  }
  return out;
}

// The entities two couplings from this rank's rows of `coarse` (this rank's entities, columns in
// global numbers) through a ghost: the columns of the ghosts' rows (their owners') that are
// neither this rank's nor ghosts already. Collective.
std::vector<index> second_ring(const SparseMatrix& coarse, const std::vector<index>& coarse_first,
                               int me, halo::Entity kind) {
  const index mine = coarse_first[me], next = coarse_first[me + 1];
  std::vector<index> ghosts;
  for (const index j : coarse.column)
    if (j < mine || j >= next) ghosts.push_back(j);
  const CoarseNumbering first = coarse_numbering(std::move(ghosts), coarse_first, me);
  halo::HaloPlan plan =
      halo::HaloPlan::build(kind, next - mine, first.gid, first.owner, MPI_COMM_WORLD);
  const SparseMatrix rows = rows_with_ghosts(coarse, plan);
  const auto first_ghost = first.gid.begin() + (next - mine);
  std::vector<index> out;
  for (index k = rows.offset[next - mine]; k < rows.entries(); ++k)
    if (const index j = rows.column[k];
        (j < mine || j >= next) && !std::binary_search(first_ghost, first.gid.end(), j))
      out.push_back(j);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// Every local entity's global number on a level (first: the first of every rank's rows): the
// coarse levels keep it; the finest level's ghosts get theirs from their owners. Collective.
std::vector<index> global_numbers(const AmgLevel& level, halo::HaloPlan& plan,
                                  const std::vector<index>& first, int me) {
  if (!level.gid.empty()) return level.gid;
  std::vector<index> gid(static_cast<std::size_t>(plan.n_local()), 0);
  for (index i = 0; i < level.a.rows; ++i) gid[static_cast<std::size_t>(i)] = first[me] + i;
  plan.exchange(std::span<index>(gid));
  return gid;
}

// A distributed level's rows at every local entity (AmgLevel::a_halo; gid: their global
// numbers), where they cover the ghosts that `r` (its restriction) reads on every rank; an empty
// matrix where not. Collective.
SparseMatrix rows_at_every_entity(const AmgLevel& level, const std::vector<index>& gid,
                                  const SparseMatrix& r, halo::HaloPlan& plan) {
  const SparseMatrix& a = level.a;
  SparseMatrix global = a;
  for (index& j : global.column) j = gid[static_cast<std::size_t>(j)];
  const SparseMatrix ghost_rows = rows_with_ghosts(global, plan);
  std::unordered_map<index, index> local;
  for (std::size_t i = 0; i < gid.size(); ++i) local.emplace(gid[i], static_cast<index>(i));
  SparseMatrix out = a;
  out.rows = plan.n_local();
  std::vector<char> complete(static_cast<std::size_t>(out.rows), 1);
  for (index i = a.rows; i < out.rows; ++i) {
    const index at = out.entries();
    for (index k = ghost_rows.offset[i]; k < ghost_rows.offset[i + 1] && complete[i]; ++k) {
      const auto it = local.find(ghost_rows.column[k]);
      if (it == local.end()) {
        complete[i] = 0;
      } else {
        out.column.push_back(it->second);
        out.value.push_back(ghost_rows.value[k]);
      }
    }
    if (!complete[i]) {  // a column beyond this rank's ghosts: no row
      out.column.resize(static_cast<std::size_t>(at));
      out.value.resize(static_cast<std::size_t>(at));
    }
    out.offset.push_back(out.entries());
  }
  const bool covered = std::all_of(r.column.begin(), r.column.end(),
                                   [&](index j) { return complete[static_cast<std::size_t>(j)]; });
  if (global_min(covered ? real(1) : real(0)) > 0) return out;
  return {};
}

// The transfers and the coarse operator of a distributed level whose aggregates (c.agg, c.n)
// are this rank's rows', with P smoothed by the whole operator, couplings to the ghosts included:
// P = (I - omega D^-1 A) T, where T at a ghost is its owner's aggregate. P then reproduces T's
// constants across the ranks' interfaces, and its rows reach the neighbours' aggregates. Smoothed
// with the owned block alone, P lost them there and the iterations grew with the ranks (a 162k-tet
// cavity split into 16 parts: 56 against 30 per solve; with the whole operator 30).
//   level.p: owned fine rows x local coarse entities (this rank's aggregates, then ghosts);
//   level.r: this rank's aggregates x local fine entities, P^T's rows that are this rank's: the
//            restriction reads the fine residual at the ghosts, as the product with A does;
//   coarse:  A_c = R (A P), this rank's rows, columns global (number_coarse renumbers them);
//   ap:      A P, owned fine rows, columns global (AmgLevel::ap).
// Collective.
struct DistributedTransfer {
  SparseMatrix p, r, coarse, ap;
};
DistributedTransfer distributed_transfer(const SparseMatrix& a, const std::vector<real>& d,
                                         real omega, const Coarsening& c,
                                         const std::vector<index>& coarse_first, int me,
                                         halo::HaloPlan& plan) {
  const auto n_local = static_cast<std::size_t>(plan.n_local());
  // Each local entity's global aggregate and its basis value (0 outside every aggregate).
  std::vector<index> agg(n_local, -1);
  std::vector<real> scale(n_local, 0);
  std::vector<real> size(static_cast<std::size_t>(c.n), 0);
  for (const index g : c.agg)
    if (g >= 0) size[g] += 1;
  for (index i = 0; i < a.rows; ++i)
    if (c.agg[i] >= 0) {
      agg[i] = coarse_first[me] + c.agg[i];
      scale[i] = 1 / std::sqrt(size[c.agg[i]]);
    }
  plan.exchange(std::span<index>(agg));
  plan.exchange(std::span<real>(scale));
  SparseMatrix t;
  t.rows = plan.n_local();
  t.cols = coarse_first.back();
  for (std::size_t i = 0; i < n_local; ++i) {
    if (agg[i] >= 0) {
      t.column.push_back(agg[i]);
      t.value.push_back(scale[i]);
    }
    t.offset.push_back(t.entries());
  }
  DistributedTransfer out;
  out.p = smooth_basis(a, d, omega, t);
  const SparseMatrix p_local = rows_with_ghosts(out.p, plan);
  out.ap = multiply(a, p_local);
  const SparseMatrix ap_local = rows_with_ghosts(out.ap, plan);
  // R: the rows of P^T (over the local fine entities) that are this rank's aggregates, from the
  // columns of P that are (so that nothing here grows with the global size).
  SparseMatrix p_mine;
  p_mine.rows = p_local.rows;
  p_mine.cols = c.n;
  for (index i = 0; i < p_local.rows; ++i) {
    for (index k = p_local.offset[i]; k < p_local.offset[i + 1]; ++k)
      if (const index g = p_local.column[k] - coarse_first[me]; g >= 0 && g < c.n) {
        p_mine.column.push_back(g);
        p_mine.value.push_back(p_local.value[k]);
      }
    p_mine.offset.push_back(p_mine.entries());
  }
  out.r = transpose(p_mine);
  out.coarse = multiply(out.r, ap_local);
  out.r.inner = leading_rows_below(out.r, a.rows);
  return out;
}

// The last distributed level gathered to every rank (first: the first global number of every
// rank's rows; plan: the level's halo plan), with columns in global numbers, and the serial
// hierarchy built from it with `options` (the same on every rank). Collective.
AmgHierarchy::Gathered gather_level(const AmgLevel& last, halo::HaloPlan& plan,
                                    const std::vector<index>& first, int me,
                                    const AmgOptions& options) {
  const std::vector<index> gid = global_numbers(last, plan, first, me);
  std::vector<index> rows, columns;  // global numbers
  std::vector<real> values;
  for (index i = 0; i < last.a.rows; ++i)
    for (index k = last.a.offset[i]; k < last.a.offset[i + 1]; ++k) {
      const index j = last.a.column[k];
      rows.push_back(first[me] + i);
      columns.push_back(gid[static_cast<std::size_t>(j)]);
      values.push_back(last.a.value[k]);
    }
  const std::vector<index> all_rows = all_gather(rows), all_columns = all_gather(columns);
  const std::vector<real> all_values = all_gather(values);
  // Rows arrive in global order (rank order, each rank's rows ascending).
  SparseMatrix whole;
  whole.rows = whole.cols = first.back();
  whole.offset.assign(static_cast<std::size_t>(whole.rows) + 1, 0);
  for (const index i : all_rows) ++whole.offset[static_cast<std::size_t>(i) + 1];
  for (index i = 0; i < whole.rows; ++i) whole.offset[i + 1] += whole.offset[i];
  whole.column.assign(all_columns.begin(), all_columns.end());
  whole.value.assign(all_values.begin(), all_values.end());
  // Symmetric up to the rounding of each rank's Galerkin rows: make it exactly so (columns
  // sorted by transposing twice; the pattern is symmetric).
  whole = transpose(transpose(whole));
  const SparseMatrix t = transpose(whole);
  SCFD_CHECK(t.column == whole.column,
             "AMG: the gathered coarse matrix is not structurally "
             "symmetric");
  for (std::size_t k = 0; k < whole.value.size(); ++k)
    whole.value[k] = (whole.value[k] + t.value[k]) / 2;
  AmgHierarchy::Gathered g;
  g.first = first[me];
  g.n_global = first.back();
  g.n_mine = last.a.rows;
  g.hierarchy = std::make_unique<AmgHierarchy>(build_amg(whole, options));
  return g;
}

}  // namespace

AmgHierarchy build_amg(SparseMatrix a, halo::HaloPlan& plan, const AmgOptions& options) {
  a.check();
  SCFD_CHECK(a.rows == plan.n_owned() && a.cols == plan.n_local(),
             "AMG of a {} x {} matrix for {} owned of {} local entities", a.rows, a.cols,
             plan.n_owned(), plan.n_local());
  const int me = world_rank();
  std::vector<index> first = global_offsets(a.rows);
  AmgHierarchy h;
  h.levels.emplace_back().a = std::move(a);
  halo::HaloPlan* fine_plan = &plan;
  for (;;) {
    AmgLevel& level = h.levels.back();
    const SparseMatrix own = owned_block(level.a);
    agree_on_input_error(diagonal_problem(own, h.levels.size() - 1));  // collective
    const std::vector<real> d = diagonal_of(own);
    const real omega = own.rows > 0 ? real(4) / 3 / jacobi_radius(own, d) : 1;
    level.weight = smoother_weights(level.a, d, omega);
    // Every rank takes the same decisions (each level's halo plan is collective).
    if (first.back() <= options.gather_size ||
        static_cast<int>(h.levels.size()) >= options.max_levels)
      break;
    Coarsening c;
    if (!coarsen(own, d, omega, options.strength, c)) {  // each row its own aggregate
      c.agg.resize(static_cast<std::size_t>(own.rows));
      std::iota(c.agg.begin(), c.agg.end(), 0);
      c.n = own.rows;
    }
    const std::vector<index> coarse_first = global_offsets(c.n);
    if (coarse_first.back() > first.back() / 10 * 9) break;  // the ranks no longer coarsen
    DistributedTransfer x =
        distributed_transfer(level.a, d, omega, c, coarse_first, me, *fine_plan);
    // One sweep: the level's rows at the ghosts, where its plan reaches two couplings deep (the
    // finest: the caller's; the coarser: made so below), save the exchanges of the smoothed
    // iterate and of the residual (AmgLevel::a_halo).
    const bool halo_rows = options.sweeps == 1;
    if (halo_rows) {
      level.a_halo = rows_at_every_entity(level, global_numbers(level, *fine_plan, first, me), x.r,
                                          *fine_plan);
      if (level.a_halo.rows > 0) {
        level.weight.resize(static_cast<std::size_t>(fine_plan->n_local()));
        fine_plan->exchange(std::span<real>(level.weight));
      }
    }
    // The next level's second ring of ghosts, unless it will be gathered (it has no transfers).
    std::vector<index> extra;
    if (halo_rows && coarse_first.back() > options.gather_size &&
        static_cast<int>(h.levels.size()) + 1 < options.max_levels)
      extra = second_ring(x.coarse, coarse_first, me, plan.kind());
    const CoarseNumbering numbering =
        number_coarse(x.coarse, x.p, x.ap, coarse_first, me, std::move(extra));
    x.p.inner = leading_rows_below(x.p, c.n);
    x.ap.inner = leading_rows_below(x.ap, c.n);
    level.p = std::move(x.p);
    level.r = std::move(x.r);
    level.ap = std::move(x.ap);
    AmgLevel& next = h.levels.emplace_back();
    next.a = std::move(x.coarse);
    next.gid = numbering.gid;
    next.plan = std::make_unique<halo::HaloPlan>(
        halo::HaloPlan::build(plan.kind(), c.n, numbering.gid, numbering.owner, MPI_COMM_WORLD));
    // As the finest level's: the level's exchanges (its right-hand side going down, the coarse
    // correction of the level above going up) hide behind the rows that read no ghost.
    next.plan->set_overlap(plan.overlap());
    fine_plan = next.plan.get();
    first = coarse_first;
  }
  // Every rank builds the same serial hierarchy, so all fail alike; agreed all the same.
  std::string why;
  try {
    h.gathered = gather_level(h.levels.back(), *fine_plan, first, me, options);
  } catch (const InputError& e) {
    why = e.what();
  }
  agree_on_input_error(why);
  return h;
}

}  // namespace scfd::solvers
