#!/usr/bin/env bash
# Formats every C++ file git tracks with clang-format-22 and the top-level .clang-format;
# with --check, changes nothing and exits 1 naming the files that are not formatted.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format-22 >/dev/null || { echo "format: clang-format-22 not found (scripts/setup.sh installs it)" >&2; exit 2; }
mapfile -t files < <(git ls-files '*.cpp' '*.h')
if [ "${1:-}" = "--check" ]; then
  bad=0
  for f in "${files[@]}"; do
    clang-format-22 --dry-run -Werror "$f" >/dev/null 2>&1 || { echo "not formatted: $f"; bad=1; }
  done
  exit $bad
fi
clang-format-22 -i "${files[@]}"
