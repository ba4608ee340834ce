clang++-22 -x cuda --cuda-gpu-arch=sm_90 --cuda-path=/usr/local/cuda -Wno-unknown-cuda-version -std=c++17 -fgpu-rdc device_extern.cu -o /tmp/cudiff-golden/a.out -L/usr/local/cuda/lib64 -lcudart
