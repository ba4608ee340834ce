// edge: edge programs — a generated program with one E rule's violation template planted at
// its end (rules/catalog.json), expected to be rejected for that reason.
#include "generator/generator.h"

#include <algorithm>
#include <cstdio>

namespace cudiff::generator {

bool is_edge_seed(const Policy& policy, std::uint64_t seed) {
  SeededRng rng(seed ^ 0x656467655f736565ull);  // "edge_see"
  return rng.chance(policy.get("edge.share"));
}

std::vector<rules::Rule> plantable_rules() {
  std::vector<rules::Rule> plantable;
  for (rules::Rule& rule : rules::rule_catalog())
    if (rule.kind == rules::RuleKind::must_reject && rule.checkable && rule.violation)
      plantable.push_back(std::move(rule));
  return plantable;
}

std::string plant_violation(const std::string& source, const std::string& rule_id,
                            const rules::RuleViolation& violation, int& line) {
  std::string planted = source;
  if (!planted.empty() && planted.back() != '\n') planted += "\n";
  planted += "\n// ---- cudiff edge: a planted violation of " + rule_id + " (the program must be rejected) ----\n";
  const std::size_t fragment_start = planted.size();
  planted += violation.fragment;
  if (planted.back() != '\n') planted += "\n";
  const std::size_t marker = planted.find(violation.marker, fragment_start);
  const std::size_t at = marker == std::string::npos ? fragment_start : marker;
  line = 1 + static_cast<int>(std::count(planted.begin(), planted.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
  return planted;
}

namespace {

const rules::Rule& plantable_rule(const std::vector<rules::Rule>& plantable, const std::string& rule_id) {
  for (const rules::Rule& candidate : plantable)
    if (candidate.id == rule_id) return candidate;
  throw Error(ErrorKind::usage, "no violation template for rule '" + rule_id + "' (see cudiff rules --kind E)");
}

/// `test` (its source and sidecar) with `rule`'s violation planted and the expectation recorded.
void make_edge(TestCase& test, const rules::Rule& rule) {
  int line = 0;
  test.source = plant_violation(test.source, rule.id, *rule.violation, line);
  test.sidecar.expected_verdict = Sidecar::Verdict::reject;
  test.sidecar.edge = Sidecar::Edge{rule.id, line, rule.violation->marker};
}

} // namespace

TestCase generate_edge(const Policy& policy, std::uint64_t seed, Size size, const std::string& rule_id) {
  const std::vector<rules::Rule> plantable = plantable_rules();
  SeededRng rng(seed ^ 0x656467655f72756cull);  // "edge_rul": a stream of its own
  const rules::Rule& rule = rule_id.empty() ? plantable[static_cast<std::size_t>(rng.below(plantable.size()))]
                                            : plantable_rule(plantable, rule_id);
  TestCase test = generate_program(policy, seed, size);
  char name[48];
  std::snprintf(name, sizeof name, "cudiff_edge_%012llu", static_cast<unsigned long long>(seed));
  test.name = name;
  make_edge(test, rule);
  return test;
}

TestCase violation_alone(const std::string& rule_id) {
  TestCase test;
  test.name = "edge_" + rule_id;
  test.source = "#include <cstdio>\n#include <cuda_runtime.h>\n";
  make_edge(test, plantable_rule(plantable_rules(), rule_id));
  return test;
}

} // namespace cudiff::generator
