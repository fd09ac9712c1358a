// The fixed tables of the case file (app/case_keys.hpp): every key the sources read in them is
// listed, and every listed key is read somewhere (found as a string literal "table.key" in
// src/); a misspelt key there is reported before the mesh is made.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <string>

#include "app/case_keys.hpp"
#include "common/run_command.hpp"

namespace scfd::app {
namespace {

// table -> the names the sources read below it ("solver" -> {"backend", ...}).
std::map<std::string, std::set<std::string>> keys_in_sources() {
  std::string tables;
  for (const FixedTable& t : fixed_tables())
    tables += (tables.empty() ? "" : "|") + std::string(t.name);
  const std::regex literal("\"(" + tables + ")\\.([a-z_]+)");
  std::map<std::string, std::set<std::string>> found;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(std::string(SCFD_SOURCE_DIR) + "/src")) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".cpp" && ext != ".hpp") continue;
    const std::string text = test::slurp(entry.path());
    for (auto it = std::sregex_iterator(text.begin(), text.end(), literal);
         it != std::sregex_iterator(); ++it)
      found[(*it)[1].str()].insert((*it)[2].str());
  }
  return found;
}

TEST(CaseKeys, ListEveryKeyTheSourcesReadAndNoOther) {
  auto found = keys_in_sources();
  for (const FixedTable& t : fixed_tables()) {
    EXPECT_TRUE(std::is_sorted(t.keys.begin(), t.keys.end())) << t.name;
    const std::set<std::string> listed(t.keys.begin(), t.keys.end());
    for (const std::string& k : found[std::string(t.name)])
      EXPECT_TRUE(listed.contains(k)) << t.name << "." << k << " is read but not listed";
    for (const std::string& k : listed)
      EXPECT_TRUE(found[std::string(t.name)].contains(k))
          << t.name << "." << k << " is listed but never read";
  }
}

// 48 billion cells would be refused too, later: the misspelt key is what the run reports.
TEST(CaseKeys, AMisspeltKeyFailsBeforeTheMesh) {
  const auto r = test::run_command(std::string("'") + SCFD_BINARY + "' run '" + SCFD_SOURCE_DIR +
                                   "/cases/cavity-box/case.toml' --set "
                                   "'mesh.divisions=[4000,4000,3000]' --set "
                                   "solver.momentum_tolerence=1e-6");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("unknown key 'solver.momentum_tolerence' (did you mean "
                       "'solver.momentum_tolerance'?)"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace scfd::app
