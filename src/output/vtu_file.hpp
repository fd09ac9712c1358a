// Writes one VTK XML UnstructuredGrid piece (.vtu). Internal to the output module. The serial
// SeriesWriter writes one piece per output time; the MPI version will write one piece per rank
// with this same function and add a .pvtu that lists them.
#pragma once

#include <vtkUnstructuredGrid.h>

#include <filesystem>

#include "output/compression.hpp"

namespace scfd::output {

// Writes GRID (points, cells, point/cell/field data as they are) to PATH: appended raw binary,
// compressed as COMPRESSION says, 64-bit headers, via PATH.tmp + rename. VTK's Write() returns 1
// even when it fails, so its error code and error events are checked; any failure is an InputError
// naming PATH (and nothing is left under PATH or PATH.tmp). VTK's own error text is captured, not
// printed.
void write_vtu(vtkUnstructuredGrid* grid, const std::filesystem::path& path,
               Compression compression);

}  // namespace scfd::output
