// Model registry: the word in the case file (physics.model) is the key; and the helpers of
// model.hpp.
#include <array>
#include <string_view>
#include <type_traits>
#include <variant>

#include "core/error.hpp"
#include "physics/heat/heat.hpp"
#include "physics/model.hpp"
#include "physics/ns/classical.hpp"
#include "physics/ns/exact.hpp"
#include "physics/time_control.hpp"

namespace scfd::physics {

double StateValue::get() const {
  return std::visit([](auto* p) { return static_cast<double>(*p); }, value);
}

void StateValue::set(double v) const {
  std::visit([&](auto* p) { *p = static_cast<std::remove_pointer_t<decltype(p)>>(v); }, value);
}

void Model::keep_state() {
  const ModelState s = state();
  kept_fields_.resize(s.fields.size());
  for (std::size_t k = 0; k < s.fields.size(); ++k) {
    if (!kept_fields_[k]) kept_fields_[k] = s.backend->make_field(s.fields[k].field->size());
    s.backend->copy(*s.fields[k].field, *kept_fields_[k]);
  }
  kept_values_.clear();
  for (const StateValue& v : s.values) kept_values_.push_back(v.get());
}

void Model::restore_state() {
  const ModelState s = state();
  SCFD_CHECK(kept_fields_.size() == s.fields.size() && kept_values_.size() == s.values.size(),
             "restore_state before keep_state");
  for (std::size_t k = 0; k < s.fields.size(); ++k)
    s.backend->copy(*kept_fields_[k], *s.fields[k].field);
  for (std::size_t k = 0; k < s.values.size(); ++k) s.values[k].set(kept_values_[k]);
  state_loaded();
}

void require_converged(const solvers::SolveResult& r, const std::string& what) {
  if (r.converged()) return;
  if (r.status == solvers::SolveStatus::interrupted) throw Interrupted(what + ": " + r.message);
  throw SolveError(what + ": " + r.message);
}

namespace {
constexpr std::array<std::string_view, 3> kModels = {"heat", "ns-classical", "ns-exact"};
}  // namespace

void check_time(const config::Case& c) {
  if (c.choice("physics.model", kModels) == "heat") {
    check_heat_time(c);
    return;
  }
  const TimeControl checked(c, true);  // as ns::FlowState reads it
}

std::unique_ptr<Model> make_model(const config::Case& c, const topology::Mesh& mesh,
                                  const backend::Backend& backend, halo::Halo& halo) {
  const std::string model = c.choice("physics.model", kModels);
  if (model == "ns-classical") return make_ns_classical_model(c, mesh, backend, halo);
  if (model == "ns-exact") return make_ns_exact_model(c, mesh, backend, halo);
  return make_heat_model(c, mesh, backend, halo);
}

}  // namespace scfd::physics
