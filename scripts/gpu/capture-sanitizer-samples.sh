#!/usr/bin/env bash
# Captures the compute-sanitizer reports that tests/unit/pipeline/sanitizer_parser_test.cpp
# reads (tests/golden/sanitizer/*.txt), on a GPU host: builds the faulty programs of
# tests/golden/sanitizer/programs/ and tests/gpu/data/ and runs each under its tool, as the
# sanitizer gate does (--error-exitcode 86 --print-limit 10).
#
#   scripts/gpu/capture-sanitizer-samples.sh OUTDIR      (CUDA_HOME: /usr/local/cuda; CLANG:
#                                                          clang++ for the stack overflow)
set -uo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
out="${1:?usage: capture-sanitizer-samples.sh OUTDIR}"
cuda="${CUDA_HOME:-/usr/local/cuda}"
nvcc="$cuda/bin/nvcc"
sanitizer="$cuda/bin/compute-sanitizer"
arch="sm_$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)"
programs="$here/tests/golden/sanitizer/programs"
mkdir -p "$out"
build="$(mktemp -d)"
nv() { "$nvcc" -arch="$arch" -O3 "$@"; }
nv -o "$build/oob" "$here/tests/gpu/data/sanitizer_out_of_bounds.cu"
nv -o "$build/clean" "$here/examples/vector_add.cu"
nv -o "$build/uninit" "$programs/uninitialized_read.cu"
nv -o "$build/race" -DRACE "$programs/shared_race.cu"
nv -o "$build/norace" "$programs/shared_race.cu"
nv -o "$build/barrier" "$programs/divergent_barrier.cu"
nv -o "$build/spin" "$programs/long_kernel.cu"
if [ -n "${CLANG:-}" ]; then
  "$CLANG" -O0 -x cuda --cuda-gpu-arch="$arch" -Wno-unknown-cuda-version --cuda-path="$cuda" \
    "$here/tests/gpu/data/sanitizer_deep_recursion.cu" -o "$build/recursion" -L"$cuda/lib64" -lcudart
else
  nv -O0 -Xcicc -O0 -Xptxas -O0 -o "$build/recursion" "$here/tests/gpu/data/sanitizer_deep_recursion.cu"
fi
run() {  # NAME TOOL BINARY
  (cd "$build" && "$sanitizer" --tool "$2" --error-exitcode 86 --print-limit 10 "./$3") > "$out/$1.txt" 2>&1
  echo "$1: exit $?"
}
run memcheck_out_of_bounds memcheck oob
run memcheck_stack_overflow memcheck recursion
run memcheck_clean memcheck clean
run initcheck_uninitialized initcheck uninit
run racecheck_race racecheck race
run racecheck_clean racecheck norace
run synccheck_divergent_barrier synccheck barrier
# Cut short: SIGKILL after 5 s, before the kernel ends.
(cd "$build" && timeout -s KILL 5 "$sanitizer" --tool memcheck --error-exitcode 86 --print-limit 10 ./spin) \
  > "$out/killed_no_summary.txt" 2>&1
echo "killed_no_summary: exit $?"
rm -rf "$build"
