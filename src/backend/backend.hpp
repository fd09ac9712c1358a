// The backend interface (docs/architecture.md §3): fields living in a backend's memory and the
// vector operations, reductions and operators that solvers and physics apply to them. The cpu
// backend implements it with host arrays; the GL backends implement it with GPU buffers, so the
// same PCG and the same physics drive every backend. Physics code sees Fields and these calls only
// — never host arrays of a GPU backend, buffers or textures.
//
// Reductions are computed in a fixed order, so a run gives the same bits every time on the same
// backend (docs/architecture.md §8.3).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "backend/sparse_matrix.hpp"
#include "core/types.hpp"
#include "topology/mesh.hpp"

namespace scfd::backend {

// What a backend computes on, for logs and benchmark records.
struct DeviceInfo {
  int index = -1;                         // EGL device index; -1: the host CPU
  std::string vendor, renderer, version;  // GL_VENDOR, GL_RENDERER, GL_VERSION (empty on the host)
  std::string description;                // one line for logs: "host", "device 0: NVIDIA ..."
  std::size_t memory_bytes = 0;           // the device's memory where the driver says; else 0
  bool software = false;                  // a software renderer (llvmpipe): the host's cores
};

// A field of `real` values, one per entity, owned by the backend that made it.
class Field {
 public:
  virtual ~Field() = default;
  virtual index size() const = 0;
};

// Which owned outputs an operator call computes (halo overlap, halo/overlap.hpp): `inner` the
// first ones, whose stencils read no ghost (Mesh::n_inner_X; for a Matrix the leading rows with no
// ghost column), `interface` the rest, `all` both. A backend may move the split down (to a
// multiple of its row_alignment(), or to 0 where it cannot split a product), never up, so inner
// then interface computes every owned output exactly once, whatever the split.
enum class Rows { all, inner, interface };

// The outputs [begin, end) that `rows` names, of n_owned outputs whose first n_inner read no
// ghost, with the split n_inner rounded down to a multiple of `align`.
inline RowRange row_range(Rows rows, index n_inner, index n_owned, index align) {
  const index split = n_inner / align * align;
  if (rows == Rows::inner) return {0, split};
  if (rows == Rows::interface) return {split, n_owned};
  return {0, n_owned};
}

// An assembled node system (Backend::make_node_system): the operator of Backend::node_system with
// d, b, w and fixed captured when it was made, applied as y = A x. The values are copied at
// creation, so later changes to those fields do not reach it: a caller re-creates it whenever d,
// b, w or fixed change (a new time step size, say). It refers to the Mesh and the Backend that
// made it, which must outlive it, and it is applied to Fields of that backend only.
class NodeSystem {
 public:
  virtual ~NodeSystem() = default;
  // y = A x on the owned nodes `rows` names (x with its ghosts up to date where those rows read
  // them; ghosts of y are not written).
  virtual void apply(const Field& x, Field& y, Rows rows = Rows::all) const = 0;
};

// A few accumulators kept where the backend computes (device memory on a GPU), in the reductions'
// precision (double wherever the device has fp64). The PCG keeps its scalars there, so a GPU
// iteration needs no read-back (solvers/pcg.cpp, docs/architecture.md §6).
class Scalars {
 public:
  virtual ~Scalars() = default;
  virtual index size() const = 0;
};

// A sparse matrix stored by the backend (Backend::make_matrix), applied to Fields of that backend
// by Backend::matrix_apply and its siblings: the levels, transfers and smoothers of a multigrid
// preconditioner (solvers/amg.hpp). The values are copied at creation.
class Matrix {
 public:
  virtual ~Matrix() = default;
  virtual index rows() const = 0;
  virtual index cols() const = 0;
};

// Arithmetic on the slots of Scalars where the backend keeps them (Backend::slot_op): s[out] =
//   divide:             s[a] / s[b], 0 when s[b] is 0;
//   divide_if_positive: s[a] / s[b], 0 when s[b] is not > 0;
//   multiply:           s[a] s[b], 0 when either is 0 (so a zero factor wins over an infinite one).
// Each reads s[a] and s[b] before writing s[out], which may be either of them.
enum class SlotOp { divide, divide_if_positive, multiply };

// A coefficient read from Scalars (Backend::axpy and xpay with Scalars): sign * s[slot], or with
// inverse_sqrt sign / sqrt(s[slot]) (0 when s[slot] is not > 0: GMRES's normalisation by a
// squared norm). While s[gate] is not 0 (a breakdown recorded by slot_check_positive) the update
// leaves y alone.
struct SlotCoefficient {
  static constexpr index none = -1;
  index slot = 0;
  real sign = 1;
  index gate = none;
  bool inverse_sqrt = false;
};

// The slots of a PCG solve's Scalars (Backend::pcg_update and pcg_direction; kernels get them as
// the defines PCG_PQ, PCG_RR, PCG_BREAKDOWN, PCG_BREAKDOWN_PQ, PCG_BREAKDOWN_RZ).
struct PcgSlots {
  static constexpr index pq = 0;   // p·q (q = A p) of the current iteration
  static constexpr index rz0 = 1;  // r·z: slot rz0 + k % 2 before iteration k, the other after it
  static constexpr index rr = 3;   // r·r after the last update
  // 0 while the iteration is sound; else 1 + the first iteration at which p·q or r·z was not > 0,
  // with those two values in the next slots.
  static constexpr index breakdown = 4, breakdown_pq = 5, breakdown_rz = 6;
  static constexpr index work = 7;  // alpha or beta of the default updates (Backend's)
  static constexpr index count = 8;
  static constexpr index rz_before(int k) { return rz0 + k % 2; }
  static constexpr index rz_after(int k) { return rz0 + (k + 1) % 2; }
};

// The slots of a BiCGStab solve's Scalars (Backend::bicgstab_direction, bicgstab_half,
// bicgstab_update; kernels get them as defines, kernels/bicgstab_slots.glsl). Iteration k
// computes rho_k = r0·r into slot rho_now(k) (rho_{k-1} stays in rho_before(k)), r·r, then
// r0·v, t·s and t·t; alpha_k = rho_k / r0·v and omega_k = t·s / t·t (0 when t·t is not > 0)
// are formed from them wherever they are used.
struct BicgstabSlots {
  static constexpr index rho0 = 0;  // r0·r: slot rho0 + k % 2 at iteration k
  static constexpr index rr = 2, r0v = 3, ts = 4, tt = 5;
  static constexpr index work = 6;  // work, work + 1, work + 2: the default updates' alpha,
                                    // omega and beta (Backend's)
  // Several ranks: r0·s, r0·t and s·s, summed with t·s and t·t, give the next iteration's r0·r
  // and r·r without a sum of their own (solvers/bicgstab.cpp).
  static constexpr index r0s = 9, r0t = 10, ss = 11;
  static constexpr index count = 12;
  static constexpr index rho_now(int k) { return rho0 + k % 2; }
  static constexpr index rho_before(int k) { return rho0 + (k + 1) % 2; }
};

class Backend {
 public:
  Backend();
  virtual ~Backend();
  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;
  virtual std::string name() const = 0;
  // "fp64" or "fp32": what a Field stores (host values are always `real`; an fp32 backend rounds
  // on upload).
  virtual std::string precision() const { return "fp64"; }
  virtual DeviceInfo device_info() const { return {-1, {}, {}, {}, "host"}; }
  // Blocks until every queued operation has finished (GPU backends queue work; benchmarks time
  // with it). A download or a reduction waits implicitly.
  virtual void finish() const {}
  // Submits the queued operations to the device without waiting for them, so that a GPU works on
  // them while the host waits for something else (halo messages). A driver may hold queued work
  // back until a flush or a wait: the host then waits on MPI while the GPU idles.
  virtual void flush() const {}
  // Bytes of device (GPU) memory this backend holds now: fields, device meshes and assembled
  // systems (0 on the cpu, whose memory is the process's).
  virtual std::size_t device_bytes() const { return 0; }
  // The split of an operator into Rows::inner and Rows::interface is rounded down to a multiple
  // of this (GPU drivers start a part on whole texels and work groups).
  virtual index row_alignment() const { return 1; }
  // Starts building every device kernel a run may use, without waiting, so that they compile in
  // the driver's threads while the host reads or generates the mesh (a kernel's first use waits
  // for its build). Nothing on the cpu, nor where the driver builds one kernel at a time.
  virtual void start_kernel_builds() const {}

  // A field of n zeros.
  virtual std::unique_ptr<Field> make_field(index n) const = 0;
  // A new field holding `host` (make_field + upload).
  std::unique_ptr<Field> make_field_from(std::span<const real> host) const {
    std::unique_ptr<Field> f = make_field(static_cast<index>(host.size()));
    upload(host, *f);
    return f;
  }
  virtual void upload(std::span<const real> host, Field& f) const = 0;
  virtual void download(const Field& f, std::span<real> host) const = 0;

  // Halo support: out[k] = x[indices[k]] copied to the host (the send buffer of a halo exchange,
  // packed on the device by a gather), and x[offset + k] = values[k] (one contiguous upload into
  // a ghost range).
  virtual void download_indices(const Field& x, std::span<const index> indices,
                                std::span<real> out) const = 0;
  // download_indices in two halves, so that work queued between them runs while the host waits
  // (the pack of a halo exchange with overlap): begin queues out = x[indices] and returns true
  // when out holds it already; otherwise download_indices_end(out), with the same span, waits
  // for it and fills out. x, indices and out must stay as they are until then. Default: begin
  // is download_indices; gl-compute returns false. A `list_id` other than 0 names `indices` for
  // good: no other list of the process has that id, and this one never changes (a halo plan's
  // lists, halo::HaloPlan); a backend that keeps a device copy of a list then finds it by the id
  // instead of comparing its contents (4 bytes per index, per exchange). 0 promises nothing.
  virtual bool download_indices_begin(const Field& x, std::span<const index> indices,
                                      std::span<real> out, std::uint64_t list_id) const {
    static_cast<void>(list_id);
    download_indices(x, indices, out);
    return true;
  }
  // Returns where the values are: out, or host-visible memory of the backend's that holds them
  // until the next download_indices_begin into out (sent from there, they need no copy).
  virtual std::span<const real> download_indices_end(std::span<real> out) const { return out; }
  virtual void upload_range(std::span<const real> values, Field& x, index offset) const = 0;
  // x[indices[k]] = values[k] (indices ascending and distinct); the other entries keep their
  // values. The receive side of a narrowed halo plan (HaloPlan::narrowed), whose ghosts are not
  // one range. Default: one upload_range per run of consecutive indices; the drivers scatter
  // in one kernel (gl-compute) or one point list (gl-raster), the cpu in one loop. `list_id`
  // as for download_indices_begin.
  virtual void upload_indices(std::span<const real> values, std::span<const index> indices,
                              Field& x, std::uint64_t list_id) const;
  // Host memory to receive n values into (a halo exchange's messages) for the upload_range or
  // upload_indices that takes exactly this span as its values, next and once: a backend that
  // uploads through host-visible staging memory hands that memory out, so the values received
  // need no copy on the host. Empty (the default): the caller receives into its own array.
  virtual std::span<real> receive_buffer(std::size_t n) const {
    static_cast<void>(n);
    return {};
  }
  // A boundary-data field: x[entries[k]] = values[k] (distinct entries, in any order) and 0 in
  // every other entry. gl-raster clears the texture and draws the values as GL_POINTS (a point
  // list per entry list, built once); the others upload the whole field once.
  virtual void upload_entries(std::span<const index> entries, std::span<const real> values,
                              Field& x) const = 0;

  virtual void fill(Field& y, real value) const = 0;
  virtual void copy(const Field& x, Field& y) const = 0;
  // Sum of x_i y_i over the first n entries (n = the owned count; ghosts never count twice). The
  // sum is local to this rank: solvers add the ranks' sums (global_dot).
  virtual real dot(const Field& x, const Field& y, index n) const = 0;
  // Largest |x_i| over the first n entries (this rank's; global_max combines ranks).
  // Used for the CFL number and max |D U| of ns-classical.
  virtual real max_abs(const Field& x, index n) const = 0;
  virtual void axpy(real a, const Field& x, Field& y) const = 0;              // y = y + a x
  virtual void xpay(const Field& x, real a, Field& y) const = 0;              // y = x + a y
  virtual void scale(real a, const Field& x, Field& y) const = 0;             // y = a x
  virtual void multiply(const Field& a, const Field& b, Field& y) const = 0;  // y = a .* b
  virtual void reciprocal(const Field& x, Field& y) const = 0;                // y = 1 ./ x

  // Scalars: n zeros; read_scalars copies all of them to the host (a read-back on a GPU: the
  // host waits for the queued work), write_scalars replaces all of them.
  virtual std::unique_ptr<Scalars> make_scalars(index n) const = 0;
  virtual void read_scalars(const Scalars& s, std::span<real> out) const = 0;
  virtual void write_scalars(std::span<const real> values, Scalars& s) const = 0;
  // s[slot] = this rank's sum of x_i y_i over the first n entries, left on the backend.
  virtual void dot(const Field& x, const Field& y, index n, Scalars& s, index slot) const = 0;
  // s[out] = s[a] op s[b] (SlotOp), on the backend: no read-back.
  virtual void slot_op(Scalars& s, index out, index a, SlotOp op, index b) const = 0;
  // The first failure of "s[a] > 0 and s[b] > 0" recorded: when s[flag] is 0 and the test fails,
  // s[flag] = tag, s[flag + 1] = s[a], s[flag + 2] = s[b]; otherwise nothing changes.
  virtual void slot_check_positive(Scalars& s, index a, index b, index flag, real tag) const = 0;
  // y = y + c x and y = x + c y with c = a.sign * s[a.slot] taken on the backend (nothing while
  // s[a.gate] is not 0), with the bits of the real-coefficient forms above.
  virtual void axpy(const Scalars& s, SlotCoefficient a, const Field& x, Field& y) const = 0;
  virtual void xpay(const Field& x, const Scalars& s, SlotCoefficient a, Field& y) const = 0;
  // Against several fields at once (GMRES's classical Gram-Schmidt, solvers/gmres.hpp):
  //   dots:  s[first + i] = this rank's x_i·y over the first n entries, for every x_i in x;
  //   axpys: y = y + sign * sum_i s[first + i] x_i, over whole fields, the terms added in order.
  // The defaults are dot and the slot form of axpy once per x_i (y's rounding that of the loop).
  virtual void dots(std::span<const Field* const> x, const Field& y, index n, Scalars& s,
                    index first) const;
  virtual void axpys(const Scalars& s, index first, real sign, std::span<const Field* const> x,
                     Field& y) const;

  // The Krylov updates below default to their steps as core operations, alpha, beta and omega
  // formed in the solve's work slots by slot_op and applied by the slot forms of axpy and xpay
  // (no read-back), with the kernels' bits on every owned entry (ghost entries are updated too);
  // the GL backend fuses all five, the cpu backend pcg_update.
  // The fused update of PCG iteration k, its scalars in s (PcgSlots): with pq = s[pq] and
  // rz = s[rz_before(k)], if s[breakdown] = 0, pq > 0 and rz > 0:
  //   x += alpha p, r -= alpha q, z = dinv .* r (alpha = rz / pq, first n entries),
  //   s[rz_after(k)], s[rr] = this rank's r·z, r·r of the updated r and z;
  // otherwise x, r, z stay, s[rz_after(k)] = rz, and a first breakdown is recorded
  // (s[breakdown] = k + 1, s[breakdown_pq] = pq, s[breakdown_rz] = rz).
  virtual void pcg_update(int k, Scalars& s, const Field& p, const Field& q, const Field& dinv,
                          Field& x, Field& r, Field& z, index n) const;
  // The search direction after iteration k: p = z + beta p, beta = s[rz_after(k)] /
  // s[rz_before(k)] (0 when the divisor is not > 0).
  virtual void pcg_direction(int k, Scalars& s, const Field& z, Field& p) const;
  // The update of a PCG iteration on several ranks (solvers/pcg.cpp, solve_ranks: alpha and
  // beta come from the host, which summed the ranks' dots), over the first n entries:
  //   p = z + beta p, q = w + beta q (first: p = z, q = w), x += alpha p, r -= alpha q;
  //   then with dinv: z = dinv .* r and s[slot_rz] = this rank's r·z; and s[slot_rr] = its r·r.
  // Entries past n are unspecified (the default, one call per line, updates them too). On
  // gl-compute three dispatches where the default takes seven (dependent dispatches cost more
  // than this work at a rank's share of a large mesh: docs/scaling.md).
  virtual void pcg_ranks_update(real alpha, real beta, bool first, const Field& w,
                                const Field* dinv, Field& z, Field& p, Field& q, Field& x, Field& r,
                                index n, Scalars& s, index slot_rz, index slot_rr) const;

  // Sparse matrices (SparseMatrix: CSR on the host, any shape). The products write the first
  // A.rows() entries of y and read the first A.cols() entries of x (fields may be longer: the
  // ghosts of a rank-local block are left alone); y must not be x. The residual and the Jacobi
  // sweep, which follow a halo exchange in a V-cycle, and the plain product take `rows` (for a
  // rank-local block whose columns [0, rows()) are the owned entries, inner rows are the leading
  // rows without a ghost column).
  virtual std::unique_ptr<Matrix> make_matrix(const SparseMatrix& a) const = 0;
  // y = A x (on `rows`: the Navier-Stokes stars of 3D follow a halo exchange too).
  virtual void matrix_apply(const Matrix& a, const Field& x, Field& y,
                            Rows rows = Rows::all) const = 0;
  // y = b - A x (a residual).
  virtual void matrix_residual(const Matrix& a, const Field& b, const Field& x, Field& y,
                               Rows rows = Rows::all) const = 0;
  // y = z + A x (a coarse-grid correction); y must not be z either.
  virtual void matrix_apply_add(const Matrix& a, const Field& x, const Field& z, Field& y,
                                Rows rows = Rows::all) const = 0;
  // y = x + w .* (b - A x) (a weighted Jacobi sweep, w = omega / diag(A)).
  virtual void matrix_jacobi(const Matrix& a, const Field& w, const Field& b, const Field& x,
                             Field& y, Rows rows = Rows::all) const = 0;

  // The vector updates of BiCGStab iteration k (solvers/bicgstab.cpp), their scalars from s
  // (BicgstabSlots), over whole fields:
  //   direction: p = r + beta (p - omega_{k-1} v), beta = (rho_k / rho_{k-1}) (alpha_{k-1} /
  //              omega_{k-1}) (called before r0·v, t·s, t·t of iteration k are computed);
  //   half:      y = r - alpha_k v;
  //   update:    x = (x + alpha_k p_hat) + omega_k s_hat, r = y - omega_k t (y: half's output).
  virtual void bicgstab_direction(int k, Scalars& s, const Field& r, const Field& v,
                                  Field& p) const;
  virtual void bicgstab_half(int k, Scalars& s, const Field& r, const Field& v, Field& y) const;
  virtual void bicgstab_update(int k, Scalars& s, const Field& p_hat, const Field& s_hat,
                               const Field& y, const Field& t, Field& x, Field& r) const;

  // Discrete-calculus operators of docs/architecture.md §2, defined exactly in
  // backend/cpu/operators.hpp. Those that follow a halo exchange take `rows` (see Rows). Vector
  // fields at cells hold 3 reals per cell (x, y, z interleaved; z = 0 in 2D). G: cell -> face;
  // q_boundary holds one value per owned boundary face (face n_interior_faces+k).
  // G, D, C, R, interpolation and integration default to products with the mesh's operator
  // matrices (backend/operator_matrices.hpp), made by this backend on first use for each mesh: a
  // new backend gets them from its sparse products, and overrides one where a kernel of its own
  // is faster (the cpu and GL backends override all of them).
  virtual void gradient(const topology::Mesh& m, const Field& q_cell, const Field& q_boundary,
                        Field& g_face, Rows rows = Rows::all) const;
  virtual void divergence(const topology::Mesh& m, const Field& u_face, Field& d_cell,
                          Rows rows = Rows::all) const;
  // s_c = sum over the faces of c of |U_f| (owned cells): the Courant number's flux. Default: on
  // the host from U read back (once a step; the sum in the cpu kernel's order, so its bits).
  virtual void flux_sum_abs(const topology::Mesh& m, const Field& u_face, Field& s_cell) const;
  virtual void curl(const topology::Mesh& m, const Field& s, Field& u_face,
                    Rows rows = Rows::all) const;
  virtual void rotation(const topology::Mesh& m, const Field& u_face, Field& r,
                        Rows rows = Rows::all) const;
  virtual void interpolate(const topology::Mesh& m, const Field& u_face, Field& u_cell,
                           Rows rows = Rows::all) const;  // u_cell: 3 per cell
  virtual void integrate(const topology::Mesh& m, const Field& v_cell, Field& u_face,
                         Rows rows = Rows::all) const;  // v_cell: 3 per cell
  // Convective acceleration at cells, 3 per cell (backend/cpu/convection.cpp):
  // n_c = (1/V_c) sum_f s(c,f) U_f (u_f - u_c), u_f = (1-upwind) central + upwind upwind-cell
  // velocity; boundary faces take u_boundary (3 per owned boundary face) on inflow, u_c on
  // outflow. u_cell needs its ghosts; owned cells are written.
  virtual void convection(const topology::Mesh& m, const Field& u_face, const Field& u_cell,
                          const Field& u_boundary, real upwind, Field& n_cell,
                          Rows rows = Rows::all) const = 0;

  // Operators write owned outputs only (the first n_owned_X entries); ghosts keep their values
  // until a halo exchange fills them. The node systems default to the assembled matrix
  // (backend::node_system_matrix), assembled on the host from the fields read back: a new backend
  // gets them from its sparse products; the cpu and GL backends keep their kernels.
  // Node system operator (node-based diffusion with Dirichlet rows eliminated symmetrically):
  //   y_i = d_i x_i + b * sum over edges e=(i,j) of w_e (x_i - free_j x_j)   if free_i = 1
  //   y_i = x_i                                                              if free_i = 0
  // with free = 1 - fixed (fixed_i = 1 on Dirichlet nodes). b = 0 gives a diagonal operator.
  virtual void node_system(const topology::Mesh& m, const Field& d, real b, const Field& w,
                           const Field& fixed, const Field& x, Field& y) const;
  // node_system with its coefficients assembled once: the same operator, for PCG loops that apply
  // it many times (a backend stores what is cheapest to apply; see NodeSystem).
  virtual std::unique_ptr<NodeSystem> make_node_system(const topology::Mesh& m, const Field& d,
                                                       real b, const Field& w,
                                                       const Field& fixed) const;
  // Diagonal of node_system: d_i + b sum_e w_e on free nodes, 1 on fixed nodes.
  virtual void node_system_diagonal(const topology::Mesh& m, const Field& d, real b, const Field& w,
                                    const Field& fixed, Field& diag) const;
  // Plain node Laplacian y = K x (sum over edges of w_e (x_i - x_j)), no elimination.
  virtual void node_laplacian(const topology::Mesh& m, const Field& w, const Field& x,
                              Field& y) const;

 protected:
  // The default pcg_ranks_update in two halves, for a backend that fuses the second: p and q,
  // then x, r (and with dinv z, r·z) and r·r.
  void pcg_ranks_directions(real beta, bool first, const Field& z, const Field& w, Field& p,
                            Field& q) const;
  void pcg_ranks_finish(real alpha, const Field& p, const Field& q, const Field* dinv, Field& x,
                        Field& r, Field& z, index n, Scalars& s, index slot_rz,
                        index slot_rr) const;

 private:
  struct MeshOperators;  // a mesh's operator matrices, made by this backend
  const MeshOperators& mesh_operators(const topology::Mesh& m) const;
  mutable std::vector<std::unique_ptr<MeshOperators>> mesh_operators_;
};

// What a run asks of its backend besides the name.
struct BackendOptions {
  std::string precision = "fp64";          // "fp64" | "fp32" (GPU backends only)
  int device = -1;                         // EGL device index; -1: node-local rank mod device count
  std::string device_origin = "--device";  // where `device` was given, for messages
  bool debug = false;                      // GL debug output and a check after every dispatch
  std::string storage = "buffer";          // GPU fields: "buffer" | "texture" (docs/gpu.md §8)
};

// Makes the backend a case asks for ("cpu" or "gl-compute"). InputError for a name this build does
// not have, or options the backend cannot honour (fp32 on cpu, no fp64 on the device, ...).
std::unique_ptr<Backend> make_backend(const std::string& name, const BackendOptions& options = {});

}  // namespace scfd::backend
