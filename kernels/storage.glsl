// scfd: include-only
// storage.glsl: fields as 16-byte texels in storage buffers or 2D textures (gl/field_storage.hpp,
// docs/gpu.md §8). The drivers (gl/driver.cpp) declare each field's buffer, sampler or image with
// the accessors below; bodies never see the storage, only the accessors.
//
// | name                | kind     | meaning                                                 |
// |---------------------|----------|---------------------------------------------------------|
// | VPT                 | macro    | values per texel: 2 (fp64, RGBA32UI), 4 (fp32, RGBA32F) |
// | realv               | macro    | the values of one texel: dvec2 or vec4                  |
// | scfd_texel(t, s)    | function | (x, y) of texel t in a texture of width 1 << s (tiles)  |
// | scfd_unpack(v)      | function | fetched texel -> realv (packDouble2x32 for fp64)        |
// | scfd_pack(v)        | function | realv -> texel to store                                 |
// | scfd_get(v, k)      | function | component k < VPT of a texel                            |
// | scfd_set(v, k, x)   | function | the texel with component k replaced by x                |
// scfd_get and scfd_set select with constants instead of indexing a vector by a variable:
// NVIDIA's compiler (driver 580) fails to link fp64 kernels that write `v[k]` with a variable k
// ("can't find __setVectorIndex function in stdlib"). In loops over k < VPT they fold away.
// | acc, acc2           | macro    | reduction accumulators (host-defined: double/dvec2 when |
// |                     |          | the device has fp64; else real/real2)                   |
// Host-provided: SCFD_FP64 (1 or 0).
#if SCFD_FP64
#define VPT 2u
#define realv dvec2
realv scfd_unpack(uvec4 v) {
  return dvec2(packDouble2x32(v.xy), packDouble2x32(v.zw));
}
uvec4 scfd_pack(realv d) {
  return uvec4(unpackDouble2x32(d.x), unpackDouble2x32(d.y));
}
real scfd_get(realv v, uint k) {
  return k == 0u ? v.x : v.y;
}
realv scfd_set(realv v, uint k, real x) {
  return k == 0u ? dvec2(x, v.y) : dvec2(v.x, x);
}
#else
#define VPT 4u
#define realv vec4
realv scfd_unpack(vec4 v) {
  return v;
}
vec4 scfd_pack(realv v) {
  return v;
}
real scfd_get(realv v, uint k) {
  return k == 0u ? v.x : k == 1u ? v.y : k == 2u ? v.z : v.w;
}
realv scfd_set(realv v, uint k, real x) {
  return k == 0u   ? vec4(x, v.yzw)
         : k == 1u ? vec4(v.x, x, v.zw)
         : k == 2u ? vec4(v.xy, x, v.w)
                   : vec4(v.xyz, x);
}
#endif

#ifndef acc
#define acc real
#define acc2 real2
#endif

// Texel t lies in tile t >> 8 of 32 x 8 texels (tiles row major, width / 32 per row), at
// column t & 31 and row (t >> 5) & 7 inside it: one work group of 256 invocations covers one tile
// (gl/field_storage.hpp; measured faster than 256 texels of one row, docs/gpu.md).
ivec2 scfd_texel(uint t, uint shift) {
  uint tile = t >> 8u;
  uint tx = tile & ((1u << (shift - 5u)) - 1u);
  uint ty = tile >> (shift - 5u);
  return ivec2(int((tx << 5u) | (t & 31u)), int((ty << 3u) | ((t >> 5u) & 7u)));
}
