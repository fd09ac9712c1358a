// The gl-compute operators (see operators.hpp): each call checks its fields, binds them and the
// DeviceMesh lists in the order of the kernel's `// scfd:` lines (gl/driver.hpp) and runs the
// body over the owned output entities (gl/driver.hpp: one invocation per output entity).
#include "backend/opengl/operators.hpp"

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>

#include "core/error.hpp"

namespace scfd::backend::opengl {

using scfd::gl::Body;
using scfd::gl::Precision;
using scfd::gl::Program;
using topology::Mesh;

namespace {

// The SELL slice height of the device mesh's lists (a uint define).
scfd::gl::Defines sell_defines() {
  return {{"SELL_C", std::to_string(kSellChunk) + "u"}};
}

std::size_t real_size(Precision p) {
  return p == Precision::fp64 ? sizeof(double) : sizeof(float);
}

// Checks that `b` holds exactly n reals of precision p; `what` names operator and argument.
void check_size(const Buffer& b, std::size_t n, Precision p, const char* what) {
  SCFD_CHECK(b.size() == n * real_size(p), "{}: buffer of {} bytes, {} values of {} bytes expected",
             what, b.size(), n, real_size(p));
}
void check_size(const FieldStorage& t, std::size_t n, Precision p, const char* what) {
  SCFD_CHECK(t.size() == n && t.precision() == p, "{}: field of {} {} values, {} {} expected", what,
             t.size(), scfd::gl::to_string(t.precision()), n, scfd::gl::to_string(p));
}

// The output must not be one of the inputs (the kernels are gathers that read while writing).
void check_distinct(const FieldStorage& out, std::initializer_list<const FieldStorage*> in,
                    const char* what) {
  for (const FieldStorage* t : in) SCFD_CHECK(t != &out, "{}: output aliases an input", what);
}

// Binds the storage buffers (kernels that read SELL rows take the rows' slice starts and lengths
// first, sell.glsl) and the fields in the order of the kernel's `// scfd:` lines and runs the body
// over n output entities into `out`.
// Runs a body over outputs `rows` of n (Backend::Rows: a part of a halo overlap, or all).
void launch(Body& prog, std::initializer_list<const Buffer*> buffers,
            std::initializer_list<const FieldStorage*> fields, FieldStorage& out, index n,
            RowRange rows = {}) {
  prog.bind(buffers, fields, {&out});
  prog.run(static_cast<std::size_t>(n), static_cast<std::size_t>(rows.begin),
           static_cast<std::size_t>(rows.stop(n)));
}

}  // namespace

// One program per kernel; the kernels whose lists have a width fixed by the dimension are built
// for 2D and 3D ([0] and [1]) so their loops unroll.
struct Operators::Programs {
  Precision precision;
  scfd::gl::Storage storage;
  // Bodies, compiled for the driver; the node system's assembly (a kernel with its own main,
  // compute driver only) on its first use.
  std::unique_ptr<Body> gradient, rotation, node_laplacian, node_system, node_system_diagonal,
      node_system_apply;
  std::unique_ptr<Body> sparse[4];  // Operators::Sparse
  std::unique_ptr<Body> divergence[2], flux_sum_abs[2], curl[2], interpolate[2], integrate[2],
      convection[2];
  Program node_system_assemble;

  Programs(Precision p, scfd::gl::Storage s, scfd::gl::BodyCompiler compile_body)
      : precision(p), storage(s) {
    const auto compile = [&](const char* kernel, const scfd::gl::Defines& defines) {
      return compile_body(kernel, p, defines, s);
    };
    const scfd::gl::Defines sell = sell_defines();
    gradient = compile("gradient", {});
    rotation = compile("rotation", sell);
    node_laplacian = compile("node_laplacian", sell);
    node_system = compile("node_system", sell);
    node_system_diagonal = compile("node_system_diagonal", sell);
    node_system_apply = compile("node_system_apply", sell);
    sparse[0] = compile("sparse_apply", sell);
    sparse[1] = compile("sparse_residual", sell);
    sparse[2] = compile("sparse_apply_add", sell);
    sparse[3] = compile("sparse_jacobi", sell);
    for (int d = 2; d <= 3; ++d) {
      const scfd::gl::Defines dim = {{"DIM", std::to_string(d)}};
      divergence[d - 2] = compile("divergence", dim);
      flux_sum_abs[d - 2] = compile("flux_sum_abs", dim);
      curl[d - 2] = compile("curl", dim);
      interpolate[d - 2] = compile("interpolate", dim);
      integrate[d - 2] = compile("integrate", dim);
      convection[d - 2] = compile("convection", dim);
    }
  }

  // The buffers of m and this program set must share the precision.
  const DeviceMesh::Buffers& mesh(const DeviceMesh& m) const {
    SCFD_CHECK(m.buffers().precision == precision, "device mesh in {} used by {} operators",
               scfd::gl::to_string(m.buffers().precision), scfd::gl::to_string(precision));
    return m.buffers();
  }
};

Operators::Operators(Precision p, scfd::gl::Storage storage, scfd::gl::BodyCompiler compile)
    : programs_(std::make_unique<Programs>(p, storage, compile)) {}
Operators::~Operators() = default;
Operators::Operators(Operators&&) noexcept = default;
Operators& Operators::operator=(Operators&&) noexcept = default;

void Operators::gradient(const DeviceMesh& dm, const FieldStorage& q_cell,
                         const FieldStorage& q_boundary, FieldStorage& g_face, RowRange rows) {
  const Programs& P = *programs_;
  const DeviceMesh::Buffers& b = P.mesh(dm);
  const Mesh& m = dm.mesh();
  check_size(q_cell, m.n_cells, P.precision, "gradient: q_cell");
  check_size(q_boundary, m.n_boundary_faces(), P.precision, "gradient: q_boundary");
  check_size(g_face, m.n_faces, P.precision, "gradient: g_face");
  check_distinct(g_face, {&q_cell, &q_boundary}, "gradient");
  Body& prog = *programs_->gradient;
  prog.set("n_interior", static_cast<std::uint32_t>(m.n_interior_faces));
  launch(prog, {&b.face_cells}, {&q_cell, &q_boundary}, g_face, m.n_owned_faces, rows);
}

void Operators::divergence(const DeviceMesh& dm, const FieldStorage& u_face, FieldStorage& d_cell,
                           RowRange rows) {
  const Programs& P = *programs_;
  const DeviceMesh::Buffers& b = P.mesh(dm);
  const Mesh& m = dm.mesh();
  check_size(u_face, m.n_faces, P.precision, "divergence: u_face");
  check_size(d_cell, m.n_cells, P.precision, "divergence: d_cell");
  check_distinct(d_cell, {&u_face}, "divergence");
  Body& prog = *programs_->divergence[m.dim - 2];
  launch(prog, {&b.cell_faces}, {&u_face}, d_cell, m.n_owned_cells, rows);
}

void Operators::flux_sum_abs(const DeviceMesh& dm, const FieldStorage& u_face,
                             FieldStorage& s_cell) {
  const Programs& P = *programs_;
  const DeviceMesh::Buffers& b = P.mesh(dm);
  const Mesh& m = dm.mesh();
  check_size(u_face, m.n_faces, P.precision, "flux_sum_abs: u_face");
  check_size(s_cell, m.n_cells, P.precision, "flux_sum_abs: s_cell");
  check_distinct(s_cell, {&u_face}, "flux_sum_abs");
  launch(*programs_->flux_sum_abs[m.dim - 2], {&b.cell_faces}, {&u_face}, s_cell, m.n_owned_cells);
}

void Operators::curl(const DeviceMesh& dm, const FieldStorage& s, FieldStorage& u_face,
                     RowRange rows) {
  const Programs& P = *programs_;
  const DeviceMesh::Buffers& b = P.mesh(dm);
  const Mesh& m = dm.mesh();
  check_size(s, m.n_curl(), P.precision, "curl: s");
  check_size(u_face, m.n_faces, P.precision, "curl: u_face");
  check_distinct(u_face, {&s}, "curl");
  Body& prog = *programs_->curl[m.dim - 2];
  launch(prog, {&b.face_curl}, {&s}, u_face, m.n_owned_faces, rows);
}

void Operators::rotation(const DeviceMesh& dm, const FieldStorage& u_face, FieldStorage& r,
                         RowRange rows) {
  const Programs& P = *programs_;
  const DeviceMesh::Buffers& b = P.mesh(dm);
  const Mesh& m = dm.mesh();
  check_size(u_face, m.n_faces, P.precision, "rotation: u_face");
  check_size(r, m.n_curl(), P.precision, "rotation: r");
  check_distinct(r, {&u_face}, "rotation");
  Body& prog = *programs_->rotation;
  launch(prog, {&b.curl_faces.slice, &b.curl_faces.length, &b.curl_faces.item}, {&u_face}, r,
         m.n_owned_curl(), rows);
}

void Operators::interpolate(const DeviceMesh& dm, const FieldStorage& u_face, FieldStorage& u_cell,
                            RowRange rows) {
  const Programs& P = *programs_;
  const DeviceMesh::Buffers& b = P.mesh(dm);
  const Mesh& m = dm.mesh();
  check_size(u_face, m.n_faces, P.precision, "interpolate: u_face");
  check_size(u_cell, 3 * static_cast<std::size_t>(m.n_cells), P.precision, "interpolate: u_cell");
  check_distinct(u_cell, {&u_face}, "interpolate");
  Body& prog = *programs_->interpolate[m.dim - 2];
  launch(prog, {&b.cell_faces, &b.cell_interp}, {&u_face}, u_cell, m.n_owned_cells, rows);
}

void Operators::integrate(const DeviceMesh& dm, const FieldStorage& v_cell, FieldStorage& u_face,
                          RowRange rows) {
  const Programs& P = *programs_;
  const DeviceMesh::Buffers& b = P.mesh(dm);
  const Mesh& m = dm.mesh();
  check_size(v_cell, 3 * static_cast<std::size_t>(m.n_cells), P.precision, "integrate: v_cell");
  check_size(u_face, m.n_faces, P.precision, "integrate: u_face");
  check_distinct(u_face, {&v_cell}, "integrate");
  Body& prog = *programs_->integrate[m.dim - 2];
  launch(prog, {&b.face_cells, &b.face_integ}, {&v_cell}, u_face, m.n_owned_faces, rows);
}

void Operators::convection(const DeviceMesh& dm, const FieldStorage& u_face,
                           const FieldStorage& u_cell, const FieldStorage& u_boundary,
                           double upwind, FieldStorage& n_cell, RowRange rows) {
  const Programs& P = *programs_;
  const DeviceMesh::Buffers& b = P.mesh(dm);
  const Mesh& m = dm.mesh();
  check_size(u_face, m.n_faces, P.precision, "convection: u_face");
  check_size(u_cell, 3 * static_cast<std::size_t>(m.n_cells), P.precision, "convection: u_cell");
  check_size(u_boundary, 3 * static_cast<std::size_t>(m.n_boundary_faces()), P.precision,
             "convection: u_boundary");
  check_size(n_cell, 3 * static_cast<std::size_t>(m.n_cells), P.precision, "convection: n_cell");
  check_distinct(n_cell, {&u_face, &u_cell, &u_boundary}, "convection");
  Body& prog = *programs_->convection[m.dim - 2];
  prog.set_real("upwind", upwind);
  launch(prog, {&b.cell_faces, &b.cell_neighbours, &b.cell_inv_volume},
         {&u_face, &u_cell, &u_boundary}, n_cell, m.n_owned_cells, rows);
}

void Operators::node_laplacian(const DeviceMesh& dm, const FieldStorage& w, const FieldStorage& x,
                               FieldStorage& y) {
  const Programs& P = *programs_;
  const DeviceMesh::Buffers& b = P.mesh(dm);
  const Mesh& m = dm.mesh();
  check_size(w, m.n_edges, P.precision, "node_laplacian: w");
  check_size(x, m.n_nodes, P.precision, "node_laplacian: x");
  check_size(y, m.n_nodes, P.precision, "node_laplacian: y");
  check_distinct(y, {&w, &x}, "node_laplacian");
  Body& prog = *programs_->node_laplacian;
  launch(prog, {&b.node_edges.slice, &b.node_edges.length, &b.node_edges.item, &b.node_edges.item2},
         {&w, &x}, y, m.n_owned_nodes);
}

void Operators::node_system(const DeviceMesh& dm, const FieldStorage& d, double b_scale,
                            const FieldStorage& w, const FieldStorage& fixed, const FieldStorage& x,
                            FieldStorage& y, RowRange rows) {
  const Programs& P = *programs_;
  const DeviceMesh::Buffers& b = P.mesh(dm);
  const Mesh& m = dm.mesh();
  check_size(d, m.n_nodes, P.precision, "node_system: d");
  check_size(w, m.n_edges, P.precision, "node_system: w");
  check_size(fixed, m.n_nodes, P.precision, "node_system: fixed");
  check_size(x, m.n_nodes, P.precision, "node_system: x");
  check_size(y, m.n_nodes, P.precision, "node_system: y");
  check_distinct(y, {&d, &w, &fixed, &x}, "node_system");
  Body& prog = *programs_->node_system;
  prog.set_real("b", b_scale);
  launch(prog, {&b.node_edges.slice, &b.node_edges.length, &b.node_edges.item, &b.node_edges.item2},
         {&d, &w, &fixed, &x}, y, m.n_owned_nodes, rows);
}

void Operators::node_system_diagonal(const DeviceMesh& dm, const FieldStorage& d, double b_scale,
                                     const FieldStorage& w, const FieldStorage& fixed,
                                     FieldStorage& diag) {
  const Programs& P = *programs_;
  const DeviceMesh::Buffers& b = P.mesh(dm);
  const Mesh& m = dm.mesh();
  check_size(d, m.n_nodes, P.precision, "node_system_diagonal: d");
  check_size(w, m.n_edges, P.precision, "node_system_diagonal: w");
  check_size(fixed, m.n_nodes, P.precision, "node_system_diagonal: fixed");
  check_size(diag, m.n_nodes, P.precision, "node_system_diagonal: diag");
  check_distinct(diag, {&d, &w, &fixed}, "node_system_diagonal");
  Body& prog = *programs_->node_system_diagonal;
  prog.set_real("b", b_scale);
  launch(prog, {&b.node_edges.slice, &b.node_edges.length, &b.node_edges.item}, {&d, &w, &fixed},
         diag, m.n_owned_nodes);
}

std::size_t Operators::node_system_entries(const DeviceMesh& m) {
  return m.buffers().node_edges.item2.size() / sizeof(std::int32_t);
}

void Operators::node_system_assemble(const DeviceMesh& dm, const FieldStorage& d, double b_scale,
                                     const FieldStorage& w, const FieldStorage& fixed, Buffer& coef,
                                     Buffer& diag) {
  const Programs& P = *programs_;
  const DeviceMesh::Buffers& b = P.mesh(dm);
  const Mesh& m = dm.mesh();
  check_size(d, m.n_nodes, P.precision, "node_system_assemble: d");
  check_size(w, m.n_edges, P.precision, "node_system_assemble: w");
  check_size(fixed, m.n_nodes, P.precision, "node_system_assemble: fixed");
  check_size(coef, node_system_entries(dm), P.precision, "node_system_assemble: coef");
  check_size(diag, m.n_owned_nodes, P.precision, "node_system_assemble: diag");
  SCFD_CHECK(coef.id() != diag.id(), "node_system_assemble: coef and diag are one buffer");
  Program& prog = programs_->node_system_assemble;
  if (prog.id() == 0)
    prog = scfd::gl::start_compute("node_system_assemble", P.precision, sell_defines(), P.storage);
  prog.set_real("b", b_scale);
  prog.set("n", static_cast<std::uint32_t>(m.n_owned_nodes));
  prog.bind({&b.node_edges.slice, &b.node_edges.length, &b.node_edges.item, &b.node_edges.item2,
             &coef, &diag},
            {&d, &w, &fixed}, {});
  prog.dispatch(static_cast<std::size_t>(m.n_owned_nodes));
}

void Operators::node_system_apply(const DeviceMesh& dm, const Buffer& coef, const Buffer& diag,
                                  const FieldStorage& x, FieldStorage& y, RowRange rows) {
  const Programs& P = *programs_;
  const DeviceMesh::Buffers& b = P.mesh(dm);
  const Mesh& m = dm.mesh();
  check_size(coef, node_system_entries(dm), P.precision, "node_system_apply: coef");
  check_size(diag, m.n_owned_nodes, P.precision, "node_system_apply: diag");
  check_size(x, m.n_nodes, P.precision, "node_system_apply: x");
  check_size(y, m.n_nodes, P.precision, "node_system_apply: y");
  check_distinct(y, {&x}, "node_system_apply");
  Body& prog = *programs_->node_system_apply;
  launch(prog, {&b.node_edges.slice, &b.node_edges.length, &b.node_edges.item2, &coef, &diag}, {&x},
         y, m.n_owned_nodes, rows);
}

void Operators::sparse(Sparse kind, const SellMatrix& a, const FieldStorage& x,
                       const FieldStorage* b, const FieldStorage* z, const FieldStorage* w,
                       FieldStorage& y, const FieldStorage* x0, RowRange rows) {
  const Precision p = programs_->precision;
  SCFD_CHECK(a.value.size() == a.layout.item.size() / sizeof(std::int32_t) * real_size(p),
             "sparse: matrix values of another precision than the {} operators",
             scfd::gl::to_string(p));
  // Fields may be longer than the matrix (a rank's block leaves the ghosts alone).
  const auto at_least = [&](const FieldStorage& f, index n, const char* what) {
    SCFD_CHECK(f.size() >= static_cast<std::size_t>(n) && f.precision() == p,
               "sparse: {} of {} {} values, >= {} {} expected", what, f.size(),
               scfd::gl::to_string(f.precision()), n, scfd::gl::to_string(p));
  };
  at_least(x, a.cols, "x");
  at_least(y, a.rows, "y");
  // The fields in the order of the kernel's `// scfd: in` line.
  const auto need = [&](const FieldStorage* f, const char* what) -> const FieldStorage* {
    SCFD_CHECK(f != nullptr, "sparse: no {} given", what);
    at_least(*f, a.rows, what);
    SCFD_CHECK(f != &y, "sparse: output aliases {}", what);
    return f;
  };
  SCFD_CHECK(&x != &y, "sparse: output aliases x");
  if (a.rows == 0) return;
  Body& prog = *programs_->sparse[static_cast<int>(kind)];
  const std::initializer_list<const Buffer*> buffers = {&a.layout.slice, &a.layout.length,
                                                        &a.layout.item, &a.value};
  switch (kind) {
    case Sparse::apply:
      prog.bind(buffers, {&x}, {&y});
      break;
    case Sparse::residual:
      prog.bind(buffers, {&x, need(b, "b")}, {&y});
      break;
    case Sparse::apply_add:
      prog.bind(buffers, {&x, need(z, "z")}, {&y});
      break;
    case Sparse::jacobi:  // the kernel's fields: x0 w b x (x gathered, x0 corrected)
      prog.bind(buffers, {x0 != nullptr ? need(x0, "x0") : &x, need(w, "w"), need(b, "b"), &x},
                {&y});
      break;
  }
  prog.run(static_cast<std::size_t>(a.rows), static_cast<std::size_t>(rows.begin),
           static_cast<std::size_t>(rows.stop(a.rows)));
}

}  // namespace scfd::backend::opengl
