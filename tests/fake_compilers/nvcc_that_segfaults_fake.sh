#!/usr/bin/env bash
# FAKE nvcc for one fault the real one cannot show on demand: the compiler dies by SIGSEGV
# after printing a diagnostic-looking line. Answers --version like nvcc 13.0.
if [ "${1:-}" = "--version" ]; then
  echo "nvcc: NVIDIA (R) Cuda compiler driver"
  echo "Cuda compilation tools, release 13.0, V13.0.88"
  exit 0
fi
echo "compiling $*" >&2
kill -SEGV $$
