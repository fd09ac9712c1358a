// The variants of the conformance suite: every entry of backend::backend_table() in every
// precision and field storage where that choice applies to it, each made through the entry's
// make (BackendOptions), never through a concrete class. The suite compares each variant with the
// cpu entry, the specification (docs/architecture.md §6).
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "backend/registry.hpp"

namespace scfd::test {

struct BackendVariant {
  std::string entry;      // BackendEntry::name
  std::string precision;  // BackendOptions::precision: "fp64" | "fp32"
  std::string storage;  // BackendOptions::storage: "buffer" | "texture"; "" where it does not apply
  std::string name;     // in test names: gl_compute_fp32_texture, gl_raster_fp64, cpu_fp64

  bool fp32() const { return precision == "fp32"; }
  // The backend, made by its table entry with GL debug output on. A failure to make it throws
  // (InputError): the test fails, it is never skipped.
  std::unique_ptr<backend::Backend> make() const;
};

// Every entry of backend_table() with the precisions and storages it takes, decided from its name:
//   cpu         fp64 only (its make throws InputError for fp32); it has no storage choice.
//   gl-compute  fp64 and fp32, each on storage buffers and on textures (docs/gpu.md §8).
//   gl-raster   fp64 and fp32; its fields are always textures (the fragment driver draws into
//               them), so storage does not apply.
// An entry the suite does not know gets every precision and storage (its make must then accept
// or refuse them; a refusal fails), and UnknownEntriesAreListed fails until it is listed here.
std::vector<BackendVariant> backend_variants();

// The names of the entries listed above.
bool known_entry(const std::string& name);

// The cpu backend of the table: the reference every variant is compared with.
std::unique_ptr<backend::Backend> make_reference();

// GoogleTest prints a variant by its name.
inline void PrintTo(const BackendVariant& v, std::ostream* os) {
  *os << v.name;
}

// The name of a parameterised test instance.
struct VariantName {
  template <class ParamInfo>
  std::string operator()(const ParamInfo& info) const {
    return info.param.name;
  }
};

}  // namespace scfd::test
