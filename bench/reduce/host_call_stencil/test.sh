#!/bin/sh
# C-Reduce-style interestingness test for stencil.cu (exit 0 = interesting): nvcc accepts it
# with warning #20011-D (a __host__ function called from a __host__ __device__ function),
# and clang-22 rejects it with only "reference to __host__ function '...' in __host__
# __device__ function" errors. Both in syntax-only mode.
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
CLANG=${CLANG:-clang++-22}
CUDA=${CUDA_HOME:-/usr/local/cuda}
"$CLANG" -x cuda --cuda-gpu-arch=sm_90 --cuda-path="$CUDA" -Wno-unknown-cuda-version -std=c++17 \
  -fno-crash-diagnostics -fsyntax-only stencil.cu > clang.txt 2>&1 && exit 1
grep -q "error: reference to __host__ function '.*' in __host__ __device__ function" clang.txt || exit 1
grep "error:" clang.txt | grep -qv "reference to __host__ function" && exit 1
"$NVCC" -std=c++17 -arch=sm_90 -cuda -o /dev/null stencil.cu > nvcc.txt 2>&1 || exit 1
grep -q "warning #20011-D" nvcc.txt || exit 1
exit 0
