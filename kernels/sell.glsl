// scfd: include-only
// sell.glsl: row access for the sliced ELL layout SELL-C of backend/gl/device_mesh.hpp (variable
// rows: faces around a curl entity, edges around a node). Entry k of row i lies at
// sell_first(i) + k * SELL_C; rows are padded to the longest row of their slice of SELL_C rows,
// so the SELL_C invocations of one warp read each step k as one contiguous run.
//
// | binding / name              | type          | in/out | meaning                            |
// |-----------------------------|---------------|--------|------------------------------------|
// | buffer SELL_SLICE_BINDING   | uint[slices]  | in     | position of entry 0 of each slice  |
// | buffer SELL_LENGTH_BINDING  | uint[rows/2]  | in     | 16-bit row lengths, 2 per uint     |
// | sell_length(i)              | function      |        | number of entries of row i         |
// | sell_first(i)               | function      |        | position of entry 0 of row i       |
// The including kernel defines SELL_SLICE_BINDING and SELL_LENGTH_BINDING (literal binding
// numbers); the host defines SELL_C (backend/gl/device_mesh.hpp kSellChunk).
#ifndef SELL_C
#define SELL_C 32
#endif

layout(std430, binding = SELL_SLICE_BINDING) readonly restrict buffer SellSlice {
  uint sell_slice[];
};
layout(std430, binding = SELL_LENGTH_BINDING) readonly restrict buffer SellLength {
  uint sell_len[];
};

uint sell_length(uint i) {
  return (sell_len[i >> 1] >> ((i & 1u) * 16u)) & 0xffffu;
}

uint sell_first(uint i) {
  return sell_slice[i / SELL_C] + i % SELL_C;
}
