// raster_fold.glsl: one pass of the fragment driver's reductions (gl/raster_reducer.hpp RasterReducer):
// entry j of the output is the sum of entries j F .. j F + F - 1 of the input below len, added in
// that order (F = FOLD); with FOLD_PRODUCT the entries are v_i w_i (the first pass of a dot
// product), with FOLD_MAX the result is the largest |v_i| instead of the sum. Twin: the host loop
// of tests/gl/raster_test.cpp.
// scfd: body entry s
// scfd: in v w
#ifndef FOLD
#define FOLD 16u
#endif
#ifndef FOLD_PRODUCT
#define FOLD_PRODUCT 0
#endif
#ifndef FOLD_MAX
#define FOLD_MAX 0
#endif
uniform uint len;  // entries of v (and w)

real entry(uint j) {
  precise real s = real(0);
  for (uint k = 0u; k < FOLD; ++k) {
    uint i = j * FOLD + k;
    if (i >= len) break;
#if FOLD_MAX
    s = max(s, abs(load_v(i)));
#elif FOLD_PRODUCT
    s += load_v(i) * load_w(i);
#else
    s += load_v(i);
#endif
  }
  return s;
}
