// Writes ParaView's .pvd time-series format (VTK XML Collection), e.g.
//   <VTKFile type="Collection" version="0.1" byte_order="LittleEndian">
//     <Collection>
//       <DataSet timestep="0.5" group="" part="0" file="heat_000010.vtu"/>
//     </Collection>
//   </VTKFile>
#include "output/pvd.hpp"

#include <fmt/format.h>

#include <algorithm>

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
