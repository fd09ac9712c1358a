#!/usr/bin/env bash
# clang-tidy with the checks of .clang-tidy (bug-prone constructs, needless copies, `override`,
# and no function over 80 lines) on the C++ files a change touched, plus every file of src/backend
# and src/gl, where the backend contract's size limits hold (no function over 80 lines, no file
# over 600: tests/architecture checks the files). Needs build/compile_commands.json (scripts/test.sh
# makes it). A finding fails the run.
#   scripts/tidy.sh [BASE]   the change: BASE..HEAD (default: from the merge base with origin/main,
#                            or the last commit when HEAD is origin/main, as in CI)
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-}
if [ -z "$base" ]; then
  if git rev-parse -q --verify origin/main >/dev/null &&
    [ "$(git merge-base HEAD origin/main)" != "$(git rev-parse HEAD)" ]; then
    base=$(git merge-base HEAD origin/main)
  elif git rev-parse -q --verify HEAD~1 >/dev/null; then
    base=HEAD~1
  else
    base=HEAD  # a clone of one commit: src/backend and src/gl only
  fi
fi
mapfile -t files < <({
  git diff --name-only --diff-filter=d "$base" HEAD -- 'src/*.cpp' 'tests/*.cpp'
  git ls-files 'src/backend/*.cpp' 'src/gl/*.cpp'
} | sort -u)
[ -f build/compile_commands.json ] || { echo "tidy: build/compile_commands.json missing (run scripts/test.sh)" >&2; exit 2; }
# clang-tidy counts the warnings it suppressed on stderr: only noise here.
counts='^[0-9]+ (warning|error)s?( and [0-9]+ errors?)? generated\.$'
printf '%s\n' "${files[@]}" |
  xargs -P "$(nproc)" -n 4 clang-tidy -p build --quiet 2> >(grep -vE "$counts" >&2)
echo "tidy: ${#files[@]} files clean (changed since $(git rev-parse --short "$base"), src/backend, src/gl)"
