// gl_copy_probe: why is a large-buffer copy slow inside `streamcfd bench` on NVIDIA's GL driver?
// A diagnostic, not part of the build: it copies 72M doubles between two SSBOs with a plain
// compute kernel and reports TB/s for buffers made with each glBufferData usage hint, before and
// after 8 GB of other buffers exist, and for two ranges of one "arena" buffer (docs/bench/README.md
// has the H200 results). Build against a configured build directory and run on the GPU machine:
//   g++ -std=c++20 -O2 -Isrc -isystem /usr/lib/x86_64-linux-gnu/openmpi/include \
//     scripts/bench/gl_copy_probe.cpp build/src/gl/libscfd_gl.a build/src/core/libscfd_core.a \
//     -lepoxy -lEGL -lfmt -L/usr/lib/x86_64-linux-gnu/openmpi/lib -lmpi -o gl_copy_probe
#include <epoxy/gl.h>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>
#include "gl/context.hpp"
#include "gl/program.hpp"
using namespace scfd;
static GLuint make(size_t bytes, GLenum usage, bool touch) {
  GLuint id;
  glGenBuffers(1, &id);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, id);
  glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)bytes, nullptr, usage);
  if (touch) {
    std::vector<char> h(1 << 26, 1);
    for (size_t o = 0; o < bytes; o += h.size())
      glBufferSubData(GL_SHADER_STORAGE_BUFFER, (GLintptr)o,
                      (GLsizeiptr)std::min(h.size(), bytes - o), h.data());
  }
  return id;
}
int main() {
  auto ctx = gl::Context::create(-1, false);
  std::printf("%s\n", gl::describe(ctx.info()).c_str());
  GLint align = 0;
  glGetIntegerv(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &align);
  GLint64 maxblock = 0;
  glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &maxblock);
  std::printf("ssbo offset alignment %d, max block %lld\n", align, (long long)maxblock);
  std::string src =
      "#include \"common.glsl\"\nlayout(std430, binding=0) readonly buffer A { real a[]; };\n"
      "layout(std430, binding=1) writeonly buffer B { real b[]; };\nuniform uint n;\n"
      "void main(){ uint i = scfd_gid(); if (i < n) b[i] = a[i]; }\n";
  auto prog = gl::compile_compute_source("probe_copy.glsl", src, gl::Precision::fp64, {});
  const size_t n = 72354222, es = 8, bytes = n * es;
  prog.set("n", (std::uint32_t)n);
  auto time = [&](const char* what) {
    glUseProgram(prog.id());
    unsigned groups = (unsigned)((n + 255) / 256);
    for (int r = 0; r < 3; ++r) {
      glDispatchCompute(groups, 1, 1);
      glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    glFinish();
    auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < 20; ++r) {
      glDispatchCompute(groups, 1, 1);
      glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    glFinish();
    double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / 20;
    std::printf("%-50s %8.1f us %7.1f GB/s\n", what, t * 1e6, 2.0 * bytes / t / 1e9);
    std::fflush(stdout);
  };
  struct U {
    GLenum e;
    const char* name;
  };
  for (U u : {U{GL_DYNAMIC_COPY, "DYNAMIC_COPY"}, U{GL_STATIC_DRAW, "STATIC_DRAW"},
              U{GL_STREAM_COPY, "STREAM_COPY"}, U{GL_STATIC_COPY, "STATIC_COPY"}}) {
    GLuint a = make(bytes, u.e, true), b = make(bytes, u.e, true);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, a);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, b);
    time((std::string(u.name) + " alone").c_str());
    std::vector<GLuint> ballast;
    for (int k = 0; k < 16; ++k) ballast.push_back(make(size_t(1) << 29, u.e, true));
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, a);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, b);
    time((std::string(u.name) + " + 8 GB ballast").c_str());
    glDeleteBuffers((GLsizei)ballast.size(), ballast.data());
    glDeleteBuffers(1, &a);
    glDeleteBuffers(1, &b);
    glFinish();
    time((std::string(u.name) + " after freeing (stale ids)").c_str());
  }
  for (size_t extra : {size_t(0), size_t(8) << 30}) {
    size_t slot = (bytes + align - 1) / align * align;
    GLuint arena = make(2 * slot + extra, GL_DYNAMIC_COPY, true);
    glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 0, arena, 0, (GLsizeiptr)bytes);
    glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 1, arena, (GLintptr)slot, (GLsizeiptr)bytes);
    time(extra ? "arena of 9.2 GB, ranges" : "arena of 1.2 GB, ranges");
    glDeleteBuffers(1, &arena);
  }
}
