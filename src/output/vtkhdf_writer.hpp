// VtkHdfWriter: the results of a run as one VTKHDF file per output time holding every rank's
// cells (output.format = "vtkhdf"; the .vtu/.pvtu series of series_writer.hpp stays the
// default). Users of large runs ask for it: one file per output time instead of one per rank.
//
//   DIR/BASENAME_<step:06>.vtkhdf   VTKHDF 1.0 "UnstructuredGrid" (what ParaView 5.11 and VTK
//                                   9.1 read), one partition per rank: its owned cells and the
//                                   nodes they use, the same point and cell arrays as the .vtu
//                                   pieces (patch, node_id, region, rank, cell_id and the fields);
//   DIR/BASENAME.vtkhdf.series      (rank 0) ParaView's file-series index (JSON: file names and
//                                   times), the time series to open.
// Written collectively by all ranks of MPI_COMM_WORLD through parallel HDF5: each rank writes
// its rows of each dataset. The file goes to NAME.tmp, renamed when complete.
//
// VTK and HDF5 stay out of this header.
#pragma once

#include <filesystem>
#include <memory>
#include <span>
#include <string>

#include "output/field.hpp"
#include "topology/mesh.hpp"

namespace scfd::output {

class VtkHdfWriter {
 public:
  // MESH: this rank's mesh (as SeriesWriter's). Collective. InputError (every rank) when DIR
  // cannot be made.
  VtkHdfWriter(const topology::Mesh& mesh, std::filesystem::path dir, std::string basename);
  ~VtkHdfWriter();
  VtkHdfWriter(const VtkHdfWriter&) = delete;
  VtkHdfWriter& operator=(const VtkHdfWriter&) = delete;

  // Writes output step STEP at TIME and (rank 0) the .series index; fields as SeriesWriter's
  // write_piece takes them. Collective: returns the file on every rank or throws the same
  // InputError (one line naming the file and the reason) on every rank.
  std::filesystem::path write(double time, int step, std::span<const Field> point_fields,
                              std::span<const Field> cell_fields);

  // A run continued from a checkpoint at TIME: the index keeps the earlier entries up to TIME.
  // Rank 0; nothing when there is no readable index.
  void continue_series(double time);

  std::filesystem::path series_path() const;
  std::filesystem::path file_path(int step) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace scfd::output
