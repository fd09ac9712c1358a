// The GL backend's fields and host transfers (see fields.hpp).
#include "backend/opengl/fields.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "core/error.hpp"

namespace scfd::backend::opengl {

using scfd::gl::Precision;

GlField::GlField(index n, Precision p, scfd::gl::Storage s, int max_texture_size,
                 std::shared_ptr<std::size_t> held)
    : n_(n), storage_(static_cast<std::size_t>(n), p, s, max_texture_size), held_(std::move(held)) {
  *held_ += storage_.bytes();
}

GlField::~GlField() {
  *held_ -= storage_.bytes();
}

FieldStorage& storage(Field& f) {
  auto* g = dynamic_cast<GlField*>(&f);
  SCFD_CHECK(g != nullptr, "a field of another backend was passed to the gl-compute backend");
  return g->storage();
}
const FieldStorage& storage(const Field& f) {
  const auto* g = dynamic_cast<const GlField*>(&f);
  SCFD_CHECK(g != nullptr, "a field of another backend was passed to the gl-compute backend");
  return g->storage();
}

void check_same_size(const Field& a, const Field& b) {
  SCFD_CHECK(a.size() == b.size(), "field sizes differ: {} vs {}", a.size(), b.size());
}

void write_reals(Buffer& b, std::span<const real> v, std::size_t first, Precision p) {
  if (p == Precision::fp64) {
    b.upload<real>(v, first);
    return;
  }
  std::vector<float> f(v.size());
  std::transform(v.begin(), v.end(), f.begin(), [](real x) { return static_cast<float>(x); });
  b.upload<float>(f, first);
}

void read_reals(const Buffer& b, std::span<real> out, Precision p) {
  if (p == Precision::fp64) {
    b.download_bytes(out.data(), out.size_bytes(), 0);
    return;
  }
  std::vector<float> f(out.size());
  b.download_bytes(f.data(), f.size() * sizeof(float), 0);
  std::copy(f.begin(), f.end(), out.begin());
}

}  // namespace scfd::backend::opengl
