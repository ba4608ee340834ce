// triage: cause keys — what a reduced finding's bug is, from its reduced form: the guilty
// kernel's PTX normalised (a ptxas or code-generation bug), the crash's top frames (a crash
// elsewhere), the diagnostic or the rule (a rejection, a missed diagnostic). Findings of one
// bucket with different causes are different bugs; one cause in two buckets is one bug
// (docs/triage.md, "Cause keys").
#pragma once

#include "triage/signature.h"

#include <string>
#include <string_view>
#include <vector>

namespace cudiff::triage {

/// Bumped when a cause's normalization changes: causes of different versions never compare equal.
constexpr int cause_version = 1;

struct Cause {
  std::string key;    ///< 32 hex digits: content_key of (version, basis, text); empty: none
  std::string basis;  ///< "ptx", "crash", "diagnostic", "rule" or "signature"
  std::string text;   ///< the normalized text that was hashed
  bool operator==(const Cause&) const = default;
};

/// The cause of `basis` with `text`: its key is content_key("cudiff-cause vN\nBASIS\nTEXT").
Cause make_cause(std::string basis, std::string text);

/// PTX reduced to what a ptxas or code-generation bug is: the device functions (.entry and
/// .func with a body) with register numbers, immediates, names, labels, comments, debug lines
/// and register declarations dropped, and the instruction sequence kept (opcode with every
/// modifier, operand kinds: `%r`, `%rd`, `%p`..., `N` for a number, `sym`, `param`, `L0`... for
/// labels in order of appearance, special registers as they are). With `kernels` (checksum
/// names, "s123/dense_0" or "dense_0"), only the entries whose mangled names hold every
/// component (Itanium `<length><name>`) and the functions they call; all when none match.
/// Functions sorted, one block each: their order in the file does not matter.
std::string normalize_ptx(std::string_view ptx, const std::vector<std::string>& kernels = {});

/// Whether a finding of `kind` and guilty `stage` is keyed by PTX: wrong code, a run mismatch or
/// a metamorphic finding in the device code (ptxas, device code generation, the driver's JIT,
/// or not attributed), and a crash, hang or slow compile of ptxas.
bool cause_from_ptx(std::string_view kind, std::string_view stage);

/// The cause of a finding not keyed by PTX (or whose PTX could not be built), from its
/// signature: a crash's stage, reason, key line and top frames; a rejection's compilers and
/// diagnostic ids; a missed diagnostic's compilers and rule; else the symptom.
Cause cause_from_signature(const Signature& signature);

} // namespace cudiff::triage
