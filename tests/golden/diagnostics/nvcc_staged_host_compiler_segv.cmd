# gcc replaced by a program that raises SIGSEGV (see staged_crash.sh)
/usr/local/cuda/bin/nvcc -std=c++17 --extended-lambda -arch=sm_90 -ccbin /tmp/cudiff-staged-gcc -c ptxas_verbose.cu -o /tmp/cudiff-golden/a.o
