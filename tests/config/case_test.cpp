// Case accessors, overrides, defaults and the effective configuration (the happy paths).
// case_errors_test.cpp checks every error message.
#include "config/case.hpp"
#include "core/error.hpp"

#include <gtest/gtest.h>

#include <toml++/toml.h>

#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>

namespace scfd::config {
namespace {

constexpr std::string_view kCase = R"toml(# heat in a cube
title = "cube"

[mesh]
file = "cube.msh"
scale = 2

[solver]
tolerance = 1e-8
max_iterations = 500
preconditioner = "jacobi"
verbose = true
origin = [0.0, 1, 2.5]
fields = ["T", "q"]
steps = [10, 20]

[time]
scheme = "crank-nicolson"
dt = 0.5

[initial]
T = "sin(pi*x) * exp(-t)"
q = 3

[boundary.inlet]
type = "dirichlet"
[boundary.walls]
type = "neumann"
[boundary.outlet]
type = "dirichlet"
)toml";

Case sample(const std::vector<std::string>& overrides = {}) {
  return Case::from_string(kCase, "cases/cube/case.toml", overrides);
}

TEST(Case, RequireReadsEachType) {
  const Case c = sample();
  EXPECT_EQ(c.require<std::string>("title"), "cube");
  EXPECT_EQ(c.require<double>("solver.tolerance"), 1e-8);
  EXPECT_EQ(c.require<int>("solver.max_iterations"), 500);
  EXPECT_EQ(c.require<long long>("solver.max_iterations"), 500);
  EXPECT_TRUE(c.require<bool>("solver.verbose"));
  EXPECT_EQ(c.require<std::vector<double>>("solver.origin"), (std::vector<double>{0.0, 1.0, 2.5}));
  EXPECT_EQ(c.require<std::vector<std::string>>("solver.fields"),
            (std::vector<std::string>{"T", "q"}));
  EXPECT_EQ(c.require<std::vector<long long>>("solver.steps"), (std::vector<long long>{10, 20}));
}

TEST(Case, IntegersAreNumbersAndIntegralFloatsAreIntegers) {
  const Case c = Case::from_string("a = 2\nb = 3.0\nc = [1, 2]", "t.toml");
  EXPECT_EQ(c.require<double>("a"), 2.0);
  EXPECT_EQ(c.require<int>("b"), 3);
  EXPECT_EQ(c.require<std::vector<double>>("c"), (std::vector<double>{1.0, 2.0}));
}

TEST(Case, PathAndDirectory) {
  const Case c = sample();
  EXPECT_EQ(c.path(), "cases/cube/case.toml");
  EXPECT_EQ(c.directory(), std::filesystem::path("cases/cube"));
  EXPECT_EQ(Case::from_string("", "case.toml").directory(), std::filesystem::path("."));
}

TEST(Case, HasDoesNotCountAsUse) {
  const Case c = Case::from_string("a = 1\n[s]\nb = 2\n", "t.toml");
  EXPECT_TRUE(c.has("a"));
  EXPECT_TRUE(c.has("s"));
  EXPECT_TRUE(c.has("s.b"));
  EXPECT_FALSE(c.has("s.c"));
  EXPECT_FALSE(c.has("a.b"));  // below a non-table
  EXPECT_THROW(c.check_all_used(), InputError);
}

TEST(Case, GetReturnsValueOrDefault) {
  const Case c = sample();
  EXPECT_EQ(c.get("solver.tolerance", 1e-3), 1e-8);
  EXPECT_EQ(c.get("solver.restart", 30), 30);
  EXPECT_EQ(c.get("solver.relax", 0.7), 0.7);
  EXPECT_EQ(c.get("solver.backend", "auto"), "auto");
  EXPECT_EQ(c.get("output.vtk", false), false);
  EXPECT_EQ(c.get("output.fields", std::vector<std::string>{"T"}), std::vector<std::string>{"T"});
  EXPECT_EQ(c.get<long long>("output.every", 10), 10);
}

TEST(Case, ChoiceAcceptsValidValuesAndDefaults) {
  const Case c = sample();
  constexpr std::array<std::string_view, 2> kSchemes{"backward-euler", "crank-nicolson"};
  EXPECT_EQ(c.choice("time.scheme", kSchemes), "crank-nicolson");
  EXPECT_EQ(c.choice("solver.preconditioner", {"none", "jacobi"}), "jacobi");
  EXPECT_EQ(c.choice("solver.backend", {"auto", "cpu"}, "auto"), "auto");
  EXPECT_NE(c.effective_toml().find("backend = \"auto\""), std::string::npos);
}

TEST(Case, TableKeysInFileOrder) {
  const Case c = sample();
  EXPECT_EQ(c.table_keys("boundary"), (std::vector<std::string>{"inlet", "walls", "outlet"}));
  EXPECT_EQ(c.table_keys("initial"), (std::vector<std::string>{"T", "q"}));
  EXPECT_TRUE(c.table_keys("probes").empty());
  EXPECT_EQ(c.table_keys("").front(), "title");
}

TEST(Case, FunctionsAreFormulasOrNumbers) {
  const Case c = sample();
  const Expression T = c.function("initial.T");
  EXPECT_FALSE(T.is_constant());
  EXPECT_DOUBLE_EQ(T(0.5, 0, 0, 1), std::exp(-1.0));
  const Expression q = c.function("initial.q");
  EXPECT_TRUE(q.is_constant());
  EXPECT_EQ(q(0, 0, 0, 0), 3.0);
  const Expression s = c.function("source", 0.0);
  EXPECT_TRUE(s.is_constant());
  EXPECT_EQ(s(1, 1, 1, 1), 0.0);
  EXPECT_NE(c.effective_toml().find("source = 0.0"), std::string::npos);
  EXPECT_FALSE(c.function("initial.T", 1.0).is_constant());  // present: default unused
}

// Reads every key of kCase, as a model would.
void read_everything(const Case& c) {
  (void)c.require<std::string>("title");
  (void)c.require<std::string>("mesh.file");
  (void)c.get("mesh.scale", 1.0);
  (void)c.require<double>("solver.tolerance");
  (void)c.get("solver.max_iterations", 100);
  (void)c.get("solver.preconditioner", "none");
  (void)c.get("solver.verbose", false);
  (void)c.require<std::vector<double>>("solver.origin");
  (void)c.require<std::vector<std::string>>("solver.fields");
  (void)c.require<std::vector<long long>>("solver.steps");
  (void)c.choice("time.scheme", {"backward-euler", "crank-nicolson"});
  (void)c.require<double>("time.dt");
  for (const std::string& name : c.table_keys("initial")) (void)c.function("initial." + name);
  for (const std::string& patch : c.table_keys("boundary"))
    (void)c.require<std::string>("boundary." + patch + ".type");
}

TEST(Case, CheckAllUsedPassesWhenEverythingIsRead) {
  const Case c = sample();
  read_everything(c);
  EXPECT_NO_THROW(c.check_all_used());
}

TEST(Case, EmptyTableListedByTableKeysIsUsed) {
  const Case c = Case::from_string("[probes]\n", "t.toml");
  EXPECT_TRUE(c.table_keys("probes").empty());
  EXPECT_NO_THROW(c.check_all_used());
}

TEST(Case, OverridesReplaceAddAndCreateTables) {
  const Case c = sample({"solver.tolerance=1e-10", "solver.restart = 40", "output.vtk.every=5",
                         "solver.backend=cpu", "time.scheme=\"backward-euler\"",
                         "solver.origin=[1,2,3]", "limits={low = -1, high = 1}"});
  EXPECT_EQ(c.require<double>("solver.tolerance"), 1e-10);
  EXPECT_EQ(c.require<int>("solver.restart"), 40);
  EXPECT_EQ(c.require<int>("output.vtk.every"), 5);
  EXPECT_EQ(c.require<std::string>("solver.backend"), "cpu");  // bare string
  EXPECT_EQ(c.require<std::string>("time.scheme"), "backward-euler");
  EXPECT_EQ(c.require<std::vector<double>>("solver.origin"), (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(c.require<double>("limits.low"), -1.0);
  EXPECT_EQ(c.table_keys("limits").size(), 2u);
  EXPECT_EQ(c.require<double>("time.dt"), 0.5);  // untouched
}

TEST(Case, OverrideValuesThatAreNotOneTomlValueAreStrings) {
  const Case c = Case::from_string("", "t.toml", {"a.b=hello world", "a.c=", "a.d=1\nx = 2"});
  EXPECT_EQ(c.require<std::string>("a.b"), "hello world");
  EXPECT_EQ(c.require<std::string>("a.c"), "");
  EXPECT_EQ(c.require<std::string>("a.d"), "1\nx = 2");
  EXPECT_FALSE(c.has("x"));
}

// Names of user-named tables (mesh patches) can be any text; keys quote them as TOML does.
TEST(Case, KeySegmentsQuoteWhatTomlCannotWriteBare) {
  EXPECT_EQ(key_segment("lid"), "lid");
  EXPECT_EQ(key_segment("side walls"), "'side walls'");
  EXPECT_EQ(key_segment("a.b"), "'a.b'");
  EXPECT_EQ(key_segment(""), "''");
  EXPECT_EQ(key_segment("a\\b\tc"), "'a\\b\tc'");
  EXPECT_EQ(key_segment("it's"), "\"it's\"");
  EXPECT_EQ(key_segment("it's \"x\"\n"), "\"it's \\\"x\\\"\\u000A\"");
}

TEST(Case, QuotedKeysInFileAndOverridesAreOneKey) {
  const Case c = Case::from_string(
      "[boundary.'side walls']\ntype = 'wall'\n[boundary.\"it's\"]\ntype = 'x'\n"
      "[boundary.'']\ntype = 'y'\n[boundary.'a.b']\ntype = 'z'\n",
      "t.toml", {"boundary.\"side walls\".type=moving", "boundary.\"a\\u002eb\".extra=1"});
  EXPECT_EQ(c.table_keys("boundary"), (std::vector<std::string>{"side walls", "it's", "", "a.b"}));
  auto key = [](std::string_view name, std::string_view leaf) {
    return "boundary." + key_segment(name) + "." + std::string(leaf);
  };
  EXPECT_EQ(c.require<std::string>(key("side walls", "type")), "moving");
  EXPECT_EQ(c.require<std::string>(key("it's", "type")), "x");
  EXPECT_EQ(c.require<std::string>(key("", "type")), "y");
  EXPECT_EQ(c.require<std::string>(key("a.b", "type")), "z");
  EXPECT_EQ(c.require<int>(key("a.b", "extra")), 1);
  EXPECT_NO_THROW(c.check_all_used());
  EXPECT_NE(c.effective_toml().find("[boundary.\"a.b\"]"), std::string::npos);
}

TEST(Case, EffectiveTomlHasFileOverridesAndDefaults) {
  const Case c = sample({"solver.tolerance=1e-10", "output.dir=out"});
  read_everything(c);
  (void)c.get("solver.restart", 30);
  (void)c.get("solver.relax", 0.7);
  (void)c.get("output.every", 10);
  (void)c.get("output.fields", std::vector<std::string>{"T", "q"});
  (void)c.get("output.origin", std::vector<double>{0.5, 1e-300});
  (void)c.get("gpu.enabled", true);
  (void)c.require<std::string>("output.dir");
  const std::string text = c.effective_toml();
  const toml::table t = toml::parse(text);
  EXPECT_EQ(t["title"].value<std::string>(), "cube");
  EXPECT_EQ(t["mesh"]["scale"].value<std::int64_t>(), 2);
  EXPECT_EQ(t["solver"]["tolerance"].value<double>(), 1e-10);
  EXPECT_EQ(t["solver"]["restart"].value<std::int64_t>(), 30);
  EXPECT_EQ(t["solver"]["relax"].value<double>(), 0.7);
  EXPECT_EQ(t["solver"]["max_iterations"].value<std::int64_t>(), 500);
  EXPECT_EQ(t["output"]["dir"].value<std::string>(), "out");
  EXPECT_EQ(t["output"]["every"].value<std::int64_t>(), 10);
  EXPECT_EQ(t["output"]["fields"][1].value<std::string>(), "q");
  EXPECT_EQ(t["output"]["origin"][1].value<double>(), 1e-300);
  EXPECT_EQ(t["gpu"]["enabled"].value<bool>(), true);
  EXPECT_EQ(t["initial"]["T"].value<std::string>(), "sin(pi*x) * exp(-t)");
  EXPECT_EQ(t["boundary"]["walls"]["type"].value<std::string>(), "neumann");
  EXPECT_NE(text.find("relax = 0.7\n"), std::string::npos) << text;  // shortest round-trip
  // Reading the effective configuration back gives the same configuration.
  const Case again = Case::from_string(text, "effective.toml");
  EXPECT_EQ(again.effective_toml(), text);
}

TEST(Case, EffectiveTomlRoundTripsEveryKindOfValue) {
  constexpr std::string_view kAll = R"toml(
"quoted key" = 1
empty = []
floats = [0.1, 1e300, -2.0, inf, nan]
when = 2024-05-01T12:30:00Z
day = 2024-05-01
text = "tab\there \"quoted\" ünï"
inline = { a = 1, b = { c = [1, 2] } }
[[probe]]
at = [0.5, 0.5]
[[probe]]
at = [0.25, 0.75]
[empty_table]
[a.b.c]
d = true
)toml";
  const Case c = Case::from_string(kAll, "all.toml");
  const std::string text = c.effective_toml();
  const toml::table original = toml::parse(kAll);
  const toml::table again = toml::parse(text);
  // nan != nan, so compare everything but the nan, then the nan.
  EXPECT_TRUE(std::isnan(again["floats"][4].value_or(0.0))) << text;
  toml::table a = original, b = again;
  a["floats"].as_array()->erase(a["floats"].as_array()->begin() + 4);
  b["floats"].as_array()->erase(b["floats"].as_array()->begin() + 4);
  EXPECT_EQ(a, b) << text;
  EXPECT_EQ(Case::from_string(text, "e.toml").effective_toml(), text);
}

TEST(Case, LoadReadsAFileAndResolvesPathsNextToIt) {
  const std::filesystem::path dir = std::filesystem::path(testing::TempDir()) / "scfd_case_load";
  std::filesystem::create_directories(dir / "meshes");
  std::ofstream(dir / "meshes" / "cube.msh") << "$MeshFormat\n";
  std::ofstream(dir / "case.toml") << "[mesh]\nfile = \"meshes/cube.msh\"\n";
  const Case c = Case::load((dir / "case.toml").string(), {"mesh.scale=3"});
  EXPECT_EQ(c.directory(), dir);
  EXPECT_EQ(c.resolve_path("mesh.file"), dir / "meshes" / "cube.msh");
  EXPECT_EQ(c.require<double>("mesh.scale"), 3.0);
  EXPECT_NO_THROW(c.check_all_used());
}

}  // namespace
}  // namespace scfd::config
