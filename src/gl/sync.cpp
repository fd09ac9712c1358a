// Fences the host polls (see sync.hpp).
#include "gl/sync.hpp"

#include <epoxy/gl.h>

#include <chrono>
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

// The host spins on the fence for this long (a halo exchange's pack is tens of microseconds),
// then lets the driver block in steps of kBlockStep, which frees the core for other processes
// (software rendering, several ranks per core in tests). Blocking from the first poll was tried
// (2026-11-27): faster for a lone fence, slower in a 4-GPU run (docs/gpu.md, "Fences").
constexpr std::chrono::microseconds kSpin{200};
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
  const auto spin_end = std::chrono::steady_clock::now() + kSpin;
  while (r == GL_TIMEOUT_EXPIRED && std::chrono::steady_clock::now() < spin_end)
    r = glClientWaitSync(as_sync(sync_), 0, 0);
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
