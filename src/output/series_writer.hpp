// SeriesWriter: the results of one run as files that open in ParaView (docs/architecture.md §1).
//
// Serial (nranks == 1):
//   DIR/BASENAME_<step:06>.vtu        one VTK XML UnstructuredGrid per output time (appended raw
//                                     binary, lz4 unless set_compression says otherwise) with
//                                     the point and cell fields;
//   DIR/BASENAME.pvd                  the time series of every .vtu this writer has written;
//   DIR/BASENAME_boundary.vtu         the boundary faces (lines in 2D, triangles in 3D).
// Parallel (nranks > 1), each rank writing its owned cells and the nodes they use:
//   DIR/BASENAME_<step:06>_<rank>.vtu the piece of each rank;
//   DIR/BASENAME_<step:06>.pvtu       (rank 0) the index of the pieces of one output time;
//   DIR/BASENAME.pvd                  (rank 0) the time series of the .pvtu files;
//   DIR/BASENAME_boundary_<rank>.vtu and DIR/BASENAME_boundary.pvtu (rank 0).
// Arrays of every piece, besides the caller's fields: cell "region" (index into mesh.regions),
// "rank" (the writing rank), "cell_id" (global cell id; serial: the cell index); point "patch"
// (lowest index of a patch the node lies on, -1 inside), "node_id" (global node id; serial: the
// node index); field data "TimeValue", "region_names", "patch_names". Boundary pieces: cell
// "patch" (index), "patch_name", "rank", "face_id" (global face id), point "node" (global node
// id), field data "patch_names". Global ids let runs on different rank counts be compared.
// Every file is written as NAME.tmp then renamed (atomic_file.hpp). 2D meshes are written as
// triangles with z = 0, 3D meshes as tetrahedra (the Mesh's positive orientation is VTK's).
//
// Parallel protocol (this module uses no MPI): an index may only be written once every piece it
// lists exists. Either call the halves yourself,
//   writer.write_piece(time, step, points, cells);      // every rank
//   MPI_Barrier(comm);
//   if (rank == 0) writer.write_index(time, step);     // .pvtu + .pvd
// or pass write() a FirstError (a collective that returns every rank the message of the lowest
// rank that has one, such as core/collectives.hpp's first_message), which makes write() collective
// and error-safe: it succeeds on every rank or throws the same InputError on every rank, the
// failing rank's reason (a rank that could not write its piece does not leave the others
// waiting forever, and no rank leaves a piece that no index lists):
//   writer.write(time, step, points, cells, first_message);
// The boundary file has the same pair (write_boundary_piece / write_boundary_index) and
// write_boundary(first_error).
//
// VTK is an implementation detail: this header includes no VTK header.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>

#include "output/compression.hpp"
#include "output/field.hpp"
#include "topology/mesh.hpp"

namespace scfd::output {

// Given this rank's error message ("" when it has none), returns on every rank the message of the
// lowest rank that has one ("" when no rank has); like any MPI collective it returns on no rank
// before every rank has called it.
using FirstError = std::function<std::string(const std::string& this_rank_error)>;

class SeriesWriter {
 public:
  // MESH is this rank's mesh (serial, or distributed: owned entities first, see
  // topology/mesh.hpp). Creates DIR (and parents) if needed; InputError naming DIR if it cannot,
  // or if BASENAME is not a plain file name. The piece's points and cells are converted once here
  // and reused by every write. MESH must outlive the writer. 0 <= RANK < NRANKS (SCFD_CHECK).
  SeriesWriter(const topology::Mesh& mesh, std::filesystem::path dir, std::string basename,
               int rank = 0, int nranks = 1);
  ~SeriesWriter();
  SeriesWriter(SeriesWriter&&) noexcept;
  SeriesWriter& operator=(SeriesWriter&&) noexcept;
  SeriesWriter(const SeriesWriter&) = delete;
  SeriesWriter& operator=(const SeriesWriter&) = delete;

  // write_piece + (rank 0) write_index. With nranks > 1 FIRST_ERROR is required (SCFD_CHECK)
  // and is called twice (after the pieces, after the index): then either every rank returns or
  // every rank throws InputError with the first failing rank's message, and removes its piece
  // of the step (no index lists it). Returns the dataset listed in the .pvd (.vtu serial, .pvtu
  // parallel) on every rank.
  std::filesystem::path write(double time, int step, std::span<const Field> point_fields,
                              std::span<const Field> cell_fields,
                              const FirstError& first_error = {});

  // Writes this rank's piece of output step STEP: piece_path(step). Point fields have n_nodes
  // tuples (all local nodes; the piece gathers the nodes of its owned cells), cell fields
  // n_cells or n_owned_cells tuples (the owned ones, first, are written); 1 or 3 components;
  // names unique across both and different from the arrays listed above (SCFD_CHECK). Every rank
  // must pass the same field names in the same order. InputError if the file cannot be written.
  std::filesystem::path write_piece(double time, int step, std::span<const Field> point_fields,
                                    std::span<const Field> cell_fields);

  // Rank 0 only (SCFD_CHECK), after its own write_piece of STEP and once every rank's piece
  // exists: writes dataset_path(step) when nranks > 1 (the .pvtu), then the .pvd with this step
  // at TIME (writing a step again replaces its entry). Returns dataset_path(step).
  std::filesystem::path write_index(double time, int step);

  // The boundary file: write_boundary_piece + (rank 0) write_boundary_index, with FIRST_ERROR as
  // in write(). Returns boundary_path() on every rank.
  std::filesystem::path write_boundary(const FirstError& first_error = {});
  std::filesystem::path write_boundary_piece();       // this rank's owned boundary faces
  std::filesystem::path boundary_piece_path() const;  // where write_boundary_piece writes
  std::filesystem::path write_boundary_index();  // rank 0: the .pvtu (nranks > 1; else nothing)

  // A run continued from a checkpoint at TIME: the .pvd keeps the entries of the earlier run up to
  // TIME (the series goes on in one file). Rank 0; nothing when there is no readable .pvd.
  void continue_series(double time);

  // DIR/BASENAME.pvd (written by rank 0 only).
  std::filesystem::path pvd_path() const;
  // The file listed in the .pvd for STEP: BASENAME_<step>.vtu serial, BASENAME_<step>.pvtu else.
  std::filesystem::path dataset_path(int step) const;
  // This rank's piece of STEP (the .vtu itself when serial).
  std::filesystem::path piece_path(int step) const;
  // BASENAME_boundary.vtu serial, BASENAME_boundary.pvtu else.
  std::filesystem::path boundary_path() const;

  int rank() const;
  int nranks() const;

  // How the .vtu files written from now on are compressed (lz4 until set).
  void set_compression(Compression c);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace scfd::output
