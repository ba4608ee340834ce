/usr/local/cuda/bin/nvcc -std=c++17 --extended-lambda -arch=sm_90 undefined_reference.cu -o /tmp/cudiff-golden/a.out
