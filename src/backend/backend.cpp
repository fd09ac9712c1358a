// The default operator methods of Backend (backend.hpp): products with the mesh's operator
// matrices (operator_matrices.hpp), stored by this backend the first time a mesh is used.
#include "backend/backend.hpp"

#include "backend/operator_matrices.hpp"

namespace scfd::backend {

struct Backend::MeshOperators {
  const topology::Mesh* mesh = nullptr;
  index cells = 0, faces = 0, curl = 0;  // the mesh's sizes when these were made
  std::unique_ptr<Matrix> gradient, gradient_boundary, divergence, curl_matrix, rotation,
      interpolate, integrate;
  std::unique_ptr<Field> scratch;  // n_faces: the gradient's boundary part

  bool matches(const topology::Mesh& m) const {
    return mesh == &m && cells == m.n_cells && faces == m.n_faces && curl == m.n_curl();
  }
};

Backend::Backend() = default;
Backend::~Backend() = default;

const Backend::MeshOperators& Backend::mesh_operators(const topology::Mesh& m) const {
  for (const auto& o : mesh_operators_)
    if (o->matches(m)) return *o;
  // A mesh rebuilt in place (same object, other sizes) drops what was made for the old one.
  std::erase_if(mesh_operators_, [&m](const auto& o) { return o->mesh == &m; });
  const OperatorMatrices a = operator_matrices(m);
  auto o = std::make_unique<MeshOperators>();
  o->mesh = &m;
  o->cells = m.n_cells;
  o->faces = m.n_faces;
  o->curl = m.n_curl();
  o->gradient = make_matrix(a.gradient);
  o->gradient_boundary = make_matrix(a.gradient_boundary);
  o->divergence = make_matrix(a.divergence);
  o->curl_matrix = make_matrix(a.curl);
  o->rotation = make_matrix(a.rotation);
  o->interpolate = make_matrix(a.interpolate);
  o->integrate = make_matrix(a.integrate);
  o->scratch = make_field(m.n_faces);
  mesh_operators_.push_back(std::move(o));
  return *mesh_operators_.back();
}

void Backend::gradient(const topology::Mesh& m, const Field& q_cell, const Field& q_boundary,
                       Field& g_face, Rows rows) const {
  const MeshOperators& o = mesh_operators(m);
  matrix_apply(*o.gradient_boundary, q_boundary, *o.scratch, rows);
  matrix_apply_add(*o.gradient, q_cell, *o.scratch, g_face, rows);
}

void Backend::divergence(const topology::Mesh& m, const Field& u_face, Field& d_cell,
                         Rows rows) const {
  matrix_apply(*mesh_operators(m).divergence, u_face, d_cell, rows);
}

void Backend::curl(const topology::Mesh& m, const Field& s, Field& u_face, Rows rows) const {
  matrix_apply(*mesh_operators(m).curl_matrix, s, u_face, rows);
}

void Backend::rotation(const topology::Mesh& m, const Field& u_face, Field& r, Rows rows) const {
  matrix_apply(*mesh_operators(m).rotation, u_face, r, rows);
}

void Backend::interpolate(const topology::Mesh& m, const Field& u_face, Field& u_cell,
                          Rows rows) const {
  matrix_apply(*mesh_operators(m).interpolate, u_face, u_cell, rows);
}

void Backend::integrate(const topology::Mesh& m, const Field& v_cell, Field& u_face,
                        Rows rows) const {
  matrix_apply(*mesh_operators(m).integrate, v_cell, u_face, rows);
}

}  // namespace scfd::backend
