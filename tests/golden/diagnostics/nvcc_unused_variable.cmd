/usr/local/cuda/bin/nvcc -std=c++17 --extended-lambda -arch=sm_90 -c unused_variable.cu -o /tmp/cudiff-golden/a.o
