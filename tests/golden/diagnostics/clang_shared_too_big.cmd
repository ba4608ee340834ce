clang++-22 -x cuda --cuda-gpu-arch=sm_90 --cuda-path=/usr/local/cuda -Wno-unknown-cuda-version -std=c++17 -O3 -c shared_too_big.cu -o /tmp/cudiff-golden/a.o
