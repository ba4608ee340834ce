// cli: main and the subcommands — the only place that wires the stages together.
//
// Contract: run_cli never throws. Exit status 0 = agreement / success, 1 = a discrepancy
// was found, 2 = usage or environment error (one line on stderr, "cudiff: error: ..."), 3 =
// `cudiff check` of an invalid program (its run faults under compute-sanitizer).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace cudiff::cli {

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace cudiff::cli
