// One GL context per test process (GoogleTest runs tests on one thread; CTest runs each test in
// its own process). Creation failure is a test failure, never a skip: CI has llvmpipe.
#pragma once

#include "gl/context.hpp"

namespace scfd::test {

inline const gl::Context& gl_context() {
  static const gl::Context ctx = gl::Context::create(-1, /*debug=*/true);
  return ctx;
}

}  // namespace scfd::test
