// Regression: every case folder under cases/ with an expected.txt is run with the documented
// command (`streamcfd run cases/NAME/case.toml`), and each figure of its run summary must match
// the stored value within the stored absolute tolerance (docs/architecture.md §8.7).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/json_number.hpp"
#include "common/run_command.hpp"

namespace scfd {
namespace {

const std::filesystem::path kCases = std::filesystem::path(SCFD_SOURCE_DIR) / "cases";

class CaseRegression : public ::testing::TestWithParam<std::string> {};

TEST_P(CaseRegression, FiguresMatchExpected) {
  const std::filesystem::path folder = kCases / GetParam();
  const auto out = test::fresh_directory("regression");
  const auto r =
      test::run_command(std::string(SCFD_BINARY) + " run " + (folder / "case.toml").string() +
                        " --quiet --set output.directory=" + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::filesystem::path summary;
  for (const auto& e : std::filesystem::directory_iterator(out))
    if (e.path().string().ends_with("_summary.json")) summary = e.path();
  ASSERT_FALSE(summary.empty()) << "no summary in " << out;
  const std::string json = test::slurp(summary);

  std::ifstream expected(folder / "expected.txt");
  std::string line;
  int checked = 0;
  while (std::getline(expected, line)) {
    std::istringstream in(line);
    std::string name;
    double value = 0, tolerance = 0;
    if (!(in >> name) || name[0] == '#') continue;
    ASSERT_TRUE(in >> value >> tolerance) << "bad line in expected.txt: " << line;
    const double got = test::json_number(json, name);
    EXPECT_NEAR(got, value, tolerance) << GetParam() << ": " << name;
    ++checked;
  }
  EXPECT_GT(checked, 0);
  std::filesystem::remove_all(out);
}

std::vector<std::string> cases_with_figures() {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(kCases))
    if (std::filesystem::exists(e.path() / "expected.txt"))
      names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

INSTANTIATE_TEST_SUITE_P(Cases, CaseRegression, ::testing::ValuesIn(cases_with_figures()),
                         [](const auto& param_info) {
                           std::string n = param_info.param;
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

}  // namespace
}  // namespace scfd
