// scfd: include-only
// storage.glsl: fields as 2D textures (gl/texture.hpp, docs/gpu.md "Field storage"), 16 bytes
// per texel. The drivers (gl/driver.cpp) declare one sampler or image per field with the
// accessors below; bodies never see textures, only the accessors.
//
// | name                | kind     | meaning                                                 |
// |---------------------|----------|---------------------------------------------------------|
// | VPT                 | macro    | values per texel: 2 (fp64, RGBA32UI), 4 (fp32, RGBA32F) |
// | realv               | macro    | the values of one texel: dvec2 or vec4                  |
// | scfd_texel(t, s)    | function | texel t of a texture of width 1 << s: (t & mask, t >> s)|
// | scfd_unpack(v)      | function | fetched texel -> realv (packDouble2x32 for fp64)        |
// | scfd_pack(v)        | function | realv -> texel to store                                 |
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
#else
#define VPT 4u
#define realv vec4
realv scfd_unpack(vec4 v) {
  return v;
}
vec4 scfd_pack(realv v) {
  return v;
}
#endif

#ifndef acc
#define acc real
#define acc2 real2
#endif

ivec2 scfd_texel(uint t, uint shift) {
  return ivec2(int(t & ((1u << shift) - 1u)), int(t >> shift));
}
