#!/usr/bin/env bash
# FAKE nvcc for one fault the real one cannot show on demand: a compile that never ends.
# Answers --version like nvcc 13.0 so cudiff accepts it, then hangs with a child and a
# grandchild, whose pids it appends to $FAKE_COMPILER_PID_FILE so a test can check that
# cudiff killed the whole process group.
if [ "${1:-}" = "--version" ]; then
  echo "nvcc: NVIDIA (R) Cuda compiler driver"
  echo "Cuda compilation tools, release 13.0, V13.0.88"
  exit 0
fi
sleep 1000 &
child=$!
bash -c 'sleep 1000 & echo $! >> "${FAKE_COMPILER_PID_FILE:-/dev/null}"; wait' &
echo "$$ $child $!" >> "${FAKE_COMPILER_PID_FILE:-/dev/null}"
wait
