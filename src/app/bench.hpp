// `streamcfd bench` (docs/architecture.md §11): the pieces shared by bench_command.cpp (command
// line, mesh, report), bench_kernels.cpp (copy ceiling, per-kernel timings) and bench_pcg.cpp (the
// heat-like node system, its PCG timing and its Matrix Market export).
//
// Every timing is wall clock (steady_clock) around Backend::finish(), so queued GPU work is
// counted. In an MPI run every rank times its own part after a barrier; "rank 0" figures are
// rank 0's, "max" the slowest rank's, and aggregate bandwidths divide the bytes of all ranks by
// the slowest rank's time.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "backend/backend.hpp"
#include "backend/sparse_matrix.hpp"
#include "core/counters.hpp"
#include "halo/halo.hpp"
#include "topology/mesh.hpp"

namespace scfd::app::bench {

// One timed operation (a kernel, or the copy ceiling).
struct Timing {
  std::string name;
  index entries = 0;      // output entries per call on rank 0 (for the table)
  double time_s = 0;      // rank 0, seconds per call
  double time_max_s = 0;  // slowest rank, seconds per call
  double bytes = 0;       // rank 0, bytes per call by the traffic model
  double bytes_all = 0;   // all ranks together
  double gbps() const { return time_s > 0 ? bytes / time_s * 1e-9 : 0; }
  double gbps_all() const { return time_max_s > 0 ? bytes_all / time_max_s * 1e-9 : 0; }
};

// Bytes of one `real` in the backend's precision ("fp64" -> 8, "fp32" -> 4).
int real_bytes(const backend::Backend& be);
// Bytes of one product with `a` that also reads `row_vectors` vectors of a.rows entries (a lower
// bound): every entry's value and 4-byte column, x once per column, the vectors and the result.
double product_bytes(const backend::SparseMatrix& a, int row_vectors, int rb);

// How each operation is timed: calls for `warmup_s` seconds first (at least one; the first also
// compiles kernels and uploads the device mesh), then `repeat` timed calls. The warm-up is what
// makes GPU figures repeatable: a GPU idle for a few seconds (the mesh build before the first
// timing, a long host-side setup) lowers its clocks and needs a few hundred ms of load to raise
// them again. Measured on an H200 (docs/gpu.md "Clocks"): after 4 s idle the SM clock is 345 MHz
// instead of 1980 and a copy of 2^24 doubles runs at 790 GB/s instead of 3,600 until about
// 250 ms of work have passed.
struct TimingOptions {
  int repeat = 20;
  double warmup_s = 0.5;
};

// Calls `call` until `seconds` have passed on the slowest rank (at least once), finishing the
// device after each call. Collective: every rank makes the same number of calls.
void warm_up(const backend::Backend& be, double seconds, const std::function<void()>& call);

// Warm-up (as warm_up), then o.repeat calls of `call` between finish() after a barrier, so every
// rank starts together; fills t's times and its bytes of all ranks (t.bytes: rank 0's).
void time_calls(const backend::Backend& be, const TimingOptions& o,
                const std::function<void()>& call, Timing& t);
// Copies a field of max(2^24, largest mesh field) entries: the bandwidth ceiling the kernels are
// compared with (bytes = entries read + entries written).
Timing copy_ceiling(const backend::Backend& be, const topology::Mesh& m, const TimingOptions& o);

// Every Backend kernel (copy, axpy, xpay, scale, dot, pcg_update, pcg_direction, gradient,
// divergence, flux_sum_abs, curl, rotation, interpolate, integrate, convection, node_laplacian,
// node_system, node_system_diagonal, node_system_apply (the operator of node_system assembled by
// Backend::make_node_system, assembly not timed), in this order) on mesh m, each timed as `o`
// says. device_bytes: Backend::device_bytes() with all of them allocated.
std::vector<Timing> kernel_timings(const backend::Backend& be, const topology::Mesh& m,
                                   const TimingOptions& o, std::size_t& device_bytes);

// The multigrid part (bench_amg.cpp, --only amg): each level's products (smoother sweep,
// residual, restriction, prolongation), the coarsest solve and one V-cycle of the hierarchy
// make_amg builds for a cell Laplacian shaped like the pressure system (mobility = face area /
// centroid distance) on mesh m. `hierarchy` receives its description (levels, complexity),
// `per_cycle` what one more V-cycle counted on this rank (core/counters.hpp: its dispatches, halo
// rounds, gathers, waits for the GPU: the synchronisations and the dispatch floor of a cycle).
std::vector<Timing> amg_timings(const backend::Backend& be, const topology::Mesh& m,
                                halo::HaloPlan& cells, const TimingOptions& o,
                                std::string& hierarchy, counters::Snapshot& per_cycle);

// The halo part (bench_halo.cpp, --only halo): per plan with ghosts, one exchange ("halo
// <entity>") and its pack, unpack and messages alone, W copies of an owned-sized field alone ("work
// <entity> xW") and between begin and end ("hidden <entity> xW"; the difference is the exchange's
// exposed time), then one global sum of a dot product through Scalars ("global sum").
std::vector<Timing> halo_timings(const backend::Backend& be, const topology::Mesh& m,
                                 halo::Halo& halo, const TimingOptions& o);

// `--only momentum` (bench_momentum.cpp): one application of ns-classical's 3D momentum operator
// on mesh m as a lid-driven cavity ("momentum_apply", bytes: the sum of its parts' traffic),
// then its viscous and convective parts ("momentum_viscous", "momentum_convection") and its
// stored matrices alone ("mass_rt", "edge_star_wmp", "mass_curl"). InputError for a 2D
// mesh or one without boundary patches.
std::vector<Timing> momentum_timings(const backend::Backend& be, const topology::Mesh& m,
                                     halo::Halo& halo, const TimingOptions& o);

// `--only stream` (bench_momentum.cpp): one application of ns-exact's 3D stream operator
// ("stream_apply") and of its auxiliary-space preconditioner ("stream_preconditioner") on the same
// cavity, then S ("stream_s"), W_mp ("edge_star_wmp") and the convection chain
// ("stream_convection") alone. InputError as for momentum_timings.
std::vector<Timing> stream_timings(const backend::Backend& be, const topology::Mesh& m,
                                   halo::Halo& halo, const TimingOptions& o);

// The heat-like node system of the PCG benchmark: steady conduction with unit conductivity and
// T = 0 on every boundary node (eliminated symmetrically, as physics/heat/heat.cpp does), unit heat
// source. On a rank's mesh the arrays cover its local nodes/edges (ghosts included).
struct NodeSystem {
  std::vector<real> d;      // per node: 0 (steady: no mass term)
  real b = 1;               // Laplacian factor
  std::vector<real> w;      // per edge: mesh.edge_stiffness (P1 weights for k = 1)
  std::vector<real> fixed;  // per node: 1 on boundary (Dirichlet) nodes, else 0
  std::vector<real> rhs;    // per node: dual volume on free nodes, 0 on fixed nodes
};
NodeSystem make_node_system(const topology::Mesh& m, halo::HaloPlan& nodes);

struct SolveOptions {
  int iterations = 100;   // fixed count, or the cap when tolerance > 0
  double tolerance = 0;   // relative residual to stop at; 0: run exactly `iterations`
  double warmup_s = 0.5;  // short solves for this long before the timed one (TimingOptions)
};

struct PcgTiming {
  int iterations = 0;
  double time_s = 0;               // whole solve, slowest rank
  double relative_residual = 0;    // at exit
  long long unknowns = 0;          // global node count
  double bytes_per_iteration = 0;  // all ranks, by the traffic model
  double time_per_iteration() const { return iterations > 0 ? time_s / iterations : 0; }
};

// Solves the node system with solvers::Pcg from x = 0: short warm-up solves of 3 iterations for
// options.warmup_s seconds, then the timed one. Collective.
PcgTiming time_pcg(const backend::Backend& be, const topology::Mesh& m, halo::HaloPlan& nodes,
                   const NodeSystem& s, long long global_nodes, const SolveOptions& options);

// Writes DIR/matrix.mtx (coordinate real symmetric, lower triangle, 1-based) and DIR/rhs.mtx
// (array real general) of the node system on a serial mesh, assembled on the host from the same
// edge weights the backend's node_system applies.
void export_matrix(const topology::Mesh& m, const NodeSystem& s, const std::string& dir);

}  // namespace scfd::app::bench
