// Checkpoints: a model's whole state (physics::Model::state) in one HDF5 file, written and read
// collectively by every rank through parallel HDF5 (docs/restart.md has the user's side).
//
// File layout (format "streamcfd checkpoint", version 1):
//   /                 attributes: format, version, model, dim, step, time, ranks (that wrote it)
//   /case             the effective case file of the run that wrote it (bytes)
//   /mesh             attributes: nodes, edges, faces, cells (global counts) and fingerprint (a
//                     hash of every node's global id and coordinates and every cell's nodes)
//   /values           one double attribute per StateValue (ints and bools exactly), and
//                     checksum (u64: of the root's step and time and every value, in order)
//   /fields/NAME      one double per global entity id of its kind, in global id order;
//                     attributes: entity ("node", "edge", "face", "cell") and checksum
// Global id order makes the file independent of the rank count: a state written on N ranks
// loads on M (each rank reads the contiguous block of ids global_blocks.hpp gives it and the
// values travel to the ranks that hold those entities, ghosts included).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "backend/backend.hpp"
#include "physics/model.hpp"
#include "topology/mesh.hpp"

namespace scfd::checkpoint {

// What a checkpoint says about itself.
struct Header {
  std::string model;
  int step = 0;
  double time = 0;
  int ranks = 0;          // the rank count that wrote it
  std::string case_text;  // its run's effective case file
};

class Checkpointer {
 public:
  // Collective over MPI_COMM_WORLD, as write and read (the mesh's global counts and
  // fingerprint).
  Checkpointer(const topology::Mesh& mesh, const backend::Backend& backend);
  ~Checkpointer();
  Checkpointer(const Checkpointer&) = delete;
  Checkpointer& operator=(const Checkpointer&) = delete;

  // Writes the model's state and CASE_TEXT to PATH: to PATH.tmp, renamed when complete, so a
  // failure leaves any earlier PATH intact. Collective; on failure InputError on every rank, one
  // line naming PATH and the reason (e.g. "No space left on device"), and no PATH.tmp left.
  void write(const std::filesystem::path& path, physics::Model& model,
             const std::string& case_text) const;

  // Loads PATH into the model (then Model::state_loaded). Collective; InputError on every rank,
  // one line naming PATH and the problem, with the model unchanged, when PATH is missing, not a
  // checkpoint, damaged (a truncated file, a checksum that does not match), of another model or
  // mesh, or lacks a dataset or value the model needs.
  Header read(const std::filesystem::path& path, physics::Model& model) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace scfd::checkpoint
