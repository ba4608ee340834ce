#!/bin/bash
# C-Reduce-style test for the clang device-optimizer miscompile of seed 3038 (kernel_1):
# interesting when clang -O3 and clang -O3 -Xarch_device -O1 binaries print different output
# and the -O1 binary is clean under compute-sanitizer (no UB introduced by the reduction).
f=${1:-clang22_device_O2_miscompile_seed3038.cu}
C="$CUDIFF_CLANG -x cuda --cuda-gpu-arch=sm_90 --cuda-path=/usr/local/cuda -Wno-unknown-cuda-version -std=c++17 -w"
L="-L/usr/local/cuda/lib64 -lcudart_static -ldl -lrt -lpthread"
timeout 120 $C -O3 -o o3 $f $L > /dev/null 2>&1 & p3=$!
timeout 120 $C -O3 -Xarch_device -O1 -o o1 $f $L > /dev/null 2>&1 & p1=$!
wait $p3 || exit 1
wait $p1 || exit 1
timeout 20 ./o1 > a1 2>/dev/null || exit 1
timeout 20 ./o3 > a3 2>/dev/null || exit 1
grep -q '^checksum ' a1 || exit 1
cmp -s a1 a3 && exit 1
for tool in memcheck initcheck racecheck synccheck; do
  timeout 60 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 9 ./o1 > /dev/null 2>&1 || exit 1
done
exit 0
