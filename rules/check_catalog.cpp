// rules: the build's check of rules/catalog.json. The catalog is compiled into cudiff as a
// literal and parsed at run time, so a malformed entry (a checkable E rule without evidence, a
// dialect without its citation, ...) would otherwise surface only when cudiff first reads it:
// the build runs this on the file before it compiles the literal, and stops with the message,
// which names the rule.
#include "rules/rules.h"

#include "common/common.h"

#include <fstream>
#include <iostream>

// The parser reads the compiled-in literal through this symbol; this program parses the file
// it is given instead, so the literal is empty here.
namespace cudiff::rules::detail {
extern const std::string_view rule_catalog_json;
const std::string_view rule_catalog_json;
} // namespace cudiff::rules::detail

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: cudiff_check_catalog CATALOG.json STAMP\n";
    return 2;
  }
  try {
    const std::size_t rules = cudiff::rules::parse_rule_catalog(cudiff::read_file(argv[1])).size();
    cudiff::write_file(argv[2], std::to_string(rules) + " rules\n");
  } catch (const std::exception& error) {
    std::cerr << argv[1] << ": " << error.what() << "\n";
    return 1;
  }
  return 0;
}
