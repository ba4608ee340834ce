/usr/local/cuda/bin/nvcc -std=c++17 --extended-lambda -arch=sm_90 -c host_device_mismatch.cu -o /tmp/cudiff-golden/a.o
