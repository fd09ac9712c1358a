// Compute programs (docs/architecture.md §8.2, §9). The host prepends to every kernel:
//   #version 430 core            (double is core GLSL since 4.00, so fp64 needs no #extension
//                                 line at 430; a driver below 4.3 is refused by Context)
//   #define real float|double    and real2/3/4 = vec2..4 | dvec2..4
//   #define LOCAL_SIZE 256       unless the caller defines LOCAL_SIZE (on an H200, 256 moves a
//                                plain copy at 3.4 TB/s where 64 reaches 1.6 TB/s)
//   #define NAME VALUE           for each caller define
// then the kernel with its #includes resolved. Compile and link messages are rewritten to
// kernels/<file>:<line>: ... through the line table and thrown as CompileError.
//
// A program is built in two halves (start_compute): compile and link are issued at once, and the
// first use of the program (a dispatch, a uniform, its local size) waits for them, reads their
// status and throws their CompileError. With GL_KHR_parallel_shader_compile (Context turns on the
// driver's compiler threads) the driver compiles in the meantime, so that kernels started
// together compile together (docs/gpu.md, "Kernel builds").
//
// Nothing on the dispatch path queries GL state: the x limit and uniform locations are looked up
// once and cached, because a glGet* call makes NVIDIA's threaded driver wait for its command
// queue (measured: ~100 µs per dispatch on an H200 when dispatch() asked for the x limit).
//
// dispatch(n) launches ceil(n / local size) work groups; above the device's x limit (65535 on
// llvmpipe) it uses a 2D grid, and kernels find their item with scfd_gid() from common.glsl and
// must return when it is >= their item count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gl/driver.hpp"
#include "gl/kernel_source.hpp"

namespace scfd::gl {

class Buffer;
class FieldStorage;

enum class Precision { fp32, fp64 };
std::string_view to_string(Precision p);

// Where fields live (gl/field_storage.hpp): 2D textures or storage buffers of the same texels.
enum class Storage { texture, buffer };
std::string_view to_string(Storage s);

using Defines = std::vector<std::pair<std::string, std::string>>;

class Program {
 public:
  Program();
  Program(Program&& o) noexcept;
  Program& operator=(Program&& o) noexcept;
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;
  ~Program();

  unsigned id() const { return id_; }
  Precision precision() const { return precision_; }
  Storage storage() const { return storage_; }
  const std::string& name() const { return name_; }
  unsigned local_size() const;  // GL_COMPUTE_WORK_GROUP_SIZE x
  const KernelSpec& spec() const { return spec_; }

  // Binds a kernel's declared resources in the order of its `// scfd:` lines as the driver
  // declares them (gl/driver.hpp) and, with textures, sets each field's `<name>_shift`. The
  // counts must match the spec; every field must have the program's precision and storage.
  void bind(std::initializer_list<const Buffer*> buffers,
            std::initializer_list<const FieldStorage*> fields,
            std::initializer_list<const FieldStorage*> images);
  // Runs a body over `n` output elements (entries, or vectors for entry3): sets `n` and launches
  // one invocation per output texel (texel bodies) or per element (entry, entry3). The second
  // form computes elements [begin, end) of the n only (entry and entry3 bodies; begin on a texel
  // boundary, as Backend::row_alignment() makes it).
  void run(std::size_t n);
  void run(std::size_t n, std::size_t begin, std::size_t end);

  // Uniform setters; a name the program does not use (optimised away) is ignored, as in GL.
  void set(const char* uniform, std::int32_t v);
  void set(const char* uniform, std::uint32_t v);
  void set(const char* uniform, float v);
  void set(const char* uniform, double v);
  // A `real` uniform: float in fp32 programs, double in fp64 programs.
  void set_real(const char* uniform, double v);

  // Runs n_items invocations (1D grid, or 2D above the x limit); then a storage barrier. In
  // debug mode a GL error afterwards is fatal.
  void dispatch(std::size_t n_items);

  // The grid dispatch(n_items) launches for a local size and x limit (exposed for tests).
  struct Grid {
    unsigned x = 0, y = 0;
  };
  static Grid grid_for(std::size_t n_items, unsigned local_size, unsigned max_x);

 private:
  friend Program start_compute_source(std::string_view name, std::string_view text, Precision p,
                                      const Defines& defines, Storage storage);
  struct Pending;  // a started build: its shader and source (for the error's lines)
  // Waits for a started build, throws its CompileError (the program is then empty) and reads its
  // work group size; nothing once done.
  void ready() const;
  int location(const char* uniform);
  mutable std::unique_ptr<Pending> pending_;
  mutable unsigned id_ = 0;
  Precision precision_ = Precision::fp64;
  Storage storage_ = Storage::texture;
  std::string name_;
  KernelSpec spec_;
  mutable unsigned local_size_ = 0;
  mutable unsigned max_groups_x_ = 0;                  // GL_MAX_COMPUTE_WORK_GROUP_COUNT x
  std::vector<std::pair<std::string, int>> uniforms_;  // cached glGetUniformLocation results
};

// Compiles the embedded kernel `kernel` ("axpy" or "axpy.glsl") for fields in `storage`, and
// waits for it (a CompileError is thrown here).
Program compile_compute(std::string_view kernel, Precision p, const Defines& defines = {},
                        Storage storage = Storage::texture);
// The same build, started: returns at once, and the program's first use waits (see the top).
Program start_compute(std::string_view kernel, Precision p, const Defines& defines = {},
                      Storage storage = Storage::texture);

// Compiles `text` as if it were kernels/<name> (for tests and generated kernels); it may include
// embedded files.
Program compile_compute_source(std::string_view name, std::string_view text, Precision p,
                               const Defines& defines = {}, Storage storage = Storage::texture);
Program start_compute_source(std::string_view name, std::string_view text, Precision p,
                             const Defines& defines = {}, Storage storage = Storage::texture);

}  // namespace scfd::gl
