clang++-22 -x cuda --cuda-gpu-arch=sm_90 --cuda-path=/usr/local/cuda -Wno-unknown-cuda-version -std=c++17 -c overload_candidates.cu -o /tmp/cudiff-golden/a.o
