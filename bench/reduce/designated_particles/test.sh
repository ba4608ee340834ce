#!/bin/sh
# C-Reduce-style interestingness test for particles.cu (exit 0 = interesting): clang-22
# accepts it, and nvcc rejects it with only "out-of-order initializers are nonstandard in
# C++" errors (designated initializers out of declaration order). Both in syntax-only mode.
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
CLANG=${CLANG:-clang++-22}
CUDA=${CUDA_HOME:-/usr/local/cuda}
"$NVCC" -std=c++17 -arch=sm_90 -cuda -o /dev/null particles.cu > nvcc.txt 2>&1 && exit 1
grep -q "error: out-of-order initializers are nonstandard in C++" nvcc.txt || exit 1
grep "error" nvcc.txt | grep -v "errors\? detected in the compilation" | grep -qv "out-of-order initializers" && exit 1
"$CLANG" -x cuda --cuda-gpu-arch=sm_90 --cuda-path="$CUDA" -Wno-unknown-cuda-version -std=c++17 \
  -fno-crash-diagnostics -fsyntax-only particles.cu > clang.txt 2>&1 || exit 1
exit 0
