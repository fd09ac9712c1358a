// The ParaView data (.pvd) time-series file: a VTK XML "Collection" listing one dataset file
// per output time. Internal to the output module.
#pragma once

#include <string>
#include <vector>

namespace scfd::output {

struct PvdEntry {
  double time = 0;
  std::string file;  // relative to the .pvd's directory
  int part = 0;      // piece number (0 for serial output)
};

// S with & < > " ' replaced by XML entities (for attribute values).
std::string xml_escape(const std::string& s);

// The .pvd document for ENTRIES in the given order; times are written in shortest round-trip
// form, file names XML-escaped.
std::string pvd_text(const std::vector<PvdEntry>& entries);

// The entries of a .pvd document written by pvd_text (others: whatever DataSet elements with
// timestep and file attributes it has, in order).
std::vector<PvdEntry> parse_pvd(const std::string& text);

// Adds ENTRY, replacing an entry with the same file and part (a step written twice).
void add_or_replace(std::vector<PvdEntry>& entries, PvdEntry entry);

}  // namespace scfd::output
