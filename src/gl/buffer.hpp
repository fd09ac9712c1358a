// Shader storage buffers (SSBOs): GPU memory that kernels read and write as `buffer` blocks.
// Owns one GL buffer name (move-only). Sizes are in bytes; the typed helpers check that the
// element size divides them.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "core/error.hpp"

namespace scfd::gl {

class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(std::size_t bytes);  // uninitialised contents
  // A buffer the host reads and writes through a persistent, coherent mapping (glBufferStorage,
  // GL 4.4), which kernels bind as any other: the host reads what kernels and copies wrote after
  // gl::wait_for_gpu() (sync.hpp), and what it writes through mapped() is seen by the commands
  // queued after the write (it must not write while queued commands may still read it). Below
  // GL 4.4 it is a plain buffer and mapped() is null. Halo packs, scalar read-backs and the
  // staging of uploads go through such buffers, so that no read-back drains the GL queue.
  static Buffer host_visible(std::size_t bytes);
  Buffer(Buffer&& o) noexcept;
  Buffer& operator=(Buffer&& o) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer();

  template <typename T>
  static Buffer from(std::span<const T> data) {
    Buffer b(data.size_bytes());
    b.upload_bytes(data.data(), data.size_bytes(), 0);
    return b;
  }

  std::size_t size() const { return bytes_; }
  unsigned id() const { return id_; }
  // The host's view of a host-visible buffer (null for the others).
  std::byte* mapped() const { return mapped_; }

  // Copies `bytes` from host memory to the buffer at byte `offset` (bounds checked), and back.
  // On a host-visible buffer, an upload is a copy into the mapping (see host_visible) and a
  // download waits for the queued work (gl::wait_for_gpu) and copies out of it.
  void upload_bytes(const void* data, std::size_t bytes, std::size_t offset);
  void download_bytes(void* data, std::size_t bytes, std::size_t offset) const;
  // Copies `bytes` from byte `from` of this buffer to byte `to` of dst on the device (after the
  // kernels' writes; later kernels see it).
  void copy_to(Buffer& dst, std::size_t from, std::size_t to, std::size_t bytes) const;

  template <typename T>
  void upload(std::span<const T> data, std::size_t first = 0) {
    upload_bytes(data.data(), data.size_bytes(), first * sizeof(T));
  }
  template <typename T>
  std::vector<T> download() const {
    SCFD_CHECK(bytes_ % sizeof(T) == 0, "buffer of {} bytes read as {}-byte elements", bytes_,
               sizeof(T));
    std::vector<T> out(bytes_ / sizeof(T));
    download_bytes(out.data(), bytes_, 0);
    return out;
  }

  // Binds the whole buffer to `layout(binding = index) buffer ...`.
  void bind(unsigned index) const;

 private:
  unsigned id_ = 0;
  std::size_t bytes_ = 0;
  std::byte* mapped_ = nullptr;
};

}  // namespace scfd::gl
