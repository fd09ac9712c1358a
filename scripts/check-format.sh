#!/usr/bin/env bash
# Fails if any C++ source is not formatted by clang-format (.clang-format at the top level).
# scripts/check-format.sh --fix rewrites the files instead.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.cpp' '*.hpp')
if [ "${1:-}" = "--fix" ]; then clang-format -i "${files[@]}"; exit 0; fi
clang-format --dry-run --Werror "${files[@]}"
echo "check-format: ${#files[@]} files formatted"
