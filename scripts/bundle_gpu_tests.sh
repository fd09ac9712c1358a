#!/usr/bin/env bash
# scripts/bundle_gpu_tests.sh OUTDIR: scripts/bundle.sh OUTDIR, plus the `gl` test binaries that
# compare GPU results with the cpu backend (the conformance suite: every backend of the table, in
# each precision and storage, against cpu; the GL backend's own API, the GL operators' internals;
# the fragment driver) and a runner,
#
#   OUTDIR/libexec/conformance_test, gl_backend_test, gl_operators_test, gl_raster_test
#                             (debug info stripped)
#   OUTDIR/bin/gpu-tests      runs them on the node's GPU (SCFD_GL_DEVICE picks one); exit 0
#                             when every test passes
#
# so they run on a GPU node as CI runs them on llvmpipe. Mesa orders GPU work more strictly than
# a hardware driver: a race between kernels and transfers passed every llvmpipe test and broke
# runs on NVIDIA (docs/gpu.md §2). Needs the test binaries built (cmake --build build).
set -euo pipefail
if [ $# -ne 1 ]; then echo "usage: $0 OUTDIR" >&2; exit 2; fi
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$1"
# Paths under build/tests.
tests=(conformance/conformance_test gl/gl_backend_test gl/gl_operators_test gl/gl_raster_test)
for t in "${tests[@]}"; do
  [ -x "$root/build/tests/$t" ] || { echo "$0: build/tests/$t not built" >&2; exit 2; }
done
"$root/scripts/bundle.sh" "$out"
for path in "${tests[@]}"; do
  t="$(basename "$path")"
  strip --strip-debug -o "$out/libexec/$t" "$root/build/tests/$path"
  missing=$(LD_LIBRARY_PATH="$out/lib" ldd "$out/libexec/$t" | grep "not found" || true)
  [ -z "$missing" ] || { echo "$0: $t needs libraries outside the bundle: $missing" >&2; exit 1; }
done
cat >"$out/bin/gpu-tests" <<'RUNNER'
#!/usr/bin/env bash
# The gl twin tests on this node's GPU (scripts/bundle_gpu_tests.sh). Extra arguments go to
# every binary (e.g. --gtest_filter='*gl_compute_fp64_buffer').
here="$(cd "$(dirname "$0")/.." && pwd)"
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
status=0
for t in conformance_test gl_backend_test gl_operators_test gl_raster_test; do
  "$here/libexec/$t" "$@" || status=1
done
exit $status
RUNNER
chmod +x "$out/bin/gpu-tests"
echo "gpu tests: run $out/bin/gpu-tests on the GPU node"
