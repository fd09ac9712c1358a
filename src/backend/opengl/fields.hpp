// The GL backend's fields (GlField: one gl::FieldStorage, gl/field_storage.hpp) and the helpers
// that move host values (`real`, double) into and out of device buffers in the fields' precision.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "backend/backend.hpp"
#include "gl/buffer.hpp"
#include "gl/field_storage.hpp"
#include "gl/program.hpp"

namespace scfd::backend::opengl {

using scfd::gl::Buffer;
using scfd::gl::FieldStorage;

class GlField final : public Field {
 public:
  // `held` (the backend's device_bytes count) grows by the texture's bytes while the field lives.
  GlField(index n, scfd::gl::Precision p, scfd::gl::Storage s, int max_texture_size,
          std::shared_ptr<std::size_t> held);
  ~GlField() override;
  GlField(const GlField&) = delete;
  GlField& operator=(const GlField&) = delete;
  index size() const override { return n_; }
  FieldStorage& storage() { return storage_; }
  const FieldStorage& storage() const { return storage_; }

 private:
  index n_;
  FieldStorage storage_;
  std::shared_ptr<std::size_t> held_;
};

// The texture behind a Field made by a GlBackend (SCFD_CHECK that it is one).
FieldStorage& storage(Field& f);
const FieldStorage& storage(const Field& f);

void check_same_size(const Field& a, const Field& b);

// Bytes of one value of precision p.
inline std::size_t real_bytes(scfd::gl::Precision p) {
  return p == scfd::gl::Precision::fp64 ? sizeof(double) : sizeof(float);
}

inline std::uint32_t u32(index n) {
  return static_cast<std::uint32_t>(n);
}

// Writes host values into `b` from element `first` on, rounded to float for fp32 buffers.
void write_reals(Buffer& b, std::span<const real> v, std::size_t first, scfd::gl::Precision p);
// Reads the first out.size() elements of `b` into host values.
void read_reals(const Buffer& b, std::span<real> out, scfd::gl::Precision p);

}  // namespace scfd::backend::opengl
