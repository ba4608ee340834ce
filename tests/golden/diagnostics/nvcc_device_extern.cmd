/usr/local/cuda/bin/nvcc -std=c++17 --extended-lambda -arch=sm_90 device_extern.cu -o /tmp/cudiff-golden/a.out
