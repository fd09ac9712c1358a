// Writes ParaView's .pvd time-series format (VTK XML Collection), e.g.
//   <VTKFile type="Collection" version="0.1" byte_order="LittleEndian">
//     <Collection>
//       <DataSet timestep="0.5" group="" part="0" file="heat_000010.vtu"/>
//     </Collection>
//   </VTKFile>
#include "output/pvd.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

namespace scfd::output {

std::string xml_escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string pvd_text(const std::vector<PvdEntry>& entries) {
  std::string out =
      "<?xml version=\"1.0\"?>\n"
      "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
      "  <Collection>\n";
  for (const PvdEntry& e : entries) {
    // fmt's "{}" for double is the shortest text that reads back to the same value.
    out += fmt::format("    <DataSet timestep=\"{}\" group=\"\" part=\"{}\" file=\"{}\"/>\n",
                       e.time, e.part, xml_escape(e.file));
  }
  out += "  </Collection>\n</VTKFile>\n";
  return out;
}

namespace {

std::string xml_unescape(std::string s) {
  static constexpr std::pair<const char*, char> entities[] = {
      {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}, {"&amp;", '&'}};
  for (const auto& [entity, c] : entities)
    for (std::size_t at = s.find(entity); at != std::string::npos; at = s.find(entity, at + 1))
      s.replace(at, std::string_view(entity).size(), 1, c);
  return s;
}

// The value of attribute NAME in ELEMENT, or nullopt.
std::optional<std::string> attribute(std::string_view element, const std::string& name) {
  const std::string key = " " + name + "=\"";
  const std::size_t at = element.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  const std::size_t begin = at + key.size(), end = element.find('"', begin);
  if (end == std::string_view::npos) return std::nullopt;
  return xml_unescape(std::string(element.substr(begin, end - begin)));
}

}  // namespace

std::vector<PvdEntry> parse_pvd(const std::string& text) {
  std::vector<PvdEntry> entries;
  for (std::size_t at = text.find("<DataSet"); at != std::string::npos;
       at = text.find("<DataSet", at + 1)) {
    const std::size_t end = text.find('>', at);
    if (end == std::string::npos) break;
    const std::string_view element(text.data() + at, end - at);
    const auto time = attribute(element, "timestep"), file = attribute(element, "file");
    if (!time || !file) continue;
    PvdEntry e;
    e.file = *file;
    try {
      e.time = std::stod(*time);
      e.part = std::stoi(attribute(element, "part").value_or("0"));
    } catch (const std::exception&) {
      continue;
    }
    entries.push_back(std::move(e));
  }
  return entries;
}

void add_or_replace(std::vector<PvdEntry>& entries, PvdEntry entry) {
  auto same = [&](const PvdEntry& e) { return e.file == entry.file && e.part == entry.part; };
  auto it = std::find_if(entries.begin(), entries.end(), same);
  if (it != entries.end()) {
    *it = std::move(entry);
  } else {
    entries.push_back(std::move(entry));
  }
}

}  // namespace scfd::output
