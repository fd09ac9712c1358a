// What ns-classical and ns-exact share (docs/methods.md): the case-file sections, the face-flux
// state on a Backend, time-step control, explicit convection, the pressure Poisson solve, probes,
// sampled lines, forces, output fields and run figures. A model derives from FlowModel and writes
// its own advance() (and, for ns-exact, the recovery of the pressure on request). Internal to
// the physics module.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "physics/model.hpp"
#include "physics/ns_operators.hpp"
#include "physics/ns_post.hpp"
#include "physics/ns_setup.hpp"
#include "solvers/pcg.hpp"

namespace scfd::physics::ns {

class FlowModel : public Model {
 public:
  std::string name() const override { return name_; }
  bool steady() const override { return false; }
  int total_steps() const override;
  int step() const override { return step_; }
  double time() const override { return t_; }
  std::vector<HostField> fields(const std::vector<std::string>& names) const override;
  std::vector<std::string> field_names() const override {
    return {"velocity", "velocity_nodes", "pressure", "vorticity", "divergence"};
  }
  std::vector<std::pair<std::string, double>> figures() const override;

 protected:
  // Reads the shared sections, builds the geometry Fields and the boundary data at time.start,
  // the probes and the forces file. The derived constructor sets the initial velocity.
  FlowModel(const config::Case& c, const topology::Mesh& m, const backend::Backend& be,
            halo::Halo& halo, std::string name);

  // Brings s_.p up to date with the current step before it is read (ns-exact recovers it).
  virtual void update_pressure() const {}

  FieldPtr make(index n) const { return be_.make_field(n); }
  std::vector<real> download(const Field& f) const;
  // The face fluxes of the initial velocity (boundary data on fixed faces), not yet projected.
  void initial_fluxes(Field& u) const;
  void upload_boundary(double t);
  double choose_dt();
  // out = -J N(I U): the convective term of the weighted face equation.
  void convection(Field& out);
  // Solves (-D A~^-1 G0) psi = -D v (singular without an outlet: b made orthogonal to 1); stops
  // at tolerance x |b| or tolerance x |v|. psi (s_.psi) is the initial guess; ghosts exchanged.
  solvers::PcgResult solve_pressure(const Field& v, Field& psi) const;
  // dt ((1 + r/2) conv - r/2 conv_old) with r = dt / dt_old (forward Euler on the first step),
  // added to y after y = mass .* U: the explicit part of the face equation.
  void explicit_part(double dt, Field& y);
  // After the velocity of the new step is in s_.u (with ghosts): advances the clock, measures
  // CFL and max|DU|, writes probes, forces and (at the last step) lines.
  void finish_step(double dt);

  const topology::Mesh& m_;
  const backend::Backend& be_;
  halo::Halo& halo_;
  Setup setup_;
  State s_;
  std::unique_ptr<PressureOperator> pressure_;
  std::unique_ptr<solvers::Pcg> pcg_cells_;
  solvers::PcgOptions momentum_options_, pressure_options_;
  double dt_ = 0, dt_old_ = 0, t_ = 0;
  int step_ = 0;
  double last_cfl_ = 0, last_div_ = 0, max_div_ = 0;  // max_div_: over every step so far

 private:
  void read_time(const config::Case& c);
  void make_fields(const Geometry& g);
  void check_balance(const config::Case& c, const BoundaryData& b) const;
  std::pair<real, real> cfl_and_divergence(double dt);
  ProbeSet claim_points(const config::Case& c, const std::string& key,
                        const std::vector<Vec3>& points) const;
  void setup_probes(const config::Case& c);
  std::vector<real> sample(const ProbeSet& set, bool with_pressure) const;
  void write_probes();
  void write_lines() const;
  void setup_forces(const config::Case& c);
  Vec3 force() const;
  void write_forces();

  std::string name_;
  double dt_max_ = 0, cfl_target_ = 0, t_end_ = 0;
  bool fixed_dt_ = true;
  bool to_end_ = false;  // time.end given (else time.steps)
  int n_steps_ = 0;      // 0: run to t_end_
  double global_cells_ = 0;
  ProbeSet probes_;
  std::vector<ProbeSet> lines_;  // one per setup_.lines entry
  std::filesystem::path probe_file_, force_file_, line_dir_;
  std::vector<real> weight_host_;  // for the wall vorticity of force()
};

}  // namespace scfd::physics::ns
