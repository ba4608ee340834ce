#!/bin/bash
# Fake compiler (tests only): floods stdout with exactly 1 GiB (1073741824 bytes) of diagnostic-
# looking lines and writes a few lines to stderr, then exits 1, like a compiler stuck emitting
# the same warning. Fast: yes + head stream at well over 1 GB/s.
echo "fake compiler: error: first diagnostic" >&2
yes "fake.cu(1): warning #1234-D: this warning repeats forever" | head -c 1073741824
echo "fake compiler: error: last diagnostic" >&2
exit 1
