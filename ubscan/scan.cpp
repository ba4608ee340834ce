// ubscan scan: the entry points (ubscan/ubscan.h). Finds, in a program's text, the U rules of
// the rules catalog that text can show (undefined behaviour a generated program must never
// contain): barriers in divergent code, writes to __grid_constant__ parameters, kernel
// parameters whose copies run user code, device addresses used on the host, calls across
// execution spaces, misaligned carves of dynamic shared memory... The scan is a lexer plus a
// light parse (namespaces, classes, functions, lambdas, declarations), never a compile: each
// check is exact on what generator/core/emit*.cpp writes and on valid probe fragments, and says
// nothing where the text cannot tell.
//
// U rules not scanned, and why (undefined_rules_scanned() leaves them out):
//   U-DATA-RACE                 run time: compute-sanitizer's racecheck covers it on the GPU
//   U-SYNCWARP-SM6X             sm_6x and older only; cudiff targets sm_90
//   U-WIN-LAYOUT-PASS/-ACCESS   Windows/MSVC hosts only
//   U-ARCH-HEADER-ODR           separate compilation (one translation unit here)
//   U-INLINEVAR-MANAGED-DEBUG   what a debugger shows, not what the program does
//   U-RESTRICT-PERF, U-EXTLAM-HD-PERF, U-AUTO-VAR-PLACEMENT   performance and placement only
//   U-CXX11-EXT-INTEGRAL        the only extended integer type, __int128, is valid in device
//                               code (R-HOSTEXT-INT128): nothing left to recognise
//   U-CONSTEXPR-TMPL-INST       whether an instantiation is constexpr needs constant evaluation
//
// The entry points are here; the preprocessor model, the parser, the queries the checks share
// and the checks themselves are in the other files of ubscan/ (parts.h).
#include "ubscan/parts.h"

namespace cudiff::ubscan {

// ============================================================================================
// Entry points
// ============================================================================================

std::vector<std::string> undefined_rules_scanned() {
  return {"U-SYNC-DIVERGENT",
          "U-SYNCWARP-MASK",
          "U-GRIDCONST-MODIFY",
          "U-KPARAM-MEMCPY",
          "U-KPARAM-MULTICOPY",
          "U-KPARAM-EARLY-DTOR",
          "U-MANAGED-RUNTIME-STATE",
          "U-MANAGED-COHERENCE",
          "U-PTR-DEVADDR-IN-HOST",
          "U-PTR-DEREF-CROSS",
          "U-FNPTR-KERNEL-CROSS",
          "U-VIRT-CROSS-SPACE",
          "U-XSPACE-HOST-FROM-DEV",
          "U-XSPACE-DEV-FROM-HOST",
          "U-SHARED-MISALIGNED",
          "U-GNU-CONST-PURE-CONTRACT",
          "U-THISCAP-HOSTPTR",
          "U-EXTLAM-12-CAPTURE-COPY",
          "R-EXTLAM-17-TRAITS",
          "U-EXTLAM-DIAG-COVERAGE",
          "U-NVFUNC-NO-TRANSFER",
          "U-ARCH-NODIAG",
          "U-CXX11-GC",
          "U-CXX11-CONCURRENCY",
          "U-CXX14-ALLOC",
          "U-FLOAT128-CONSTEXPR",
          "U-MEM-OPT-CACHING"};
}

std::vector<UndefinedUse> scan_undefined(std::string_view source, const boost::json::object& sidecar) {
  static_cast<void>(sidecar);  // the text holds everything the checks need
  using namespace detail;
  Findings findings(source);
  try {
    Model model;
    Lexed lexed = lex(source);
    model.tokens = std::move(lexed.tokens);
    model.function_macros = std::move(lexed.function_macros);
    model.object_macros = std::move(lexed.object_macros);
    Parser(model).run();
    const Analysis analysis(model);
    const Scan scan{analysis, model, findings};
    const ClassTraits traits = class_traits(analysis);
    check_barriers(scan);
    check_grid_constant(scan);
    check_kernel_parameters(scan, traits);
    check_static_lifetimes(scan);
    check_exit_handlers(scan);
    check_managed_coherence(scan);
    check_device_addresses(scan);
    check_host_derefs_of_device_pointers(scan);
    check_host_pointers_to_kernels(scan);
    check_device_derefs_of_host_memory(scan);
    check_kernel_pointers_on_host(scan);
    check_kernel_pointers_on_device(scan);
    check_virtual_objects(scan, traits);
    check_cross_space_calls(scan);
    check_shared_alignment(scan);
    check_const_pure(scan);
    check_this_capture(scan);
    check_capture_copies(scan, traits);
    check_closure_traits(scan);
    check_lambda_rules_without_diagnostics(scan);
    check_nvstd_functions(scan);
    check_arch_dependent_declarations(scan);
    check_device_library_support(scan);
    check_float128_constants(scan);
    check_spin_waits(scan);
  } catch (...) {
    // The contract is to never throw (a scan runs on arbitrary text, reduced programs included):
    // what was found before a failure is still reported.
  }
  return findings.take();
}

} // namespace cudiff::ubscan
