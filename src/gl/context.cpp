// EGL device enumeration and headless GL 4.3 core contexts (see context.hpp).
#include "gl/context.hpp"

#include <epoxy/egl.h>
#include <epoxy/gl.h>
#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "core/counters.hpp"
#include "core/error.hpp"
#include "core/log.hpp"

namespace scfd::gl {

struct Context::State {
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext context = EGL_NO_CONTEXT;
  DeviceInfo info;
  bool debug = false;
};

namespace {

bool g_debug = false;
int g_version = 0;  // of the context Context::create made current last
std::string g_last_debug_error;

constexpr const char* kNoDevice =
    "no EGL device found: install a GPU driver or Mesa (libegl-mesa0, libgl1-mesa-dri)";

std::vector<EGLDeviceEXT> egl_devices() {
  if (!epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_EXT_device_enumeration") &&
      !epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_EXT_device_base"))
    throw InputError(kNoDevice);
  EGLint n = 0;
  if (!eglQueryDevicesEXT(0, nullptr, &n) || n <= 0) throw InputError(kNoDevice);
  std::vector<EGLDeviceEXT> devices(static_cast<std::size_t>(n));
  if (!eglQueryDevicesEXT(n, devices.data(), &n) || n <= 0) throw InputError(kNoDevice);
  devices.resize(static_cast<std::size_t>(n));
  return devices;
}

int node_local_rank() {
  int initialised = 0, finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  if (!initialised || finalised) return 0;
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int rank = 0;
  MPI_Comm_rank(node, &rank);
  MPI_Comm_free(&node);
  return rank;
}

// SCFD_GL_DEVICE > explicit index > node-local rank mod count.
int choose_device(int requested, int count, std::string_view origin) {
  std::string source(origin);
  if (const char* env = std::getenv("SCFD_GL_DEVICE"); env && *env) {
    char* end = nullptr;
    const long v = std::strtol(env, &end, 10);
    if (*end != '\0') throw input_error("SCFD_GL_DEVICE='{}' is not an integer device index", env);
    requested = static_cast<int>(v);
    source = "SCFD_GL_DEVICE";
  } else if (requested < 0) {
    return node_local_rank() % count;
  }
  if (requested < 0 || requested >= count)
    throw input_error("EGL device {} (from {}) does not exist: {} device(s) found, indices 0..{}",
                      requested, source, count, count - 1);
  return requested;
}

EGLContext create_core_context(EGLDisplay display, int major, int minor, bool debug) {
  std::vector<EGLint> attr = {EGL_CONTEXT_MAJOR_VERSION,       major,
                              EGL_CONTEXT_MINOR_VERSION,       minor,
                              EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT};
  if (debug) attr.insert(attr.end(), {EGL_CONTEXT_OPENGL_DEBUG, EGL_TRUE});
  attr.push_back(EGL_NONE);
  EGLConfig config = EGL_NO_CONFIG_KHR;
  if (!epoxy_has_egl_extension(display, "EGL_KHR_no_config_context")) {
    const EGLint want[] = {EGL_SURFACE_TYPE, 0, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    EGLint n = 0;
    if (!eglChooseConfig(display, want, &config, 1, &n) || n < 1) return EGL_NO_CONTEXT;
  }
  return eglCreateContext(display, config, EGL_NO_CONTEXT, attr.data());
}

std::string gl_string(GLenum name) {
  const auto* s = reinterpret_cast<const char*>(glGetString(name));
  return s ? s : "";
}

// Reads GL strings of the current context; with a too old context, throws naming its version.
DeviceInfo query_info(int index) {
  DeviceInfo d;
  d.index = index;
  d.vendor = gl_string(GL_VENDOR);
  d.renderer = gl_string(GL_RENDERER);
  d.version = gl_string(GL_VERSION);
  const int v = epoxy_gl_version();
  d.gl_major = v / 10;
  d.gl_minor = v % 10;
  d.fp64 = v >= 40 || epoxy_has_gl_extension("GL_ARB_gpu_shader_fp64");
  for (const char* sw : {"llvmpipe", "softpipe", "SwiftShader"})
    if (d.renderer.find(sw) != std::string::npos) d.software = true;
  GLint groups = 0;
  if (v >= 43) glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0, &groups);
  d.max_work_groups_x = groups > 0 ? groups : 65535;
  GLint tex = 0;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &tex);
  d.max_texture_size = tex > 0 ? tex : 16384;
  if (epoxy_has_gl_extension("GL_NVX_gpu_memory_info")) {
    GLint kib = 0;
    glGetIntegerv(GL_GPU_MEMORY_INFO_DEDICATED_VIDMEM_NVX, &kib);
    d.memory_bytes = static_cast<std::size_t>(std::max(kib, 0)) * 1024;
  }
  return d;
}

// Without a core context of `min_gl` (43: 4.3, 33: 3.3), makes any context to report the version
// the device does offer.
[[noreturn]] void throw_too_old(EGLDisplay display, int index, int min_gl) {
  std::string found = "no OpenGL context at all";
  const EGLint attr[] = {EGL_NONE};
  EGLContext c = eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attr);
  if (c != EGL_NO_CONTEXT && eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, c)) {
    found = "OpenGL " + gl_string(GL_VERSION);
    eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  }
  if (c != EGL_NO_CONTEXT) eglDestroyContext(display, c);
  if (min_gl <= 33)
    throw input_error(
        "EGL device {} has no OpenGL 3.3 core context (found: {}); gl-raster needs GL 3.3, use "
        "backend = \"cpu\"",
        index, found);
  throw input_error(
      "EGL device {} has no OpenGL 4.3 core context (found: {}); streamcfd's GL "
      "backends need GL 4.3, use backend = \"cpu\"",
      index, found);
}

// Shader compiler messages are left out: CompileError reports them with kernels/<file>:<line>.
void GLAPIENTRY on_debug_message(GLenum source, GLenum type, GLuint /*id*/, GLenum severity,
                                 GLsizei /*length*/, const GLchar* message, const void* /*user*/) {
  if (severity == GL_DEBUG_SEVERITY_NOTIFICATION || source == GL_DEBUG_SOURCE_SHADER_COMPILER)
    return;
  if (type == GL_DEBUG_TYPE_ERROR) g_last_debug_error = message;
  log::warn("GL debug: {}", message);
}

// Opens device `index`, makes the newest core context current on it (at least 4.3, or 3.3 when
// min_gl = 33) and fills `s`.
void open_device(EGLDeviceEXT device, int index, bool debug, Context::State& s, int min_gl = 43) {
  s.display = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, device, nullptr);
  EGLint major = 0, minor = 0;
  if (s.display == EGL_NO_DISPLAY || !eglInitialize(s.display, &major, &minor))
    throw input_error("EGL device {} cannot be initialised (EGL error 0x{:x})", index,
                      eglGetError());
  if (!eglBindAPI(EGL_OPENGL_API))
    throw input_error("EGL device {} does not support desktop OpenGL", index);
  // The newest core context the driver gives (NVIDIA returns exactly the version asked for).
  for (const int gl_minor : {6, 5, 3}) {
    s.context = create_core_context(s.display, 4, gl_minor, debug);
    if (s.context != EGL_NO_CONTEXT) break;
  }
  if (s.context == EGL_NO_CONTEXT && min_gl <= 33)
    s.context = create_core_context(s.display, 3, 3, debug);
  if (s.context == EGL_NO_CONTEXT) throw_too_old(s.display, index, min_gl);
  if (!eglMakeCurrent(s.display, EGL_NO_SURFACE, EGL_NO_SURFACE, s.context))
    throw input_error("EGL device {}: no surfaceless context (EGL_KHR_surfaceless_context)", index);
  s.info = query_info(index);
  s.debug = debug;
}

void enable_debug_output() {
  glEnable(GL_DEBUG_OUTPUT);
  glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
  glDebugMessageCallback(on_debug_message, nullptr);
}

const char* error_name(GLenum e) {
  switch (e) {
    case GL_INVALID_ENUM:
      return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE:
      return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION:
      return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION:
      return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY:
      return "GL_OUT_OF_MEMORY";
    default:
      return "GL error";
  }
}

}  // namespace

std::string describe(const DeviceInfo& d) {
  return fmt::format("device {}: {} {}, OpenGL {}, fp64 {}{}", d.index, d.vendor, d.renderer,
                     d.version, d.fp64 ? "yes" : "no", d.software ? " (software renderer)" : "");
}

std::vector<DeviceInfo> list_devices() {
  const std::vector<EGLDeviceEXT> devices = egl_devices();
  const EGLDisplay old_display = eglGetCurrentDisplay();
  const EGLContext old_context = eglGetCurrentContext();
  std::vector<DeviceInfo> out;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    Context::State s;
    try {
      open_device(devices[i], static_cast<int>(i), false, s);
      out.push_back(s.info);
    } catch (const InputError&) {
      // A device without GL 4.3 is simply not listed.
    }
    if (s.context != EGL_NO_CONTEXT) {
      eglMakeCurrent(s.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
      eglDestroyContext(s.display, s.context);
    }
  }
  if (old_context != EGL_NO_CONTEXT)
    eglMakeCurrent(old_display, EGL_NO_SURFACE, EGL_NO_SURFACE, old_context);
  if (out.empty()) throw InputError(kNoDevice);
  return out;
}

void require_fp64(const DeviceInfo& d) {
  if (!d.fp64)
    throw input_error(
        "device {} ({}) has no double precision (fp64); it supports fp32 only: "
        "set precision = \"fp32\"",
        d.index, d.renderer);
}

Context Context::create(int device, bool debug, int min_gl, std::string_view origin) {
  const std::vector<EGLDeviceEXT> devices = egl_devices();
  const int index = choose_device(device, static_cast<int>(devices.size()), origin);
  auto s = std::make_unique<State>();
  try {
    open_device(devices[static_cast<std::size_t>(index)], index, debug, *s, min_gl);
  } catch (...) {
    if (s->context != EGL_NO_CONTEXT) eglDestroyContext(s->display, s->context);
    throw;
  }
  if (debug && (epoxy_gl_version() >= 43 || epoxy_has_gl_extension("GL_KHR_debug")))
    enable_debug_output();
  // Kernel builds in the driver's own threads, as many as it likes (the program's first use
  // waits for its build: gl/program.hpp).
  if (epoxy_has_gl_extension("GL_KHR_parallel_shader_compile")) {
    glMaxShaderCompilerThreadsKHR(0xFFFFFFFFu);
    s->info.parallel_compile = true;
  } else if (epoxy_has_gl_extension("GL_ARB_parallel_shader_compile")) {
    glMaxShaderCompilerThreadsARB(0xFFFFFFFFu);
    s->info.parallel_compile = true;
  }
  g_debug = debug;
  g_version = s->info.gl_major * 10 + s->info.gl_minor;
  return Context(std::move(s));
}

Context::Context(std::unique_ptr<State> s) : state_(std::move(s)) {}
Context::Context(Context&&) noexcept = default;
Context& Context::operator=(Context&&) noexcept = default;

// The display is left initialised: EGL displays are per device and shared by every context of
// the process, so eglTerminate here would break another live context on the same device.
Context::~Context() {
  if (!state_ || state_->context == EGL_NO_CONTEXT) return;
  if (eglGetCurrentContext() == state_->context) {
    eglMakeCurrent(state_->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    g_debug = false;
  }
  eglDestroyContext(state_->display, state_->context);
}

const DeviceInfo& Context::info() const {
  return state_->info;
}
bool Context::debug() const {
  return state_->debug;
}

bool debug_enabled() {
  return g_debug;
}

int gl_version() {
  return g_version;
}

void check_errors(const char* where) {
  std::string codes;
  for (GLenum e = glGetError(); e != GL_NO_ERROR; e = glGetError())
    codes += (codes.empty() ? "" : ", ") + std::string(error_name(e));
  SCFD_CHECK(codes.empty(), "GL error after {}: {}{}", where, codes,
             g_last_debug_error.empty() ? "" : " (" + g_last_debug_error + ")");
}

void finish() {
  const counters::GpuWait wait;
  glFinish();
}

void flush() {
  glFlush();
}

}  // namespace scfd::gl
