# nvlink replaced by a program that raises SIGSEGV (see staged_crash.sh)
/tmp/cudiff-staged-nvlink/bin/nvcc -std=c++17 --extended-lambda -arch=sm_90 -rdc=true ptxas_verbose.cu -o /tmp/cudiff-golden/a.out
