// libFuzzer harness: known-differences files (JSON with comments, docs/triage.md) through
// KnownDifferences::parse, then matching a few signatures against what was read.
//
/// Input: the file's text. The contract (triage/triage.h): parse throws only Error(usage);
/// match never throws and returns an entry of the parsed list or none.
#include "triage/triage.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cudiff;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  triage::KnownDifferences known;
  try {
    known = triage::KnownDifferences::parse(text, "fuzz");
  } catch (const Error& error) {
    if (error.kind() == ErrorKind::usage) return 0;
    std::fprintf(stderr, "an Error of the wrong kind: %s\n", error.what());
    __builtin_trap();
  }
  const triage::Signature signatures[] = {
      {"", "", "false_rejection", "clang", "frontend", {"R-EXTLAM-17-TRAITS", "R-MANAGED-CONST"}, ""},
      {"", "", "missed_diagnostic", "nvcc", "frontend", {"R-HOSTEXT-COMPLEX"}, ""},
      {"", "", "layout_mismatch", "nvcc", "compile", {"offsetof.m1", "sizeof"}, ""},
      {"", "", "warning_mismatch", "clang", "frontend", {"-Wunused-variable", "20208-D"}, ""},
      {"", "", "compile_status_mismatch", "*", "frontend", {}, ""},
      {"", "", "", "", "", {"", "*"}, ""},
  };
  for (const triage::Signature& signature : signatures) {
    const triage::KnownDifference* entry = known.match(signature);
    if (entry != nullptr &&
        (entry < known.entries().data() || entry >= known.entries().data() + known.entries().size()))
      __builtin_trap();
  }
  return 0;
}
