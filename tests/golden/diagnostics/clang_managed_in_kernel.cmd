clang++-22 -x cuda --cuda-gpu-arch=sm_90 --cuda-path=/usr/local/cuda -Wno-unknown-cuda-version -std=c++17 managed_in_kernel.cu -o /tmp/cudiff-golden/a.out -L/usr/local/cuda/lib64 -lcudart
