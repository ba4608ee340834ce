// campaign: the known-bug recall suite as data — each case's case.json read and checked, the
// config sets to measure it under, and the judgement of one check against what a case must give.
#include "campaign/recall.h"

#include <algorithm>

namespace cudiff::campaign {
namespace {

/// Reads one case.json; every complaint names the file and the field.
class CaseReader {
public:
  CaseReader(const boost::json::object& json, std::filesystem::path file) : json_(json), file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& what) const { throw_usage(file_.string() + ": " + what); }

  std::string text(const boost::json::object& object, const std::string& field, bool required) const {
    const boost::json::value* value = object.if_contains(field);
    if (value == nullptr) {
      if (required) fail("no \"" + field + "\"");
      return {};
    }
    if (!value->is_string()) fail("\"" + field + "\" is not a string");
    return std::string(value->as_string());
  }
  std::string text(const std::string& field, bool required) const { return text(json_, field, required); }

  bool flag(const std::string& field) const {
    const boost::json::value* value = json_.if_contains(field);
    if (value == nullptr) fail("no \"" + field + "\"");
    if (!value->is_bool()) fail("\"" + field + "\" is not true or false");
    return value->as_bool();
  }

  /// A string or an array of strings.
  std::vector<std::string> texts(const boost::json::object& object, const std::string& field) const {
    const boost::json::value* value = object.if_contains(field);
    if (value == nullptr) fail("no \"" + field + "\"");
    if (value->is_string()) return {std::string(value->as_string())};
    if (!value->is_array()) fail("\"" + field + "\" is neither a string nor a list of strings");
    std::vector<std::string> out;
    for (const boost::json::value& item : value->as_array()) {
      if (!item.is_string()) fail("\"" + field + "\" holds something that is not a string");
      out.emplace_back(item.as_string());
    }
    if (out.empty()) fail("\"" + field + "\" is empty");
    return out;
  }

  const boost::json::object& object(const std::string& field) const {
    const boost::json::value* value = json_.if_contains(field);
    if (value == nullptr || !value->is_object()) fail("no \"" + field + "\" object");
    return value->as_object();
  }

private:
  const boost::json::object& json_;
  std::filesystem::path file_;
};

KnownBugExpectation read_expectation(const CaseReader& reader, const boost::json::object& expect) {
  KnownBugExpectation out;
  out.kinds = reader.texts(expect, "kind");
  for (const std::string& kind : out.kinds)
    if (!oracle::parse_finding_kind(kind)) reader.fail("expect.kind '" + kind + "' is not a finding kind");
  out.stage = reader.text(expect, "stage", true);
  if (!oracle::parse_stage(out.stage)) reader.fail("expect.stage '" + out.stage + "' is not a stage");
  out.key_prefix = reader.text(expect, "key_prefix", false);
  out.title_contains = reader.text(expect, "title_contains", false);
  if (out.key_prefix.empty() == out.title_contains.empty())
    reader.fail("expect needs exactly one of \"key_prefix\" and \"title_contains\"");
  out.verdict = reader.text(expect, "verdict", true);
  if (out.verdict != "discrepancy" && out.verdict != "known-difference")
    reader.fail("expect.verdict must be \"discrepancy\" or \"known-difference\"");
  return out;
}

bool matches_bucket(const KnownBugExpectation& expect, const triage::Signature& signature) {
  if (!expect.key_prefix.empty()) return signature.key.starts_with(expect.key_prefix);
  return signature.title.find(expect.title_contains) != std::string::npos;
}

} // namespace

KnownBugCase read_known_bug(const std::filesystem::path& directory) {
  const std::filesystem::path file = directory / "case.json";
  boost::json::parse_options options;
  options.allow_comments = true;  // a case may say in a comment how it was confirmed
  boost::json::value json;
  try {
    json = boost::json::parse(read_file(file), {}, options);
  } catch (const boost::system::system_error& error) {
    throw_usage(file.string() + ": not JSON (" + error.code().message() + ")");
  }
  if (!json.is_object()) throw_usage(file.string() + ": not a JSON object");
  const CaseReader reader(json.as_object(), file);

  KnownBugCase bug;
  bug.name = directory.filename().string();
  bug.directory = directory;
  bug.file = directory / reader.text("file", true);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(bug.file, ec))
    reader.fail("the reproducer " + bug.file.string() + " is missing");
  bug.title = reader.text("title", true);
  bug.source = reader.text("source", true);
  bug.licence = reader.text("licence", true);
  for (const auto& [compiler, version] : reader.object("reproduces_with")) {
    if (!version.is_string()) reader.fail("reproduces_with." + std::string(compiler) + " is not a string");
    bug.reproduces_with[std::string(compiler)] = std::string(version.as_string());
  }
  bug.needs_gpu = reader.flag("needs_gpu");
  bug.confirmed = reader.flag("confirmed");
  if (const std::string mode = reader.text("mode", false); !mode.empty()) {
    bug.mode = runners::parse_mode(mode);
    if (!bug.mode) reader.fail("\"mode\" '" + mode + "' is not syntax, ptx, cubin, object, binary or run");
  }
  bug.configs = reader.texts(json.as_object(), "configs");
  bug.expect = read_expectation(reader, reader.object("expect"));
  bug.does_not_reproduce = reader.text("does_not_reproduce", false);
  return bug;
}

std::vector<KnownBugCase> read_known_bugs(const std::filesystem::path& suite) {
  std::error_code ec;
  if (!std::filesystem::is_directory(suite, ec)) throw_usage("no known-bug suite at " + suite.string());
  std::vector<std::filesystem::path> directories;
  for (const auto& entry : std::filesystem::directory_iterator(suite, ec))
    if (entry.is_directory() && std::filesystem::exists(entry.path() / "case.json"))
      directories.push_back(entry.path());
  if (ec) throw_environment("cannot list " + suite.string() + ": " + ec.message());
  if (directories.empty()) throw_usage(suite.string() + " holds no case (no <case>/case.json)");
  std::sort(directories.begin(), directories.end());
  std::vector<KnownBugCase> cases;
  for (const auto& directory : directories) cases.push_back(read_known_bug(directory));
  return cases;
}

ConfigSet config_set(std::string_view list, const std::optional<std::string>& arch) {
  ConfigSet set;
  set.name = std::string(trim(list));
  set.arch = arch;
  if (set.name == "case") {
    set.per_case = true;
    return set;
  }
  const std::vector<runners::Config> presets = runners::preset_configs();
  for (const std::string& raw : split(list, ',')) {
    const std::string name(trim(raw));
    if (name.empty()) continue;
    auto preset = std::find_if(presets.begin(), presets.end(),
                               [&](const runners::Config& c) { return c.name == name; });
    if (preset == presets.end()) {
      set.unknown.push_back(name);
      continue;
    }
    runners::Config config = *preset;
    if (arch) config.arch = *arch;
    if (std::find(set.configs.begin(), set.configs.end(), config) == set.configs.end()) set.configs.push_back(config);
  }
  return set;
}

CaseOutcome judge_known_bug(const KnownBugCase& bug, const oracle::Verdict& verdict,
                            const std::vector<triage::Signature>& signatures) {
  CaseOutcome outcome;
  outcome.name = bug.name;
  const oracle::Finding* chosen = nullptr;
  const triage::Signature* chosen_signature = nullptr;
  for (std::size_t i = 0; i < verdict.findings.size(); ++i) {
    const oracle::Finding& finding = verdict.findings[i];
    const std::string kind = oracle::to_string(finding.kind);
    if (std::find(bug.expect.kinds.begin(), bug.expect.kinds.end(), kind) == bug.expect.kinds.end()) continue;
    const triage::Signature* signature = i < signatures.size() ? &signatures[i] : nullptr;
    const bool bucket = signature != nullptr && matches_bucket(bug.expect, *signature);
    if (chosen == nullptr || (bucket && !outcome.right_bucket)) {
      chosen = &finding;
      chosen_signature = signature;
      outcome.right_bucket = bucket;
    }
  }
  if (chosen == nullptr) {
    outcome.status = "missed";
    std::vector<std::string> kinds;
    for (const oracle::Finding& finding : verdict.findings) kinds.push_back(oracle::to_string(finding.kind));
    outcome.note = verdict.findings.empty() ? "no finding (" + verdict.agreement + ")"
                                            : "findings of other kinds only: " + join(kinds, ", ");
    return outcome;
  }
  outcome.found = true;
  outcome.status = "found";
  outcome.found_kind = oracle::to_string(chosen->kind);
  if (chosen_signature != nullptr) {
    outcome.found_title = chosen_signature->title;
    outcome.found_key = chosen_signature->key;
  }
  // Stage attribution writes details["stage"]; a finding without it is not counted wrong.
  const boost::json::value* stage = chosen->details.if_contains("stage");
  // Before attribution, a crash's details name the tool that died ("clang", "ptxas"): not a
  // stage, so not counted either.
  if (stage == nullptr || !stage->is_string() || !oracle::parse_stage(stage->as_string())) outcome.stage = "no stage";
  else if (stage->as_string() == bug.expect.stage) outcome.stage = "right";
  else outcome.stage = "wrong (" + std::string(stage->as_string()) + ")";
  if (!outcome.right_bucket) outcome.note = "bucket differs: " + outcome.found_title;
  return outcome;
}

} // namespace cudiff::campaign
