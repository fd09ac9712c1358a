// Sort-based matching of mesh entities (internal to topology).
//
// Every "slot" (a local face or edge of a cell, or a boundary element) is described by its
// sorted node numbers n0 < n1 (< n2). The bucket is n0 and the key packs the rest into 64 bits
// (n1 << 32 | n2). A counting sort by bucket followed by small sorts inside each bucket (a node
// touches a few dozen slots) brings equal entities together in O(n) memory and near-O(n) time;
// ties are broken by slot, so the lowest slot of a group comes first.
// Reference: the usual sort-based face matching of unstructured solvers, e.g. Lohner, "Applied
// CFD Techniques", 2nd ed. (2008), ch. 2, with the hash replaced by a bucket (counting) sort.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/error.hpp"
#include "core/threads.hpp"
#include "core/types.hpp"

namespace scfd::topology::detail {

struct SlotKey {
  std::uint64_t key;
  std::uint32_t slot;
};

// Slots grouped by bucket (slots of bucket b are rec[start[b] .. start[b+1])), each bucket
// sorted by (key, slot).
struct SortedSlots {
  std::vector<std::uint32_t> start;
  std::vector<SlotKey> rec;

  // Calls visit(first, last) for every group of equal (bucket, key).
  template <typename Visit>
  void for_each_group(Visit visit) const {
    for (std::size_t b = 0; b + 1 < start.size(); ++b) {
      const SlotKey* p = rec.data() + start[b];
      const SlotKey* end = rec.data() + start[b + 1];
      while (p < end) {
        const SlotKey* q = p + 1;
        while (q < end && q->key == p->key) ++q;
        visit(p, q);
        p = q;
      }
    }
  }
};

inline std::uint64_t pack_key(index a, index b) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) |
         static_cast<std::uint32_t>(b);
}

// describe(slot, bucket&, key&) gives the bucket (< n_buckets) and key of each slot; it runs
// on the host threads (it only reads) and is called twice per slot (bucket, then place), so the
// unsorted slots are kept as one bucket number (4 bytes) each, not as records. The result does
// not depend on the thread count: each thread walks every slot and places those of its buckets,
// in slot order.
template <typename Describe>
SortedSlots sort_slots(std::uint32_t n_slots, index n_buckets, Describe describe) {
  SCFD_CHECK(n_slots <= static_cast<std::uint32_t>(std::numeric_limits<index>::max()),
             "{} slots to sort", n_slots);
  const auto n = static_cast<index>(n_slots);
  std::vector<std::uint32_t> bucket_of(n_slots);
  parallel_for(n, [&](index first, index end) {
    std::uint64_t key = 0;
    for (index s = first; s < end; ++s)
      describe(static_cast<std::uint32_t>(s), bucket_of[static_cast<std::size_t>(s)], key);
  });
  SortedSlots out;
  out.start.assign(static_cast<std::size_t>(n_buckets) + 1, 0);
  const std::vector<index> buckets = chunk_bounds(n_buckets);
  const auto mine = [](std::uint32_t b, index begin, index end) {
    return b >= static_cast<std::uint32_t>(begin) && b < static_cast<std::uint32_t>(end);
  };
  for_chunks(buckets, [&](std::size_t, index begin, index end) {
    for (const std::uint32_t b : bucket_of)
      if (mine(b, begin, end)) ++out.start[b + 1];
  });
  for (index b = 0; b < n_buckets; ++b) out.start[b + 1] += out.start[b];
  out.rec.resize(n_slots);
  for_chunks(buckets, [&](std::size_t, index begin, index end) {
    std::vector<std::uint32_t> next(out.start.begin() + begin, out.start.begin() + end);
    std::uint32_t bucket = 0;
    std::uint64_t key = 0;
    for (std::uint32_t s = 0; s < n_slots; ++s) {  // slots stay ascending within a bucket
      if (!mine(bucket_of[s], begin, end)) continue;
      describe(s, bucket, key);
      out.rec[next[bucket - static_cast<std::uint32_t>(begin)]++] = SlotKey{key, s};
    }
  });
  const auto by_key = [](const SlotKey& x, const SlotKey& y) { return x.key < y.key; };
  parallel_for(n_buckets, [&](index b_first, index b_end) {
    for (index b = b_first; b < b_end; ++b) {
      SlotKey* first = out.rec.data() + out.start[b];
      SlotKey* last = out.rec.data() + out.start[b + 1];
      if (last - first > 64) {  // a node with unusually many cells (e.g. a fan)
        std::stable_sort(first, last, by_key);
        continue;
      }
      // Insertion sort: buckets are short and already ordered by slot; stable.
      for (SlotKey* i = first + 1; i < last; ++i) {
        const SlotKey v = *i;
        SlotKey* j = i;
        for (; j > first && (j - 1)->key > v.key; --j) *j = *(j - 1);
        *j = v;
      }
    }
  });
  return out;
}

}  // namespace scfd::topology::detail
