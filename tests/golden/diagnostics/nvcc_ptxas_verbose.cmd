/usr/local/cuda/bin/nvcc -std=c++17 --extended-lambda -arch=sm_90 -O3 -Xptxas -v -c ptxas_verbose.cu -o /tmp/cudiff-golden/a.o
