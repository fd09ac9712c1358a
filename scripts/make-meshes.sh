#!/usr/bin/env bash
# Generates the Gmsh meshes of meshes/*.geo (MSH 4.1 ASCII) at several refinement levels.
# Level L uses the mesh size h = h1 / 2^(L-1), h1 being each mesh's level-1 size below.
# Output is deterministic for a given gmsh version (one thread, fixed algorithms in the .geo).
#
#   scripts/make-meshes.sh                      every mesh, levels 1-3, into meshes/generated/
#   scripts/make-meshes.sh square cube          only these meshes
#   scripts/make-meshes.sh --levels 1-4 square  levels 1 to 4 (also: --levels 2 or 1,3)
#   scripts/make-meshes.sh --big                meshes/generated/cube-1M.msh (~1M tetrahedra)
#   scripts/make-meshes.sh --committed          regenerates the meshes committed in meshes/
#   scripts/make-meshes.sh --out DIR ...        writes into DIR instead of meshes/generated/
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
geo_dir="$root/meshes"
out_dir="$root/meshes/generated"

# name -> "dimension level-1-size"
declare -A spec=(
  [square]="2 0.1"
  [cube]="3 0.25"
  [channel2d-cylinder]="2 0.04"
  [channel3d-cylinder]="3 0.06"
  [part]="3 0.25"
  [cavity]="2 0.0625"
  [cavity3d]="3 0.1"
  [channel]="2 0.1"
)
all_meshes=(square cube channel2d-cylinder channel3d-cylinder part cavity cavity3d channel)
# The meshes kept in git (meshes/NAME-LEVEL.msh), used by tests and demos.
committed=(square-1 square-2 square-3 cube-1 cube-2 cube-3 channel2d-cylinder-1
  channel3d-cylinder-1 part-1 part-2 cavity-1 cavity-2 cavity3d-1 channel-1 channel-2)
big_h=0.0166  # unit cube with about 1M tetrahedra (see meshes/README.md)
tested_gmsh=4.8.4

die() { echo "make-meshes.sh: $*" >&2; exit 2; }

usage() { sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

# Expands "1-4", "2" or "1,3" into a list of levels.
parse_levels() {
  local item lo hi
  for item in ${1//,/ }; do
    if [[ "$item" =~ ^([1-9])-([1-9])$ ]]; then
      lo=${BASH_REMATCH[1]}; hi=${BASH_REMATCH[2]}
      [ "$lo" -le "$hi" ] || die "bad level range '$item' (expected e.g. 1-3)"
      seq "$lo" "$hi"
    elif [[ "$item" =~ ^[1-9]$ ]]; then
      echo "$item"
    else
      die "bad level '$item' (expected levels 1-9, e.g. --levels 1-3 or --levels 1,3)"
    fi
  done
}

# Number of elements of the given element type in an MSH 4.1 ASCII file (2: triangle, 4: tet)
# that belong to entities of dimension dim.
count_elements() {
  awk -v dim="$2" -v type="$3" '
    /^\$Elements/ { inside = 1; getline; blocks = $1; next }
    inside && blocks > 0 {
      if ($1 == dim && $3 == type) n += $4
      blocks--; skip = $4
      while (skip-- > 0) getline
      next
    }
    /^\$EndElements/ { inside = 0 }
    END { print n + 0 }' "$1"
}

# run_gmsh NAME H OUTPUT: meshes meshes/NAME.geo with size H into OUTPUT and prints a summary.
run_gmsh() {
  local name=$1 h=$2 out=$3 dim tmp log cells bfaces kind
  dim=${spec[$name]%% *}
  tmp="$out.tmp.$$"
  log="$out.log.$$"
  if ! gmsh "$geo_dir/$name.geo" -setnumber h "$h" "-$dim" -nt 1 -format msh41 \
      -o "$tmp" >"$log" 2>&1; then
    cat "$log" >&2; rm -f "$tmp" "$log"
    die "gmsh failed on $name.geo with h = $h"
  fi
  if grep -q '^Error' "$log"; then
    grep '^Error' "$log" >&2; rm -f "$tmp" "$log"
    die "gmsh reported errors on $name.geo with h = $h"
  fi
  rm -f "$log"
  mv "$tmp" "$out"
  if [ "$dim" = 2 ]; then
    cells=$(count_elements "$out" 2 2); bfaces=$(count_elements "$out" 1 1); kind=triangles
  else
    cells=$(count_elements "$out" 3 4); bfaces=$(count_elements "$out" 2 2); kind=tetrahedra
  fi
  printf '  %-40s h = %-9s %9d %s, %7d boundary elements, %s\n' \
    "${out#"$root"/}" "$h" "$cells" "$kind" "$bfaces" "$(du -h "$out" | cut -f1)"
}

level_size() { awk -v h1="$1" -v l="$2" 'BEGIN { printf "%.6g", h1 / 2 ^ (l - 1) }'; }

levels_arg=1-3
big=0
only_committed=0
meshes=()
while [ $# -gt 0 ]; do
  case "$1" in
    --levels) [ $# -ge 2 ] || die "--levels needs a value (e.g. 1-3)"; levels_arg=$2; shift ;;
    --levels=*) levels_arg=${1#--levels=} ;;
    --out) [ $# -ge 2 ] || die "--out needs a directory"; out_dir=$2; shift ;;
    --out=*) out_dir=${1#--out=} ;;
    --big) big=1 ;;
    --committed) only_committed=1 ;;
    -h|--help) usage; exit 0 ;;
    -*) die "unknown option '$1' (valid: --levels, --out, --big, --committed, --help)" ;;
    *) [ -n "${spec[$1]:-}" ] || die "unknown mesh '$1' (valid: ${all_meshes[*]})"
       meshes+=("$1") ;;
  esac
  shift
done

command -v gmsh >/dev/null 2>&1 ||
  die "gmsh not found; install it with: scripts/install-deps.sh --gmsh"
version=$(gmsh --version 2>&1 | tail -n 1)
if [ "$version" != "$tested_gmsh" ]; then
  echo "make-meshes.sh: note: gmsh $version (the committed meshes were made with $tested_gmsh;" \
    "other versions give different but equally valid meshes)" >&2
fi

if [ "$only_committed" = 1 ]; then
  echo "make-meshes: committed meshes into meshes/ (gmsh $version)"
  for item in "${committed[@]}"; do
    name=${item%-*}; level=${item##*-}
    run_gmsh "$name" "$(level_size "${spec[$name]#* }" "$level")" "$geo_dir/$item.msh"
  done
fi

mkdir -p "$out_dir"
out_dir=$(cd "$out_dir" && pwd)
if [ "$big" = 1 ]; then
  echo "make-meshes: big unit cube into ${out_dir#"$root"/}/ (about a minute of gmsh CPU time)"
  run_gmsh cube "$big_h" "$out_dir/cube-1M.msh"
fi

# Without mesh names, --big and --committed make only what they name.
if [ ${#meshes[@]} -eq 0 ] && { [ "$big" = 1 ] || [ "$only_committed" = 1 ]; }; then exit 0; fi
[ ${#meshes[@]} -gt 0 ] || meshes=("${all_meshes[@]}")
level_list=$(parse_levels "$levels_arg")
read -r -a levels <<<"${level_list//$'\n'/ }"
echo "make-meshes: ${meshes[*]} at levels ${levels[*]} into ${out_dir#"$root"/}/ (gmsh $version)"
for name in "${meshes[@]}"; do
  for level in "${levels[@]}"; do
    run_gmsh "$name" "$(level_size "${spec[$name]#* }" "$level")" "$out_dir/$name-$level.msh"
  done
done
