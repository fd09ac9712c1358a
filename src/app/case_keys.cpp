// The fixed tables of the case file (see case_keys.hpp).
#include "app/case_keys.hpp"

#include <array>

namespace scfd::app {
namespace {

using namespace std::string_view_literals;

constexpr std::array kCheckpoint = {"every_minutes"sv, "every_steps"sv, "every_time"sv, "keep"sv,
                                    "restart"sv};
constexpr std::array kConvection = {"scheme"sv};
constexpr std::array kFluid = {"density"sv, "length"sv, "reynolds"sv, "velocity"sv, "viscosity"sv};
constexpr std::array kForces = {"axis"sv,
                                "centre"sv,
                                "csv"sv,
                                "inner_radius"sv,
                                "method"sv,
                                "normal"sv,
                                "outer_radius"sv,
                                "patch"sv,
                                "reference_area"sv,
                                "reference_length"sv,
                                "reference_velocity"sv};
constexpr std::array kMesh = {"divisions"sv, "file"sv, "generate"sv, "jitter"sv, "seed"sv};
constexpr std::array kOutput = {"compression"sv, "directory"sv, "fields"sv,
                                "format"sv,      "interval"sv,  "lines"sv};
constexpr std::array kParallel = {"overlap"sv, "threads"sv};
constexpr std::array kPhysics = {"model"sv};
constexpr std::array kSolver = {"absolute_tolerance"sv,
                                "backend"sv,
                                "check_every"sv,
                                "device"sv,
                                "gl_debug"sv,
                                "max_iterations"sv,
                                "momentum_preconditioner"sv,
                                "momentum_reduction"sv,
                                "momentum_tolerance"sv,
                                "precision"sv,
                                "preconditioner"sv,
                                "pressure_projection"sv,
                                "pressure_tolerance"sv,
                                "storage"sv,
                                "stream_preconditioner"sv,
                                "stream_projection"sv,
                                "stream_solver"sv,
                                "tolerance"sv};
constexpr std::array kTime = {
    "cfl"sv,    "dt"sv,    "dt_max"sv,           "end"sv,  "max_cfl"sv, "mode"sv,
    "scheme"sv, "start"sv, "steady_tolerance"sv, "steps"sv};

constexpr std::array kTables = {FixedTable{"checkpoint", kCheckpoint},
                                FixedTable{"convection", kConvection},
                                FixedTable{"fluid", kFluid},
                                FixedTable{"forces", kForces},
                                FixedTable{"mesh", kMesh},
                                FixedTable{"output", kOutput},
                                FixedTable{"parallel", kParallel},
                                FixedTable{"physics", kPhysics},
                                FixedTable{"solver", kSolver},
                                FixedTable{"time", kTime}};

}  // namespace

std::span<const FixedTable> fixed_tables() {
  return kTables;
}

void check_fixed_tables(const config::Case& c) {
  for (const FixedTable& t : kTables) c.check_known_keys(t.name, t.keys);
}

}  // namespace scfd::app
