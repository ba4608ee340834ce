#!/usr/bin/env bash
# Captures nvcc's REAL reaction to a sub-tool that dies by a signal. A crash of cicc, ptxas
# or nvlink cannot be provoked on demand, so this script builds a private copy of the CUDA
# toolkit layout under /tmp in which one sub-tool is a tiny C program that raises a signal
# (SIGSEGV or SIGABRT); the nvcc binary, and so every line it prints, is the real one.
# Host compiler death is staged with -ccbin pointing at such a program named gcc.
# Writes NAME.cmd / NAME.stderr.txt / NAME.exit like capture.sh. The staged tree is removed.
set -u
cd "$(dirname "$0")"
real=/usr/local/cuda
out=/tmp/cudiff-golden
mkdir -p "$out"

dying_program() {  # dying_program SIGNAL PATH: a real executable that raises SIGNAL
  printf '#include <signal.h>\nint main(void) { raise(SIG%s); return 0; }\n' "$1" > "$2.c"
  gcc -o "$2" "$2.c" && rm "$2.c"
}

stage() {  # stage TOOL SIGNAL: a toolkit copy at /tmp/cudiff-staged-TOOL whose TOOL dies
  local tool=$1 sig=$2 root=/tmp/cudiff-staged-$1
  rm -rf "$root"; mkdir -p "$root/bin" "$root/nvvm/bin"
  cp "$real/bin/nvcc" "$real/bin/nvcc.profile" "$root/bin/"
  for t in cudafe++ ptxas nvlink fatbinary bin2c crt; do ln -s "$real/bin/$t" "$root/bin/$t"; done
  ln -s "$real/nvvm/bin/cicc" "$root/nvvm/bin/cicc"
  ln -s "$real/nvvm/libdevice" "$root/nvvm/libdevice"
  for d in include lib lib64 targets; do ln -s "$real/$d" "$root/$d"; done
  local dir=bin; [ "$tool" = cicc ] && dir=nvvm/bin
  rm "$root/$dir/$tool"
  dying_program "$sig" "$root/$dir/$tool"
  echo "$root"
}

capture() {  # capture NAME TOOL SIGNAL NVCC-ARGS...
  local name=$1 tool=$2 sig=$3; shift 3
  local root; root=$(stage "$tool" "$sig")
  echo "# $tool replaced by a program that raises SIG$sig (see staged_crash.sh)" > "$name.cmd"
  echo "$root/bin/nvcc $*" >> "$name.cmd"
  "$root/bin/nvcc" "$@" 2> "$name.stderr.txt" > /dev/null
  echo $? > "$name.exit"
  echo "$name: exit $(cat "$name.exit")"
  rm -rf "$root"
}

FLAGS="-std=c++17 --extended-lambda -arch=sm_90"
capture nvcc_staged_cicc_segv cicc SEGV $FLAGS -c ptxas_verbose.cu -o $out/a.o
capture nvcc_staged_cudafe_segv cudafe++ SEGV $FLAGS -c ptxas_verbose.cu -o $out/a.o
capture nvcc_staged_ptxas_abort ptxas ABRT $FLAGS -c ptxas_verbose.cu -o $out/a.o
capture nvcc_staged_nvlink_segv nvlink SEGV $FLAGS -rdc=true ptxas_verbose.cu -o $out/a.out

# The host compiler, which nvcc runs directly (not through a shell): nvcc names it.
ccbin=/tmp/cudiff-staged-gcc; rm -rf "$ccbin"; mkdir -p "$ccbin"; dying_program SEGV "$ccbin/gcc"
name=nvcc_staged_host_compiler_segv
echo "# gcc replaced by a program that raises SIGSEGV (see staged_crash.sh)" > "$name.cmd"
echo "$real/bin/nvcc $FLAGS -ccbin $ccbin -c ptxas_verbose.cu -o $out/a.o" >> "$name.cmd"
$real/bin/nvcc $FLAGS -ccbin $ccbin -c ptxas_verbose.cu -o $out/a.o 2> "$name.stderr.txt" > /dev/null
echo $? > "$name.exit"; echo "$name: exit $(cat "$name.exit")"
rm -rf "$ccbin"
