# cicc replaced by a program that raises SIGSEGV (see staged_crash.sh)
/tmp/cudiff-staged-cicc/bin/nvcc -std=c++17 --extended-lambda -arch=sm_90 -c ptxas_verbose.cu -o /tmp/cudiff-golden/a.o
