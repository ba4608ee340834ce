// campaign: the recall measurement (`cudiff recall`) — every known-bug case checked under every
// config set, judged against what it must give, with what each check cost; the report as JSON.
#include "campaign/recall.h"
#include "pipeline/check.h"
#include "pipeline/record.h"

#include <chrono>
#include <ostream>

namespace cudiff::campaign {
namespace {

/// The configs a case is checked with under `set`; the unknown presets a per-case set names are
/// added to `unknown`.
std::vector<runners::Config> configs_for(const ConfigSet& set, const KnownBugCase& bug,
                                         std::vector<std::string>& unknown) {
  if (!set.per_case) {
    unknown = set.unknown;
    return set.configs;
  }
  ConfigSet own = config_set(join(bug.configs, ","), set.arch);
  unknown = own.unknown;
  return own.configs;
}

/// Why a case is not checked under this set, or "" when it is.
std::string skip_reason(const KnownBugCase& bug, const std::vector<runners::Config>& configs,
                        const std::vector<std::string>& unknown, const runners::GpuDiscovery& gpus) {
  if (!bug.does_not_reproduce.empty()) return "does not reproduce: " + bug.does_not_reproduce;
  if (bug.needs_gpu && gpus.gpus.empty())
    return "needs a GPU (" + (gpus.note.empty() ? std::string("none found") : gpus.note) + ")";
  if (configs.empty())
    return unknown.empty() ? "no config" : "no known config (unknown here: " + join(unknown, ", ") + ")";
  return {};
}

CaseOutcome check_case(const KnownBugCase& bug, const ConfigSet& set, const RecallRequest& request,
                       const std::filesystem::path& workdir) {
  std::vector<std::string> unknown;
  const std::vector<runners::Config> configs = configs_for(set, bug, unknown);
  CaseOutcome outcome;
  outcome.name = bug.name;
  for (const runners::Config& config : configs) outcome.configs.push_back(config.name);
  if (const std::string reason = skip_reason(bug, configs, unknown, request.gpus); !reason.empty()) {
    outcome.status = "skipped";
    outcome.note = reason;
    return outcome;
  }

  pipeline::CheckRequest check;
  check.input = pipeline::file_input(bug.file);
  check.mode = request.mode ? request.mode : bug.mode;
  check.configs = configs;
  check.compile_limits = request.compile_limits;
  check.run_limits = request.run_limits;
  // Stage accuracy is part of recall: each finding is attributed as `cudiff check` does.
  check.attribute_stages = true;
  const auto started = std::chrono::steady_clock::now();
  const pipeline::TestCheck run = pipeline::check_test(check, request.toolchain, request.gpus, workdir);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  const std::vector<std::string> checked_with = outcome.configs;
  outcome = judge_known_bug(bug, run.verdict, pipeline::signatures_of(run));
  outcome.configs = checked_with;
  outcome.wall_seconds = wall;
  for (const pipeline::ConfigCheck& config : run.configs) {
    outcome.compile_seconds += config.observation.seconds;
    if (config.run) outcome.run_seconds += config.run->seconds;
  }
  if (!unknown.empty())
    outcome.note += std::string(outcome.note.empty() ? "" : "; ") + "unknown presets left out: " + join(unknown, ", ");
  return outcome;
}

void add_to_totals(RecallResult& result, const KnownBugCase& bug, const CaseOutcome& outcome) {
  if (outcome.status == "skipped") {
    ++result.skipped;
    return;
  }
  ++result.checked;
  result.found += outcome.found;
  result.right_bucket += outcome.found && outcome.right_bucket;
  result.right_stage += outcome.stage == "right";
  result.no_stage += outcome.stage == "no stage";
  result.confirmed_missed += bug.confirmed && !outcome.found;
  result.compile_seconds += outcome.compile_seconds;
  result.run_seconds += outcome.run_seconds;
  result.wall_seconds += outcome.wall_seconds;
}

boost::json::object case_json(const CaseOutcome& outcome) {
  boost::json::array configs;
  for (const std::string& name : outcome.configs) configs.emplace_back(name);
  return {{"name", outcome.name},
          {"status", outcome.status},
          {"note", outcome.note},
          {"found", outcome.found},
          {"right_bucket", outcome.right_bucket},
          {"stage", outcome.stage},
          {"found_kind", outcome.found_kind},
          {"found_title", outcome.found_title},
          {"found_key", outcome.found_key},
          {"configs", std::move(configs)},
          {"compile_seconds", outcome.compile_seconds},
          {"run_seconds", outcome.run_seconds},
          {"wall_seconds", outcome.wall_seconds}};
}

double share(std::size_t part, std::size_t whole) { return whole == 0 ? 0.0 : double(part) / double(whole); }

} // namespace

RecallReport measure_recall(const RecallRequest& request, std::ostream& err) {
  RecallReport report;
  report.nvcc_version = request.toolchain.nvcc.version;
  report.clang_version = request.toolchain.clang.version;
  report.gpu = request.gpus.gpus.empty() ? "none: " + request.gpus.note : request.gpus.gpus.front().describe();
  const TempDir temp("cudiff-recall");
  std::size_t index = 0;
  for (const ConfigSet& set : request.sets) {
    RecallResult result;
    result.set = set;
    for (const KnownBugCase& bug : request.cases) {
      const std::filesystem::path workdir = temp.path() / std::to_string(index++);
      std::filesystem::create_directories(workdir);
      CaseOutcome outcome = check_case(bug, set, request, workdir);
      err << "recall [" << set.name << "] " << bug.name << ": " << outcome.status
          << (outcome.note.empty() ? "" : " (" + outcome.note + ")") << "\n";
      add_to_totals(result, bug, outcome);
      result.cases.push_back(std::move(outcome));
    }
    report.results.push_back(std::move(result));
  }
  return report;
}

boost::json::value to_json(const RecallReport& report) {
  boost::json::array sets;
  for (const RecallResult& result : report.results) {
    boost::json::array configs, unknown, cases;
    for (const runners::Config& config : result.set.configs) configs.emplace_back(config.name);
    for (const std::string& name : result.set.unknown) unknown.emplace_back(name);
    for (const CaseOutcome& outcome : result.cases) cases.push_back(case_json(outcome));
    const double per_case = result.checked == 0 ? 0.0 : (result.compile_seconds + result.run_seconds) / result.checked;
    sets.push_back(boost::json::object{{"set", result.set.name},
                                       {"per_case_configs", result.set.per_case},
                                       {"configs", std::move(configs)},
                                       {"unknown_configs", std::move(unknown)},
                                       {"cases", std::move(cases)},
                                       {"checked", result.checked},
                                       {"skipped", result.skipped},
                                       {"found", result.found},
                                       {"recall", result.recall()},
                                       {"bucket_accuracy", share(result.right_bucket, result.found)},
                                       {"stage_accuracy", share(result.right_stage, result.found - result.no_stage)},
                                       {"no_stage", result.no_stage},
                                       {"confirmed_missed", result.confirmed_missed},
                                       {"compile_seconds", result.compile_seconds},
                                       {"run_seconds", result.run_seconds},
                                       {"seconds_per_case", per_case}});
  }
  return boost::json::object{{"nvcc", report.nvcc_version},
                             {"clang", report.clang_version},
                             {"gpu", report.gpu},
                             {"sets", std::move(sets)}};
}

} // namespace cudiff::campaign
