// A kernel body compiled for one driver (gl/driver.hpp): the calls both drivers offer (bind, run,
// uniforms), so that a caller such as the operators runs a body without knowing which driver
// compiled it. ComputeBody is a compute Program as a Body; RasterProgram (gl/raster.hpp) is the
// fragment driver's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string_view>
#include <utility>

#include "gl/program.hpp"

namespace scfd::gl {

class Body {
 public:
  Body() = default;
  Body(const Body&) = delete;
  Body& operator=(const Body&) = delete;
  virtual ~Body() = default;

  // As Program::bind: index buffers, fields read, and the body's output.
  virtual void bind(std::initializer_list<const Buffer*> buffers,
                    std::initializer_list<const FieldStorage*> fields,
                    std::initializer_list<const FieldStorage*> images) = 0;
  // As Program::run: output elements [0, n), or [begin, end) of the n (entry and entry3 bodies).
  virtual void run(std::size_t n) = 0;
  virtual void run(std::size_t n, std::size_t begin, std::size_t end) = 0;
  virtual void set(const char* uniform, std::int32_t v) = 0;
  virtual void set(const char* uniform, std::uint32_t v) = 0;
  virtual void set_real(const char* uniform, double v) = 0;

 protected:
  Body(Body&&) noexcept = default;
  Body& operator=(Body&&) noexcept = default;
};

// How a driver compiles the embedded body `kernel` ("axpy" or "axpy.glsl") for fields of
// precision p in `storage`: compile_compute_body or compile_raster_body (gl/raster.hpp).
using BodyCompiler = std::unique_ptr<Body> (*)(std::string_view kernel, Precision p,
                                               const Defines& defines, Storage storage);

// A body under the compute driver: a Program with its own main generated (gl/driver.hpp).
class ComputeBody final : public Body {
 public:
  explicit ComputeBody(Program p) : program_(std::move(p)) {}
  void bind(std::initializer_list<const Buffer*> buffers,
            std::initializer_list<const FieldStorage*> fields,
            std::initializer_list<const FieldStorage*> images) override {
    program_.bind(buffers, fields, images);
  }
  void run(std::size_t n) override { program_.run(n); }
  void run(std::size_t n, std::size_t begin, std::size_t end) override {
    program_.run(n, begin, end);
  }
  void set(const char* uniform, std::int32_t v) override { program_.set(uniform, v); }
  void set(const char* uniform, std::uint32_t v) override { program_.set(uniform, v); }
  void set_real(const char* uniform, double v) override { program_.set_real(uniform, v); }

 private:
  Program program_;
};

// Compiles the embedded body `kernel` under the compute driver (compile_compute).
std::unique_ptr<Body> compile_compute_body(std::string_view kernel, Precision p,
                                           const Defines& defines, Storage storage);

}  // namespace scfd::gl
