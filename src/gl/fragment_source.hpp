// The GLSL of the fragment driver (gl/raster.hpp) and its compilation: the fragment shader
// generated around a body (its declarations, the body with its index reads rewritten, and the
// main() that calls it per output texel), the vertex shader of a draw over the whole viewport, and
// the compile and link steps, whose messages point at kernels/<file>:<line> (CompileError). Used
// by RasterProgram and PointWriter.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "gl/driver.hpp"
#include "gl/kernel_source.hpp"
#include "gl/program.hpp"

namespace scfd::gl {

// Appends one line to `s`, attributed to `origin` in the line table.
void add_line(ExpandedSource& s, const std::string& line, const char* origin = "<driver>");

// The #version line for the current context.
std::string version_line();

// The fragment shader of body `name` (text `text`, spec `spec`); the buffer-texture format of
// each index array is appended to `formats`, in the order of the spec's buffers.
ExpandedSource fragment_source(std::string_view name, std::string_view text, Precision p,
                               const Defines& defines, const KernelSpec& spec,
                               std::vector<unsigned>& formats);

// A triangle that covers the viewport (no vertex attributes).
ExpandedSource vertex_source();

// A compiled shader of `kind` (GL_VERTEX_SHADER, GL_FRAGMENT_SHADER); CompileError with the log
// rewritten through s's line table.
unsigned compile_shader(unsigned kind, const ExpandedSource& s, std::string_view name, Precision p);

// Links a vertex and a fragment shader (both deleted here) whose output is `scfd_out`; 0 and the
// log in `log` when the link fails.
unsigned link_program(unsigned vertex, unsigned fragment, std::string& log);

// The body text with every `name[expr]` of an index array in `names` replaced by
// `scfd_ix_name(expr)` (nested brackets kept; exposed for tests).
std::string rewrite_index_reads(std::string_view text, const std::vector<std::string>& names);

}  // namespace scfd::gl
