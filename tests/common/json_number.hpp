// Test helper: the number after "KEY": in a JSON text (first occurrence). Enough for the flat
// figures of the run summaries; returns NaN when the key is missing.
#pragma once

#include <cmath>
#include <limits>
#include <regex>
#include <string>

namespace scfd::test {

inline double json_number(const std::string& json, const std::string& key) {
  const std::regex re("\"" + key + "\":\\s*([-+0-9.eE]+)");
  std::smatch m;
  if (!std::regex_search(json, m, re)) return std::numeric_limits<double>::quiet_NaN();
  return std::stod(m[1].str());
}

}  // namespace scfd::test
