#!/bin/sh
# C-Reduce-style interestingness test for crash.cu (exit 0 = interesting): clang-22's front
# end crashes (a bug-report banner and a stack through Preprocessor::HandlePragmaDirective),
# and nvcc accepts the file. Both in syntax-only mode; no crash reproducer files are written.
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
CLANG=${CLANG:-clang++-22}
CUDA=${CUDA_HOME:-/usr/local/cuda}
"$CLANG" -x cuda --cuda-gpu-arch=sm_90 --cuda-path="$CUDA" -Wno-unknown-cuda-version -std=c++17 \
  -fno-crash-diagnostics -fsyntax-only crash.cu > clang.txt 2>&1 && exit 1
grep -q "PLEASE submit a bug report" clang.txt || exit 1
grep -q "clang::Preprocessor::HandlePragmaDirective" clang.txt || exit 1
"$NVCC" -std=c++17 -arch=sm_90 -cuda -o /dev/null crash.cu > nvcc.txt 2>&1 || exit 1
exit 0
