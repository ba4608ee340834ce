#!/bin/bash
cd ${1:-$(dirname $0)/cases}
for f in *.cu; do n=${f%.cu}
  nvcc -O3 -arch=sm_90 -o /tmp/$n.o3 $f & nvcc -O3 -Xptxas -O0 -arch=sm_90 -o /tmp/$n.px0 $f &
  nvcc -O3 -Xptxas -O1 -arch=sm_90 -o /tmp/$n.px1 $f & nvcc -O3 -Xptxas -O2 -arch=sm_90 -o /tmp/$n.px2 $f &
  nvcc -O0 -Xcicc -O0 -Xptxas -O0 -arch=sm_90 -o /tmp/$n.o0 $f &
done; wait
for f in *.cu; do n=${f%.cu}; echo "== $n"
  for b in /tmp/$n.o3 /tmp/$n.px2 /tmp/$n.px1 /tmp/$n.px0 /tmp/$n.o0 ./$n.clangO3 ./$n.clangO3px0 ./$n.clangO0; do echo "$(basename $b) $($b)"; done
  for b in /tmp/$n.o3 /tmp/$n.px0; do for t in memcheck initcheck; do echo "sanitizer $t $(basename $b): $(compute-sanitizer --tool $t $b 2>&1 | grep -E 'ERROR SUMMARY|k0')" ; done; done
done
