// Headless OpenGL through EGL (docs/architecture.md §3, §9): EGL devices are enumerated with
// EGL_EXT_device_enumeration, a display is opened on one with EGL_EXT_platform_device, and a
// GL 4.3+ core context is made current without a surface (EGL_KHR_surfaceless_context). Entry
// points come from libepoxy (it loads through eglGetProcAddress; no X11, no GLX).
//
// Device choice: the environment variable SCFD_GL_DEVICE, when set, overrides every index (it is
// how a user pins a run to one GPU); else an explicit index; else (-1) the node-local MPI rank
// modulo the device count (MPI_Comm_split_type MPI_COMM_TYPE_SHARED; rank 0 without MPI).
//
// Errors: bad device choice or a missing driver is user/system input -> InputError (one line);
// a GL error after a dispatch in debug mode is a broken invariant -> SCFD_CHECK.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace scfd::gl {

struct DeviceInfo {
  int index = -1;                         // EGL device index (eglQueryDevicesEXT order)
  std::string vendor, renderer, version;  // GL_VENDOR, GL_RENDERER, GL_VERSION
  int gl_major = 0, gl_minor = 0;
  bool fp64 = false;              // GL 4.0+ core or GL_ARB_gpu_shader_fp64
  bool software = false;          // llvmpipe, softpipe, SwiftShader
  int max_work_groups_x = 65535;  // GL_MAX_COMPUTE_WORK_GROUP_COUNT[0]
  int max_texture_size = 16384;   // GL_MAX_TEXTURE_SIZE: the largest width and height of a field
  std::size_t memory_bytes = 0;   // dedicated memory (GL_NVX_gpu_memory_info); 0: not reported
  bool parallel_compile = false;  // GL_KHR (or ARB) _parallel_shader_compile: turned on
};

// One line for logs: "device 0: Mesa/X.org llvmpipe (...), OpenGL 4.5 (Core Profile) ..., fp64
// yes".
std::string describe(const DeviceInfo& d);

// Every EGL device that gives a GL 4.3 core context. Creates (and destroys) a context per device;
// the calling thread's current context is restored. Throws InputError when there is no device.
std::vector<DeviceInfo> list_devices();

// Throws InputError("... supports fp32 only ...") when the device has no double precision.
void require_fp64(const DeviceInfo& d);

// A current GL context on one EGL device. Move-only; the destructor releases and destroys it.
class Context {
 public:
  // device: EGL device index, -1 = automatic (see the top of this file). debug: KHR_debug output
  // (synchronous, where the context has it) and a fatal check_errors() after every dispatch.
  // min_gl: the oldest core context accepted, 43 (GL 4.3, what compute shaders need) or 33 (GL
  // 3.3: gl-raster, fp32); the newest the driver gives is taken either way.
  // `origin` names where `device` was given, for the message when it does not exist.
  static Context create(int device = -1, bool debug = false, int min_gl = 43,
                        std::string_view origin = "--device");

  Context(Context&&) noexcept;
  Context& operator=(Context&&) noexcept;
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  ~Context();

  const DeviceInfo& info() const;
  bool debug() const;

  struct State;  // EGL handles (defined in context.cpp, which alone sees EGL types)

 private:
  explicit Context(std::unique_ptr<State> s);
  std::unique_ptr<State> state_;
};

// True when the current context was created with debug = true.
bool debug_enabled();

// The current context's GL version as major * 10 + minor (46, 45, 43, 33), cached when
// Context::create made it current: no GL query (a glGet* call makes NVIDIA's threaded driver
// wait for its queue).
int gl_version();

// Fatal (SCFD_CHECK) if glGetError reports anything; the message names `where`, the GL error
// codes and the last KHR_debug error message.
void check_errors(const char* where);

// Blocks until every command issued on the current context has completed (glFinish); benchmarks
// time GPU work with it.
void finish();
// glFlush: submits the queued commands to the GPU without waiting for them.
void flush();

}  // namespace scfd::gl
