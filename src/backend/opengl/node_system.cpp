// The GL backend's node systems (see node_system.hpp).
#include "backend/opengl/node_system.hpp"

#include "backend/opengl/gl_backend.hpp"
#include "backend/opengl/operators.hpp"

namespace scfd::backend::opengl {

AssembledNodeSystem::AssembledNodeSystem(const GlBackend& be, const topology::Mesh& m,
                                         const Field& d, real b, const Field& w, const Field& fixed)
    : be_(be), m_(m) {
  coef_ = Buffer(Operators::node_system_entries(be.device_mesh(m)) * real_bytes(be.gl_precision()));
  diag_ = Buffer(static_cast<std::size_t>(m.n_owned_nodes) * real_bytes(be.gl_precision()));
  be.ops().node_system_assemble(be.device_mesh(m), storage(d), b, storage(w), storage(fixed), coef_,
                                diag_);
  be_.system_bytes() += coef_.size() + diag_.size();
}

AssembledNodeSystem::~AssembledNodeSystem() {
  be_.system_bytes() -= coef_.size() + diag_.size();
}

void AssembledNodeSystem::apply(const Field& x, Field& y, Rows rows) const {
  const RowRange r = be_.range(rows, m_.n_inner_nodes, m_.n_owned_nodes);
  be_.ops().node_system_apply(be_.device_mesh(m_), coef_, diag_, storage(x), storage(y), r);
}

MatrixFreeNodeSystem::MatrixFreeNodeSystem(const GlBackend& be, const topology::Mesh& m,
                                           const Field& d, real b, const Field& w,
                                           const Field& fixed)
    : be_(be), m_(m), b_(b) {
  d_ = be.make_field(d.size());
  w_ = be.make_field(w.size());
  fixed_ = be.make_field(fixed.size());
  be.copy(d, *d_);
  be.copy(w, *w_);
  be.copy(fixed, *fixed_);
}

void MatrixFreeNodeSystem::apply(const Field& x, Field& y, Rows rows) const {
  const RowRange r = be_.range(rows, m_.n_inner_nodes, m_.n_owned_nodes);
  be_.ops().node_system(be_.device_mesh(m_), storage(*d_), b_, storage(*w_), storage(*fixed_),
                        storage(x), storage(y), r);
}

}  // namespace scfd::backend::opengl
