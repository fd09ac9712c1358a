// Compute program compilation with line-mapped errors, uniforms and dispatch (see program.hpp).
#include "gl/program.hpp"

#include <epoxy/gl.h>
#include <fmt/format.h>

#include <algorithm>
#include <tuple>
#include <utility>

#include "core/counters.hpp"
#include "core/error.hpp"
#include "gl/buffer.hpp"
#include "gl/context.hpp"
#include "gl/field_storage.hpp"

namespace scfd::gl {
namespace {

void add_prelude_line(ExpandedSource& s, const std::string& line) {
  s.text += line + "\n";
  s.lines.push_back({"<prelude>", static_cast<int>(s.lines.size()) + 1});
}

ExpandedSource assemble(std::string_view name, std::string_view text, Precision p, Storage storage,
                        const Defines& defines, const KernelSpec& spec) {
  ExpandedSource s;
  add_prelude_line(s, epoxy_gl_version() >= 45 ? "#version 450 core" : "#version 430 core");
  const bool d = p == Precision::fp64;
  add_prelude_line(s, fmt::format("#define real {}", d ? "double" : "float"));
  for (int n = 2; n <= 4; ++n)
    add_prelude_line(s, fmt::format("#define real{} {}vec{}", n, d ? "d" : "", n));
  const bool has_local = std::any_of(defines.begin(), defines.end(),
                                     [](const auto& kv) { return kv.first == "LOCAL_SIZE"; });
  if (!has_local) add_prelude_line(s, "#define LOCAL_SIZE 256");
  for (const auto& [key, value] : defines) add_prelude_line(s, "#define " + key + " " + value);
  std::vector<std::string> included;
  if (spec.kind != KernelSpec::Kind::plain) add_declarations(s, spec, p, storage, included);
  expand_into(s, name, text, included);
  add_main(s, spec, storage);
  return s;
}

std::string shader_log(GLuint shader) {
  GLint n = 0;
  glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &n);
  std::string log(static_cast<std::size_t>(std::max(n, 1)), '\0');
  glGetShaderInfoLog(shader, n, nullptr, log.data());
  return log.c_str();
}

std::string program_log(GLuint program) {
  GLint n = 0;
  glGetProgramiv(program, GL_INFO_LOG_LENGTH, &n);
  std::string log(static_cast<std::size_t>(std::max(n, 1)), '\0');
  glGetProgramInfoLog(program, n, nullptr, log.data());
  return log.c_str();
}

// Issues the compile and the link without asking for their status (which would wait for them).
std::pair<GLuint, GLuint> start_build(const ExpandedSource& s) {
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  const char* src = s.text.c_str();
  const auto len = static_cast<GLint>(s.text.size());
  glShaderSource(shader, 1, &src, &len);
  glCompileShader(shader);
  const GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  return {shader, program};
}

}  // namespace

struct Program::Pending {
  GLuint shader = 0;
  ExpandedSource source;
};

std::string_view to_string(Precision p) {
  return p == Precision::fp64 ? "fp64" : "fp32";
}

Program start_compute_source(std::string_view name, std::string_view text, Precision p,
                             const Defines& defines, Storage storage) {
  std::string n(name);
  if (!n.ends_with(".glsl")) n += ".glsl";
  KernelSpec spec = parse_spec(n, text);
  auto pending = std::make_unique<Program::Pending>();
  pending->source = assemble(n, text, p, storage, defines, spec);  // before any GL call
  Program prog;
  std::tie(pending->shader, prog.id_) = start_build(pending->source);
  prog.pending_ = std::move(pending);
  prog.precision_ = p;
  prog.storage_ = storage;
  prog.name_ = std::move(n);
  prog.spec_ = std::move(spec);
  return prog;
}

Program compile_compute_source(std::string_view name, std::string_view text, Precision p,
                               const Defines& defines, Storage storage) {
  Program prog = start_compute_source(name, text, p, defines, storage);
  prog.local_size();  // waits, and throws a compile error here
  return prog;
}

Program start_compute(std::string_view kernel, Precision p, const Defines& defines,
                      Storage storage) {
  std::string n(kernel);
  if (!n.ends_with(".glsl")) n += ".glsl";
  return start_compute_source(n, embedded_text(n), p, defines, storage);
}

Program compile_compute(std::string_view kernel, Precision p, const Defines& defines,
                        Storage storage) {
  Program prog = start_compute(kernel, p, defines, storage);
  prog.local_size();
  return prog;
}

void Program::ready() const {
  if (!pending_) return;
  const std::unique_ptr<Pending> b = std::move(pending_);
  const auto fail = [&](std::string_view what, const std::string& log) {
    glDeleteShader(b->shader);
    glDeleteProgram(std::exchange(id_, 0));
    throw CompileError(fmt::format("kernels/{} ({}, {}) does not {}:\n{}", name_,
                                   to_string(precision_), to_string(storage_), what,
                                   rewrite_log(log, b->source.lines, name_)));
  };
  GLint ok = 0;
  glGetShaderiv(b->shader, GL_COMPILE_STATUS, &ok);
  if (!ok) fail("compile", shader_log(b->shader));
  glGetProgramiv(id_, GL_LINK_STATUS, &ok);
  if (!ok) fail("link", program_log(id_));
  glDeleteShader(b->shader);  // flagged; freed with the program
  GLint size[3] = {0, 0, 0};
  glGetProgramiv(id_, GL_COMPUTE_WORK_GROUP_SIZE, size);
  SCFD_CHECK(size[0] > 0 && size[1] == 1 && size[2] == 1,
             "kernels/{}: work group must be (LOCAL_SIZE, 1, 1), got ({}, {}, {})", name_, size[0],
             size[1], size[2]);
  local_size_ = static_cast<unsigned>(size[0]);
  GLint max_x = 0;
  glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0, &max_x);
  max_groups_x_ = static_cast<unsigned>(max_x);
}

unsigned Program::local_size() const {
  ready();
  return local_size_;
}

Program::Program() = default;

Program::Program(Program&& o) noexcept
    : id_(std::exchange(o.id_, 0)),
      precision_(o.precision_),
      storage_(o.storage_),
      name_(std::move(o.name_)),
      spec_(std::move(o.spec_)),
      local_size_(o.local_size_),
      max_groups_x_(o.max_groups_x_),
      uniforms_(std::move(o.uniforms_)) {
  pending_ = std::move(o.pending_);
}

Program& Program::operator=(Program&& o) noexcept {
  if (this != &o) {
    if (pending_) glDeleteShader(pending_->shader);
    if (id_) glDeleteProgram(id_);
    pending_ = std::move(o.pending_);
    id_ = std::exchange(o.id_, 0);
    precision_ = o.precision_;
    storage_ = o.storage_;
    name_ = std::move(o.name_);
    spec_ = std::move(o.spec_);
    local_size_ = o.local_size_;
    max_groups_x_ = o.max_groups_x_;
    uniforms_ = std::move(o.uniforms_);
  }
  return *this;
}

Program::~Program() {
  if (pending_) glDeleteShader(pending_->shader);
  if (id_) glDeleteProgram(id_);
}

int Program::location(const char* uniform) {
  ready();
  for (const auto& [name, loc] : uniforms_)
    if (name == uniform) return loc;
  const int loc = glGetUniformLocation(id_, uniform);
  uniforms_.emplace_back(uniform, loc);
  return loc;
}

void Program::set(const char* u, std::int32_t v) {
  glProgramUniform1i(id_, location(u), v);
}
void Program::set(const char* u, std::uint32_t v) {
  glProgramUniform1ui(id_, location(u), v);
}
void Program::set(const char* u, float v) {
  glProgramUniform1f(id_, location(u), v);
}
void Program::set(const char* u, double v) {
  glProgramUniform1d(id_, location(u), v);
}
void Program::set_real(const char* u, double v) {
  if (precision_ == Precision::fp64)
    set(u, v);
  else
    set(u, static_cast<float>(v));
}

Program::Grid Program::grid_for(std::size_t n_items, unsigned local_size, unsigned max_x) {
  SCFD_CHECK(local_size > 0 && max_x > 0);
  const std::size_t groups = (n_items + local_size - 1) / local_size;
  if (groups <= max_x) return {static_cast<unsigned>(groups), groups > 0 ? 1u : 0u};
  const std::size_t y = (groups + max_x - 1) / max_x;
  SCFD_CHECK(y <= max_x, "{} items need {}x{} work groups, more than the device allows", n_items,
             max_x, y);
  // Balance x so that the last row wastes less than one row.
  const std::size_t x = (groups + y - 1) / y;
  return {static_cast<unsigned>(x), static_cast<unsigned>(y)};
}

void Program::bind(std::initializer_list<const Buffer*> buffers,
                   std::initializer_list<const FieldStorage*> fields,
                   std::initializer_list<const FieldStorage*> images) {
  SCFD_CHECK(buffers.size() == spec_.buffers.size() && fields.size() == spec_.fields.size() &&
                 images.size() == spec_.images.size(),
             "kernels/{}: bound {} buffers, {} fields, {} images; it declares {}, {}, {}", name_,
             buffers.size(), fields.size(), images.size(), spec_.buffers.size(),
             spec_.fields.size(), spec_.images.size());
  unsigned k = 0;
  for (const Buffer* b : buffers) b->bind(k++);
  const auto check = [&](const std::string& name, const FieldStorage& f) {
    SCFD_CHECK(f.precision() == precision_ && f.kind() == storage_,
               "kernels/{}: {} {} field {} bound to a {} {} kernel", name_,
               to_string(f.precision()), to_string(f.kind()), name, to_string(precision_),
               to_string(storage_));
    if (storage_ == Storage::texture)
      set((name + "_shift").c_str(), static_cast<std::uint32_t>(f.layout().shift));
  };
  // Buffers: fields and images (two bindings each) take the bindings after the kernel's own.
  const auto nb = static_cast<unsigned>(buffers.size());
  const auto nf = static_cast<unsigned>(fields.size());
  const bool buffer = storage_ == Storage::buffer;
  k = 0;
  for (const FieldStorage* f : fields) {
    check(spec_.fields[k], *f);
    if (buffer) {
      f->bind_read(nb + 2 * k);      // texels
      f->bind_read(nb + 2 * k + 1);  // the same buffer as reals (driver.cpp)
    } else {
      f->bind_read(k);
    }
    ++k;
  }
  k = 0;
  for (const FieldStorage* f : images) {
    check(spec_.images[k], *f);
    if (buffer) {
      f->bind_write(nb + 2 * nf + 2 * k);      // texels
      f->bind_write(nb + 2 * nf + 2 * k + 1);  // reals (driver.cpp)
    } else {
      f->bind_write(k);
      f->bind_read(nf + k);  // its old values (driver.cpp)
    }
    ++k;
  }
}

void Program::run(std::size_t n) {
  if (spec_.kind != KernelSpec::Kind::texel) {
    run(n, 0, n);
    return;
  }
  SCFD_CHECK(spec_.is_body(), "kernels/{} is not a body: dispatch it", name_);
  set("n", static_cast<std::uint32_t>(n));
  const std::size_t per_texel = precision_ == Precision::fp64 ? 2 : 4;
  dispatch((n + per_texel - 1) / per_texel);  // one invocation per texel
}

void Program::run(std::size_t n, std::size_t begin, std::size_t end) {
  SCFD_CHECK(spec_.is_body() && spec_.kind != KernelSpec::Kind::texel,
             "kernels/{}: a part of the elements needs an entry or entry3 body", name_);
  const std::size_t per_texel = precision_ == Precision::fp64 ? 2 : 4;
  SCFD_CHECK(begin <= end && end <= n && begin * spec_.components() % per_texel == 0,
             "kernels/{}: elements [{}, {}) of {} do not start on a texel", name_, begin, end, n);
  set("n", static_cast<std::uint32_t>(n));
  set("scfd_begin", static_cast<std::uint32_t>(begin));
  set("scfd_end", static_cast<std::uint32_t>(end));
  dispatch(end - begin);  // one invocation per element; the work group stores whole texels
}

void Program::dispatch(std::size_t n_items) {
  ready();
  SCFD_CHECK(id_ != 0, "dispatch of an empty Program");
  if (n_items == 0) return;
  const Grid g = grid_for(n_items, local_size_, max_groups_x_);
  glUseProgram(id_);
  glDispatchCompute(g.x, g.y, 1);
  counters::add(counters::Kind::gpu_dispatch);
  // Only the barriers the next kernel needs: buffer and texture transfers issue their update
  // barriers themselves (buffer.cpp, field_storage.cpp).
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT |
                  GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
  if (debug_enabled()) check_errors(name_.c_str());
}

}  // namespace scfd::gl
