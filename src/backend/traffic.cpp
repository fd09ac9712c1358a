// The traffic model (see traffic.hpp; `streamcfd bench` divides it by the measured time): every
// array entry a kernel reads or writes is counted once, connectivity included, with
// R = sizeof(real) (4 fp32, 8 fp64) and 4-byte indices. Gathered inputs count their whole local
// array (owned and ghost entries), read once; re-reads through the cache are not counted, so
// the reported bandwidth is the one a perfect cache would need. Counts: Nc/Nf/Ne/Nn local
// cells/faces/edges/nodes, with o for owned rows, Nfi owned interior faces, Nk curl entities
// (edges 3D, nodes 2D), W = dim+1, cw = curl width, nnz = entries of the owned SELL rows,
// sell(n) = 4 ceil(n/32) + 4 ceil(n/2) bytes of slice starts and 16-bit row lengths.
// Vector operations over fields of n reals: copy, scale and dot 2 n R, axpy, xpay and
// pcg_direction 3 n R, pcg_update 8 n R (p, q, dinv, x, r read; x, r, z written). Operators:
//   gradient           8 Nfo + R (Nc + (Nfo - Nfi) + Nfo)
//   divergence         4 W Nco + R (Nf + Nco)     (flux_sum_abs the same)
//   curl               4 cw Nfo + R (Nk + Nfo)
//   rotation           sell(Nko) + 4 nnz + R (Nf + Nko)
//   interpolate        4 W Nco + R (W dim Nco + Nf + 3 Nco)
//   integrate          8 Nfo + R (dim (Nfo + Nfi) + dim Nc + Nfo)
//   convection         8 W Nco + R (Nco + Nf + 3 Nc + 3 (Nfo - Nfi) + 3 Nco)
//                      (faces, neighbours; 1/V, U, u_cell, u_boundary; n_cell)
//   node_laplacian     sell(Nno) + 8 nnz + R (Ne + Nn + Nno)
//   node_system        sell(Nno) + 8 nnz + R (Ne + 2 Nn + Nno + Nno)     (x, fixed; d; y)
//   node_system_diag.  sell(Nno) + 4 nnz + R (Ne + 3 Nno)                (d, fixed, diag)
//   node_system_apply  sell(Nno) + (4 + R) nnz + R (Nn + Nno + Nno)     (x; diag; y)
// node_system counts every row as free (fixed rows read no list): an upper bound that is tight
// when the Dirichlet nodes are a boundary layer. node_system_apply reads per entry only the
// neighbour and its coefficient (the assembly of node_system_assemble is not timed per iteration).
#include "backend/traffic.hpp"

#include "core/error.hpp"

namespace scfd::backend {
namespace {

double sell_bytes(index rows) {
  return 4.0 * ((rows + kTrafficSellChunk - 1) / kTrafficSellChunk) + 4.0 * ((rows + 1) / 2);
}

// Entries of CSR rows [0, rows).
double entries(const topology::Csr& c, index rows) {
  return c.offset.empty() ? 0.0 : static_cast<double>(c.offset[rows] - c.offset[0]);
}

}  // namespace

double traffic_bytes(std::string_view op, const topology::Mesh& m, index n, int real_bytes) {
  const double R = real_bytes, N = n;
  if (op == "copy" || op == "scale" || op == "dot") return 2 * N * R;
  if (op == "axpy" || op == "xpay" || op == "pcg_direction") return 3 * N * R;
  if (op == "pcg_update") return 8 * N * R;
  const double dim = m.dim, W = m.cell_width(), cw = m.curl_width();
  const double Nc = m.n_cells, Nf = m.n_faces, Ne = m.n_edges, Nn = m.n_nodes, Nk = m.n_curl();
  const double Nco = m.n_owned_cells, Nfo = m.n_owned_faces, Nfi = m.n_interior_faces,
               Nno = m.n_owned_nodes, Nko = m.n_owned_curl();
  if (op == "gradient") return 8 * Nfo + R * (Nc + (Nfo - Nfi) + Nfo);
  if (op == "divergence" || op == "flux_sum_abs") return 4 * W * Nco + R * (Nf + Nco);
  if (op == "curl") return 4 * cw * Nfo + R * (Nk + Nfo);
  if (op == "rotation")
    return sell_bytes(m.n_owned_curl()) + 4 * entries(m.curl_faces, m.n_owned_curl()) +
           R * (Nf + Nko);
  if (op == "interpolate") return 4 * W * Nco + R * (W * dim * Nco + Nf + 3 * Nco);
  if (op == "integrate") return 8 * Nfo + R * (dim * (Nfo + Nfi) + dim * Nc + Nfo);
  if (op == "convection") return 8 * W * Nco + R * (Nco + Nf + 3 * Nc + 3 * (Nfo - Nfi) + 3 * Nco);
  const double lists = sell_bytes(m.n_owned_nodes);
  const double nnz = entries(m.node_edges, m.n_owned_nodes);
  if (op == "node_laplacian") return lists + 8 * nnz + R * (Ne + Nn + Nno);
  if (op == "node_system") return lists + 8 * nnz + R * (Ne + 2 * Nn + 2 * Nno);
  if (op == "node_system_diagonal") return lists + 4 * nnz + R * (Ne + 3 * Nno);
  if (op == "node_system_apply") return lists + (4 + R) * nnz + R * (Nn + 2 * Nno);
  SCFD_CHECK(false, "traffic_bytes: unknown operation '{}'", op);
  return 0;
}

}  // namespace scfd::backend
