/usr/local/cuda/bin/nvcc -std=c++17 --extended-lambda -arch=sm_90 -c kernel_parameters_too_big.cu -o /tmp/cudiff-golden/a.o
