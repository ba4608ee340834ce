#!/bin/sh
# Regenerates the golden PTX of layout_probes.cu (run from this directory). The commands are
# the ones cudiff's ptx mode uses, less the optimization and scratch flags.
set -e
nvcc -std=c++17 -arch=sm_90 -ptx layout_probes.cu -o layout_probes.nvcc.ptx
nvcc -std=c++17 -arch=sm_90 -G -ptx layout_probes.cu -o layout_probes.nvcc-G.ptx
clang++-22 -x cuda --cuda-gpu-arch=sm_90 --cuda-path=/usr/local/cuda -Wno-unknown-cuda-version -std=c++17 \
  --cuda-device-only -S layout_probes.cu -o layout_probes.clang.ptx
