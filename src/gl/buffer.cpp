// SSBO wrapper (see buffer.hpp). Uses bind-to-edit, not DSA (4.5): on a GL 4.3+ context through
// the storage-buffer target (which drivers take as the usage hint), on a 3.3 context (gl-raster,
// which reads buffers as buffer textures) through the generic copy target.
#include "gl/buffer.hpp"

#include <epoxy/gl.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "core/counters.hpp"
#include "gl/context.hpp"
#include "gl/sync.hpp"

namespace scfd::gl {
namespace {

GLenum edit_target() {
  return gl_version() >= 43 ? GL_SHADER_STORAGE_BUFFER : GL_COPY_WRITE_BUFFER;
}

// Kernels' storage writes before a transfer (no such writes below GL 4.2).
void transfer_barrier() {
  if (gl_version() >= 42) glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
}

}  // namespace

// glBufferData, not immutable glBufferStorage. An H200 measurement that glBufferStorage buffers
// copy slower (0.86 against 2.0 TB/s at 580 MB) was taken before the bench warmed the GPU up and
// is likely the idle-clock effect of docs/gpu.md §7; not re-measured.
Buffer::Buffer(std::size_t bytes) : bytes_(bytes) {
  glGenBuffers(1, &id_);
  const GLenum target = edit_target();
  glBindBuffer(target, id_);
  glBufferData(target, static_cast<GLsizeiptr>(bytes), nullptr, GL_DYNAMIC_COPY);
  glBindBuffer(target, 0);
}

Buffer Buffer::host_visible(std::size_t bytes) {
  if (gl_version() < 44) return Buffer(bytes);
  Buffer b;
  b.bytes_ = bytes;
  glGenBuffers(1, &b.id_);
  const GLenum target = edit_target();
  const GLbitfield access =
      GL_MAP_READ_BIT | GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
  const auto size = static_cast<GLsizeiptr>(std::max<std::size_t>(bytes, 1));
  glBindBuffer(target, b.id_);
  glBufferStorage(target, size, nullptr, access);
  b.mapped_ = static_cast<std::byte*>(glMapBufferRange(target, 0, size, access));
  glBindBuffer(target, 0);
  SCFD_CHECK(b.mapped_ != nullptr, "a persistent mapping of {} bytes failed", bytes);
  return b;
}

Buffer::Buffer(Buffer&& o) noexcept
    : id_(std::exchange(o.id_, 0)),
      bytes_(std::exchange(o.bytes_, 0)),
      mapped_(std::exchange(o.mapped_, nullptr)) {}

Buffer& Buffer::operator=(Buffer&& o) noexcept {
  if (this != &o) {
    if (id_) glDeleteBuffers(1, &id_);
    id_ = std::exchange(o.id_, 0);
    bytes_ = std::exchange(o.bytes_, 0);
    mapped_ = std::exchange(o.mapped_, nullptr);
  }
  return *this;
}

Buffer::~Buffer() {
  if (id_) glDeleteBuffers(1, &id_);
}

void Buffer::upload_bytes(const void* data, std::size_t bytes, std::size_t offset) {
  SCFD_CHECK(offset + bytes <= bytes_, "upload of {} bytes at {} into a buffer of {}", bytes,
             offset, bytes_);
  if (bytes == 0) return;
  if (mapped_) {
    std::memcpy(mapped_ + offset, data, bytes);
    return;
  }
  transfer_barrier();
  const GLenum target = edit_target();
  glBindBuffer(target, id_);
  glBufferSubData(target, static_cast<GLintptr>(offset), static_cast<GLsizeiptr>(bytes), data);
  glBindBuffer(target, 0);
}

void Buffer::copy_to(Buffer& dst, std::size_t from, std::size_t to, std::size_t bytes) const {
  SCFD_CHECK(from + bytes <= bytes_ && to + bytes <= dst.bytes_,
             "copy of {} bytes from {} of {} to {} of {}", bytes, from, bytes_, to, dst.bytes_);
  if (bytes == 0) return;
  transfer_barrier();
  glBindBuffer(GL_COPY_READ_BUFFER, id_);
  glBindBuffer(GL_COPY_WRITE_BUFFER, dst.id_);
  glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, static_cast<GLintptr>(from),
                      static_cast<GLintptr>(to), static_cast<GLsizeiptr>(bytes));
  counters::add(counters::Kind::gpu_dispatch);
  glBindBuffer(GL_COPY_READ_BUFFER, 0);
  glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
}

void Buffer::download_bytes(void* data, std::size_t bytes, std::size_t offset) const {
  SCFD_CHECK(offset + bytes <= bytes_, "download of {} bytes at {} from a buffer of {}", bytes,
             offset, bytes_);
  if (bytes == 0) return;
  if (mapped_) {
    wait_for_gpu();
    std::memcpy(data, mapped_ + offset, bytes);
    return;
  }
  transfer_barrier();
  const GLenum target = edit_target();
  glBindBuffer(target, id_);
  {
    const counters::GpuWait wait;  // the read-back waits for the queued kernels
    glGetBufferSubData(target, static_cast<GLintptr>(offset), static_cast<GLsizeiptr>(bytes), data);
  }
  glBindBuffer(target, 0);
}

void Buffer::bind(unsigned index) const {
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, index, id_);
}

}  // namespace scfd::gl
