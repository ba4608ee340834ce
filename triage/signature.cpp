// triage: signatures — a finding's normalized symptom, its content-hash key and a short title.
//
// The symptom is a few lines, "field value" each: kind, side, stage, then what identifies the
// bug for that kind (docs/architecture.md, "Triage"). Diagnostic ids are already masked by the oracle
// (message templates); crash text is masked here. Versions, seeds, paths and full flag sets
// are metadata, never part of the symptom.
#include "triage/signature_parts.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>

namespace cudiff::triage {
namespace {

using namespace detail;

// ---- per kind ---------------------------------------------------------------------------

/// Which side rejected: by compiler when the compilers split cleanly, else by config (the
/// same compiler on both sides: the config is the symptom, e.g. -O0 accepts, -O3 rejects).
void compile_status(const object& details, Builder& b) {
  std::set<std::string> rejecting, accepting, rejecting_configs, accepting_configs;
  std::string stage = "frontend";
  for (const auto& entry : array_of(details, "rejected")) {
    if (!entry.is_object()) continue;
    rejecting.insert(text_of(entry.as_object(), "compiler"));
    rejecting_configs.insert(text_of(entry.as_object(), "config"));
    if (const auto* error = entry.as_object().if_contains("first_error");
        error != nullptr && error->is_object() && stage == "frontend")
      stage = text_of(error->as_object(), "tool");
  }
  for (const auto& entry : array_of(details, "accepted")) {
    if (!entry.is_object()) continue;
    accepting.insert(text_of(entry.as_object(), "compiler"));
    accepting_configs.insert(text_of(entry.as_object(), "config"));
  }
  bool overlap = std::ranges::any_of(rejecting, [&](const std::string& c) { return accepting.contains(c); });
  b.signature.side = overlap ? joined(rejecting_configs, "+") : joined(rejecting, "+");
  b.signature.stage = stage.empty() ? "frontend" : stage;
  const std::string accepted = overlap ? joined(accepting_configs, "+") : joined(accepting, "+");
  b.add("accepted-by", accepted);
  std::vector<std::string> ids = strings_of(details.if_contains("rejected_error_ids"));
  std::ranges::sort(ids);
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  for (const auto& id : ids) b.id(id);
  b.signature.title = b.signature.side + " rejects, " + accepted +
                      " accepts: " + (ids.empty() ? "(no error message)" : shorten(ids.front(), 90)) +
                      (ids.size() > 1 ? " (+" + std::to_string(ids.size() - 1) + ")" : "");
}

/// The spec oracle's kinds. A missed diagnostic is keyed by the rule and the side that
/// accepts (which configs also reject it, and with what, is detail: the bug is the accept).
void missed_diagnostic(const object& details, Builder& b) {
  std::set<std::string> accepting, rejecting;
  for (const auto& entry : array_of(details, "accepted"))
    if (entry.is_object()) accepting.insert(text_of(entry.as_object(), "compiler"));
  for (const auto& entry : array_of(details, "rejected"))
    if (entry.is_object()) rejecting.insert(text_of(entry.as_object(), "compiler"));
  const std::string rule = text_of(details, "rule");
  b.signature.side = joined(accepting, "+");
  b.signature.stage = "frontend";
  b.add("rule", rule);
  b.id(rule);
  const std::string named = rule.empty() ? std::string("an E rule") : rule;
  if (details.contains("dialect"))
    b.signature.title = b.signature.side + " relaxes " + named + " on purpose (its CUDA dialect; " +
                        joined(rejecting, "+") + " rejects)";
  else
    b.signature.title = b.signature.side + " misses the diagnostic for " + named +
                        (rejecting.empty() ? std::string(" (no compiler rejects)")
                                           : " (" + joined(rejecting, "+") + " rejects)");
}

/// A false rejection is keyed like a compile-status mismatch (rejecting side, error ids); the
/// kind tells them apart, and the title says the program was valid.
void false_rejection(const object& details, Builder& b) {
  compile_status(details, b);
  // The V rule a measured probe exercises: for known differences to match, not in the key.
  if (const std::string rule = text_of(details, "rule"); !rule.empty()) b.signature.ids.push_back(rule);
  b.signature.title = b.signature.side + " rejects a valid program: " +
                      (b.signature.ids.empty() ? std::string("(no error message)")
                                               : shorten(b.signature.ids.front(), 90)) +
                      (b.signature.ids.size() > 1 ? " (+" + std::to_string(b.signature.ids.size() - 1) + ")" : "");
}

bool skipped_frame(std::string_view name) {
  return name.empty() || name.starts_with("llvm::sys::") || name.starts_with("_") || name == "raise" ||
         name == "abort" || name.starts_with("__") || name.starts_with("llvm::report_fatal_error") ||
         name.starts_with("SignalHandler") || name == "main";
}

/// Function names of the top frames of an LLVM stack dump (" #4 0x00007f.. name(args) (lib+0x..)").
std::vector<std::string> top_frames(std::string_view output, std::size_t count) {
  std::vector<std::string> frames;
  for (const std::string& raw : split_lines(output)) {
    std::string_view line = trim(raw);
    if (!line.starts_with("#") || line.find(" 0x") == std::string_view::npos) continue;
    std::string_view rest = trim(line.substr(line.find(" 0x") + 3));
    rest = trim(rest.substr(std::min(rest.find(' '), rest.size())));
    std::size_t end = 0;
    while (end < rest.size() && rest[end] != ' ' && rest[end] != '(') ++end;
    if (rest.substr(end).starts_with("(anonymous namespace)")) end = rest.find('(', end + 21);
    std::string name(rest.substr(0, std::min(end, rest.size())));
    if (skipped_frame(name)) continue;
    frames.push_back(name);
    if (frames.size() == count) break;
  }
  return frames;
}

/// The line that says what went wrong (an assertion, a fatal error, an ICE), masked.
std::string key_line(std::string_view output) {
  constexpr std::string_view markers[] = {"Assertion `",
                                          "LLVM ERROR:",
                                          "error in backend:",
                                          "internal error",
                                          "Internal Compiler Error",
                                          "internal compiler error",
                                          "ptxas fatal",
                                          "nvlink fatal",
                                          "UNREACHABLE executed"};
  for (const std::string& raw : split_lines(output)) {
    for (std::string_view marker : markers) {
      if (raw.find(marker) == std::string::npos) continue;
      std::string line(trim(raw));
      // Drop the program prefix ("clang++-22: "), which names the binary, not the bug.
      if (auto colon = line.find(": "); colon != std::string::npos && colon < 40 && line.find('/') > colon &&
                                        marker != "ptxas fatal" && marker != "nvlink fatal")
        line = line.substr(colon + 2);
      return shorten(mask_crash_text(line), 300);
    }
  }
  return {};
}

void crash(const object& details, std::string_view crash_output, Builder& b) {
  b.signature.side = text_of(details, "compiler");
  b.signature.stage = text_of(details, "stage");
  const std::string reason = text_of(details, "reason");
  b.add("reason", reason);
  const std::string output = crash_output.empty() ? text_of(details, "excerpt") : std::string(crash_output);
  const std::string line = key_line(output);
  if (!line.empty()) b.add("at", line);
  const std::vector<std::string> frames = top_frames(output, 3);
  for (const auto& frame : frames) b.add("frame", frame);
  b.id(reason);
  std::string title = b.signature.side + " crash in " + b.signature.stage + ": ";
  if (!line.empty()) title += line;
  else if (!frames.empty()) title += reason + " in " + frames.front();
  else title += reason;
  b.signature.title = shorten(title, 140);
}

void hang(const object& details, const oracle::Finding& finding, Builder& b) {
  std::set<std::string> compilers, configs(finding.configs.begin(), finding.configs.end());
  for (const auto& config : finding.configs) compilers.insert(compiler_of_config(config));
  const std::string compiler = text_of(details, "compiler");
  b.signature.side = compiler.empty() ? joined(compilers, "+") : compiler;
  b.signature.stage = text_of(details, "stage");
  b.add("configs", joined(configs, ","));
  b.signature.title = b.signature.side + " hangs in " + b.signature.stage + " (" + joined(configs, ", ") + ")";
}

void warning_mismatch(const object& details, Builder& b) {
  std::set<std::string> sides, ids;
  for (const auto& side : array_of(details, "only_in")) {
    if (!side.is_object()) continue;
    const auto& warnings = array_of(side.as_object(), "warnings");
    if (warnings.empty()) continue;
    sides.insert(text_of(side.as_object(), "compiler"));
    for (const auto& warning : warnings)
      if (warning.is_object()) ids.insert(text_of(warning.as_object(), "id"));
  }
  b.signature.side = joined(sides, "+");
  b.signature.stage = "frontend";
  for (const auto& id : ids) b.id(id);
  b.signature.title = "warning only from " + b.signature.side + ": " +
                      (ids.empty() ? std::string("?") : shorten(*ids.begin(), 90));
}

/// The layout property (offsetof/sizeof/alignof; the member's name is the test's, masked),
/// the member's kind, and which views disagree: views grouped by the value they read (the
/// values themselves depend on the rest of the type and are left out).
void layout(const object& details, Builder& b) {
  std::string property = text_of(details, "property");
  property = property.substr(0, property.find('.'));
  const std::string member_kind = text_of(details, "member_kind");
  std::map<std::string, std::set<std::string>> by_value;
  for (const auto& view : array_of(details, "views")) {
    if (!view.is_object()) continue;
    const object& v = view.as_object();
    const auto* value = v.if_contains("value");
    by_value[value != nullptr ? boost::json::serialize(*value) : "?"].insert(text_of(v, "compiler") + " " +
                                                                             text_of(v, "side"));
  }
  std::vector<std::string> groups;
  for (const auto& [value, views] : by_value) groups.push_back(joined(views, "+"));
  std::ranges::sort(groups, [](const std::string& x, const std::string& y) {
    return std::ranges::count(x, '+') != std::ranges::count(y, '+')
               ? std::ranges::count(x, '+') < std::ranges::count(y, '+')
               : x < y;
  });
  b.signature.side = groups.empty() ? "?" : groups.front();
  b.signature.stage = "layout";
  b.add("property", property);
  b.add("member-kind", member_kind);
  b.add("views", join(groups, " | "));
  b.id(property);
  if (!member_kind.empty()) b.id(member_kind);
  // A type holding a long double moves every member after it, so the named member is often
  // another kind: known differences match the cause, outside the key (keys stay as they were).
  const auto kinds = strings_of(details.if_contains("type_member_kinds"));
  if (member_kind != "long double" && std::ranges::find(kinds, "long double") != kinds.end())
    b.signature.ids.push_back("long double");
  const bool vowel = !member_kind.empty() &&
                     std::string_view("aeiou").find(member_kind.front()) != std::string_view::npos;
  b.signature.title = "layout: " + property +
                      (member_kind.empty() ? "" : (vowel ? " of an " : " of a ") + member_kind + " member") +
                      " differs (" + join(groups, " vs ") + ")";
}

/// Kinds without a rule of their own (none today; a kind added later): the fields that name
/// the symptom, where the finding has them — the layout property and the member's kind.
void other(const oracle::Finding& finding, Builder& b) {
  const object& details = finding.details;
  std::string side = text_of(details, "compiler");
  if (side.empty()) {
    std::set<std::string> compilers;
    for (const auto& config : finding.configs) compilers.insert(compiler_of_config(config));
    side = joined(compilers, "+");
  }
  b.signature.side = side;
  b.signature.stage = text_of(details, "stage");
  std::vector<std::string> named;
  for (std::string_view field : {"property", "member_kind", "member_class", "type_kind", "view", "views", "aspect"}) {
    if (std::string value = text_of(details, field); !value.empty()) {
      b.add(field, mask_crash_text(value));
      named.push_back(value);
    }
  }
  if (std::string property = text_of(details, "property"); !property.empty()) b.id(property);
  if (named.empty()) b.add("summary", mask_crash_text(finding.summary));  // masked, never raw
  b.signature.title = oracle::to_string(finding.kind) + ": " +
                      (named.empty() ? shorten(finding.summary, 100) : join(named, " of "));
}

} // namespace

Signature signature_of(const oracle::Finding& finding, std::string_view crash_output) {
  Builder b;
  const std::string kind = oracle::to_string(finding.kind);
  b.signature.kind = kind;
  if (kind == "compile_status_mismatch") compile_status(finding.details, b);
  else if (kind == "crash") crash(finding.details, crash_output, b);
  else if (kind == "hang") hang(finding.details, finding, b);
  else if (kind == "run_mismatch") run_mismatch(finding.details, b);
  else if (kind == "warning_mismatch") warning_mismatch(finding.details, b);
  else if (kind == "layout_mismatch") layout(finding.details, b);
  else if (kind == "missed_diagnostic" || kind == "dialect_difference" || kind == "missed_by_all")
    missed_diagnostic(finding.details, b);
  else if (kind == "false_rejection") false_rejection(finding.details, b);
  else if (kind == "wrong_code" || kind == "common_wrong_code")
    wrong_code(finding.details, b, kind == "common_wrong_code");
  else if (kind == "metamorphic") metamorphic(finding.details, b);
  else if (kind == "late_rejection") late_rejection(finding.details, b);
  else if (kind == "slow_compile") slow_compile(finding.details, finding, b);
  else if (kind == "abi_mismatch" || kind == "missed_by_all" || kind == "dialect_difference") generic(finding, b);
  else other(finding, b);
  // The guilty stage, where the finding names one (pipeline's stage attribution writes it):
  // part of every kind's key, so the same symptom from different stages is two bugs.
  if (const std::string stage = text_of(finding.details, "stage"); !stage.empty()) b.signature.stage = stage;
  // Rule ids (generated programs) help known differences match, but a program covers many
  // rules, so they are not part of the key.
  for (const char* field : {"rule_ids", "rules"})
    for (const auto& rule : strings_of(finding.details.if_contains(field))) b.signature.ids.push_back(rule);

  std::vector<std::string> header = {"kind " + kind, "side " + b.signature.side, "stage " + b.signature.stage};
  header.insert(header.end(), b.lines.begin(), b.lines.end());
  b.signature.symptom = join(header, "\n");
  b.signature.key = content_key("cudiff-signature v" + std::to_string(signature_version) + "\n" + b.signature.symptom);
  return b.signature;
}

} // namespace cudiff::triage
