#!/usr/bin/env bash
# Regenerates the real compiler captures in this folder: NAME.stderr.txt (stderr verbatim),
# NAME.cmd (the command, run from this folder) and NAME.exit (the exit status). The
# NAME.expected files are written by hand from the captures and checked by
# tests/unit/oracle/diagnostics_test.cpp; after re-capturing, review the diff of every .stderr.txt.
set -u
cd "$(dirname "$0")"
out=/tmp/cudiff-golden
mkdir -p "$out"
NVCC="/usr/local/cuda/bin/nvcc -std=c++17 --extended-lambda -arch=sm_90"
CLANG="clang++-22 -x cuda --cuda-gpu-arch=sm_90 --cuda-path=/usr/local/cuda -Wno-unknown-cuda-version -std=c++17"
CLANG_LINK="-L/usr/local/cuda/lib64 -lcudart"

capture() {  # capture NAME COMMAND...
  local name=$1; shift
  echo "$*" > "$name.cmd"
  "$@" 2> "$name.stderr.txt" > /dev/null
  echo $? > "$name.exit"
  echo "$name: exit $(cat "$name.exit")"
}

capture nvcc_undefined_identifier $NVCC -c undefined_identifier.cu -o $out/a.o
capture clang_undefined_identifier $CLANG -c undefined_identifier.cu -o $out/a.o
capture nvcc_unused_variable $NVCC -c unused_variable.cu -o $out/a.o
capture clang_unused_variable $CLANG -Wall -c unused_variable.cu -o $out/a.o
capture nvcc_overload_candidates $NVCC -c overload_candidates.cu -o $out/a.o
capture clang_overload_candidates $CLANG -c overload_candidates.cu -o $out/a.o
capture nvcc_template_instantiation $NVCC -c template_instantiation.cu -o $out/a.o
capture clang_template_instantiation $CLANG -c template_instantiation.cu -o $out/a.o
capture nvcc_managed_in_kernel $NVCC managed_in_kernel.cu -o $out/a.out
capture nvcc_kernel_parameters_too_big $NVCC -c kernel_parameters_too_big.cu -o $out/a.o
capture clang_managed_in_kernel $CLANG managed_in_kernel.cu -o $out/a.out $CLANG_LINK
capture nvcc_host_device_mismatch $NVCC -c host_device_mismatch.cu -o $out/a.o
capture clang_host_device_mismatch $CLANG -c host_device_mismatch.cu -o $out/a.o
capture nvcc_shared_too_big $NVCC -O3 -c shared_too_big.cu -o $out/a.o
capture clang_shared_too_big $CLANG -O3 -c shared_too_big.cu -o $out/a.o
capture nvcc_ptxas_verbose $NVCC -O3 -Xptxas -v -c ptxas_verbose.cu -o $out/a.o
capture clang_ptxas_verbose $CLANG -O3 -Xcuda-ptxas -v -c ptxas_verbose.cu -o $out/a.o
capture nvcc_undefined_reference $NVCC undefined_reference.cu -o $out/a.out
capture clang_undefined_reference $CLANG undefined_reference.cu -o $out/a.out $CLANG_LINK
capture nvcc_device_extern $NVCC device_extern.cu -o $out/a.out
capture clang_device_extern $CLANG device_extern.cu -o $out/a.out $CLANG_LINK
capture nvcc_device_extern_rdc $NVCC -rdc=true device_extern.cu -o $out/a.out
capture clang_device_extern_rdc $CLANG -fgpu-rdc device_extern.cu -o $out/a.out $CLANG_LINK
capture nvcc_host_only_error $NVCC -c host_only_error.cu -o $out/a.o
capture clang_host_only_error $CLANG -c host_only_error.cu -o $out/a.o
capture nvcc_missing_include $NVCC -c missing_include.cu -o $out/a.o
capture clang_missing_include $CLANG -c missing_include.cu -o $out/a.o
capture nvcc_bogus_flag $NVCC --bogus-flag -c empty.cu -o $out/a.o
capture clang_bogus_flag $CLANG --bogus-flag -c empty.cu -o $out/a.o
capture nvcc_host_compiler_warning $NVCC -Xcompiler -Wall,-Wextra -c sign_compare.cu -o $out/a.o
capture clang_unused_variable_werror $CLANG -Wall -Werror -c unused_variable.cu -o $out/a.o
capture clang_remark_inline $CLANG -O2 -Rpass=inline -c inline_remark.cu -o $out/a.o
capture nvcc_error_limit $NVCC -c error_limit.cu -o $out/a.o
capture nvcc_cudafe_bad_option $NVCC -Xcudafe --bogus -c empty.cu -o $out/a.o
capture nvcc_inline_asm_error $NVCC -c inline_asm_error.cu -o $out/a.o
capture clang_inline_asm_error $CLANG -c inline_asm_error.cu -o $out/a.o
capture nvcc_header_error $NVCC -c header_error.cu -o $out/a.o
capture clang_header_error $CLANG -c header_error.cu -o $out/a.o
# too_short.o: 8 bytes of text, too short for an ELF header; nvlink says it cannot open it.
capture nvcc_nvlink_bad_input $NVCC -dlink too_short.o -o $out/a.o
# Real clang crashes, on purpose, through its debugging pragmas.
capture clang_debug_crash $CLANG -fcrash-diagnostics-dir=$out -c debug_crash.cu -o $out/a.o
capture clang_debug_fatal_error $CLANG -fcrash-diagnostics-dir=$out -c debug_fatal_error.cu -o $out/a.o
