#!/bin/sh
# C-Reduce-style interestingness test for layout.cu (exit 0 = interesting): both compilers
# build its device code (PTX), a struct with a long double member is still there, and the
# initializer of the `layout_probe` device array (sizeof/alignof/offsetof values, as cudiff's
# layout oracle reads them from PTX) differs between nvcc and clang-22.
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
CLANG=${CLANG:-clang++-22}
CUDA=${CUDA_HOME:-/usr/local/cuda}
grep -q "long double" layout.cu || exit 1
"$CLANG" -x cuda --cuda-gpu-arch=sm_90 --cuda-path="$CUDA" -Wno-unknown-cuda-version -std=c++17 \
  -fno-crash-diagnostics --cuda-device-only -S -o clang.ptx layout.cu > clang.txt 2>&1 || exit 1
"$NVCC" -std=c++17 -arch=sm_90 -ptx -o nvcc.ptx layout.cu > nvcc.txt 2>&1 || exit 1
clang_probe=$(grep -o 'layout_probe\[[0-9]*\] = {[0-9, ]*}' clang.ptx)
nvcc_probe=$(grep -o 'layout_probe\[[0-9]*\] = {[0-9, ]*}' nvcc.ptx)
[ -n "$clang_probe" ] && [ -n "$nvcc_probe" ] && [ "$clang_probe" != "$nvcc_probe" ]
