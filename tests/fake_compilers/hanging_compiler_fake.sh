#!/bin/bash
# Fake compiler (tests only): hangs forever after spawning children and grandchildren, the way
# nvcc runs cicc and ptxas. It ignores SIGTERM and SIGINT, so only a group-wide SIGKILL ends it.
# Usage: hanging_compiler_fake.sh [PIDFILE]   (default: ./hanging_compiler_fake.pids)
# PIDFILE gets one pid a line: every descendant's, then "ready" once all are written.
trap '' TERM INT HUP
pidfile="${1:-hanging_compiler_fake.pids}"
: > "$pidfile"
sleep 1000 &
echo "$!" >> "$pidfile"
sleep 1000 &
echo "$!" >> "$pidfile"
# A nested shell with a child of its own: a grandchild and a great-grandchild of the caller.
bash -c 'trap "" TERM INT HUP; sleep 1000 & echo "$!" >> "$1"; wait' nested "$pidfile" &
echo "$!" >> "$pidfile"
# Wait until the nested shell has written its child's pid (4 pids in all).
while [ "$(wc -l < "$pidfile")" -lt 4 ]; do sleep 0.01; done
echo ready >> "$pidfile"
echo "fake compiler: compiling forever"
echo "fake compiler: warning: this will never finish" >&2
while :; do sleep 1000; done
