/usr/local/cuda/bin/nvcc -std=c++17 --extended-lambda -arch=sm_90 -dlink too_short.o -o /tmp/cudiff-golden/a.o
