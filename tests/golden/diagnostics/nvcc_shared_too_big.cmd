/usr/local/cuda/bin/nvcc -std=c++17 --extended-lambda -arch=sm_90 -O3 -c shared_too_big.cu -o /tmp/cudiff-golden/a.o
