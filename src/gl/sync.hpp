// Waiting for the GPU without draining the GL queue by a read-back: fences (glFenceSync) that the
// host polls, for the buffers the host reads and writes through a persistent mapping
// (Buffer::host_visible). A read-back (glGetBufferSubData, glReadPixels) or glFinish costs about
// 0.45 ms on NVIDIA's driver 580 whatever the size; a fence placed after the same work and polled
// costs tens of microseconds (docs/gpu.md §10).
#pragma once

namespace scfd::gl {

// One fence (move-only). place() puts it after every command queued so far (replacing an
// earlier one); wait() returns once those commands have completed (at once when none is placed),
// counting a gpu_wait unless they already had. A destroyed fence is deleted, placed or not.
class Fence {
 public:
  Fence() = default;
  Fence(Fence&& o) noexcept;
  Fence& operator=(Fence&& o) noexcept;
  Fence(const Fence&) = delete;
  Fence& operator=(const Fence&) = delete;
  ~Fence();

  void place();
  // place() for the host: the kernels' writes to host-visible buffers before it are visible
  // through the mappings once it has passed (GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT), and the queue
  // is flushed, so the GPU starts on that work while the host queues more.
  void place_for_host();
  void wait();
  bool placed() const { return sync_ != nullptr; }

 private:
  void* sync_ = nullptr;  // GLsync
};

// Waits until every queued command has completed and the kernels' storage writes to
// host-visible buffers are visible through their mappings (glMemoryBarrier
// GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT, a fence, a poll).
void wait_for_gpu();

}  // namespace scfd::gl
