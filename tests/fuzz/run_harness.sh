#!/usr/bin/env bash
# Runs one libFuzzer harness for a bounded time (ctest, tests/fuzz/CMakeLists.txt).
#
# usage: run_harness.sh HARNESS SEED_CORPUS SECONDS [DICT]
# New inputs go to a fresh temporary corpus (first directory: libFuzzer writes there), so the
# checked-in seed corpus is only read. A crash, leak, timeout or sanitizer report makes
# libFuzzer exit non-zero; the artifact is kept in the temporary directory and its path is
# printed. On success the temporary directory is removed.
set -euo pipefail
harness=$1 seeds=$2 seconds=$3 dict=${4:-}
work=$(mktemp -d "${TMPDIR:-/tmp}/cudiff-fuzz-$(basename "$harness").XXXXXX")
mkdir "$work/corpus"
args=(-max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1
      -artifact_prefix="$work/")
[[ -n $dict ]] && args+=(-dict="$dict")
status=0
"$harness" "${args[@]}" "$work/corpus" "$seeds" || status=$?
if (( status != 0 )); then
  echo "run_harness.sh: $(basename "$harness") failed (exit $status); artifacts kept in $work:" >&2
  find "$work" -maxdepth 1 -type f -print >&2
  echo "reproduce: $harness <artifact>" >&2
  exit "$status"
fi
rm -rf "$work"
