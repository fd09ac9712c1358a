// scfd: include-only
// sell.glsl: row access for the sliced ELL layout SELL-C of backend/opengl/device_mesh.hpp (variable
// rows: faces around a curl entity, edges around a node). Entry k of row i lies at
// sell_first(i) + k * SELL_C; rows are padded to the longest row of their slice of SELL_C rows,
// so the SELL_C invocations of one warp read each step k as one contiguous run.
//
// | name            | kind     | meaning                                                   |
// |-----------------|----------|-----------------------------------------------------------|
// | sell_length(i)  | function | number of entries of row i                                |
// | sell_first(i)   | function | position of entry 0 of row i                              |
// The including kernel declares `// scfd: index uint sell_slice sell_len` (the position of entry 0
// of each slice; 16-bit row lengths, two per uint) as its first storage buffers; the host
// defines SELL_C (backend/opengl/device_mesh.hpp kSellChunk).
#ifndef SELL_C
#define SELL_C 32u
#endif

uint sell_length(uint i) {
  return (sell_len[i >> 1] >> ((i & 1u) * 16u)) & 0xffffu;
}

uint sell_first(uint i) {
  return sell_slice[i / SELL_C] + i % SELL_C;
}
