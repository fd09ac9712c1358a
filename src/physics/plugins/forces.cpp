// The forces plugin ([forces]): the force of the fluid on one patch (2D: per unit depth; 3D)
// after every step, to OUTPUT/forces.csv, and at the end as the figures force_x, force_y
// (force_z), their pressure and viscous parts, drag_coefficient and lift_coefficient
// (c = F / (1/2 density U^2 L) in 2D, F / (1/2 density U^2 A) in 3D, with the section's
// reference velocity, length and area). docs/methods.md, "Forces", derives both methods.
//
// method = "volume" (default): the body's momentum balance tested with a smooth v = phi e_i,
// phi = 1 on the body and 0 away from it (a quintic ramp in the distance from a point, an axis
// or a plane: the support). For the steady and unsteady equations with u = 0 on the body,
//   F_i = sum over cells of V rho [u_i (u . grad phi) + p d_i phi + nu u_i lap phi - phi du_i/dt]
//         - sum over faces of other patches of phi(x_f) F_f(surface),
// so the force needs the cell velocities and pressures only, no derivative of them at the wall:
// it converges as the solution does. The faces of other patches inside the support (a side
// wall that the body spans) add their surface traction weighted by phi.
// method = "surface": the sum over the patch's faces of A_f (p n_f - viscous traction), p
// extrapolated linearly to the face centre (ns::pressure_at), the viscous traction
// mu omega (z x n_f) in 2D (omega the mean of the two node vorticities Gamma / A*) and
// mu (G + G^T) n_f in 3D (G the gradient of the linear velocity of the wall cell that has the
// wall's velocity at the face's nodes and the fluxes of its other faces; first order).
// In both methods the pressure part is the surface integral of p n, the viscous part the rest.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "config/suggest.hpp"
#include "core/collectives.hpp"
#include "physics/boundary_tables.hpp"
#include "physics/ns/post.hpp"
#include "physics/plugins/csv_file.hpp"
#include "physics/plugins/plugin_list.hpp"

namespace scfd::physics {
namespace {

// Where phi = 1 (distance <= inner), 0 (>= outer) and the C2 quintic ramp between: the
// distance of x from a point, from a line through `centre` along `dir`, or from the plane
// through `centre` with normal `dir`.
struct Support {
  enum class Shape { point, axis, plane };
  Shape shape = Shape::point;
  Vec3 centre{}, dir{};
  real inner = 0, outer = 0;
  int dim = 2;

  // x - centre with the part along which the distance does not grow removed.
  Vec3 offset(Vec3 x) const {
    const Vec3 d = x - centre;
    switch (shape) {
      case Shape::point:
        return d;
      case Shape::axis:
        return d - dot(d, dir) * dir;
      case Shape::plane:
        return dot(d, dir) * dir;
    }
    return d;
  }
  real distance(Vec3 x) const { return norm(offset(x)); }

  struct Value {
    real phi = 0;
    Vec3 grad{};
    real laplacian = 0;
  };
  Value at(Vec3 x) const {
    const Vec3 d = offset(x);
    const real r = norm(d);
    if (r <= inner) return {1, {}, 0};
    if (r >= outer) return {};
    const real w = outer - inner, t = (r - inner) / w;
    const real s = t * t * t * (10 + t * (-15 + 6 * t));
    const real s1 = 30 * t * t * (1 - t) * (1 - t) / w;
    const real s2 = 60 * t * (1 - t) * (1 - 2 * t) / (w * w);
    // The distance grows in k directions: laplacian = phi'' + (k - 1) phi' / r.
    const int k = shape == Shape::point ? dim : shape == Shape::axis ? dim - 1 : 1;
    return {1 - s, (-s1 / r) * d, -s2 - (k - 1) * s1 / r};
  }
};

struct PatchForce {
  Vec3 pressure{}, viscous{};
  Vec3 total() const { return pressure + viscous; }
};

class Forces final : public Plugin {
 public:
  // `support`: the volume method's; none for the surface method.
  Forces(FlowAccess& flow, int patch, std::optional<Support> support, double q,
         const std::filesystem::path& file)
      : flow_(flow),
        m_(flow.mesh()),
        patch_(patch),
        volume_(support.has_value()),
        q_(q),
        csv_(file, m_.dim == 2 ? "step,time,force_x,force_y,pressure_x,pressure_y,viscous_x,"
                                 "viscous_y,drag_coefficient,lift_coefficient"
                               : "step,time,force_x,force_y,force_z,pressure_x,pressure_y,"
                                 "pressure_z,viscous_x,viscous_y,viscous_z,drag_coefficient,"
                                 "lift_coefficient") {
    if (volume_) {
      for (index c = 0; c < m_.n_owned_cells; ++c) {
        const Support::Value v = support->at(m_.cell_centroid[c]);
        if (v.phi > 0 || v.grad.x != 0 || v.grad.y != 0 || v.grad.z != 0) cells_.push_back({c, v});
      }
      for (std::size_t p = 0; p < m_.patches.size(); ++p) {
        if (static_cast<int>(p) == patch_) continue;
        for (index f : m_.patches[p].faces) {
          if (f >= m_.n_owned_faces) continue;
          const real phi = support->at(m_.face_centre[f]).phi;
          if (phi > 0) others_.push_back({f, phi});
        }
      }
      // The volume method needs surface shear only on the faces of other patches in its
      // support, on any rank (the vorticity is computed collectively).
      shear_ = global_max(others_.empty() ? 0.0 : 1.0) > 0;
    }
    gather_lists();
  }

  void start(bool restarted) override {
    if (restarted)
      csv_.resume(flow_.step());
    else
      csv_.create();
  }

  void after_step() override {
    const PatchForce f = force();
    const Vec3 t = f.total();
    std::string row = fmt::format("{},{:.10g}", flow_.step(), flow_.time());
    for (const Vec3& v : {t, f.pressure, f.viscous}) {
      row += fmt::format(",{:.10g},{:.10g}", v.x, v.y);
      if (m_.dim == 3) row += fmt::format(",{:.10g}", v.z);
    }
    csv_.append(row + fmt::format(",{:.10g},{:.10g}\n", t.x / q_, t.y / q_));
  }

  std::vector<std::pair<std::string, double>> figures() override {
    const PatchForce f = force();
    const Vec3 t = f.total();
    std::vector<std::pair<std::string, double>> out;
    const char* axes = "xyz";
    for (int i = 0; i < m_.dim; ++i) {
      out.emplace_back(fmt::format("force_{}", axes[i]), t[i]);
      out.emplace_back(fmt::format("pressure_force_{}", axes[i]), f.pressure[i]);
      out.emplace_back(fmt::format("viscous_force_{}", axes[i]), f.viscous[i]);
    }
    out.emplace_back("drag_coefficient", t.x / q_);
    out.emplace_back("lift_coefficient", t.y / q_);
    return out;
  }

 private:
  struct SupportCell {
    index cell;
    Support::Value weight;
  };
  struct SupportFace {
    index face;
    real phi;
  };
  // The values of a device field at a fixed sorted list of its entries, read back with
  // Backend::download_indices: what a step's force needs is a small part of each field.
  struct Gathered {
    std::vector<index> at;  // sorted, unique
    std::vector<real> value;
    void read(const backend::Backend& be, const backend::Field& f) {
      value.resize(at.size());
      be.download_indices(f, at, value);
    }
    real operator[](index k) const {  // the value of entry k, which must be in `at`
      return value[static_cast<std::size_t>(std::lower_bound(at.begin(), at.end(), k) -
                                            at.begin())];
    }
  };

  // The faces whose viscous traction the force sums: the patch's (surface method) or the
  // other patches' faces in the support (volume method); none without shear_.
  std::vector<index> shear_faces() const {
    std::vector<index> out;
    if (!shear_) return out;
    if (volume_) {
      for (const SupportFace& s : others_) out.push_back(s.face);
    } else {
      for (index f : m_.patches[static_cast<std::size_t>(patch_)].faces)
        if (f < m_.n_owned_faces) out.push_back(f);
    }
    return out;
  }

  // Every per-step sum is linear in the pressure (ns::pressure_weights), so the pressure
  // enters as one weighted sum over the cells of the stencils: surface_weight_ gives the
  // patch's pressure force, volume_weight_ the pressure terms of the volume balance. The
  // velocities of the support cells and the fluxes (3D) or vorticities (2D) around the
  // shear faces are the rest of what a step reads back.
  void gather_lists() {
    const std::size_t n = static_cast<std::size_t>(m_.n_cells);
    std::vector<Vec3> surface(n), volume(volume_ ? n : 0);
    std::vector<char> used(n, 0);
    auto add = [&](std::vector<Vec3>& to, index c, Vec3 x, Vec3 weight) {
      for (const auto& [k, w] : ns::pressure_weights(m_, c, x)) {
        to[static_cast<std::size_t>(k)] += w * weight;
        used[static_cast<std::size_t>(k)] = 1;
      }
    };
    for (index f : m_.patches[static_cast<std::size_t>(patch_)].faces)
      if (f < m_.n_owned_faces)
        add(surface, m_.face_cells[2 * f], m_.face_centre[f], m_.face_area[f] * m_.face_normal[f]);
    for (const auto& [c, w] : cells_)
      add(volume, c, m_.cell_centroid[c], m_.cell_volume[c] * w.grad);
    for (const auto& [f, phi] : others_)
      add(volume, m_.face_cells[2 * f], m_.face_centre[f],
          (-phi * m_.face_area[f]) * m_.face_normal[f]);
    for (std::size_t k = 0; k < n; ++k)
      if (used[k]) {
        pressure_.at.push_back(static_cast<index>(k));
        surface_weight_.push_back(surface[k]);
        if (volume_) volume_weight_.push_back(volume[k]);
      }
    for (const auto& [c, w] : cells_)
      for (index d = 0; d < 3; ++d) velocity_.at.push_back(3 * c + d);
    for (index f : shear_faces()) {
      if (m_.dim == 3) {
        for (int i = 0; i < 4; ++i) flux_.at.push_back(m_.cell_faces[4 * m_.face_cells[2 * f] + i]);
      } else {
        for (int k = 0; k < 2; ++k) omega_.at.push_back(m_.face_nodes[2 * f + k]);
      }
    }
    for (std::vector<index>* list : {&flux_.at, &omega_.at}) {
      std::sort(list->begin(), list->end());
      list->erase(std::unique(list->begin(), list->end()), list->end());
    }
  }

  // The viscous force of the fluid on face f: -A mu (traction), n out of the fluid.
  Vec3 viscous_force(index f) const {
    const Vec3 n = m_.face_normal[f];
    const index c = m_.face_cells[2 * f];
    const real mu = flow_.density() * flow_.viscosity(), area = m_.face_area[f];
    Vec3 out{};
    if (m_.dim == 2) {
      const index n0 = m_.face_nodes[2 * f], n1 = m_.face_nodes[2 * f + 1];
      const real omega = 0.5 * (omega_[n0] + omega_[n1]);
      return (-area * mu * omega) * Vec3{-n.y, n.x, 0};
    }
    // 3D: the linear velocity of the wall cell that has the prescribed velocity at the face's
    // nodes and the fluxes of the cell's other three faces; G its gradient.
    Vec3 x[3], du[3];
    for (int k = 0; k < 3; ++k) {
      const index node = m_.face_nodes[3 * f + k];
      const std::optional<Vec3> v = flow_.boundary_velocity(node);
      if (!v) return out;  // no prescribed velocity (symmetry, outlet): no shear counted
      x[k] = m_.node_x[node];
      du[k] = *v;
    }
    const Vec3 a = (du[0] + du[1] + du[2]) / 3;  // the velocity at the face centroid
    // G = Gw + g n^T: Gw from the wall values (Gw n = 0, through the dual basis b of the face's
    // edges e), g = dG/dn from the fluxes: A_k (a + Gw d_k + g (n.d_k)).n_k = U_k.
    const Vec3 e1 = x[1] - x[0], e2 = x[2] - x[0];
    const Vec3 b1 = cross(e2, n) / dot(e1, cross(e2, n)), b2 = cross(n, e1) / dot(e2, cross(n, e1));
    const Vec3 w1 = du[1] - du[0], w2 = du[2] - du[0];
    auto gw = [&](Vec3 d) { return dot(b1, d) * w1 + dot(b2, d) * w2; };
    Vec3 rows[3], rhs;
    int k = 0;
    for (int i = 0; i < 4; ++i) {
      const index g = m_.cell_faces[4 * c + i];
      if (g == f) continue;
      const Vec3 d = m_.face_centre[g] - m_.face_centre[f], ng = m_.face_normal[g];
      rows[k] = (m_.face_area[g] * dot(n, d)) * ng;
      rhs[k] = flux_[g] - m_.face_area[g] * dot(a + gw(d), ng);
      ++k;
    }
    const real det = dot(rows[0], cross(rows[1], rows[2]));
    if (!(std::abs(det) > 0)) return out;
    // Cramer's rule: g = (r0 (R1 x R2) + r1 (R2 x R0) + r2 (R0 x R1)) / det.
    Vec3 g = (rhs[0] * cross(rows[1], rows[2]) + rhs[1] * cross(rows[2], rows[0]) +
              rhs[2] * cross(rows[0], rows[1])) /
             det;
    // Its normal part is known exactly: div u = tr Gw + g.n = 0.
    g -= (dot(g, n) + dot(b1, w1) + dot(b2, w2)) * n;
    // (G + G^T) n = g + Gw^T n + n (g.n).
    const Vec3 strain = g + dot(w1, n) * b1 + dot(w2, n) * b2 + dot(g, n) * n;
    return (-area * mu) * strain;
  }

  // The velocity of the i-th support cell (cells_[i]) of the values read at velocity_.at.
  static Vec3 support_velocity(std::span<const real> v, std::size_t i) {
    return {v[3 * i], v[3 * i + 1], v[3 * i + 2]};
  }

  // The force of the current step (computed once per step: the figures at the end repeat the
  // last row, du/dt included).
  PatchForce force() {
    if (flow_.step() != last_step_) {
      last_ = compute();
      last_step_ = flow_.step();
    }
    return last_;
  }

  PatchForce compute() {
    const backend::Backend& be = flow_.backend();
    pressure_.read(be, flow_.pressure());
    if (shear_ && m_.dim == 3) flux_.read(be, flow_.fluxes());
    if (shear_ && m_.dim == 2) omega_.read(be, flow_.vorticity());
    PatchForce f;  // this rank's share
    for (std::size_t i = 0; i < pressure_.at.size(); ++i)
      f.pressure += pressure_.value[i] * surface_weight_[i];
    f.pressure *= flow_.density();
    if (volume_) {
      f.viscous = volume_force() - f.pressure;
    } else {
      for (index k : shear_faces()) f.viscous += viscous_force(k);
    }
    std::vector<real> sums{f.pressure.x, f.pressure.y, f.pressure.z,
                           f.viscous.x,  f.viscous.y,  f.viscous.z};
    global_sum(sums);
    return {{sums[0], sums[1], sums[2]}, {sums[3], sums[4], sums[5]}};
  }

  // This rank's share of the tested momentum balance (the header comment), du/dt from the
  // cell velocities of U^n and U^(n-1) (none before the first step).
  Vec3 volume_force() {
    const backend::Backend& be = flow_.backend();
    const real rho = flow_.density(), nu = flow_.viscosity();
    const double dt = flow_.last_dt();
    velocity_.read(be, flow_.cell_velocity());
    if (dt > 0) {
      if (!previous_field_) previous_field_ = be.make_field(3 * m_.n_cells);
      be.interpolate(m_, flow_.previous_fluxes(), *previous_field_);
      previous_.resize(velocity_.at.size());
      be.download_indices(*previous_field_, velocity_.at, previous_);
    }
    Vec3 f{};
    for (std::size_t i = 0; i < cells_.size(); ++i) {
      const auto& [c, w] = cells_[i];
      const Vec3 u = support_velocity(velocity_.value, i);
      Vec3 g = dot(u, w.grad) * u + (nu * w.laplacian) * u;
      if (dt > 0) g -= (w.phi / dt) * (u - support_velocity(previous_, i));
      f += (rho * m_.cell_volume[c]) * g;
    }
    Vec3 p{};  // the pressure terms, the other patches' pressure force among them
    for (std::size_t i = 0; i < pressure_.at.size(); ++i)
      p += pressure_.value[i] * volume_weight_[i];
    f += rho * p;
    if (shear_)
      for (const auto& [k, phi] : others_) f -= phi * viscous_force(k);
    return f;
  }

  FlowAccess& flow_;
  const topology::Mesh& m_;
  int patch_;
  bool volume_;
  bool shear_ = true;  // whether surface_force computes the viscous part
  double q_;           // the dynamic pressure times the reference length (2D) or area (3D)
  CsvFile csv_;
  std::vector<SupportCell> cells_;   // owned cells where phi or its gradient is nonzero
  std::vector<SupportFace> others_;  // owned faces of other patches where phi > 0
  Gathered pressure_;                // the cells of every pressure stencil, with
  std::vector<Vec3> surface_weight_, volume_weight_;  // ... their weights (gather_lists)
  Gathered velocity_;  // the cell velocities of cells_ (3 entries a cell, in its order)
  Gathered flux_;      // 3D: the fluxes of the shear faces' cells
  Gathered omega_;     // 2D: the vorticity at the shear faces' nodes
  std::unique_ptr<backend::Field> previous_field_;  // the cell velocities of U^(n-1)
  std::vector<real> previous_;                      // ... at velocity_.at
  int last_step_ = -1;
  PatchForce last_;
};

Vec3 read_vector(const config::Case& c, std::string_view key, int dim) {
  const std::vector<double> v = c.require<std::vector<double>>(key);
  if (static_cast<int>(v.size()) != dim)
    c.fail(key, fmt::format("needs {} components (the mesh is {}D)", dim, dim));
  return {v[0], v[1], dim == 3 ? v[2] : 0.0};
}

// The support of the volume method: the keys, or defaults from the patch: centre = the
// patch's area centroid, inner = the largest distance of its nodes, outer =
// inner + 3/4 of the clearance to the nearest face of another patch (faces that the distance
// runs along, e.g. the side walls an axis pierces, do not count: they enter with their surface
// traction).
Support make_support(const config::Case& c, const topology::Mesh& m, int patch) {
  Support s;
  s.dim = m.dim;
  const auto& faces = m.patches[static_cast<std::size_t>(patch)].faces;
  if (c.has("forces.centre")) {
    s.centre = read_vector(c, "forces.centre", m.dim);
  } else {
    std::vector<real> sums(4, 0.0);
    for (index f : faces)
      if (f < m.n_owned_faces) {
        for (int i = 0; i < 3; ++i) sums[i] += m.face_area[f] * m.face_centre[f][i];
        sums[3] += m.face_area[f];
      }
    global_sum(sums);
    s.centre = Vec3{sums[0], sums[1], sums[2]} / sums[3];
  }
  if (c.has("forces.axis") && c.has("forces.normal"))
    c.fail("forces.normal", "give either an axis or a normal, not both");
  for (const char* key : {"forces.axis", "forces.normal"})
    if (c.has(key)) {
      if (m.dim == 2 && std::string_view(key) == "forces.axis")
        c.fail(key, "an axis support is for 3D meshes (in 2D a point support is a circle)");
      const Vec3 d = read_vector(c, key, m.dim);
      if (!(norm(d) > 0)) c.fail(key, "must not be the zero vector");
      s.dir = d / norm(d);
      s.shape =
          std::string_view(key) == "forces.axis" ? Support::Shape::axis : Support::Shape::plane;
    }
  auto node_max = [&](std::span<const index> fs) {
    real r = 0;
    for (index f : fs)
      if (f < m.n_owned_faces)
        for (int k = 0; k < m.dim; ++k)
          r = std::max(r, s.distance(m.node_x[m.face_nodes[m.dim * f + k]]));
    return global_max(r);
  };
  s.inner =
      c.has("forces.inner_radius") ? c.require<double>("forces.inner_radius") : node_max(faces);
  // Faces whose normal is (nearly) perpendicular to the distance's gradient do not bound it.
  auto counts = [&](index f) {
    const Vec3 n = m.face_normal[f];
    switch (s.shape) {
      case Support::Shape::point:
        return true;
      case Support::Shape::axis:
        return std::abs(dot(n, s.dir)) < 0.99;
      case Support::Shape::plane:
        return std::abs(dot(n, s.dir)) > 0.01;
    }
    return true;
  };
  real clearance = std::numeric_limits<real>::max();
  for (std::size_t p = 0; p < m.patches.size(); ++p) {
    if (static_cast<int>(p) == patch) continue;
    for (index f : m.patches[p].faces)
      if (f < m.n_owned_faces && counts(f))
        for (int k = 0; k < m.dim; ++k)
          clearance = std::min(clearance, s.distance(m.node_x[m.face_nodes[m.dim * f + k]]));
  }
  clearance = global_min(clearance);
  if (c.has("forces.outer_radius")) {
    s.outer = c.require<double>("forces.outer_radius");
  } else {
    s.outer = s.inner + 0.75 * (clearance - s.inner);
    if (!(clearance > s.inner))
      c.fail("forces.patch",
             fmt::format("the volume force needs room around the body: another patch comes within "
                         "{:.4g} of the support's centre, the body reaches {:.4g} (set "
                         "forces.inner_radius and forces.outer_radius, or method = \"surface\")",
                         clearance, s.inner));
  }
  if (!(s.inner >= 0 && s.outer > s.inner))
    c.fail("forces.outer_radius",
           fmt::format("must be larger than forces.inner_radius ({:.4g})", s.inner));
  return s;
}

}  // namespace

std::unique_ptr<Plugin> make_forces(const config::Case& c, FlowAccess& flow,
                                    const std::filesystem::path& output_dir) {
  const topology::Mesh& m = flow.mesh();
  const std::string name = c.require<std::string>("forces.patch");
  const std::vector<std::string> names = patch_names(m);
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end())
    c.fail("forces.patch", fmt::format("the mesh has no patch '{}' (patches: {}){}", name,
                                       config::join(names), config::did_you_mean(name, names)));
  const int patch = static_cast<int>(it - names.begin());
  const bool volume = c.choice("forces.method", {"volume", "surface"}, "volume") == "volume";
  const double velocity = c.get<double>("forces.reference_velocity", 1.0);
  const double length = m.dim == 2 ? c.get<double>("forces.reference_length", 1.0)
                                   : c.get<double>("forces.reference_area", 1.0);
  if (!(velocity > 0 && length > 0))
    c.fail("forces.reference_velocity", "reference velocity, length and area must be > 0");
  std::optional<Support> support;
  if (volume) support = make_support(c, m, patch);
  return std::make_unique<Forces>(flow, patch, support,
                                  0.5 * flow.density() * velocity * velocity * length,
                                  output_dir / "forces.csv");
}

}  // namespace scfd::physics
