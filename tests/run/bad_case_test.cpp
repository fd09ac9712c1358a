// Every broken case file in tests/data/bad-cases/ must stop `streamcfd run` with exit code 2 and
// exactly one line on stderr that names the case file and says what is wrong.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "common/run_command.hpp"

namespace scfd {
namespace {

struct BadCase {
  const char* file;
  const char* phrase;  // must appear in the error line
};

const BadCase kBadCases[] = {
    {"unknown-key.toml", "did you mean 'solver.tolerance'"},
    {"wrong-type.toml", "solver.tolerance: expected"},
    {"missing-mesh-key.toml", "mesh.file"},
    {"missing-mesh-file.toml", "no-such-mesh.msh"},
    {"patch-not-in-mesh.toml", "no patch 'inlet'"},
    {"patch-without-bc.toml", "patch 'top' of the mesh has no boundary condition"},
    {"invalid-choice.toml", "did you mean 'crank-nicolson'"},
    {"negative-dt.toml", "time.dt: must be > 0"},
    {"bad-formula.toml", "initial.temperature"},
    {"syntax-error.toml", "syntax-error.toml:"},
    {"unknown-model.toml", "physics.model"},
    {"fp32-on-cpu.toml", "fp64 only"},
    {"steady-all-insulated.toml", "at least one boundary of type temperature"},
    {"unknown-output-field.toml", "did you mean 'temperature'"},
    {"steps-and-end.toml", "exactly one of time.steps and time.end"},
    {"bc-unknown-subkey.toml", "boundary.left.extra.value"},
    {"negative-conductivity.toml", "material.conductivity: must be > 0"},
    {"exact-source-in-loop.toml", "closed boundary loop of patches cylinder carries a net flux"},
};

class BadCaseTest : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadCaseTest, OneLineErrorAndExitCode2) {
  const BadCase& bc = GetParam();
  const std::string path = std::string(SCFD_SOURCE_DIR) + "/tests/data/bad-cases/" + bc.file;
  const auto out = test::fresh_directory("badcase");
  const auto r = test::run_command(std::string(SCFD_BINARY) + " run " + path +
                                   " --set output.directory=" + out.string());
  EXPECT_EQ(r.exit_code, 2) << r.err << r.out;
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "more than one line:\n" << r.err;
  EXPECT_NE(r.err.find(bc.file), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(bc.phrase), std::string::npos) << "expected '" << bc.phrase << "' in\n"
                                                      << r.err;
}

INSTANTIATE_TEST_SUITE_P(Cases, BadCaseTest, ::testing::ValuesIn(kBadCases),
                         [](const auto& param_info) {
                           std::string n = param_info.param.file;
                           n = n.substr(0, n.find('.'));
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

TEST(BadCommandLine, BadOverrideIsOneLineExit2) {
  const std::string path = std::string(SCFD_SOURCE_DIR) + "/cases/heat-square/case.toml";
  const auto r = test::run_command(std::string(SCFD_BINARY) + " run " + path + " --set novalue");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("novalue"), std::string::npos) << r.err;
}

// The output's format and compression are checked before the mesh and the model's set-up
// (minutes on a large mesh), not after them: no set-up line is printed.
TEST(BadCommandLine, OutputKeysFailBeforeTheSetUp) {
  const std::string path = std::string(SCFD_SOURCE_DIR) + "/cases/cavity2d/case.toml";
  for (const char* set : {"output.format=vtk", "output.compression=lz5"}) {
    const auto r = test::run_command(std::string(SCFD_BINARY) + " run " + path + " --set " + set);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(std::string(set).substr(0, std::string(set).find('='))), std::string::npos)
        << r.err;
    EXPECT_EQ((r.out + r.err).find("preconditioner: AMG"), std::string::npos) << r.out;
  }
}

TEST(BadCommandLine, MissingCaseFile) {
  const auto r = test::run_command(std::string(SCFD_BINARY) + " run /nonexistent/case.toml");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("/nonexistent/case.toml"), std::string::npos) << r.err;
}

// Values that parse but cannot make a run (one class each): the case is a good one, the override
// breaks it. Every one must stop before step 1 with exit code 2 and one line naming the key.
struct BadValue {
  const char* name;
  const char* case_file;  // under cases/
  const char* overrides;
  const char* phrase;
};

const BadValue kBadValues[] = {
    {"inf_number", "cavity2d", "time.end=inf", "time.end: expected a finite number, got float inf"},
    {"nan_number", "cavity2d", "fluid.reynolds=nan", "fluid.reynolds: expected a finite number"},
    {"inf_reynolds", "cavity2d", "fluid.reynolds=inf", "fluid.reynolds: expected a finite number"},
    {"nan_probe", "cavity2d", "probes.x=[nan]", "probes.x[0]: expected a finite number"},
    {"division_by_zero", "cavity2d", "boundary.lid.velocity_x='\"1/0\"'",
     "in formula '1/0': a constant part evaluates to inf"},
    {"log_of_negative", "heat-square", "boundary.left.value='\"log(-1)\"'",
     "a constant part evaluates to NaN"},
    {"overflow", "cavity2d", "boundary.lid.velocity_x='\"10^400\"'", "evaluates to inf"},
    {"formula_not_finite_on_mesh", "heat-cube", "initial.temperature='\"log(x)\"'",
     "initial.temperature: the formula 'log(x)' is -inf at (0, "},
    {"zero_max_iterations", "cavity2d", "solver.max_iterations=0",
     "solver.max_iterations: must be between 1 and 10000000, got 0"},
    {"huge_max_iterations", "heat-cube", "solver.max_iterations=100000000000",
     "solver.max_iterations: must be between 1 and 10000000"},
    {"negative_threads", "cavity2d", "parallel.threads=-1",
     "parallel.threads: must be 0 (automatic) or between 1 and 1024, got -1"},
    {"fractional_threads", "heat-cube", "parallel.threads=1.5", "parallel.threads"},
    {"infinite_dt", "heat-cube", "time.dt=inf", "time.dt: expected a finite number"},
    {"tiny_dt", "heat-cube", "time.dt=1e-300", "time.dt: 5e+298 steps to time.end = 0.05"},
    {"tiny_dt_max", "cavity2d", "time.dt_max=1e-300", "time.dt_max: 2e+301 steps"},
    {"tolerance_above_one", "cavity2d", "solver.pressure_tolerance=2",
     "solver.pressure_tolerance: must be >= 0 and < 1"},
    {"steady_tolerance_above_one", "cavity2d", "time.steady_tolerance=1",
     "time.steady_tolerance: must be >= 0 and < 1"},
    {"cfl_above_max", "cavity2d", "time.cfl=30", "time.cfl: must be below time.max_cfl = 20"},
    {"negative_interval", "heat-cube", "output.interval=-1", "output.interval: must be between 0"},
    {"file_and_generate", "heat-box", "mesh.file=case.toml",
     "mesh.generate: give either mesh.file or mesh.generate, not both"},
    {"generate_unknown", "heat-box", "mesh.generate=sphere",
     "mesh.generate: 'sphere' is not valid"},
    {"divisions_count", "heat-box", "mesh.divisions=[4,4]",
     "mesh.divisions: expected 3 numbers of cells per axis for a cube, got 2"},
    {"divisions_zero", "heat-box", "mesh.divisions=[4,0,4]",
     "mesh.divisions: expected >= 1 cell per axis, got 0"},
    {"divisions_huge", "heat-box", "mesh.divisions=[1000,1000,1000]",
     "mesh.divisions: 6e+09 cells is too large for 32-bit indices"},
    {"jitter_range", "heat-box", "mesh.jitter=0.7", "mesh.jitter: expected a number in [0, 0.5]"},
    {"forces_method", "cylinder2d", "forces.method=wall", "forces.method: 'wall' is not valid"},
    {"forces_axis_in_2d", "cylinder2d", "forces.axis=[0,0,1]",
     "forces.axis: an axis support is for 3D meshes"},
    {"forces_normal_components", "cylinder2d", "forces.normal=[0,1,0]",
     "forces.normal: needs 2 components (the mesh is 2D)"},
    {"forces_zero_normal", "cylinder2d", "forces.normal=[0,0]",
     "forces.normal: must not be the zero vector"},
    {"forces_radii", "cylinder2d", "forces.outer_radius=0.01",
     "forces.outer_radius: must be larger than forces.inner_radius (0.05)"},
    {"forces_no_room", "cylinder2d", "forces.patch=walls",
     "forces.patch: the volume force needs room around the body"},
    {"steady_initial", "heat-square", "initial.temperature=1",
     "initial.temperature: a steady run (time.mode = \"steady\") has no initial state"},
    {"device_mesh", "heat-square", "mesh.file='\"/dev/zero\"'", "/dev/zero: is not a regular file"},
    {"momentum_reduction_of_one", "cavity2d", "solver.momentum_reduction=1",
     "solver.momentum_reduction: must be >= 0 and < 1, got 1"},
    {"stream_projection_of_two", "cavity2d", "solver.stream_projection=2",
     "solver.stream_projection: must be 0 (off) or between 3 and 16 solutions, got 2"},
    // [time] is read before the mesh: its error comes first, not the mesh file's.
    {"time_before_the_mesh", "cavity2d", "time.end=-1 --set mesh.file='\"missing.msh\"'",
     "time.end: must be > time.start = 0"},
    {"heat_time_before_the_mesh", "heat-cube", "time.dt=-1 --set mesh.file='\"missing.msh\"'",
     "time.dt: must be > 0, got -1"},
    {"line_name_with_space", "cavity2d", "\"output.lines.'a b'.points=5\"",
     "output.lines.'a b': a line name may use only letters"},
};

class BadValueTest : public ::testing::TestWithParam<BadValue> {};

TEST_P(BadValueTest, OneLineErrorAndExitCode2) {
  const BadValue& b = GetParam();
  const std::string path = std::string(SCFD_SOURCE_DIR) + "/cases/" + b.case_file + "/case.toml";
  const auto out = test::fresh_directory("badvalue");
  const auto r =
      test::run_command(std::string(SCFD_BINARY) + " run " + path + " --set " + b.overrides +
                        " --set output.directory='\"" + out.string() + "\"'");
  EXPECT_EQ(r.exit_code, 2) << r.err << r.out;
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "more than one line:\n" << r.err;
  EXPECT_NE(r.err.find(b.phrase), std::string::npos) << "expected '" << b.phrase << "' in\n"
                                                     << r.err;
  std::filesystem::remove_all(out);
}

INSTANTIATE_TEST_SUITE_P(Values, BadValueTest, ::testing::ValuesIn(kBadValues),
                         [](const auto& value) { return std::string(value.param.name); });

// A fixed step far longer than the run (time.dt > 1e9 (time.end - time.start)) is one step that
// ends on time.end (it used to run 0 steps and report "completed").
TEST(BadValue, AStepLongerThanTheRunIsOneStep) {
  const auto dir = test::fresh_directory("long_dt");
  const auto r = test::run_command(std::string(SCFD_BINARY) + " run " + SCFD_SOURCE_DIR +
                                   "/cases/heat-cube/case.toml --set time.dt=1e12"
                                   " --set output.directory='\"" +
                                   dir.string() + "\"'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::string json = test::slurp(dir / "heat_summary.json");
  EXPECT_NE(json.find("\"steps\": 1,"), std::string::npos) << json;
  EXPECT_NE(json.find("\"time\": 0.05"), std::string::npos) << json;
  std::filesystem::remove_all(dir);
}

// A step count that does not fit an int (it used to be truncated silently).
TEST(BadValue, StepsBeyondTwoToThe32) {
  const auto dir = test::fresh_directory("steps");
  const std::string toml = (dir / "case.toml").string();
  std::ofstream(toml) << "[mesh]\nfile = \"" << SCFD_SOURCE_DIR
                      << "/meshes/square-1.msh\"\n[physics]\nmodel = \"heat\"\n"
                         "[boundary.left]\ntype = \"temperature\"\nvalue = 0\n"
                         "[boundary.right]\ntype = \"temperature\"\nvalue = 1\n"
                         "[boundary.top]\ntype = \"insulated\"\n"
                         "[boundary.bottom]\ntype = \"insulated\"\n"
                         "[time]\nmode = \"transient\"\ndt = 0.1\nsteps = 5000000000\n";
  const auto r = test::run_command(std::string(SCFD_BINARY) + " run " + toml);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("time.steps: must be between 1 and 1000000000, got 5000000000"),
            std::string::npos)
      << r.err;
  std::filesystem::remove_all(dir);
}

// Gmsh names a patch with any text ("left wall" from its GUI). A case file writes such a name as
// a quoted TOML key, and a message that names it quotes it the same way.
std::filesystem::path square_with_patch_names(const std::filesystem::path& dir,
                                              const std::string (&names)[4]) {
  std::string mesh = test::slurp(std::string(SCFD_SOURCE_DIR) + "/meshes/square-1.msh");
  const char* old_names[4] = {"\"left\"", "\"right\"", "\"bottom\"", "\"top\""};
  for (int i = 0; i < 4; ++i) {
    const std::size_t at = mesh.find(old_names[i]);
    mesh.replace(at, std::string(old_names[i]).size(), "\"" + names[i] + "\"");
  }
  const auto path = dir / "square.msh";
  std::ofstream(path, std::ios::binary) << mesh;
  return path;
}

const std::string kOddNames[4] = {"left wall", "right.side\\x", "", "it's\tb\xc3\xa4se"};

std::string heat_case_for_odd_names(const std::filesystem::path& mesh, bool with_left) {
  std::string text = "[mesh]\nfile = '" + mesh.string() + "'\n[physics]\nmodel = \"heat\"\n";
  if (with_left) text += "[boundary.'left wall']\ntype = \"temperature\"\nvalue = 0.0\n";
  text += "[boundary.'right.side\\x']\ntype = \"temperature\"\nvalue = 1.0\n";
  text += "[boundary.'']\ntype = \"insulated\"\n";
  text += "[boundary.\"it's\\tb\xc3\xa4se\"]\ntype = \"insulated\"\n";
  text += "[time]\nmode = \"steady\"\n";
  return text;
}

TEST(PatchNames, NamesThatNeedQuotesInTomlRun) {
  const auto dir = test::fresh_directory("patch_names");
  const auto mesh = square_with_patch_names(dir, kOddNames);
  const auto toml = dir / "case.toml";
  std::ofstream(toml, std::ios::binary) << heat_case_for_odd_names(mesh, true);
  const std::string run = std::string(SCFD_BINARY) + " run " + toml.string() +
                          " --set output.directory='\"" + (dir / "out").string() + "\"'";
  auto r = test::run_command(run);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // An override names a patch the way TOML does, in either quotes.
  r = test::run_command(run + " --set \"boundary.'left wall'.value=0.5\"" +
                        " --set 'boundary.\"right.side\\\\x\".value=2'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::string effective = test::slurp(dir / "out" / "case.effective.toml");
  EXPECT_NE(effective.find("[boundary.\"left wall\"]\ntype = \"temperature\"\nvalue = 0.5"),
            std::string::npos)
      << effective;
}

TEST(PatchNames, TheMissingConditionHintIsValidToml) {
  const auto dir = test::fresh_directory("patch_names_hint");
  const auto mesh = square_with_patch_names(dir, kOddNames);
  const auto toml = dir / "case.toml";
  std::ofstream(toml, std::ios::binary) << heat_case_for_odd_names(mesh, false);
  const auto r = test::run_command(std::string(SCFD_BINARY) + " run " + toml.string());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "more than one line:\n" << r.err;
  EXPECT_NE(r.err.find("patch 'left wall' of the mesh has no boundary condition: add "
                       "[boundary.'left wall']"),
            std::string::npos)
      << r.err;
}

TEST(PatchNames, AnUnknownQuotedPatchIsNamedAsWritten) {
  const auto dir = test::fresh_directory("patch_names_unknown");
  const auto mesh = square_with_patch_names(dir, kOddNames);
  const auto toml = dir / "case.toml";
  std::ofstream(toml, std::ios::binary)
      << heat_case_for_odd_names(mesh, true) << "[boundary.'left  wall']\ntype = \"insulated\"\n";
  const auto r = test::run_command(std::string(SCFD_BINARY) + " run " + toml.string());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("boundary.'left  wall': the mesh"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("did you mean 'left wall'"), std::string::npos) << r.err;
}

// A steady-state tolerance near the noise the solver tolerances leave in the change per unit
// time (about tolerance / dt: with both at 1e-6 and dt 0.017 the change levels out at 3e-5)
// would end a run on noise or never: the run warns once, naming the keys.
TEST(Warnings, SteadyToleranceWithinTheSolverNoise) {
  const auto dir = test::fresh_directory("steady_noise");
  const std::string run = std::string(SCFD_BINARY) + " run " + SCFD_SOURCE_DIR +
                          "/cases/cavity2d/case.toml --set solver.backend=cpu --set time.end=0.1"
                          " --set output.directory='\"" +
                          dir.string() + "\"' --set time.steady_tolerance=1e-6";
  auto r = test::run_command(run + " --set solver.momentum_tolerance=1e-6");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("warning: time.steady_tolerance = 1e-06 is below 10 times the change per "
                       "unit time that the solver tolerances leave as noise"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one warning, once:\n" << r.err;
  r = test::run_command(run);  // the case's tolerances, 1e-9: noise about 6e-8
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("steady_tolerance"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace scfd
