// gl-compute backend vector operations, reductions and PCG against the cpu backend (to be written:
// issue 4).
