#!/bin/bash
# C-Reduce-style test for the clang-22 -O3 run mismatch of generated seed 3038 (kernel_1):
# interesting when the clang -O3 binary prints something else than both the clang
# -O3 -Xarch_device -O1 binary and the nvcc -O3 binary (which agree), the program has none of
# the warnings that signal undefined behaviour (missing return, uninitialized use, constant
# out-of-range shift or index, ...), and the -O1 binary is clean under all four
# compute-sanitizer tools: the reduction must not manufacture undefined behaviour.
# usage: test.sh [FILE]  (default: the findings file's name, as a reducer runs it)
# needs: $CUDIFF_CLANG (clang++ 22), nvcc and compute-sanitizer in /usr/local/cuda, a GPU.
f=${1:-cudiff_000000003038.cu}
CUDA=/usr/local/cuda
C="$CUDIFF_CLANG -x cuda --cuda-gpu-arch=sm_90 --cuda-path=$CUDA -Wno-unknown-cuda-version -std=c++17"
L="-L$CUDA/lib64 -lcudart_static -ldl -lrt -lpthread"
UB="-Werror=return-type -Werror=uninitialized -Werror=sometimes-uninitialized -Werror=conditional-uninitialized
 -Werror=array-bounds -Werror=shift-count-overflow -Werror=shift-count-negative -Werror=shift-negative-value
 -Werror=division-by-zero -Werror=integer-overflow -Werror=unsequenced -Werror=null-dereference
 -Werror=return-stack-address -Werror=uninitialized-const-reference -Werror=dangling"
timeout 60 $C -fsyntax-only $UB $f > /dev/null 2>&1 || exit 1
timeout 120 $C -w -O3 -o o3 $f $L > /dev/null 2>&1 & p3=$!
timeout 120 $C -w -O3 -Xarch_device -O1 -o o1 $f $L > /dev/null 2>&1 & p1=$!
timeout 180 $CUDA/bin/nvcc -std=c++17 --extended-lambda -arch=sm_90 -O3 -w -o nv $f > /dev/null 2>&1 & pn=$!
wait $p3 || exit 1
wait $p1 || exit 1
wait $pn || exit 1
timeout 20 ./o1 > a1 2>/dev/null || exit 1
timeout 20 ./o3 > a3 2>/dev/null || exit 1
timeout 20 ./nv > an 2>/dev/null || exit 1
grep -q '^checksum ' a1 || exit 1
cmp -s a1 an || exit 1
cmp -s a1 a3 && exit 1
for tool in memcheck initcheck racecheck synccheck; do
  timeout 60 $CUDA/bin/compute-sanitizer --tool $tool --error-exitcode 9 ./o1 > /dev/null 2>&1 || exit 1
done
exit 0
