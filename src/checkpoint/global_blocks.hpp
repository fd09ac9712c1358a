// Entities in global id order across ranks: rank r holds the contiguous block
// [N r / P, N (r + 1) / P) of the N global ids of an entity kind, which is what it writes to or
// reads from a checkpoint's dataset. A BlockExchange moves one value per local entity to the rank
// whose block holds its global id (for writing) or back (for reading), with all_to_all
// (core/collectives.hpp) over all ranks.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/types.hpp"

namespace scfd::checkpoint {

struct Block {
  std::int64_t begin = 0, size = 0;  // this rank's global ids [begin, begin + size)
};

class BlockExchange {
 public:
  // gids: the global id of each local entity that takes part (for writing: the owned ones; for
  // reading: all, ghosts included); n_global: the number of global ids. Collective.
  BlockExchange(std::span<const std::int64_t> gids, std::int64_t n_global);
  const Block& block() const { return block_; }
  // local[i] (one value per gid given to the constructor) into this rank's block.
  void to_blocks(std::span<const real> local, std::span<real> block) const;
  // The values of this rank's block back to every rank's local entities.
  void from_blocks(std::span<const real> block, std::span<real> local) const;

 private:
  Block block_;
  std::vector<int> send_counts_, recv_counts_;
  std::vector<std::int64_t> order_;  // local index of each sent value, grouped by rank
  std::vector<std::int64_t> slot_;   // block position of each received value
};

}  // namespace scfd::checkpoint
