#!/usr/bin/env bash
# Installs every Debian 12 package streamcfd needs to build, test and make meshes.
# Idempotent and non-interactive: safe to run twice. Uses sudo when not root.
#   scripts/install-deps.sh            build + test dependencies
#   scripts/install-deps.sh --gmsh     also gmsh (only scripts/make-meshes.sh needs it)
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git python3
  openmpi-bin libopenmpi-dev
  libmetis-dev
  libhdf5-openmpi-dev
  libvtk9-dev
  libepoxy-dev libegl-dev libopengl-dev libgl-dev libgl1-mesa-dri libegl-mesa0
  libtomlplusplus-dev libcli11-dev libfmt-dev
  libgtest-dev googletest
  python3-matplotlib
  clang-format
  clang-tidy
)
for arg in "$@"; do
  case "$arg" in
    --gmsh) packages+=(gmsh) ;;
    *) echo "install-deps.sh: unknown option '$arg' (valid: --gmsh)" >&2; exit 2 ;;
  esac
done

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
