// Host-side #include resolution and driver message rewriting (see kernel_source.hpp).
#include "gl/kernel_source.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <regex>

#include "core/error.hpp"

namespace scfd::gl {
namespace {

std::string normalise(std::string_view name) {
  std::string n(name);
  if (!n.ends_with(".glsl")) n += ".glsl";
  return n;
}

const EmbeddedKernel* find_kernel(std::string_view name) {
  const std::string n = normalise(name);
  for (const EmbeddedKernel& k : embedded_kernels())
    if (k.name == n) return &k;
  return nullptr;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// The quoted file name of an `#include "x.glsl"` line; empty when `line` is not an include.
// Throws CompileError on an include directive without a quoted name.
std::string include_target(std::string_view line, const std::string& where) {
  std::string_view t = trim(line);
  if (!t.starts_with("#")) return {};
  t = trim(t.substr(1));
  if (!t.starts_with("include")) return {};
  t = trim(t.substr(7));
  if (t.size() < 3 || t.front() != '"' || t.back() != '"')
    throw CompileError(
        fmt::format("{}: error: malformed #include (expected #include \"file\")", where));
  return std::string(t.substr(1, t.size() - 2));
}

}  // namespace

std::vector<std::string> compilable_kernels() {
  std::vector<std::string> out;
  for (const EmbeddedKernel& k : embedded_kernels())
    if (!k.include_only) out.emplace_back(k.name);
  return out;
}

std::string_view embedded_text(std::string_view name) {
  const EmbeddedKernel* k = find_kernel(name);
  if (!k) {
    std::string known;
    for (const EmbeddedKernel& e : embedded_kernels()) known += " " + std::string(e.name);
    SCFD_CHECK(false, "no embedded kernel '{}'; embedded:{}", name, known);
  }
  return k->text;
}

void expand_into(ExpandedSource& out, std::string_view name, std::string_view text,
                 std::vector<std::string>& included) {
  const std::string file = "kernels/" + std::string(name);
  included.emplace_back(name);
  int line_no = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    const std::string where = fmt::format("{}:{}", file, line_no);
    const std::string target = include_target(line, where);
    if (target.empty()) {
      out.text.append(line).push_back('\n');
      out.lines.push_back({file, line_no});
      continue;
    }
    const EmbeddedKernel* k = find_kernel(target);
    if (!k)
      throw CompileError(
          fmt::format("{}: error: #include \"{}\": no such file in kernels/", where, target));
    // Keep the line count: the include line becomes an empty line, then the file follows.
    out.text.append("\n");
    out.lines.push_back({file, line_no});
    if (std::find(included.begin(), included.end(), k->name) == included.end())
      expand_into(out, k->name, k->text, included);
  }
}

std::string kernel_source(std::string_view name) {
  ExpandedSource out;
  std::vector<std::string> included;
  expand_into(out, normalise(name), embedded_text(name), included);
  return out.text;
}

std::string rewrite_log(std::string_view log, const std::vector<LineOrigin>& lines,
                        std::string_view kernel) {
  static const std::regex mesa(R"(^\s*\d+:(\d+)\(\d+\):\s*(.*)$)");
  static const std::regex nvidia(R"(^\s*\d+\((\d+)\)\s*:\s*(.*)$)");
  std::string out;
  std::size_t pos = 0;
  while (pos < log.size()) {
    std::size_t end = log.find('\n', pos);
    if (end == std::string_view::npos) end = log.size();
    const std::string line(trim(log.substr(pos, end - pos)));
    pos = end + 1;
    if (line.empty()) continue;
    std::smatch m;
    if (std::regex_match(line, m, mesa) || std::regex_match(line, m, nvidia)) {
      const long n = std::stol(m[1].str());
      if (n >= 1 && static_cast<std::size_t>(n) <= lines.size()) {
        const LineOrigin& o = lines[static_cast<std::size_t>(n - 1)];
        out += fmt::format("{}:{}: {}\n", o.file, o.line, m[2].str());
        continue;
      }
    }
    out += fmt::format("kernels/{}: {}\n", kernel, line);
  }
  if (!out.empty()) out.pop_back();
  return out;
}

}  // namespace scfd::gl
