// triage (internal): what repro.sh's two halves share — a recorded config as the script
// rebuilds it, bash quoting, the finding's fields, and the run kinds' checks
// (repro_script_run.cpp).
#pragma once

#include "triage/triage.h"

#include <boost/json.hpp>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cudiff::triage::repro {

/// One recorded config, as repro.sh rebuilds it.
struct ScriptConfig {
  std::string name, compiler, outcome;  ///< outcome as recorded: accepted, rejected, crashed, hung
  std::string build;                    ///< the bash command line
  std::string binary;                   ///< where the build writes its binary (run mode), else empty
  bool ran = false;                     ///< a run was recorded
};

/// A literal for bash: single-quoted unless it is plainly safe.
std::string literal(std::string_view text);
/// A name bash accepts in a function name: the config's, with anything else made `_`.
std::string identifier(std::string_view name);
/// A JSON string's text; empty for anything else.
std::string text_of(const boost::json::value* value);
/// `object[key]` as text; empty when absent or not a string.
std::string field(const boost::json::value& object, std::string_view key);
/// `object[key]` as a list of strings (the strings of an array; none otherwise).
std::vector<std::string> strings(const boost::json::value& object, std::string_view key);
bool contains(const std::vector<std::string>& names, std::string_view name);

/// The sides of a run finding: its "matching" and "differing" configs where it names them
/// (wrong code, metamorphic, and run mismatches of generated programs); else, for a run
/// mismatch filed from a person's file (only "groups"), the first group against the others.
std::pair<std::vector<std::string>, std::vector<std::string>> run_sides(const boost::json::value& details);

/// The checks of a run kind (wrong code, common wrong code, run mismatch, metamorphic), appended
/// to `sh`: build and run each of `needed` (the configs the signature names), then compare as
/// the oracle does. Every path ends in present, fixed or cannot_tell.
void append_run_checks(std::string& sh, const std::string& kind, const StoredFinding& finding,
                       const std::vector<const ScriptConfig*>& needed);

} // namespace cudiff::triage::repro
