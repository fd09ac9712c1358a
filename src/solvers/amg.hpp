// Smoothed-aggregation algebraic multigrid (Vaněk, Mandel & Brezina, "Algebraic multigrid by
// smoothed aggregation for second and fourth order elliptic problems", Computing 56 (1996)
// 179-196) as a preconditioner for PCG: docs/methods.md "Multigrid pressure solve".
//
// The hierarchy is built on the host from the assembled matrix of one rank's owned rows. Each
// level keeps A, the prolongation P (the piecewise-constant aggregate basis smoothed by one
// damped-Jacobi step) and R = P^T on the backend, so a V-cycle is a sequence of backend matrix
// products. The coarsest level is solved exactly by a dense generalized inverse on the backend (no
// read-back). With several ranks each rank aggregates its own rows, but P is smoothed with the
// whole operator, so it reaches into the neighbours' aggregates (R reads the fine ghosts, P the
// coarse ones), and every level is the Galerkin product of the whole operator: the iterations of
// several ranks stay those of one (tests/solvers/amg_ranks_test.cpp). The distributed levels
// stop at options.gather_size rows over all ranks: that level is gathered to every rank, which
// coarsens it serially and runs its V-cycle redundantly (one fenced gather of the owned entries,
// one all-gather and one staged upload per cycle).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backend/backend.hpp"
#include "backend/sparse_matrix.hpp"
#include "halo/halo_plan.hpp"
#include "solvers/preconditioner.hpp"
#include "solvers/sparse_algebra.hpp"

namespace scfd::solvers {

using backend::SparseMatrix;

struct AmgOptions {
  real strength = 0.08;    // j is a strong neighbour of i when |a_ij| >= strength sqrt(a_ii a_jj)
  index coarse_size = 64;  // stop coarsening at this many rows; solved exactly there
  // Several ranks: gather the distributed hierarchy to every rank at this many rows in all.
  index gather_size = 20000;
  int max_levels = 20;
  int sweeps = 1;  // damped-Jacobi sweeps before and after each coarse correction
};

// The host hierarchy (testable without a backend).
struct AmgLevel {
  // This level's operator: this rank's rows; columns: its own entities, then (several ranks) the
  // ghosts of `plan`, the other ranks' entities its rows couple to.
  SparseMatrix a;
  std::vector<real> weight;  // smoother: omega / a_ii (1 / a_ii on rows without neighbours)
  // To the next level (not on the coarsest): P, owned rows x the next level's columns, and R, the
  // next level's owned rows x this level's columns (P^T; with several ranks the rows of P^T at the
  // ghosts included, those of this rank's aggregates kept).
  SparseMatrix p, r;
  // Several ranks, the distributed levels but the last: A P (owned rows x the next level's
  // columns), so that the smoothing sweep after the coarse correction x + P e_c takes its
  // residual as r - (A P) e_c, from the residual r before the correction and e_c with its ghosts
  // (exchanged for P anyway), and exchanges no ghost of the corrected iterate. Empty otherwise.
  SparseMatrix ap;
  // Several ranks, a distributed level above the last with one smoothing sweep, where it can be
  // made: A with a row at every local entity, a ghost's row its owner's where every column of it
  // is a local entity here (empty otherwise), at least at the ghosts R reads; `weight` then covers
  // the ghosts too. The cycle exchanges the level's right-hand side b once, two couplings deep,
  // and computes x = W b, r = b - (A W) b and R r with no other exchange, where it exchanged x and
  // r, the rows of r that read no ghost while b's ghosts come (amg.cpp). Empty: the level
  // exchanges x and r (its plan does not reach two couplings deep).
  SparseMatrix a_halo;
  // Level 0 with a_halo: the finest plan narrowed to the ghosts a_halo reads (make_amg; the
  // coarse levels' plans hold the second ring of ghosts themselves, build_amg).
  std::unique_ptr<halo::HaloPlan> rhs_plan;
  // Several ranks, levels >= 1: the global number of each local entity and the halo plan of the
  // ghosts (level 0 uses the caller's plan; make_amg stores here the plan it narrows from it).
  std::vector<index> gid;
  std::unique_ptr<halo::HaloPlan> plan;
};
struct AmgHierarchy {
  std::vector<AmgLevel> levels;
  SparseMatrix coarse_inverse;  // dense, a generalized inverse of the coarsest a (not gathered)
  // Several ranks: the last level gathered to every rank (n_global rows in all; this rank's are
  // global numbers first .. first + n_mine) and the serial hierarchy built from it.
  struct Gathered {
    index first = 0, n_global = 0, n_mine = 0;
    std::unique_ptr<AmgHierarchy> hierarchy;
  };
  std::optional<Gathered> gathered;
  // Entries of all levels' operators over those of the finest (the memory and work of a cycle).
  real operator_complexity() const;
  std::string describe() const;  // "4 levels (12,345 / 1,234 / 150 / 18 rows), complexity 1.32"
};

// a: symmetric with a positive diagonal, positive semi-definite (the constants may be its null
// space, as for a pressure system without an outlet). It becomes the finest level's matrix (pass
// a temporary or std::move: at 8.2M cells a copy is half a gigabyte).
AmgHierarchy build_amg(SparseMatrix a, const AmgOptions& options = {});
// Several ranks (collective): a holds this rank's rows with a column per local entity of `plan`
// (owned first, solvers/assembly.hpp). Aggregates are formed within each rank's rows; P is
// smoothed and the coarse operators are the Galerkin products with the whole operator, couplings
// between ranks included, each level with its own halo plan, down to options.gather_size rows in
// all; every rank keeps the serial hierarchy of the gathered last level.
AmgHierarchy build_amg(SparseMatrix a, halo::HaloPlan& plan, const AmgOptions& options);

// The aggregate of every row (-1: a row without strong neighbours, left out of the coarse space)
// and the number of aggregates.
std::vector<index> aggregate(const SparseMatrix& a, real strength, index& n_aggregates);

// The entries of the coarse operator P^T A P that the aggregation agg (n aggregates) would give,
// P its basis smoothed by one Jacobi step on A, from the row patterns of at most
// kSampledAggregates aggregates spread evenly over them; with no more aggregates than that, all
// of them: then the count is exactly that of the product, which keeps every entry its structure
// reaches. The hierarchy uses it to pair aggregates before it forms a product too dense to keep.
inline constexpr index kSampledAggregates = 256;
double estimated_coarse_entries(const SparseMatrix& a, const std::vector<index>& agg, index n);

// The hierarchy on a backend, applied as one V-cycle per call.
class Amg final : public Preconditioner {
 public:
  // n_local: the size of the fields apply() gets (the finest rows plus the ghosts it leaves);
  // plan: the finest level's halo plan (several ranks), which must outlive this.
  Amg(const backend::Backend& be, AmgHierarchy&& h, index n_local, int sweeps,
      halo::HaloPlan* plan = nullptr);
  void apply(backend::Field& r, backend::Field& z) const override;
  double setup_seconds = 0;  // make_amg: building the hierarchy and storing it on the backend

 private:
  struct Level {
    // a: A W (AmgLevel::a_halo, its columns scaled by the weights) where a_halo is not empty;
    // ap: null: none
    std::unique_ptr<backend::Matrix> a, p, r, ap;
    // rhs: the restricted residual (levels >= 1)
    std::unique_ptr<backend::Field> weight, rhs, e, tmp;
    std::unique_ptr<backend::Field> tmp2;        // with ap: a second scratch
    halo::HaloPlan* plan = nullptr;              // ghosts to refresh before a product
    halo::HaloPlan* rhs_plan = nullptr;          // with a_halo: the right-hand side's (else null)
    std::unique_ptr<halo::HaloPlan> owned_plan;  // AmgLevel::plan
    std::unique_ptr<halo::HaloPlan> owned_rhs_plan;  // AmgLevel::rhs_plan
  };
  // e = M_l b on level l (b's ghosts may be overwritten: Preconditioner::apply).
  void cycle(std::size_t l, backend::Field& b, backend::Field& e) const;
  // The gathered levels of several ranks: one V-cycle of their serial hierarchy on every rank
  // (a gather of the owned entries through a fence, an all-gather and a staged upload per
  // cycle: no read-back, no wait for the GPU's whole queue).
  void gathered_cycle(const backend::Field& b, backend::Field& e) const;
  const backend::Backend& be_;
  int sweeps_;
  std::vector<Level> levels_;
  std::unique_ptr<backend::Matrix> coarse_inverse_;
  struct Gathered {  // no default member initializers: clang cannot construct it in place then
    index first, n_mine;
    std::vector<index> owned;  // 0 .. n_mine - 1: the entries of b this rank sends
    // The finest level gathered (its global numbers of the ghosts are not known here): this
    // rank's rows of the result, first .. first + n_mine - 1, read back and uploaded.
    std::vector<index> mine_in_all;
    std::vector<int> counts;                 // every rank's n_mine
    std::unique_ptr<Amg> amg;                // the serial hierarchy, fields of n_global
    std::unique_ptr<backend::Field> rhs, e;  // its right-hand side and result
    // A coarse level gathered: its local entities' rows of the result, S e with S the selection
    // of their global numbers (one product, no read-back). Null on the finest level.
    std::unique_ptr<backend::Matrix> select;
  };
  std::optional<Gathered> gathered_;
  // gathered_cycle's host arrays, kept between cycles: this rank's part, every rank's.
  mutable std::vector<real> host_mine_, host_all_;
};

// The options make_amg builds with: the coarsest size depends on the ranks and on whether `be`
// is a GPU.
AmgOptions amg_options(const backend::Backend& be);

// Builds the hierarchy of this rank's rows of a (solvers/assembly.hpp: owned rows, a column per
// local entity of `plan`, owned first) with the default options, distributed with several ranks
// (collective), and stores it on `be` for fields of plan.n_local() entries. Logs
// "<what> preconditioner: AMG, <levels>, set-up <s> s" (rank 0's rows with several ranks).
std::unique_ptr<Amg> make_amg(const backend::Backend& be, SparseMatrix a, halo::HaloPlan& plan,
                              const std::string& what);

// make_amg's first half on one rank: build_amg(a, options) timed as the set-up's multigrid part.
// It calls neither MPI nor the backend, so a caller may run it on a thread of its own while its
// own thread keeps the GPU busy (ns/flow.cpp), then give the hierarchy to the second half.
AmgHierarchy build_amg_alone(SparseMatrix a, const AmgOptions& options);
// The second half (one rank): stores h on `be` as make_amg does and logs its line, with
// host_seconds (build_amg_alone's) counted in the set-up time it reports.
std::unique_ptr<Amg> make_amg(const backend::Backend& be, AmgHierarchy h, halo::HaloPlan& plan,
                              const std::string& what, double host_seconds);

}  // namespace scfd::solvers
