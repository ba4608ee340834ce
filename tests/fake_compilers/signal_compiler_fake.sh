#!/bin/bash
# Fake compiler (tests only): prints a line on each stream, then dies of SIGSEGV, like a
# compiler crashing on an internal error. (Core dumps are off under run_subprocess.)
echo "fake compiler: about to crash"
echo "fake compiler: internal error" >&2
kill -SEGV $$
# Not reached: bash does not handle SIGSEGV, so the signal ends it.
exit 0
