// Every kind of case-file error and its one-line message (docs/architecture.md §8.5): the file, the
// line (or the --set override), the dotted key, the bad value and what was expected.
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <functional>

#include "config/case.hpp"
#include "core/error.hpp"

namespace scfd::config {
namespace {

// The InputError message `f` throws (fails the test when it does not throw).
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << "not one line: " << message;
    return message;
  }
  ADD_FAILURE() << "no InputError thrown";
  return {};
}

constexpr std::string_view kCase = R"toml([mesh]
file = "cube.msh"

[solver]
tolerance = "small"
max_iterations = 2.5
verbose = "yes"
big = 3000000000
origin = [0, "a", 2]

[time]
scheme = "crank-nicholson"
dt = 1

[initial]
T = "sin(pi*x"
flag = true
)toml";

Case sample(const std::vector<std::string>& overrides = {}) {
  return Case::from_string(kCase, "cases/x/case.toml", overrides);
}

TEST(CaseErrors, WrongType) {
  const Case c = sample();
  EXPECT_EQ(error_of([&] { (void)c.require<double>("solver.tolerance"); }),
            "cases/x/case.toml:5: solver.tolerance: expected a number, got string \"small\"");
  EXPECT_EQ(error_of([&] { (void)c.get("solver.max_iterations", 10); }),
            "cases/x/case.toml:6: solver.max_iterations: expected an integer, got float 2.5");
  EXPECT_EQ(error_of([&] { (void)c.require<bool>("solver.verbose"); }),
            "cases/x/case.toml:7: solver.verbose: expected true or false, got string \"yes\"");
  EXPECT_EQ(error_of([&] { (void)c.require<int>("solver.big"); }),
            "cases/x/case.toml:8: solver.big: expected an integer in [-2147483648, 2147483647], "
            "got integer 3000000000");
  EXPECT_EQ(error_of([&] { (void)c.require<std::string>("time.dt"); }),
            "cases/x/case.toml:13: time.dt: expected a string, got integer 1");
  EXPECT_EQ(error_of([&] { (void)c.require<std::vector<double>>("solver.origin"); }),
            "cases/x/case.toml:9: solver.origin[1]: expected a number, got string \"a\"");
  EXPECT_EQ(error_of([&] { (void)c.require<std::vector<std::string>>("time.dt"); }),
            "cases/x/case.toml:13: time.dt: expected an array of strings, got integer 1");
  EXPECT_EQ(error_of([&] { (void)c.require<double>("solver"); }),
            "cases/x/case.toml:4: solver: expected a number, got a table (keys big, "
            "max_iterations, origin, tolerance, verbose)");
  EXPECT_EQ(error_of([&] { (void)c.require<double>("mesh.file.name"); }),
            "cases/x/case.toml:2: mesh.file: expected a table holding 'mesh.file.name', got "
            "string \"cube.msh\"");
}

TEST(CaseErrors, MissingRequiredKey) {
  const Case c = Case::from_string("[mesh]\nscale = 1\n", "cases/x/case.toml");
  EXPECT_EQ(error_of([&] { (void)c.require<std::string>("mesh.file"); }),
            "cases/x/case.toml: missing required key 'mesh.file'");
  EXPECT_EQ(error_of([&] {
              (void)c.choice("time.scheme", {"a", "b"});
            }),
            "cases/x/case.toml: missing required key 'time.scheme'");
  EXPECT_EQ(error_of([&] { (void)c.function("source"); }),
            "cases/x/case.toml: missing required key 'source'");
  const Case d = Case::from_string("[mesh]\nfiel = \"a.msh\"\n", "c.toml", {"tolerence=1"});
  EXPECT_EQ(error_of([&] { (void)d.require<std::string>("mesh.file"); }),
            "c.toml: missing required key 'mesh.file' (found 'mesh.fiel' at line 2)");
  EXPECT_EQ(error_of([&] { (void)d.require<double>("tolerance"); }),
            "c.toml: missing required key 'tolerance' (found 'tolerence')");
}

TEST(CaseErrors, InvalidChoiceListsValidValuesAndSuggests) {
  const Case c = sample();
  constexpr std::array<std::string_view, 2> kSchemes{"backward-euler", "crank-nicolson"};
  EXPECT_EQ(error_of([&] { (void)c.choice("time.scheme", kSchemes); }),
            "cases/x/case.toml:12: time.scheme: 'crank-nicholson' is not valid (valid: "
            "backward-euler, crank-nicolson; did you mean 'crank-nicolson'?)");
  const Case d = Case::from_string("backend = \"cuda\"\n", "c.toml");
  EXPECT_EQ(error_of([&] {
              (void)d.choice("backend", {"auto", "cpu", "gl-compute"});
            }),
            "c.toml:1: backend: 'cuda' is not valid (valid: auto, cpu, gl-compute)");
  const Case e = Case::from_string("", "c.toml", {"backend=fast"});
  EXPECT_EQ(error_of([&] {
              (void)e.choice("backend", {"auto", "cpu"}, "auto");
            }),
            "c.toml: --set backend=fast: backend: 'fast' is not valid (valid: auto, cpu)");
}

TEST(CaseErrors, UnknownKeySuggestsTheNearestQueriedKey) {
  const Case c = Case::from_string(
      "[solver]\ntolerance = 1\ntolerence = 2\n[solvr]\nmax_iterations = 3\n", "case.toml");
  (void)c.get("solver.tolerance", 1.0);
  (void)c.get("solver.max_iterations", 10);
  EXPECT_EQ(error_of([&] { c.check_all_used(); }),
            "case.toml:3: unknown key 'solver.tolerence' (did you mean 'solver.tolerance'?); "
            "also unknown: solvr.max_iterations");
  (void)c.get("solver.tolerence", 1.0);
  EXPECT_EQ(error_of([&] { c.check_all_used(); }),
            "case.toml:5: unknown key 'solvr.max_iterations' (did you mean "
            "'solver.max_iterations'?)");
}

TEST(CaseErrors, UnknownKeyListsTheTableWhenNothingIsClose) {
  const Case c = Case::from_string("[solver]\ntolerance = 1\nzzz = 2\n", "case.toml");
  (void)c.get("solver.tolerance", 1.0);
  (void)c.get("solver.max_iterations", 10);
  EXPECT_EQ(error_of([&] { c.check_all_used(); }),
            "case.toml:3: unknown key 'solver.zzz' (valid keys in [solver]: max_iterations, "
            "tolerance)");
  const Case d = Case::from_string("title = \"x\"\nwhatever = 1\n", "case.toml");
  (void)d.get("title", "");
  (void)d.get("mesh.file", "");
  EXPECT_EQ(error_of([&] { d.check_all_used(); }),
            "case.toml:2: unknown key 'whatever' (valid top-level keys: mesh, title)");
}

// check_known_keys: the same message from a list of names, before any key is read; the file's
// keys first, then the overrides'; other tables and the known names pass.
TEST(CaseErrors, KnownKeysOfAFixedTable) {
  using namespace std::string_view_literals;
  constexpr std::array known = {"max_iterations"sv, "tolerance"sv};
  const Case c = Case::from_string("[solver]\ntolerance = 1\n[time]\nzzz = 1\n", "case.toml",
                                   {"solver.tolerence=2", "solver.zzz=3"});
  EXPECT_EQ(error_of([&] { c.check_known_keys("solver", known); }),
            "case.toml: --set solver.tolerence=2: unknown key 'solver.tolerence' (did you mean "
            "'solver.tolerance'?)");
  const Case d = Case::from_string("[solver]\ntolerance = 1\nzzz = 2\n", "case.toml");
  EXPECT_EQ(error_of([&] { d.check_known_keys("solver", known); }),
            "case.toml:3: unknown key 'solver.zzz' (valid keys in [solver]: max_iterations, "
            "tolerance)");
  EXPECT_NO_THROW(d.check_known_keys("time", known));
  const Case e = Case::from_string("[solver]\ntolerance = 1\n", "case.toml");
  EXPECT_NO_THROW(e.check_known_keys("solver", known));
}

TEST(CaseErrors, UnknownKeysInUserNamedTables) {
  const Case c = Case::from_string(
      "[boundary.inlet]\ntype = \"wall\"\n[boundary.outlet]\ntpye = \"wall\"\n", "case.toml");
  for (const std::string& patch : c.table_keys("boundary"))
    (void)c.get("boundary." + patch + ".type", "wall");
  EXPECT_EQ(error_of([&] { c.check_all_used(); }),
            "case.toml:4: unknown key 'boundary.outlet.tpye' (did you mean "
            "'boundary.outlet.type'?)");
}

TEST(CaseErrors, UnknownEmptyTableAndUnknownOverride) {
  const Case c = Case::from_string("[solver]\n[outptu]\n", "case.toml", {"solver.tol=1"});
  (void)c.get("output.every", 1);
  (void)c.get("solver.tolerance", 1.0);
  EXPECT_EQ(error_of([&] { c.check_all_used(); }),
            "case.toml:2: unknown key 'outptu' (did you mean 'output'?); also unknown: "
            "solver.tol");
  (void)c.table_keys("outptu");
  EXPECT_EQ(error_of([&] { c.check_all_used(); }),
            "case.toml: --set solver.tol=1: unknown key 'solver.tol' (valid keys in [solver]: "
            "tolerance)");
}

TEST(CaseErrors, OverrideErrorsNameTheOverride) {
  EXPECT_EQ(error_of([] { (void)Case::from_string("", "c.toml", {"solver.tolerance"}); }),
            "--set solver.tolerance: expected dotted.key=value");
  EXPECT_EQ(error_of([] { (void)Case::from_string("", "c.toml", {"=3"}); }),
            "--set =3: empty key (expected dotted.key=value)");
  EXPECT_EQ(error_of([] { (void)Case::from_string("", "c.toml", {"a..b=3"}); }),
            "--set a..b=3: invalid key 'a..b' (expected names of letters, digits, '_' or '-', "
            "or quoted names, joined by '.')");
  EXPECT_EQ(error_of([] { (void)Case::from_string("", "c.toml", {"a.'b=3"}); }),
            "--set a.'b=3: invalid key 'a.'b' (expected names of letters, digits, '_' or '-', "
            "or quoted names, joined by '.')");
  EXPECT_EQ(error_of([] { (void)Case::from_string("a = 1\n", "c.toml", {"a.b=3"}); }),
            "--set a.b=3: cannot set 'a.b': c.toml:1: 'a' is integer 1, not a table");
  const Case c =
      Case::from_string("[solver]\ntolerance = 1\n", "c.toml", {"solver.tolerance=small"});
  EXPECT_EQ(error_of([&] { (void)c.require<double>("solver.tolerance"); }),
            "c.toml: --set solver.tolerance=small: solver.tolerance: expected a number, got "
            "string \"small\"");
}

// Keys in messages are cut and their control characters escaped: one line of bounded length.
TEST(CaseErrors, LongAndControlCharacterKeysStayOnOneShortLine) {
  const std::string long_key(100000, 'k');
  const std::string message =
      error_of([&] { Case::from_string(long_key + " = 1\n", "c.toml").check_all_used(); });
  EXPECT_LT(message.size(), 300u) << message;
  EXPECT_NE(message.find("(100000 characters)"), std::string::npos) << message;
  const std::string escaped =
      error_of([] { Case::from_string("\"a\\nb\\u001b[31m\" = 1\n", "c.toml").check_all_used(); });
  EXPECT_EQ(escaped, "c.toml:1: unknown key '\"a\\u000Ab\\u001B[31m\"'") << escaped;
}

TEST(CaseErrors, TomlSyntaxErrorNamesTheLine) {
  const std::string message = error_of(
      [] { (void)Case::from_string("[solver]\ntolerance = 1\nmax = = 3\n", "cases/x/case.toml"); });
  EXPECT_EQ(message.rfind("cases/x/case.toml:3: ", 0), 0u) << message;
  const std::string dup =
      error_of([] { (void)Case::from_string("a = 1\nb = 2\na = 3\n", "c.toml"); });
  EXPECT_EQ(dup.rfind("c.toml:3: ", 0), 0u) << dup;
}

TEST(CaseErrors, UnreadableFile) {
  EXPECT_EQ(error_of([] { (void)Case::load("no/such/case.toml"); }),
            "no/such/case.toml: cannot read (no such file)");
  const std::string dir = testing::TempDir();
  EXPECT_EQ(error_of([&] { (void)Case::load(dir); }), dir + ": cannot read (not a regular file)");
}

TEST(CaseErrors, MissingFileForResolvePath) {
  const Case c = sample();
  EXPECT_EQ(error_of([&] { (void)c.resolve_path("mesh.file"); }),
            "cases/x/case.toml:2: mesh.file: file 'cube.msh' not found (looked for "
            "'cases/x/cube.msh')");
}

TEST(CaseErrors, FormulaErrorsNameTheKey) {
  const Case c = sample();
  EXPECT_EQ(error_of([&] { (void)c.function("initial.T"); }),
            "cases/x/case.toml:16: initial.T: in formula 'sin(pi*x': expected ')' at column 9");
  EXPECT_EQ(error_of([&] { (void)c.function("initial.flag", 1.0); }),
            "cases/x/case.toml:17: initial.flag: expected a number or a formula string, got "
            "boolean true");
}

TEST(CaseErrors, FailReportsSemanticErrorsInTheSameFormat) {
  const Case c = Case::from_string("[boundary.inlt]\ntype = \"wall\"\n", "case.toml");
  const std::vector<std::string> patches{"inlet", "outlet"};
  for (const std::string& name : c.table_keys("boundary")) {
    const std::string near = nearest(name, patches);
    EXPECT_EQ(error_of([&] {
                c.fail("boundary." + name,
                       "no patch '" + name + "' in the mesh (did you mean '" + near + "'?)");
              }),
              "case.toml:1: boundary.inlt: no patch 'inlt' in the mesh (did you mean 'inlet'?)");
  }
  EXPECT_EQ(error_of([&] { c.fail("absent.key", "bad"); }), "case.toml: absent.key: bad");
}

}  // namespace
}  // namespace scfd::config
