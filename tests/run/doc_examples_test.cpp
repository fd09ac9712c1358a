// Every example of `streamcfd run` that the documentation shows must be accepted as written:
//  - each `streamcfd run PATH ...` line of a ```sh block in README.md and docs/**/*.md, and each
//    such line in the comments of cases/*/case.toml, runs with --dry-run (the case, the mesh, the
//    overrides and the model set-up are checked; nothing is computed) from the repository root;
//  - each inline `--set key=value` of that documentation is accepted (--dry-run) by at least one
//    case of cases/ (the first that accepts it is enough: `fluid.reynolds=400` is a cavity key).
// Lines with placeholders in capitals (CASE.toml, MESH) are synopses, not examples; `--set
// dotted.key=value` and `--set section.key=value` are the syntax itself. The folders of
// docs/bench/ are left out (docs/bench/README.md is not): their READMEs record device runs, whose
// overrides name meshes of millions of cells, and a dry run sets the model up
// (`mesh.divisions=[111,111,111]` took minutes and was killed in CI); docs/scaling.md holds the
// commands of the studies.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "common/run_command.hpp"

namespace scfd {
namespace {

namespace fs = std::filesystem;

const fs::path kRoot = SCFD_SOURCE_DIR;

std::vector<fs::path> documentation() {
  std::vector<fs::path> files = {kRoot / "README.md"};
  for (auto f = fs::recursive_directory_iterator(kRoot / "docs");
       f != fs::recursive_directory_iterator(); ++f) {
    if (f->is_directory() && f->path().parent_path() == kRoot / "docs" / "bench")
      f.disable_recursion_pending();
    if (f->path().extension() == ".md") files.push_back(f->path());
  }
  return files;
}

// `streamcfd run` lines of the ```sh blocks of a Markdown file (or of the comments of a case).
std::vector<std::string> run_lines(const fs::path& file, bool comments) {
  std::vector<std::string> lines;
  std::istringstream text(test::slurp(file));
  bool in_sh = false;
  static const std::regex run(R"(^(#\s*)?streamcfd run (\S+)(.*)$)");
  for (std::string line; std::getline(text, line);) {
    if (line.rfind("```", 0) == 0) {
      in_sh = !in_sh && line == "```sh";
      continue;
    }
    std::smatch m;
    if ((in_sh || comments) && std::regex_match(line, m, run) && (in_sh || m[1].matched) &&
        !std::regex_search(line, std::regex("[A-Z]{3,}")))
      lines.push_back("run " + m[2].str() + m[3].str());
  }
  return lines;
}

std::string dry_run(const std::string& arguments) {
  const auto r = test::run_command("cd '" + kRoot.string() + "' && " + SCFD_BINARY + " " +
                                   arguments + " --dry-run --quiet");
  return r.exit_code == 0 ? std::string()
         : r.err.empty()  ? "exit " + std::to_string(r.exit_code)
                          : r.err;
}

TEST(DocumentedExamples, EveryRunLineIsAccepted) {
  std::vector<std::pair<fs::path, std::string>> examples;
  for (const fs::path& doc : documentation())
    for (const std::string& line : run_lines(doc, false)) examples.emplace_back(doc, line);
  for (const auto& c : fs::directory_iterator(kRoot / "cases"))
    for (const std::string& line : run_lines(c.path() / "case.toml", true))
      examples.emplace_back(c.path() / "case.toml", line);
  EXPECT_GE(examples.size(), 4u);
  for (const auto& [file, line] : examples) {
    const std::string error = dry_run(line);
    EXPECT_EQ(error, "") << file.string() << ": streamcfd " << line;
  }
}

TEST(DocumentedExamples, EveryInlineOverrideIsAccepted) {
  static const std::regex inline_set(R"(`--set ([^`]+)`)");
  std::vector<fs::path> cases;
  for (const auto& c : fs::directory_iterator(kRoot / "cases")) cases.push_back(c.path());
  std::sort(cases.begin(), cases.end());
  int checked = 0;
  for (const fs::path& doc : documentation()) {
    const std::string text = test::slurp(doc);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), inline_set);
         it != std::sregex_iterator(); ++it) {
      const std::string set = (*it)[1].str();
      if (set.find("key=value") != std::string::npos) continue;  // the syntax itself
      std::string last_error;
      bool accepted = false;
      for (const fs::path& c : cases) {
        last_error = dry_run("run " + (c / "case.toml").string() + " --set " + set);
        if ((accepted = last_error.empty())) break;
      }
      EXPECT_TRUE(accepted) << doc.string() << ": --set " << set << "\n" << last_error;
      ++checked;
    }
  }
  EXPECT_GE(checked, 5);
}

}  // namespace
}  // namespace scfd
