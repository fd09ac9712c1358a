// Basic vocabulary of streamcfd: the floating-point type `real`, the index type, and a small
// 3-vector. 2D meshes use Vec3 with z = 0 so that geometry code is written once.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>

namespace scfd {

// fp64 by default (docs/architecture.md §8.4). GPU backends choose fp32 or fp64 per run on their
// own buffers; the cpu backend, the reference, always computes in `real`.
using real = double;

// Entity index. 32-bit because METIS 5 (Debian) uses 32-bit idx_t and 2^31 entities are far
// beyond one rank's memory; -1 marks "none" (e.g. the missing neighbour of a boundary face).
using index = std::int32_t;
inline constexpr index kNone = -1;

// Rows [begin, end) of an operator's owned outputs (the halo overlap computes an operator in two
// parts, halo/overlap.hpp); end < 0 stands for the owned count, so {} is every owned output.
struct RowRange {
  index begin = 0, end = -1;
  index stop(index n_owned) const { return end < 0 ? n_owned : end; }
};

struct Vec3 {
  real x = 0, y = 0, z = 0;

  constexpr real& operator[](int i) { return i == 0 ? x : (i == 1 ? y : z); }
  constexpr real operator[](int i) const { return i == 0 ? x : (i == 1 ? y : z); }
  constexpr Vec3& operator+=(const Vec3& o) {
    x += o.x;
    y += o.y;
    z += o.z;
    return *this;
  }
  constexpr Vec3& operator-=(const Vec3& o) {
    x -= o.x;
    y -= o.y;
    z -= o.z;
    return *this;
  }
  constexpr Vec3& operator*=(real s) {
    x *= s;
    y *= s;
    z *= s;
    return *this;
  }
};

constexpr Vec3 operator+(Vec3 a, const Vec3& b) {
  return a += b;
}
constexpr Vec3 operator-(Vec3 a, const Vec3& b) {
  return a -= b;
}
constexpr Vec3 operator-(const Vec3& a) {
  return {-a.x, -a.y, -a.z};
}
constexpr Vec3 operator*(real s, Vec3 a) {
  return a *= s;
}
constexpr Vec3 operator*(Vec3 a, real s) {
  return a *= s;
}
constexpr Vec3 operator/(Vec3 a, real s) {
  return a *= (1 / s);
}
constexpr real dot(const Vec3& a, const Vec3& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
constexpr Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline real norm(const Vec3& a) {
  return std::sqrt(dot(a, a));
}

}  // namespace scfd
