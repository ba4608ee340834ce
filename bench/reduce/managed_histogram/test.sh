#!/bin/sh
# C-Reduce-style interestingness test for histogram.cu (exit 0 = interesting): nvcc accepts
# it, and clang-22 rejects it with only "reference to __host__ variable '...' in __global__
# function" errors (clang does not implement __managed__). Both in syntax-only mode.
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
CLANG=${CLANG:-clang++-22}
CUDA=${CUDA_HOME:-/usr/local/cuda}
"$CLANG" -x cuda --cuda-gpu-arch=sm_90 --cuda-path="$CUDA" -Wno-unknown-cuda-version -std=c++17 \
  -fno-crash-diagnostics -fsyntax-only histogram.cu > clang.txt 2>&1 && exit 1
grep -q "error: reference to __host__ variable '.*' in __global__ function" clang.txt || exit 1
grep "error:" clang.txt | grep -qv "reference to __host__ variable" && exit 1
"$NVCC" -std=c++17 -arch=sm_90 -cuda -o /dev/null histogram.cu > nvcc.txt 2>&1 || exit 1
exit 0
