// The variants of the conformance suite (variants.hpp), and a check that every entry of the
// backend table is one the suite knows.
#include "conformance/variants.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string_view>

namespace scfd::test {
namespace {

// One word of a test name: '-' is not allowed there.
std::string identifier(std::string_view s) {
  std::string out(s);
  std::replace(out.begin(), out.end(), '-', '_');
  return out;
}

}  // namespace

bool known_entry(const std::string& name) {
  return name == "cpu" || name == "gl-compute" || name == "gl-raster";
}

std::vector<BackendVariant> backend_variants() {
  std::vector<BackendVariant> out;
  for (const backend::BackendEntry& e : backend::backend_table()) {
    const std::string entry(e.name);
    const bool storage_choice = entry == "gl-compute" || !known_entry(entry);
    const std::vector<std::string> precisions = entry == "cpu"
                                                    ? std::vector<std::string>{"fp64"}
                                                    : std::vector<std::string>{"fp64", "fp32"};
    const std::vector<std::string> storages =
        storage_choice ? std::vector<std::string>{"buffer", "texture"}
                       : std::vector<std::string>{entry == "gl-raster" ? "texture" : ""};
    for (const std::string& p : precisions)
      for (const std::string& s : storages)
        out.push_back({entry, p, s,
                       identifier(e.name) + "_" + p + (storage_choice ? "_" + s : std::string())});
  }
  return out;
}

std::unique_ptr<backend::Backend> BackendVariant::make() const {
  const backend::BackendEntry* e = backend::find_backend(entry);
  if (e == nullptr) throw std::runtime_error("no backend entry " + entry);
  backend::BackendOptions options;
  options.precision = precision;
  options.debug = true;
  if (!storage.empty()) options.storage = storage;
  return e->make(options);
}

std::unique_ptr<backend::Backend> make_reference() {
  return backend::find_backend("cpu")->make({});
}

namespace {

// A new entry of the table must be given its variants above (which precisions and storages
// apply to it), not merely inherit every combination.
TEST(ConformanceVariants, UnknownEntriesAreListed) {
  for (const backend::BackendEntry& e : backend::backend_table())
    EXPECT_TRUE(known_entry(std::string(e.name)))
        << e.name << ": list its precisions and storages in tests/conformance/variants.cpp";
  ASSERT_NE(backend::find_backend("cpu"), nullptr);  // the reference
}

// The variants are the ones documented in variants.hpp, each named once.
TEST(ConformanceVariants, ListCoversTheTable) {
  std::vector<std::string> names;
  for (const BackendVariant& v : backend_variants()) names.push_back(v.name);
  for (const char* expected :
       {"cpu_fp64", "gl_compute_fp64_buffer", "gl_compute_fp64_texture", "gl_compute_fp32_buffer",
        "gl_compute_fp32_texture", "gl_raster_fp64", "gl_raster_fp32"})
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
  std::sort(names.begin(), names.end());
  EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end());
}

// The name and precision a variant's backend reports are the ones it was made with.
class ConformanceMake : public ::testing::TestWithParam<BackendVariant> {};

TEST_P(ConformanceMake, NameAndPrecision) {
  const auto be = GetParam().make();
  EXPECT_EQ(be->name(), GetParam().entry);
  EXPECT_EQ(be->precision(), GetParam().precision);
}

INSTANTIATE_TEST_SUITE_P(conformance, ConformanceMake, ::testing::ValuesIn(backend_variants()),
                         VariantName());

}  // namespace
}  // namespace scfd::test
