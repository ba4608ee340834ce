#!/usr/bin/env bash
# Captures the real compiler outputs the signature golden tests use (NAME.*.stderr.txt and
# NAME.*.exit), with the commands of ../diagnostics/capture.sh. The .case files name them
# (and captures in ../diagnostics/) with the key and title each must get.
set -u
cd "$(dirname "$0")"
out=/tmp/cudiff-golden
mkdir -p "$out"
NVCC="/usr/local/cuda/bin/nvcc -std=c++17 --extended-lambda -arch=sm_90"
CLANG="clang++-22 -x cuda --cuda-gpu-arch=sm_90 --cuda-path=/usr/local/cuda -Wno-unknown-cuda-version -std=c++17"
capture() {  # capture NAME COMMAND...
  local name=$1; shift
  "$@" 2> "$name.stderr.txt" > /dev/null
  echo $? > "$name.exit"
  echo "$name: exit $(cat "$name.exit")"
}
capture managed_renamed.nvcc $NVCC managed_renamed.cu -o $out/a.out
capture managed_renamed.clang $CLANG managed_renamed.cu -o $out/a.out -L/usr/local/cuda/lib64 -lcudart
capture debug_crash_elsewhere.clang $CLANG -fcrash-diagnostics-dir=$out -c debug_crash_elsewhere.cu -o $out/a.o
