#!/bin/bash
# usage: hunt.sh PROGDIR OUTDIR  — builds every p*.cu three ways, runs them, lists differing kernels.
set -u
P=$1; O=$2; mkdir -p $O
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
build() { f=$1; n=$(basename $f .cu)
  timeout 300 $NVCC -O3 -arch=sm_90 -o $O/$n.o3 $f 2>$O/$n.o3.err &
  timeout 300 $NVCC -O3 -Xptxas -O0 -arch=sm_90 -o $O/$n.px0 $f 2>$O/$n.px0.err &
  timeout 300 $NVCC -O0 -Xcicc -O0 -Xptxas -O0 -arch=sm_90 -o $O/$n.o0 $f 2>$O/$n.o0.err &
  wait; }
export -f build; export O NVCC
ls $P/p*.cu | xargs -P 6 -I{} bash -c 'build {}'
for f in $P/p*.cu; do n=$(basename $f .cu)
  for c in o3 px0 o0; do
    if [ -x $O/$n.$c ]; then timeout 60 $O/$n.$c > $O/$n.$c.out 2>&1 || echo "exit $?" >> $O/$n.$c.out; else echo "build failed" > $O/$n.$c.out; fi
  done
  if ! cmp -s $O/$n.o3.out $O/$n.px0.out || ! cmp -s $O/$n.o3.out $O/$n.o0.out; then
    echo "== $n"; paste -d' ' $O/$n.o3.out $O/$n.px0.out $O/$n.o0.out | awk '!($2==$4 && $2==$6)'
  fi
done
