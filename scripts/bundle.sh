#!/usr/bin/env bash
# scripts/bundle.sh OUTDIR [BINARY]: a relocatable folder that runs streamcfd on a machine that
# lacks its build dependencies (the GPU nodes: Ubuntu 24.04, no VTK/METIS/libepoxy;
# docs/architecture.md §9).
#
#   OUTDIR/bin/streamcfd        wrapper: sets LD_LIBRARY_PATH to OUTDIR/lib, execs the binary
#   OUTDIR/libexec/streamcfd    the binary (debug info stripped; GLSL kernels are embedded in it)
#   OUTDIR/lib/                 every shared library the binary needs (ldd) except the ones the
#                               target provides itself (below), plus one consistent set of GL
#                               dispatch libraries (libglvnd); debug info stripped
#   OUTDIR/BUNDLE.txt           what is inside and where each library came from
#
# Not bundled, taken from the target:
#   - the C and C++ runtimes: glibc (libc, libm, libdl, libpthread, librt, ld-linux), libstdc++,
#     libgcc_s. The target needs glibc >= 2.36 and the libstdc++ of GCC >= 12 (Debian 12's).
#   - base compression/XML libraries every Debian/Ubuntu system has: zlib, liblzma, liblz4,
#     libexpat. Like the runtimes, an older bundled copy would shadow the target's newer one for
#     every library in the process, the GL driver included (Mesa links libexpat and zlib), and a
#     driver built against the newer version can then fail with a missing symbol.
#   - Open MPI and everything libmpi.so.40 itself links (libopen-rte, libopen-pal, hwloc,
#     libevent, zlib, libudev): the target's mpirun must match its libmpi; Ubuntu 24.04's Open MPI
#     4.1.6 is ABI-compatible with Debian 12's 4.1.4.
#   - the GL driver: the vendor libraries (libEGL_nvidia.so.0, libEGL_mesa.so.0) that glvnd's
#     libEGL loads through the JSON files of /usr/share/glvnd/egl_vendor.d.
# Bundled GL loader set (dlopened, not seen by ldd, so added by name): libEGL.so.1,
# libOpenGL.so.0, libGLdispatch.so.0, libGL.so.1 and libGLX.so.0 of this machine's libglvnd, and
# the X11 client libraries libGLX.so.0 links (loaded, never used to open a display). Mixing a
# loader from one distribution with a dispatch library of another crashed GL >= 4.2 calls once
# (docs/architecture.md §9); with the whole set bundled, only the vendor library comes from the
# target.
#
# Needs: a built binary (default build/src/app/streamcfd), ldd, strip. Prints the bundle's size
# and fails when a library the binary needs does not resolve inside OUTDIR/lib or on the list
# above.
set -euo pipefail

usage() { echo "usage: $0 OUTDIR [BINARY]  (default BINARY: build/src/app/streamcfd)" >&2; exit 2; }
if [ $# -lt 1 ] || [ $# -gt 2 ]; then usage; fi
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$1"
binary="${2:-$root/build/src/app/streamcfd}"
[ -x "$binary" ] || { echo "bundle.sh: $binary is not an executable (build the target streamcfd first)" >&2; exit 2; }
if [ -e "$out" ] && [ -n "$(ls -A "$out")" ]; then
  echo "bundle.sh: $out exists and is not empty" >&2
  exit 2
fi

# Sonames the target provides (see the header).
system_re='^(linux-vdso\.so|ld-linux|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|libstdc\+\+\.so|libgcc_s\.so|libz\.so|liblzma\.so|liblz4\.so|libexpat\.so)'
mpi_libs="$(ldd "$(ldd "$binary" | awk '$1 ~ /^libmpi\.so/ {print $3}')" | awk '{print $1}'; echo libmpi.so.40)"
is_provided() {
  [[ $1 =~ $system_re ]] && return 0
  grep -qxF "$1" <<<"$mpi_libs"
}

# The libglvnd set travels whole: libepoxy dlopens libEGL.so.1, and libGL.so.1 (to ask whether a
# GLX context is current, and for the GL 1.x entry points); libOpenGL.so.0 is the GLX-free GL
# library of the same set.
glvnd="libEGL.so.1 libOpenGL.so.0 libGLdispatch.so.0 libGL.so.1 libGLX.so.0"

mkdir -p "$out/bin" "$out/libexec" "$out/lib"
manifest="$out/BUNDLE.txt"
{
  echo "streamcfd bundle made $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(. /etc/os-release && echo "$PRETTY_NAME")"
  echo "binary: $binary"
  echo "bundled libraries (soname <- source):"
} >"$manifest"

copy_lib() {  # SONAME PATH
  cp -L "$2" "$out/lib/$1"
  chmod u+w "$out/lib/$1"
  strip --strip-debug "$out/lib/$1"
  echo "  $1 <- $(readlink -f "$2")" >>"$manifest"
}

# Copies every library FILE needs (ldd, transitively) that is neither provided nor bundled yet.
bundle_deps() {  # FILE
  while read -r soname arrow path _; do
    [ "$arrow" = "=>" ] || continue  # the vdso and the loader lines have no "=>"
    is_provided "$soname" && continue
    [ -e "$out/lib/$soname" ] && continue
    [ -f "$path" ] || { echo "bundle.sh: $soname (needed by $1) is not found by ldd" >&2; exit 1; }
    copy_lib "$soname" "$path"
  done < <(LD_LIBRARY_PATH="$out/lib" ldd "$1")
}

bundle_deps "$binary"
for soname in $glvnd; do
  path="$(ldconfig -p | awk -v s="$soname" '$1 == s && /x86-64/ {print $NF; exit}')"
  [ -n "$path" ] || { echo "bundle.sh: $soname not found (install libegl1 libopengl0 libgl1)" >&2; exit 1; }
  copy_lib "$soname" "$path"
done
for soname in $glvnd; do bundle_deps "$out/lib/$soname"; done

cp "$binary" "$out/libexec/streamcfd"
chmod u+w "$out/libexec/streamcfd"
strip --strip-debug "$out/libexec/streamcfd"

cat >"$out/bin/streamcfd" <<'EOF'
#!/bin/sh
# streamcfd from a relocatable bundle (scripts/bundle.sh): the bundled libraries first.
here="$(cd "$(dirname "$0")/.." && pwd)"
LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export LD_LIBRARY_PATH
exec "$here/libexec/streamcfd" "$@"
EOF
chmod +x "$out/bin/streamcfd"

# Every library of the binary and of the bundle must now resolve into the bundle or to one the
# target provides.
lib_dir="$(cd "$out/lib" && pwd)"
missing=0
for file in "$out/libexec/streamcfd" "$out"/lib/*; do
  while read -r soname arrow path _; do
    [ "$arrow" = "=>" ] || continue
    is_provided "$soname" && continue
    [ "${path%/*}" = "$lib_dir" ] && continue
    echo "bundle.sh: $soname (needed by ${file##*/}) resolves to $path, outside the bundle" >&2
    missing=1
  done < <(LD_LIBRARY_PATH="$lib_dir" ldd "$file")
done
[ "$missing" -eq 0 ] || exit 1

size_kib="$(du -sk "$out" | cut -f1)"
echo "size: $((size_kib / 1024)) MiB" >>"$manifest"
echo "bundle: $out ($((size_kib / 1024)) MiB, $(find "$out/lib" -type f | wc -l) libraries); run $out/bin/streamcfd"
