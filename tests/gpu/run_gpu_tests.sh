#!/usr/bin/env bash
# Runs the gpu-labeled tests and a few checks without ctest, from a copied build tree, on a
# GPU host that may lack clang, Boost and SQLite headers (scripts/gpu/README.md).
#
#   tests/gpu/run_gpu_tests.sh BUILD_DIR [CLANG_DEBS_DIR]
#
# BUILD_DIR holds cudiff, cudiff-executor and tests/cudiff_*_tests. CLANG_DEBS_DIR (from fetch-clang-debs.sh)
# is unpacked into /opt/c22 and used as clang when no clang++-22 is installed.
set -uo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
build="$(cd "${1:?usage: run_gpu_tests.sh BUILD_DIR [CLANG_DEBS_DIR]}" && pwd)"
debs="${2:-}"

if ! command -v clang++-22 >/dev/null && [ -n "$debs" ]; then
  mkdir -p /opt/c22
  for f in "$debs"/*.deb; do dpkg -x "$f" /opt/c22; done
  # Tools the packages above lack (clang-linker-wrapper, llvm-offload-binary): next to clang.
  [ -d "$debs/extra" ] && cp "$debs"/extra/* /opt/c22/usr/lib/llvm-22/bin/
  export LD_LIBRARY_PATH=/opt/c22/usr/lib/x86_64-linux-gnu:/opt/c22/usr/lib/llvm-22/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  export CUDIFF_CLANG=/opt/c22/usr/lib/llvm-22/bin/clang++
  export PATH="$PATH:/opt/c22/usr/lib/llvm-22/bin"  # clang-format, for a reduction's last step
fi
export CUDIFF_BIN="$build/cudiff" CUDIFF_EXECUTOR="$build/cudiff-executor" CUDIFF_SOURCE_DIR="$here"
# On a GPU host a gpu test that cannot run is a failure, not a skip: a broken GPU discovery must
# not pass the suite by skipping all of it.
export CUDIFF_REQUIRE_GPU=1

status=0
step() { echo; echo "==== $*"; "$@" || status=1; }
step "$CUDIFF_BIN" toolchains
step "$build/tests/cudiff_gpu_tests"
for f in "$here"/examples/*.cu; do
  echo; echo "==== cudiff check $(basename "$f") --mode run"
  "$CUDIFF_BIN" check "$f" --mode run
  echo "exit status $?"
done
for suite in cudiff_unit_tests cudiff_compiler_tests; do
  [ -x "$build/tests/$suite" ] && step "$build/tests/$suite" --gtest_brief=1
done
exit $status
