// The interface between the run loop and a physical model (heat, ns-classical, ns-exact): the
// loop asks the model to advance one step at a time and, at output times, for its fields as host
// arrays. A model reads its own keys from the case file; the registry maps the case file's
// `physics.model` word to the model. Post-processing that is not a field (probes, lines, forces)
// is done by plugins (physics/plugins/) through the model's FlowAccess.
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "backend/backend.hpp"
#include "config/case.hpp"
#include "halo/halo.hpp"
#include "physics/flow_access.hpp"
#include "solvers/pcg.hpp"
#include "topology/mesh.hpp"

namespace scfd::physics {

// A field copied to the host for output: point (node) or cell data, 1 or 3 components.
struct HostField {
  std::string name;
  int components = 1;
  bool at_cells = false;
  std::vector<real> data;
};

// One part of a model's state (Model::state): a checkpoint saves it, a restart loads it back.
// Everything a step reads before it writes belongs here, so that a run continued from a
// checkpoint on the same ranks and backend repeats the uninterrupted one bit for bit.
struct StateField {
  std::string name;
  halo::Entity entity;    // one value per local node, edge, face or cell (ghosts included)
  backend::Field* field;  // the model's own field
  // A checkpoint of an earlier release without this dataset restores the field from this one
  // instead (empty: the dataset is required).
  std::string fallback = {};
};
struct StateValue {
  std::string name;
  std::variant<double*, int*, bool*> value;  // the model's own member
  // A checkpoint of an earlier release without this value restores the member to this one
  // instead (none: the value is required).
  std::optional<double> fallback = {};
  // The member as a double (ints and bools exactly), and back.
  double get() const;
  void set(double v) const;
};
struct ModelState {
  const backend::Backend* backend = nullptr;  // the fields' backend
  std::vector<StateField> fields;
  std::vector<StateValue> values;
};

// What one step did, for the progress line and the run summary.
struct StepReport {
  int step = 0;
  double time = 0;
  int iterations = 0;   // linear-solver iterations of this step (all solves: the sum of `solves`)
  double residual = 0;  // final relative residual of the last solve
  std::string detail;   // model-specific figures for the progress line (may be empty)
  // Parts of this step's time, named for the run summary (e.g. "solve_momentum"); each ends
  // after the backend finished its work, so on a GPU they hold the device time too.
  std::vector<std::pair<std::string, double>> seconds;
  // The iterations of each linear solve of this step, named for the progress line and the run
  // summary ("momentum" and "pressure" for ns-classical, "stream" for ns-exact, "temperature").
  std::vector<std::pair<std::string, int>> solves;
};

class Model {
 public:
  virtual ~Model() = default;
  virtual std::string name() const = 0;
  virtual bool steady() const = 0;
  // Number of steps the run will take (1 for a steady problem).
  virtual int total_steps() const = 0;
  virtual int step() const = 0;
  virtual double time() const = 0;
  // Advances one step. Throws SolveError when the linear solver fails.
  virtual StepReport advance() = 0;
  // Copies the current state to host arrays. `names` selects fields (empty = all the model has).
  // Not const: a field may need a computation (ns-exact's pressure is a Poisson solve).
  virtual std::vector<HostField> fields(const std::vector<std::string>& names) = 0;
  // Names of the fields `fields` can produce (the valid values of output.fields).
  virtual std::vector<std::string> field_names() const = 0;
  // Scalar results for the run summary (e.g. error against an exact solution), name -> value.
  // Collective; not const for the same reason as fields().
  virtual std::vector<std::pair<std::string, double>> figures() { return {}; }
  // Lines about the set-up that the run prints after the model line (e.g. which boundary values
  // the model solves for); the constructor logs nothing, so they follow the configuration.
  virtual std::vector<std::string> notes() const { return {}; }
  // The flow the plugins read, or null for a model that has none (heat).
  virtual FlowAccess* flow() { return nullptr; }
  // The solves run outside advance() since the last call, named as StepReport::solves (ns-exact's
  // pressure recovery when a plugin or the output asked for the pressure), then forgotten.
  virtual std::vector<std::pair<std::string, int>> take_other_solves() { return {}; }

  // The state a checkpoint holds (pointers into this model, valid while it lives), and the hook
  // a restart calls after it wrote new values through them: the model refreshes what it derives
  // from its state (boundary data at the restored time, the steps left, caches).
  virtual ModelState state() = 0;
  virtual void state_loaded() = 0;

  // The state of the last finished, plausible step: keep_state() sets every part of state()
  // aside after each such step (copies on the backend); restore_state() brings it back (then
  // state_loaded) after a step that failed, diverged or was abandoned, so that fields(),
  // figures(), the plugins and the fault's checkpoint see it.
  void keep_state();
  void restore_state();

 private:
  std::vector<std::unique_ptr<backend::Field>> kept_fields_;
  std::vector<double> kept_values_;
};

// A run-time failure that is not the user's input: a solver that broke down or did not
// converge, a NaN, a diverging run. Thrown on every rank alike (its cause is a collective
// figure). The run loop restores the last good state (Model::restore_state), writes it and exits
// with code 1.
class SolveError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A step abandoned because a stop was requested while it ran (core/stop.hpp): every rank throws
// it at the same point; the run loop restores the state of the last finished step, writes it and
// exits with code 130.
class Interrupted : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws Interrupted, or SolveError("WHAT: why"), unless the solve converged.
void require_converged(const solvers::SolveResult& r, const std::string& what);

// Makes the model named by physics.model in the case. InputError for an unknown model.
// `mesh` is this rank's mesh and `halo` its exchange plans (both outlive the model).
std::unique_ptr<Model> make_model(const config::Case& c, const topology::Mesh& mesh,
                                  const backend::Backend& backend, halo::Halo& halo);
// The model's [time] table read as make_model reads it, before there is a mesh: a bad value
// (time.steps = 0, a negative time.dt) fails at once, not after minutes of mesh and set-up.
void check_time(const config::Case& c);

}  // namespace scfd::physics
