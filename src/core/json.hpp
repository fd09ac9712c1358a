// Minimal JSON helpers for the summaries the app writes by hand (the structures are small and
// fixed; the project has no JSON dependency).
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <string>

namespace scfd::json {

// A JSON string literal, quotes included, with the necessary escapes.
inline std::string string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += fmt::format("\\u{:04x}", static_cast<int>(c));
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// A JSON number with 10 significant digits; null for NaN or infinity (not valid JSON numbers).
inline std::string number(double v) {
  return std::isfinite(v) ? fmt::format("{:.10g}", v) : "null";
}

}  // namespace scfd::json
