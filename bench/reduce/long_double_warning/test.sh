#!/bin/sh
# C-Reduce-style interestingness test for integrate.cu (exit 0 = interesting): both
# compilers accept it, nvcc warns #20208-D ("'long double' is treated as 'double' in device
# code"), and clang-22 prints no warning at all. Both in syntax-only mode.
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
CLANG=${CLANG:-clang++-22}
CUDA=${CUDA_HOME:-/usr/local/cuda}
"$CLANG" -x cuda --cuda-gpu-arch=sm_90 --cuda-path="$CUDA" -Wno-unknown-cuda-version -std=c++17 \
  -fno-crash-diagnostics -fsyntax-only integrate.cu > clang.txt 2>&1 || exit 1
grep -q "warning:" clang.txt && exit 1
"$NVCC" -std=c++17 -arch=sm_90 -cuda -o /dev/null integrate.cu > nvcc.txt 2>&1 || exit 1
grep -q "warning #20208-D: 'long double' is treated as 'double' in device code" nvcc.txt || exit 1
exit 0
