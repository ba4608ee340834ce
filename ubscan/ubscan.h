// ubscan: the undefined-behaviour scanner. Finds, in a program's text, the U rules of the rules
// catalog that text can show (barriers in divergent code, writes to __grid_constant__
// parameters, kernel parameters whose copies run user code, device addresses used on the host,
// calls across execution spaces, misaligned carves of dynamic shared memory...).
//
// Contract: a lexer (common/cpp_lexer.h) plus a light parse, never a compile; exact on what the
// generator writes and on the catalog's valid probe fragments, silent where the text cannot
// tell; never throws on any input. Used by the tests and `cudiff rules`, not by generation.
#pragma once

#include <boost/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace cudiff::ubscan {

/// One place where a program's text comes near a U rule.
struct UndefinedUse {
  std::string rule_id;  ///< e.g. "U-SYNC-DIVERGENT"
  int line = 0;         ///< 1-based line in the source
  std::string excerpt;  ///< that line, trimmed
};

/// Scans a program (its .cu text and, where it helps, its sidecar) for the U rules that can be
/// recognised in the text (undefined_rules_scanned()), ordered by line and then rule id. A
/// generated program must give none: tests/unit/ubscan scans many. Never throws on any input.
std::vector<UndefinedUse> scan_undefined(std::string_view source, const boost::json::object& sidecar);
/// The U rule ids scan_undefined looks for, each an id of rules::rule_catalog().
std::vector<std::string> undefined_rules_scanned();

} // namespace cudiff::ubscan
