// triage: content keys (SHA-256) and signatures — the normalized symptom of a finding, and the
// bucket key that hashes it.
#pragma once

#include "oracle/oracle.h"

#include <string>
#include <string_view>
#include <vector>

namespace cudiff::triage {

// ---- hashing ----------------------------------------------------------------------------

/// SHA-256 of `data` as 64 lowercase hex digits (FIPS 180-4).
std::string sha256_hex(std::string_view data);
/// A 128-bit content key: the first 32 hex digits of SHA-256. Used for bucket keys, finding
/// and note ids and blob names; 128 bits make an accidental clash between hosts negligible.
std::string content_key(std::string_view data);
/// A key that is unique per call (host, pid, time and 128 random bits), for campaign ids.
std::string unique_key();

// ---- signatures -------------------------------------------------------------------------

/// Bumped when the normalization changes: keys of different versions never compare equal. A
/// database whose keys are older is re-keyed when it is opened for writing (docs/triage.md,
/// "Signature versions"). 2: runs keyed by structure (partition, stage, shape of the first
/// difference), never by output text; details["stage"] in every kind's key; the new kinds.
constexpr int signature_version = 2;

struct Signature {
  std::string key;      ///< 32 hex digits: content_key of (version, kind, side, stage, symptom)
  std::string title;    ///< short, for people; never part of the key
  std::string kind;     ///< oracle::to_string(FindingKind)
  std::string side;     ///< the compiler(s) that rejected, crashed, hung or differ: "clang", "nvcc"
  std::string stage;    ///< "frontend", "cicc", "ptxas", "compile", "run", ...
  std::vector<std::string> ids;  ///< diagnostic ids / rule ids / properties known differences match
  std::string symptom;  ///< the normalized text that was hashed, one item per line
};

/// The signature of one finding. `crash_output` is the stderr of the crashed compile when the
/// finding is a crash: its assertion and top stack frames refine the key. Never throws.
Signature signature_of(const oracle::Finding& finding, std::string_view crash_output = {});

/// Crash text with paths (kept: compiler source file names; masked: the test's and temporary
/// files), hex addresses, numbers and single-quoted names masked.
std::string mask_crash_text(std::string_view text);

} // namespace cudiff::triage
