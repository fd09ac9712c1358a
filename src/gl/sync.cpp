// Fences the host polls (see sync.hpp).
#include "gl/sync.hpp"

#include <epoxy/gl.h>

#include <optional>
#include <utility>

#include "core/counters.hpp"
#include "core/error.hpp"
#include "gl/context.hpp"

namespace scfd::gl {
namespace {

GLsync as_sync(void* s) {
  return static_cast<GLsync>(s);
}

// The host blocks in the driver in steps of this long. Blocking beats spinning on polls: a
// dispatch and a fence round trip took 17-20 us blocked and 29-35 us polled on an H100 (driver
// 580), 1.3 us and 75 us on llvmpipe (whose threads the polling core takes away).
constexpr GLuint64 kBlockStepNs = 1'000'000;

}  // namespace

Fence::Fence(Fence&& o) noexcept : sync_(std::exchange(o.sync_, nullptr)) {}

Fence& Fence::operator=(Fence&& o) noexcept {
  if (this != &o) {
    if (sync_) glDeleteSync(as_sync(sync_));
    sync_ = std::exchange(o.sync_, nullptr);
  }
  return *this;
}

Fence::~Fence() {
  if (sync_) glDeleteSync(as_sync(sync_));
}

void Fence::place() {
  if (sync_) glDeleteSync(as_sync(sync_));
  sync_ = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  SCFD_CHECK(sync_ != nullptr, "glFenceSync failed");
}

void Fence::place_for_host() {
  if (gl_version() >= 44) glMemoryBarrier(GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT);
  place();
  glFlush();
}

void Fence::wait() {
  if (!sync_) return;
  // The first poll flushes the queue, so that the fence is bound to be reached. A fence already
  // passed is not a wait and is not counted.
  GLenum r = glClientWaitSync(as_sync(sync_), GL_SYNC_FLUSH_COMMANDS_BIT, 0);
  std::optional<counters::GpuWait> wait;
  if (r == GL_TIMEOUT_EXPIRED) wait.emplace(counters::GpuWait::Through::fence);
  while (r == GL_TIMEOUT_EXPIRED) r = glClientWaitSync(as_sync(sync_), 0, kBlockStepNs);
  SCFD_CHECK(r == GL_ALREADY_SIGNALED || r == GL_CONDITION_SATISFIED,
             "glClientWaitSync failed (0x{:x})", r);
  glDeleteSync(as_sync(sync_));
  sync_ = nullptr;
}

void wait_for_gpu() {
  Fence f;
  f.place_for_host();
  f.wait();
}

}  // namespace scfd::gl
