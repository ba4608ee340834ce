// pipeline: the reducer's interestingness tests — a person's C-Reduce-style script, or the
// built-in "same triage signature" test with its prefilter and its sanitizer gate.
#include "pipeline/check_parts.h"
#include "pipeline/record.h"
#include "pipeline/reduce_parts.h"
#include "pipeline/sanitizer_parts.h"

#include <algorithm>
#include <chrono>
#include <future>

#include <unistd.h>

namespace cudiff::pipeline {
namespace {

/// Errors of one compile, as the judge collects them for the rejecting side.
std::set<std::string> error_ids(const oracle::CompileObservation& observation) {
  std::set<std::string> ids;
  for (const oracle::Diagnostic& diagnostic : observation.diagnostics)
    if (diagnostic.severity == oracle::Severity::error || diagnostic.severity == oracle::Severity::fatal)
      ids.insert(diagnostic.id);
  return ids;
}

/// Warnings whose cause is undefined behaviour in the program, not a matter of style; as
/// errors they reject a candidate of a run-mismatch reduction (C-Reduce's documentation asks
/// the same of a miscompile test script).
const std::vector<std::string> ub_warning_flags = {"-Werror=return-type",
                                                   "-Werror=uninitialized",
                                                   "-Werror=sometimes-uninitialized",
                                                   "-Werror=conditional-uninitialized",
                                                   "-Werror=array-bounds",
                                                   "-Werror=shift-count-overflow",
                                                   "-Werror=shift-count-negative",
                                                   "-Werror=shift-negative-value",
                                                   "-Werror=division-by-zero",
                                                   "-Werror=integer-overflow",
                                                   "-Werror=unsequenced",
                                                   "-Werror=null-dereference",
                                                   "-Werror=return-stack-address",
                                                   "-Werror=uninitialized-const-reference",
                                                   "-Werror=dangling"};

} // namespace

std::optional<std::string> undefined_behaviour_warning(const runners::Toolchain& toolchain, const std::string& text,
                                                       const std::string& file_name, const std::string& arch,
                                                       const runners::Limits& limits) {
  TempDir dir("cudiff-reduce-ub");
  const std::filesystem::path file = dir.path() / file_name;
  write_file(file, text);
  runners::Config config;
  config.name = "clang-ub-warnings";
  config.compiler = runners::CompilerKind::clang;
  config.opt_level = "O0";
  config.arch = arch;
  config.extra_flags = ub_warning_flags;
  const runners::CompileResult compile = runners::compile(toolchain, config, runners::Mode::syntax, file, dir.path(),
                                                          limits);
  const oracle::CompileObservation observation = oracle::observe_compile(compile);
  if (observation.outcome == oracle::CompileOutcome::accepted) return std::nullopt;
  for (const oracle::Diagnostic& diagnostic : observation.diagnostics)
    if (diagnostic.severity == oracle::Severity::error || diagnostic.severity == oracle::Severity::fatal)
      return diagnostic.message;
  return "clang -fsyntax-only: " + oracle::to_string(observation.outcome);
}

// ---- ScriptTest -------------------------------------------------------------------------

ScriptTest::ScriptTest(const std::filesystem::path& script, std::string file_name, double timeout_seconds)
    : script_(std::filesystem::absolute(script)), file_name_(std::move(file_name)), timeout_seconds_(timeout_seconds) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(script_, ec)) throw_environment("no such test script: " + script.string());
  if (::access(script_.c_str(), X_OK) != 0)
    throw_environment("test script " + script.string() + " is not executable (chmod +x it)");
}

bool ScriptTest::operator()(const std::string& candidate) const {
  TempDir dir("cudiff-reduce");
  write_file(dir.path() / file_name_, candidate);
  runners::Command command;
  command.argv = {script_.string()};
  command.cwd = dir.path();
  command.limits.wall_seconds = timeout_seconds_;
  command.limits.output_cap_bytes = kScriptOutputBytes;
  const runners::SubprocessResult result = runners::run_subprocess(command);
  if (!result.started) throw_environment("cannot run test script " + script_.string() + ": " + result.start_error);
  return result.exited_zero();
}

// ---- run partitions -----------------------------------------------------------------------

RunPartition run_partition(std::string_view kind, const boost::json::value& details) {
  // A metamorphic finding's split is of a variant against its original, not of configs.
  const bool run = oracle::is_run_kind(kind) && kind != oracle::to_string(oracle::FindingKind::metamorphic);
  const auto* object = details.if_object();
  if (!run || object == nullptr) return {};
  const auto names = [](const boost::json::value* list) {
    std::vector<std::string> out;
    if (list != nullptr && list->is_array())
      for (const auto& item : list->as_array())
        if (item.is_string()) out.emplace_back(item.as_string());
    std::ranges::sort(out);
    return out;
  };
  RunPartition partition;
  if (const auto* groups = object->if_contains("groups"); groups != nullptr && groups->is_array()) {
    for (const auto& group : groups->as_array())
      if (group.is_object()) partition.push_back(names(group.as_object().if_contains("configs")));
  } else {
    if (auto matching = names(object->if_contains("matching")); !matching.empty()) partition.push_back(matching);
    if (const auto* groups = object->if_contains("differing_groups"); groups != nullptr && groups->is_array())
      for (const auto& group : groups->as_array()) partition.push_back(names(&group));
  }
  std::erase_if(partition, [](const std::vector<std::string>& group) { return group.empty(); });
  std::ranges::sort(partition);
  return partition.size() > 1 ? partition : RunPartition{};
}

RunPartition run_partition(const oracle::Finding& finding) {
  return run_partition(oracle::to_string(finding.kind), boost::json::value(finding.details));
}

// ---- SignatureTest ----------------------------------------------------------------------

SignatureTest::SignatureTest(ReduceTarget target, CheckRequest check, const runners::Toolchain& toolchain,
                             const runners::GpuDiscovery& gpus, const ReduceRequest& request)
    : target_(std::move(target)), check_(std::move(check)), toolchain_(toolchain), gpus_(gpus),
      file_name_(request.file.filename().string()), sidecar_(request.sidecar) {}

void SignatureTest::use_prefilter(const TestCheck& original) {
  // Keyed as the target was (signatures_of): with the stage the bucket's attribution assumed,
  // as `triage reduce` checks (a crash nvcc names no tool for is keyed by the stage found).
  const oracle::Finding* finding = nullptr;
  const std::vector<triage::Signature> signatures = signatures_of(original);
  for (std::size_t i = 0; i < signatures.size() && i < original.verdict.findings.size(); ++i)
    if (signatures[i].key == target_.key) finding = &original.verdict.findings[i];
  if (!target_.partition.empty() && original.configs.size() > 2) {
    // The fastest config of each group, then the two fastest groups: most candidates that
    // still build have lost the difference, and two runs show it.
    std::vector<const ConfigCheck*> fastest;
    for (const std::vector<std::string>& group : target_.partition) {
      const ConfigCheck* best = nullptr;
      for (const ConfigCheck& check : original.configs)
        if (std::ranges::find(group, check.compile.config.name) != group.end() &&
            (best == nullptr || check.observation.seconds < best->observation.seconds))
          best = &check;
      if (best != nullptr) fastest.push_back(best);
    }
    std::ranges::sort(fastest, {}, [](const ConfigCheck* check) { return check->observation.seconds; });
    if (fastest.size() >= 2) run_pair_ = std::pair{fastest[0]->compile.config, fastest[1]->compile.config};
    return;
  }
  if (finding == nullptr ||
      (finding->kind != oracle::FindingKind::compile_status_mismatch &&
       finding->kind != oracle::FindingKind::false_rejection &&
       finding->kind != oracle::FindingKind::missed_diagnostic &&
       finding->kind != oracle::FindingKind::dialect_difference &&
       finding->kind != oracle::FindingKind::missed_by_all && finding->kind != oracle::FindingKind::crash))
    return;
  std::set<std::string> allowed;
  if (const auto* ids = finding->details.if_contains("rejected_error_ids"); ids != nullptr && ids->is_array())
    for (const auto& id : ids->as_array())
      if (id.is_string()) allowed.emplace(id.as_string());
  // The fastest config among those the finding is about.
  const ConfigCheck* fastest = nullptr;
  for (const ConfigCheck& check : original.configs) {
    if (std::ranges::find(finding->configs, check.compile.config.name) == finding->configs.end()) continue;
    if (fastest == nullptr || check.observation.seconds < fastest->observation.seconds) fastest = &check;
  }
  if (fastest == nullptr) return;
  // What the guilty config's compile did: the focus pass's oracle keeps it, even with one config.
  guilty_ = Prefilter{fastest->compile.config, fastest->observation.outcome, std::move(allowed),
                      fastest->observation.crash};
  if (original.configs.size() < 2) return;
  prefilter_ = guilty_;
  // A crash finding, and its key, are made from its one config's compile alone (the judge's
  // crash_finding, triage::signature_of): the other configs cannot change whether a candidate
  // shows it, so candidates are built with that config alone, the prefilter's build being the
  // whole check. The reduction's result is still checked with every config in the full mode.
  if (finding->kind == oracle::FindingKind::crash && finding->configs.size() == 1)
    std::erase_if(check_.configs, [&](const runners::Config& config) { return !(config == prefilter_->config); });
}

void SignatureTest::use_sanitizer_gate() {
  sanitizer_ = require_compute_sanitizer(toolchain_, "reducing a run mismatch");
}

std::optional<std::string> SignatureTest::ub_warning(const std::string& candidate, std::stop_token unused) const {
  std::string arch = "sm_90";
  for (const runners::Config& used : check_.configs)
    if (used.compiler == runners::CompilerKind::clang) arch = used.arch;
  runners::Limits limits = check_.compile_limits;
  limits.stop = unused;
  return undefined_behaviour_warning(toolchain_, candidate, file_name_, arch, limits);
}

TestCheck SignatureTest::check(const std::string& text, const std::filesystem::path& dir) const {
  return check(text, dir, check_);
}

TestCheck SignatureTest::check(const std::string& text, const std::filesystem::path& dir, CheckRequest request) const {
  // Written beside (not into) the build directory, as `cudiff check` would see the file.
  const std::filesystem::path file = dir / file_name_;
  write_file(file, text);
  request.input.name = file_name_;
  request.input.source = text;
  request.input.file = file;
  request.input.sidecar = sidecar_;
  const std::filesystem::path workdir = dir / "build";
  std::filesystem::create_directories(workdir);
  return check_test(request, toolchain_, gpus_, workdir);
}

std::optional<ConfigCheck> SignatureTest::prefilter(const std::filesystem::path& file, const std::filesystem::path& dir,
                                                    const std::string& text, const runners::Limits& limits) const {
  // Built the way check_test builds: a file without main() as an object.
  runners::Mode mode = check_.mode.value_or(runners::Mode::binary);
  if ((mode == runners::Mode::binary || mode == runners::Mode::run) && !defines_main(text))
    mode = runners::Mode::object;
  const std::filesystem::path workdir = dir / "prefilter";
  std::filesystem::create_directories(workdir);
  ConfigCheck check;
  check.compile = runners::compile(toolchain_, prefilter_->config, mode, file, workdir, limits);
  check.observation = oracle::observe_compile(check.compile);
  if (check.observation.outcome != prefilter_->outcome) return std::nullopt;
  if (check.observation.outcome == oracle::CompileOutcome::rejected &&
      !std::ranges::all_of(error_ids(check.observation),
                           [&](const std::string& id) { return prefilter_->allowed_error_ids.contains(id); }))
    return std::nullopt;
  return check;
}

bool SignatureTest::pair_still_differs(const std::string& candidate, const std::filesystem::path& dir,
                                       const CheckRequest& request) const {
  CheckRequest pair = request;
  pair.configs = {run_pair_->first, run_pair_->second};
  std::filesystem::create_directories(dir / "pair");
  const TestCheck run = check(candidate, dir / "pair", pair);
  const auto group_of = [](const RunPartition& partition, const std::string& name) {
    for (std::size_t i = 0; i < partition.size(); ++i)
      if (std::ranges::find(partition[i], name) != partition[i].end()) return static_cast<int>(i);
    return -1;
  };
  return std::ranges::any_of(run.verdict.findings, [&](const oracle::Finding& finding) {
    const RunPartition partition = run_partition(finding);
    const int first = group_of(partition, run_pair_->first.name), second = group_of(partition, run_pair_->second.name);
    return first >= 0 && second >= 0 && first != second;
  });
}

bool SignatureTest::operator()(const std::string& candidate, std::stop_token unused) const {
  // Every compile and run below is killed once `unused` is requested; a step it cut short
  // answers no (nobody reads it; TestCosts::time does not count it), and no later step starts.
  const CheckRequest request = stopped_by(check_, unused);
  if (sanitizer_ && !costs_->time("ub warnings", [&] { return !ub_warning(candidate, unused); }, unused)) return false;
  TempDir dir("cudiff-reduce");
  if (run_pair_ && !costs_->time("pair", [&] { return pair_still_differs(candidate, dir.path(), request); }, unused))
    return false;
  TestCheck run;
  std::pair<std::string, double> step;  // the check of every config (left), timed; whether it passed is known below
  if (prefilter_) {
    const std::filesystem::path file = dir.path() / file_name_;
    write_file(file, candidate);  // check() below writes the same text there again
    std::optional<ConfigCheck> first;
    if (!costs_->time(
            "prefilter",
            [&] {
              first = prefilter(file, dir.path(), candidate, request.compile_limits);
              return first.has_value();
            },
            unused))
      return false;
    // The other configs are built as check_test builds them, and the prefilter's compile
    // takes its place among them: the verdict is the one `cudiff check` would give.
    CheckRequest rest = request;
    std::erase(rest.configs, prefilter_->config);
    const auto start = std::chrono::steady_clock::now();
    run = check(candidate, dir.path(), rest);
    step = {"other configs", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()};
    oracle::Observations observations;
    std::vector<ConfigCheck> configs;
    for (const runners::Config& config : check_.configs) {
      if (config == prefilter_->config) {
        configs.push_back(*first);
        continue;
      }
      for (ConfigCheck& built : run.configs)
        if (built.compile.config == config) configs.push_back(std::move(built));
    }
    run.configs = std::move(configs);
    for (const ConfigCheck& built : run.configs) observations.compiles.push_back(built.observation);
    observations.expected = run.expected;
    run.verdict = oracle::judge(observations, oracle::JudgeOptions{check_.warnings});
  } else {
    const auto start = std::chrono::steady_clock::now();
    run = check(candidate, dir.path(), request);
    step = {"check", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()};
  }
  const std::vector<triage::Signature> found = signatures_of(run);
  const bool same = target_.partition.empty()
                        ? std::ranges::any_of(found, [&](const triage::Signature& s) { return s.key == target_.key; })
                        : std::ranges::any_of(run.verdict.findings, [&](const oracle::Finding& f) {
                            return run_partition(f) == target_.partition;
                          });
  if (unused.stop_requested()) return false;  // a step was cut short: its verdict says nothing
  costs_->add(step.first, step.second, same);
  if (!same) return false;
  return !sanitizer_ || costs_->time("sanitizer", [&] { return sanitizer_clean(run, candidate, unused); }, unused);
}

/// Both compilers' binaries under every compute-sanitizer tool that can object to the
/// candidate (sanitizer_tools_for: memcheck for out of bounds, initcheck for uninitialized
/// global memory — a deleted `cudaMemcpy` —, racecheck for shared-memory races — a deleted
/// `__syncthreads()` — and synccheck for barrier misuse). Any of them failing means the
/// candidate's different result may have a reason that is no compiler bug. Only candidates
/// that already show the signature get here; the two binaries run side by side, since the
/// reduction waits on the first candidate in order. Unlike the campaign's gate, a run that
/// proves nothing (a timeout, no summary) rejects the candidate too: the reduction must keep
/// only what is known to be clean.
bool SignatureTest::sanitizer_clean(const TestCheck& run, const std::string& candidate, std::stop_token unused) const {
  std::vector<const ConfigCheck*> binaries;
  for (runners::CompilerKind compiler : {runners::CompilerKind::nvcc, runners::CompilerKind::clang})
    for (const ConfigCheck& check : run.configs)
      if (check.compile.config.compiler == compiler && !check.compile.artifact.empty() && check.run) {
        binaries.push_back(&check);
        break;
      }
  runners::Limits limits = check_.run_limits;
  limits.wall_seconds *= kSanitizerTimeFactor;
  limits.stop = unused;
  for (SanitizerTool tool : sanitizer_tools_for(candidate, sidecar_)) {
    std::vector<std::future<SanitizerRun>> runs;
    for (const ConfigCheck* built : binaries)
      runs.push_back(std::async(std::launch::async, [&, built, tool] {
        return run_sanitizer(*sanitizer_, tool, built->compile.config.name, built->compile.artifact, gpus_.gpus.front(),
                             limits);
      }));
    bool all_clean = true;
    for (std::future<SanitizerRun>& done : runs) all_clean = done.get().clean() && all_clean;
    if (!all_clean) return false;
  }
  return true;
}

} // namespace cudiff::pipeline
