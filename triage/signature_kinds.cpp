// triage: the signature rules of runs and of the newer oracles' kinds — keyed by structure
// (which configs behave alike, the guilty stage, the shape of a difference), never by what
// varies between programs: values, seeds, addresses, kernel or type names, times.
#include "triage/signature_parts.h"

#include <algorithm>
#include <map>

namespace cudiff::triage::detail {
namespace {

/// The side of a partition: by compiler when the compilers split cleanly between the groups
/// ("nvcc vs clang"), else by config.
std::string side_of(const std::vector<std::set<std::string>>& groups) {
  std::set<std::string> seen;
  bool clean = true;
  std::vector<std::set<std::string>> by_compiler;
  for (const auto& configs : groups) {
    std::set<std::string> compilers;
    for (const auto& config : configs) compilers.insert(compiler_of_config(config));
    for (const auto& compiler : compilers) clean = seen.insert(compiler).second && clean;
    by_compiler.push_back(compilers);
  }
  std::vector<std::string> sides;
  for (const auto& group : clean ? by_compiler : groups) sides.push_back(joined(group, "+"));
  return join(sides, " vs ");
}

/// What kind of output line a run printed where it departs, never its text: a checksum line,
/// a layout line, another line, or none (the output ended).
std::string line_kind(const boost::json::value* line) {
  if (line == nullptr || !line->is_string()) return "missing";
  const std::string_view text = trim(std::string_view(line->as_string()));
  if (text.starts_with("checksum ")) return "checksum";
  if (text.starts_with("layout ")) return "layout";
  return "other";
}

/// How a group ended, without what varies between programs: "timed out", "signal N", "exit N".
std::string ending(const object& group) {
  const auto* timed_out = group.if_contains("timed_out");
  if (timed_out != nullptr && timed_out->is_bool() && timed_out->as_bool()) return "timed out";
  const auto* signal = group.if_contains("signal");
  if (signal != nullptr && signal->is_int64() && signal->as_int64() != 0)
    return "signal " + std::to_string(signal->as_int64());
  const auto* exit_code = group.if_contains("exit_code");
  return "exit " + (exit_code != nullptr && exit_code->is_int64() ? std::to_string(exit_code->as_int64()) : "?");
}

} // namespace

/// Runs keyed by structure only (one bucket per root cause, not per program): the partition of
/// configs into groups that behave alike, and the shape of the first difference per group —
/// how it ended, its first CUDA error (masked), its exit code, or the kind of output line where
/// it departs. Never values, seeds, addresses, kernel or type names.
void run_mismatch(const object& details, Builder& b) {
  const std::string aspect = text_of(details, "first_difference");
  const boost::json::array& groups = array_of(details, "groups");
  std::vector<std::set<std::string>> partition;
  for (const auto& group : groups) {
    if (!group.is_object()) continue;
    const std::vector<std::string> configs = strings_of(group.as_object().if_contains("configs"));
    partition.emplace_back(configs.begin(), configs.end());
  }
  std::vector<std::string> partition_text;
  for (const auto& configs : partition) partition_text.push_back(joined(configs, "+"));
  b.signature.side = side_of(partition);
  b.signature.stage = "unknown";
  b.add("partition", join(partition_text, " | "));
  b.add("differs-in", aspect);
  b.id(aspect);
  std::vector<std::string> shapes;
  for (std::size_t i = 0; i < groups.size(); ++i) {
    if (!groups[i].is_object()) continue;
    const object& group = groups[i].as_object();
    std::string shape = ending(group);
    if (aspect == "cuda_errors") {
      const std::vector<std::string> errors = strings_of(group.if_contains("cuda_errors"));
      shape = errors.empty() ? "no CUDA error" : mask_crash_text(errors.front());
    } else if (aspect == "output") {
      // The first group is the reference: its line is the one the second group departs from.
      const object* other = i == 0 && groups.size() > 1 && groups[1].is_object() ? &groups[1].as_object() : nullptr;
      shape = i == 0 ? line_kind(other != nullptr ? other->if_contains("reference_line") : nullptr)
                     : line_kind(group.if_contains("line"));
    }
    b.add("group", shape);
    shapes.push_back(shape);
  }
  b.signature.title = "run differs (" + aspect + "): " + b.signature.side + ": " + shorten(join(shapes, " vs "), 80);
}

/// The expected-output oracle's kinds, keyed by structure like run mismatches: which configs
/// print the predicted checksums, which do not (grouped by what they print), and the line kind.
void wrong_code(const object& details, Builder& b, bool common) {
  const std::vector<std::string> matching = strings_of(details.if_contains("matching"));
  std::vector<std::set<std::string>> partition;
  for (const auto& group : array_of(details, "differing_groups")) {
    const std::vector<std::string> configs = strings_of(&group);
    partition.emplace_back(configs.begin(), configs.end());
  }
  if (partition.empty()) {  // details written without groups: all differing configs together
    const std::vector<std::string> differing = strings_of(details.if_contains("differing"));
    partition.emplace_back(differing.begin(), differing.end());
  }
  std::vector<std::string> differing_text;
  std::set<std::string> differing_configs, differing_compilers, matching_compilers;
  for (const auto& configs : partition) {
    differing_text.push_back(joined(configs, "+"));
    for (const auto& config : configs) {
      differing_configs.insert(config);
      differing_compilers.insert(compiler_of_config(config));
    }
  }
  const std::set<std::string> matching_set(matching.begin(), matching.end());
  for (const auto& config : matching_set) matching_compilers.insert(compiler_of_config(config));
  // The side is what differs: the differing configs' compilers, or the configs themselves
  // when a compiler is on both sides (nvcc-O3 wrong, nvcc-O0 right).
  const bool overlap = std::ranges::any_of(differing_compilers,
                                           [&](const auto& c) { return matching_compilers.contains(c); });
  b.signature.side = overlap ? joined(differing_configs, "+") : joined(differing_compilers, "+");
  b.signature.stage = "unknown";
  b.add("matching", joined(matching_set, "+"));
  b.add("differing", join(differing_text, " | "));
  b.add("line", "checksum");
  b.id("checksum");
  if (common)
    b.signature.title = "common wrong code: every config (" + joined(differing_configs, ", ") +
                        ") prints the same checksum, not the generator's: a shared ptxas/driver bug or an "
                        "interpreter defect";
  else
    b.signature.title = "wrong code: " + join(differing_text, " and ") + " print" +
                        (differing_configs.size() == 1 ? "s" : "") + " another checksum than the generator" +
                        (matching_set.empty() ? std::string() : " (" + joined(matching_set, ", ") + " match)");
}

/// A variant departing from its original: keyed as wrong code is (which configs keep the
/// relation, which break it, grouped by what they print; the stage once attributed), never by
/// the seed, the kernels or the transforms, which differ from one program to the next.
void metamorphic(const object& details, Builder& b) {
  wrong_code(details, b, false);
  std::set<std::string> differing;
  for (const auto& config : strings_of(details.if_contains("differing"))) differing.insert(config);
  const auto* every = details.if_contains("every_config");
  const bool every_config = every != nullptr && every->is_bool() && every->as_bool();
  b.signature.title = "metamorphic: " +
                      (every_config ? "every config (" + joined(differing, ", ") + ")" : joined(differing, ", ")) +
                      " print" + (differing.size() == 1 ? "s" : "") +
                      " another checksum for a variant than for its original";
}

/// Keyed by the front end's diagnostic (the one the late compiler's front end missed), the
/// compilers on each side, and the stages the late side failed in.
void late_rejection(const object& details, Builder& b) {
  std::set<std::string> front, late;
  for (const auto& entry : array_of(details, "frontend"))
    if (entry.is_object()) front.insert(text_of(entry.as_object(), "compiler"));
  for (const auto& entry : array_of(details, "late"))
    if (entry.is_object()) late.insert(text_of(entry.as_object(), "compiler"));
  const std::vector<std::string> stages = strings_of(details.if_contains("late_stages"));
  const std::string id = text_of(details, "frontend_error_id");
  const std::string rule = text_of(details, "rule");
  b.signature.side = joined(late, "+");
  b.signature.stage = "frontend";
  b.add("rejected-in-frontend-by", joined(front, "+"));
  b.add("late-stages", join(stages, "+"));
  if (!id.empty()) b.id(id);
  if (!rule.empty()) {
    b.add("rule", rule);
    b.id(rule);
  }
  if (front.empty())
    b.signature.title = "no front end diagnoses " + (rule.empty() ? std::string("the program") : rule) + "; " +
                        b.signature.side + " fail" + (late.size() == 1 ? "s" : "") + " in " + join(stages, "/");
  else
    b.signature.title = b.signature.side + " fails late (" + join(stages, "/") + ") where " + joined(front, "+") +
                        "'s front end rejects: " + shorten(id, 90);
}

/// Keyed by config, compiler and stage (the sub-command that took the time): never by a time,
/// so a reduction keeps a candidate while the ratio holds.
void slow_compile(const object& details, const oracle::Finding& finding, Builder& b) {
  const std::string config = finding.configs.empty() ? text_of(details, "config") : finding.configs.front();
  const std::string tool = text_of(details, "tool");
  b.signature.side = text_of(details, "compiler");
  if (b.signature.side.empty()) b.signature.side = compiler_of_config(config);
  b.signature.stage = text_of(details, "stage");
  b.add("config", config);
  if (!tool.empty()) b.add("tool", tool);
  b.id(tool.empty() ? b.signature.stage : tool);
  const auto* hung = details.if_contains("hung");
  const bool hangs = hung != nullptr && hung->is_bool() && hung->as_bool();
  b.signature.title = config + (hangs ? " hangs" : " compiles far slower than the other configs") +
                      (tool.empty() ? " (" + b.signature.stage + ")" : " in " + tool);
}

/// The kinds other oracles fill (abi_mismatch, missed_by_all, dialect_difference): keyed by the
/// fields that name their symptom, where the finding has them — the rule, the kind of function
/// and of parameter — and the compilers involved (its stage is added for every kind).
void generic(const oracle::Finding& finding, Builder& b) {
  const object& details = finding.details;
  std::string side = text_of(details, "compiler");
  if (side.empty()) {
    std::set<std::string> compilers;
    for (const auto& config : finding.configs) compilers.insert(compiler_of_config(config));
    side = joined(compilers, "+");
  }
  b.signature.side = side;
  b.signature.stage = "unknown";
  std::vector<std::string> named;
  for (std::string_view field : {"rule", "function_kind", "param_kind"}) {
    if (std::string value = text_of(details, field); !value.empty()) {
      b.add(field, value);
      b.id(value);
      named.push_back(std::string(field) + " " + value);
    }
  }
  static const std::map<std::string, std::string, std::less<>> names = {{"abi_mismatch", "parameter ABI differs"},
                                                                        {"missed_by_all",
                                                                         "every config misses a diagnostic"},
                                                                        {"dialect_difference", "dialect difference"}};
  const auto name = names.find(b.signature.kind);
  b.signature.title = (name != names.end() ? name->second : b.signature.kind) + " (" + side + ")" +
                      (named.empty() ? std::string() : ": " + join(named, ", "));
}

} // namespace cudiff::triage::detail
