// Every broken case file in tests/data/bad-cases/ must stop `streamcfd run` with exit code 2 and
// exactly one line on stderr that names the case file and says what is wrong.
#include <gtest/gtest.h>

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

TEST(BadCommandLine, MissingCaseFile) {
  const auto r = test::run_command(std::string(SCFD_BINARY) + " run /nonexistent/case.toml");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("/nonexistent/case.toml"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace scfd
