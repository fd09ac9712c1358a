// SeriesWriter: the results of one run as files that open in ParaView (DESIGN.md §1):
//   DIR/BASENAME_<step:06>.vtu   one VTK XML UnstructuredGrid per output time (appended raw
//                                binary, zlib) with the point and cell fields, plus the cell field
//                                "region" (index into mesh.regions) and the point field "patch"
//                                (lowest index of a patch the node lies on, -1 inside); field data
//                                "TimeValue", "region_names", "patch_names";
//   DIR/BASENAME.pvd             the time series of every .vtu this writer has written;
//   DIR/BASENAME_boundary.vtu    the boundary faces (lines in 2D, triangles in 3D) with cell
//                                fields "patch" (index) and "patch_name", point field "node"
//                                (mesh node index) and field data "patch_names".
// Every file is written as NAME.tmp then renamed (atomic_file.hpp). 2D meshes are written as
// triangles with z = 0, 3D meshes as tetrahedra (the Mesh's positive orientation is VTK's).
//
// Serial for now: a later issue adds one .vtu piece per rank plus a .pvtu per output time; the
// piece writer (vtu_file.hpp) is already separate from the series bookkeeping for that.
//
// VTK is an implementation detail: this header includes no VTK header.
#pragma once

#include <filesystem>
#include <memory>
#include <span>
#include <string>

#include "output/field.hpp"
#include "topology/mesh.hpp"

namespace scfd::output {

class SeriesWriter {
 public:
  // Creates DIR (and parents) if needed; InputError naming DIR if it cannot, or if BASENAME is
  // not a plain file name. Points and cells are converted once here and reused by every write.
  // MESH must outlive the writer.
  SeriesWriter(const topology::Mesh& mesh, std::filesystem::path dir, std::string basename);
  ~SeriesWriter();
  SeriesWriter(SeriesWriter&&) noexcept;
  SeriesWriter& operator=(SeriesWriter&&) noexcept;
  SeriesWriter(const SeriesWriter&) = delete;
  SeriesWriter& operator=(const SeriesWriter&) = delete;

  // Writes DIR/BASENAME_<step, 6 digits>.vtu with the given fields (point fields: n_nodes
  // tuples, cell fields: n_cells tuples; names unique across both and different from "region"
  // and "patch" — SCFD_CHECK), then rewrites the .pvd with timestep = TIME. Writing a step again
  // replaces its entry. Returns the .vtu path. InputError if a file cannot be written.
  std::filesystem::path write(double time, int step, std::span<const Field> point_fields,
                              std::span<const Field> cell_fields);

  std::filesystem::path pvd_path() const;

  // Writes DIR/BASENAME_boundary.vtu (see above) and returns its path.
  std::filesystem::path write_boundary();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace scfd::output
