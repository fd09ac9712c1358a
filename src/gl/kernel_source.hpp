// GLSL kernel sources (docs/architecture.md §8.2). Every kernels/*.glsl is embedded into the binary
// at build time (embed_kernels.cmake). A kernel may `#include "other.glsl"` (resolved here on the
// host, recursively, each file at most once); a file holding the line `// scfd: include-only` is a
// library of functions and is not compiled on its own.
//
// Every line of an expanded source keeps its origin (file, line), so driver messages can be
// rewritten as `kernels/<file>:<line>: message`.
#pragma once

#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace scfd::gl {

// A kernel that does not compile or link (a bug in kernels/, not user input). what() holds one
// rewritten driver message per line.
class CompileError : public std::runtime_error {
 public:
  explicit CompileError(const std::string& message) : std::runtime_error(message) {}
};

struct EmbeddedKernel {
  std::string_view name;  // file name in kernels/, e.g. "axpy.glsl"
  std::string_view text;
  bool include_only = false;
};

// Generated at build time from kernels/*.glsl, sorted by name.
std::span<const EmbeddedKernel> embedded_kernels();

// Names of the kernels that compile on their own (include-only files left out), sorted.
std::vector<std::string> compilable_kernels();

struct LineOrigin {
  std::string file;  // "kernels/axpy.glsl", or "<prelude>" for lines the host prepends
  int line = 0;      // 1-based
};

struct ExpandedSource {
  std::string text;
  std::vector<LineOrigin> lines;  // lines[i] is the origin of line i + 1 of text
};

// Appends `text` (a file called `name`) to `out`, replacing each #include by the included
// embedded file. Throws CompileError (kernels/<name>:<line>: ...) for a malformed or unknown
// include.
void expand_into(ExpandedSource& out, std::string_view name, std::string_view text,
                 std::vector<std::string>& included);

// The embedded kernel `name` ("axpy" or "axpy.glsl") with its includes resolved.
// Unknown names are a program bug (SCFD_CHECK, listing the embedded kernels).
std::string kernel_source(std::string_view name);

// The embedded text of `name` (no include resolution).
std::string_view embedded_text(std::string_view name);

// Rewrites a driver info log (Mesa "0:12(5): error: ..." or NVIDIA "0(12) : error ...") line by
// line to "kernels/<file>:<line>: ..." through `lines`; other lines get the prefix
// "kernels/<kernel>: ".
std::string rewrite_log(std::string_view log, const std::vector<LineOrigin>& lines,
                        std::string_view kernel);

}  // namespace scfd::gl
