// How a .vtu's appended binary arrays are compressed (output.compression, docs/case-file.md).
#pragma once

#include <cstdint>

namespace scfd::output {

// lz4: about 5x as fast to write as zlib for 1.5x the bytes (1,053,696 tets of ns-classical on
// the 2-core VM: two output times in 0.62 s and 111 MB, zlib 2.85 s and 77 MB, none 0.51 s and
// 217 MB); every ParaView since 5.5 reads it. zlib: the smallest files. none: raw arrays.
enum class Compression : std::uint8_t { lz4, zlib, none };

}  // namespace scfd::output
