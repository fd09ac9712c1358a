// Kernel bodies and drivers (docs/architecture.md §8.2, docs/gpu.md "Kernels"). A kernel file
// declares what it reads and writes in `// scfd:` lines at its top; the driver generates the GL
// declarations for them and, for a body, the main() that calls it:
//
//   // scfd: body entry <out>    real entry(uint i): entry i of the output field <out>
//   // scfd: body entry3 <out>   real3 entry3(uint e): entries 3e..3e+2 (a vector per element)
//   // scfd: body texel <out>    realv texel(uint t): a whole texel of an element-wise update
//   // scfd: kernel              a kernel with its own main() (reductions, packing, assembly)
//   // scfd: in a b ...          fields read: real load_a(uint i), realv texel_a(uint t)
//   // scfd: image x ...         fields read and written by a kernel: texel_x(t), store_x(t, v)
//   // scfd: index <type> a ...  read-only storage buffers `<type> a[]` (connectivity, geometry)
//   // scfd: buffer <type> a     a read-write storage buffer `<type> a[]` (kernel outputs),
//                               coherent: another workgroup of the same dispatch may read it
//
// Bindings follow the order of the lines: storage buffers 0, 1, ... (index and buffer lines
// together). With Storage::texture, fields go to texture units 0, 1, ..., images (a body's output
// is its only image) to image units 0, 1, ..., write-only; an image's old values are read through
// a sampler of the same texture on the texture units after the fields'; each field has a uniform
// `<name>_shift` (log2 of its texture's width) that Program::bind sets. With Storage::buffer,
// fields and then images take the storage buffer bindings after the kernel's own, two each: the
// texels as `realv[]`, then the same buffer as `real[]` (load_<name> of a field; the driver's
// scalar stores into an image). A
// body's driver declares `uniform uint n` (output elements: entries, or vectors for entry3), writes
// only entries below n (components) and keeps the rest of a texel.
//
// Today's driver is compute: a texel body runs one invocation per output texel; entry and entry3
// bodies run one invocation per output element, stored as reals into a buffer, or gathered per
// work group in shared memory and stored as whole texels into a texture. A file without `// scfd:`
// lines is an ordinary compute kernel (tests, probes).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gl/kernel_source.hpp"

namespace scfd::gl {

enum class Precision;
enum class Storage;

struct KernelSpec {
  enum class Kind { plain, kernel, entry, entry3, texel };
  Kind kind = Kind::plain;
  std::vector<std::string> fields;  // `in`: texture units 0, 1, ...
  std::vector<std::string> images;  // `image`, or the body's output: image units 0, 1, ...
  struct Storage {
    std::string type, name;
    bool readonly = true;
  };
  std::vector<Storage> buffers;  // `index` and `buffer`: bindings 0, 1, ...
  int components() const { return kind == Kind::entry3 ? 3 : 1; }
  bool is_body() const {
    return kind == Kind::entry || kind == Kind::entry3 || kind == Kind::texel;
  }
};

// The spec of kernels/<name> from its `// scfd:` lines; CompileError for a malformed line.
KernelSpec parse_spec(std::string_view name, std::string_view text);

// Appends the compute driver's declarations for `spec` (before the file's text) and its main()
// (after it). Lines are attributed to "<driver>".
void add_declarations(ExpandedSource& s, const KernelSpec& spec, Precision p, Storage storage,
                      std::vector<std::string>& included);
void add_main(ExpandedSource& s, const KernelSpec& spec, Storage storage);

}  // namespace scfd::gl
