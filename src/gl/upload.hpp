// Uploads of large buffers that the host computes (the set-up's matrices in the SELL layout):
// host threads write each part of a buffer into one of two staging buffers, pinned and
// persistently mapped (Buffer::host_visible), and the GPU copies it into place while the threads
// fill the other. No host array of the whole buffer is made, and the staging memory is faulted
// in once per backend, not once per matrix: cavity-box 111^3 on an H200 node,
// docs/bench/h200-2026-11-28-setup-parts.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <memory>

#include "core/error.hpp"
#include "gl/buffer.hpp"
#include "gl/context.hpp"
#include "gl/sync.hpp"

namespace scfd::gl {

class Uploader {
 public:
  // Staging buffers of `bytes` each (at least 8, a double), made at the first upload.
  explicit Uploader(std::size_t bytes = std::size_t{64} << 20) : bytes_(bytes) {
    SCFD_CHECK(bytes >= sizeof(double), "staging buffers of {} bytes", bytes);
  }

  // A buffer of `count` T whose elements fill(T* dst, first, end) writes: [first, end) into
  // dst[0, end - first), every element of the range; fill may use host threads and makes no GL
  // call. Below GL 4.4 (no persistent mapping) through a host array and one upload.
  template <typename T, typename Fill>
  Buffer make(std::size_t count, const Fill& fill) {
    Buffer out(count * sizeof(T));
    if (gl_version() < 44) {
      const std::unique_ptr<T[]> host(new T[count]);  // not initialised: fill writes every one
      fill(host.get(), std::size_t{0}, count);
      out.upload_bytes(host.get(), count * sizeof(T), 0);
      return out;
    }
    const std::size_t part = bytes_ / sizeof(T);
    for (std::size_t first = 0; first < count; first += part) {
      const std::size_t end = std::min(count, first + part);
      Slot& s = next_slot();
      fill(reinterpret_cast<T*>(s.buffer.mapped()), first, end);
      s.buffer.copy_to(out, 0, first * sizeof(T), (end - first) * sizeof(T));
      s.copied.place_for_host();  // also submits the copy, so the GPU starts on it
    }
    return out;
  }

 private:
  struct Slot {
    Buffer buffer;
    Fence copied;  // the last copy out of it
  };
  // The staging buffer to fill next, its last copy finished.
  Slot& next_slot();

  std::size_t bytes_;
  std::array<Slot, 2> slots_;
  std::size_t next_ = 0;
};

}  // namespace scfd::gl
