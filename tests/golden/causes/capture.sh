#!/usr/bin/env bash
# Captures the PTX the cause-key tests (tests/unit/triage/cause_test.cpp) read: nvcc 13 -O3 and
# clang-22 -O3 for sm_90, as cudiff's nvcc-O3 and clang-O3 configs build it. Run from this
# directory: ./capture.sh
set -eu
NVCC="${NVCC:-/usr/local/cuda/bin/nvcc}"
CLANG="${CLANG:-clang++-22}"
for cu in vadd2 vadd2_renamed vsub2 batch; do
  "$NVCC" -std=c++17 -arch=sm_90 -O3 -ptx -o "$cu.nvcc.ptx" "$cu.cu"
done
for cu in vadd2 batch; do
  "$CLANG" -x cuda --cuda-gpu-arch=sm_90 --cuda-path=/usr/local/cuda -Wno-unknown-cuda-version -std=c++17 -O3 \
    --cuda-device-only -S -o "$cu.clang.ptx" "$cu.cu"
done
