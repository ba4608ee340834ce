/usr/local/cuda/bin/nvcc -std=c++17 --extended-lambda -arch=sm_90 --bogus-flag -c empty.cu -o /tmp/cudiff-golden/a.o
