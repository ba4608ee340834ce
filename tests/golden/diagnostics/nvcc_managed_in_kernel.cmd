/usr/local/cuda/bin/nvcc -std=c++17 --extended-lambda -arch=sm_90 managed_in_kernel.cu -o /tmp/cudiff-golden/a.out
