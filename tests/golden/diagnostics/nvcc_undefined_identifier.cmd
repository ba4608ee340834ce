/usr/local/cuda/bin/nvcc -std=c++17 --extended-lambda -arch=sm_90 -c undefined_identifier.cu -o /tmp/cudiff-golden/a.o
