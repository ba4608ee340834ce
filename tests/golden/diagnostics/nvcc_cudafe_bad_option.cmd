/usr/local/cuda/bin/nvcc -std=c++17 --extended-lambda -arch=sm_90 -Xcudafe --bogus -c empty.cu -o /tmp/cudiff-golden/a.o
