// Values written into listed entries of a field by drawing GL_POINTS, one point per entry, into
// the field's texture (the thesis's point sprites, for boundary values and halo receives): a
// vertex holds its texel's position and the value; the points are grouped by the entry's place in
// its texel, one draw per place with a colour mask on that place's channels, so the texel's other
// entries keep their values. A point list is built once (per boundary patch, per neighbour) for
// fields of one layout; each write uploads the values and draws.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "gl/buffer.hpp"
#include "gl/field_storage.hpp"
#include "gl/program.hpp"

namespace scfd::gl {

class PointWriter {
 public:
  explicit PointWriter(Precision p);
  PointWriter(PointWriter&&) noexcept;
  PointWriter& operator=(PointWriter&&) noexcept;
  PointWriter(const PointWriter&) = delete;
  PointWriter& operator=(const PointWriter&) = delete;
  ~PointWriter();

  // The points of `entries` (any order, no repeats) in fields of `layout`.
  struct Points {
    TextureLayout layout;
    std::vector<std::size_t> order;            // value k goes to vertex order[k]
    std::size_t first[4] = {}, count[4] = {};  // the vertices of each place in a texel
    Buffer positions;                          // per vertex: texel x, y (uint32)
    Buffer values;                             // per vertex: the value's bits (uint32 x 2)
  };
  Points points(std::span<const std::size_t> entries, const TextureLayout& layout) const;
  // f[entries[k]] = values[k] for the entries of `p`.
  void write(Points& p, std::span<const double> values, FieldStorage& f);

 private:
  Precision precision_;
  unsigned program_ = 0, framebuffer_ = 0, vertex_array_ = 0;
  int size_location_ = -1;
};

}  // namespace scfd::gl
