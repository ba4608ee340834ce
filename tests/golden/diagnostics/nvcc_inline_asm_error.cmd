/usr/local/cuda/bin/nvcc -std=c++17 --extended-lambda -arch=sm_90 -c inline_asm_error.cu -o /tmp/cudiff-golden/a.o
