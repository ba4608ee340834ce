/usr/local/cuda/bin/nvcc -std=c++17 --extended-lambda -arch=sm_90 -Xcompiler -Wall,-Wextra -c sign_compare.cu -o /tmp/cudiff-golden/a.o
