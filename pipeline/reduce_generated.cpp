// pipeline: a wrong-code finding of a generated program reduced at the generator's IR level
// before the text passes (docs/reducer.md, "Reducing a generated program"): each candidate is
// a whole program with the interpreter's prediction, built with the finding's configs and run
// on the GPU; it is kept while the guilty configs still print another checksum than the
// prediction, the others print the prediction, the configs split as the finding split them,
// and compute-sanitizer is clean on the reference config's binary.
#include "pipeline/reduce_generated.h"
#include "pipeline/check_parts.h"
#include "pipeline/sanitizer_parts.h"
#include "pipeline/test_costs.h"

#include <algorithm>
#include <future>
#include <ostream>
#include <sstream>

#include <unistd.h>

namespace cudiff::pipeline {
namespace {

/// The checksum each kernel printed, from a clean run; none for a run that failed, printed a
/// CUDA error or was cut short.
std::optional<std::map<std::string, std::string>> printed_checksums(const ConfigCheck& check) {
  if (!check.run || check.run->exit_code != 0 || !check.run->cuda_errors.empty() || check.run->output_truncated)
    return std::nullopt;
  std::map<std::string, std::string> printed;
  for (const std::string& line : check.run->output_lines) {
    std::istringstream words(line);
    std::string word, kernel, value;
    if (words >> word >> kernel >> value && word == "checksum") printed[kernel] = value;
  }
  return printed;
}

/// Whether a clean run printed exactly the prediction (true), another checksum for some
/// kernel (false), or failed (none).
std::optional<bool> prints_prediction(const ConfigCheck& check, const generator::Sidecar& sidecar) {
  const auto printed = printed_checksums(check);
  if (!printed) return std::nullopt;
  for (const generator::Sidecar::Kernel& kernel : *sidecar.kernels) {
    const auto found = printed->find(kernel.name);
    if (found == printed->end()) return std::nullopt;
    if (found->second != kernel.expected_checksum) return false;
  }
  return true;
}

/// The IR reduction's test, one candidate at a time (thread-safe).
class WrongCodeTest {
public:
  WrongCodeTest(const IrReduceRequest& request, const runners::Toolchain& toolchain, const runners::GpuDiscovery& gpus,
                std::ostream& err)
      : request_(request), toolchain_(toolchain), gpus_(gpus),
        sanitizer_(require_compute_sanitizer(toolchain, "reducing a wrong-code finding")) {
    for (const std::vector<std::string>& group : request.partition)
      if (group != request.reference) guilty_.insert(guilty_.end(), group.begin(), group.end());
    if (guilty_.empty() || request.reference.empty())
      throw_usage("the IR reduction needs a finding whose configs split into a reference and a guilty side");
    // A compile-only config (built for another GPU) prints nothing here: it cannot print the
    // prediction, so held to it every candidate, the original first, would fail. It is no
    // part of the finding's split either (that is of the configs that ran).
    for (const runners::Config& config : request.check.configs) {
      if (runners::runs_on(config, gpus.gpus.front())) configs_.push_back(config);
      else
        err << "ir-reduce: " << config.name << " is compile-only on " << gpus.gpus.front().describe()
            << ": left out of the IR stage's test\n";
    }
    executor_ = request.check.executor ? request.check.executor : own_executors(toolchain, gpus, request.options.jobs);
  }

  /// The differential part: the guilty configs print another checksum than the prediction, the
  /// reference ones print it, the verdict splits the configs as the finding did. A candidate is
  /// kept when confirm() passes too.
  bool operator()(const generator::TestCase& candidate, std::stop_token unused = {}) const {
    TempDir dir("cudiff-ir-reduce");
    // The first guilty config alone first: most candidates lose the bug there, at one build.
    TestCheck first;
    // A test whose result will not be read (another edit was kept) has its compiles and runs
    // killed (check() puts `unused` in their limits) and answers no (TestCosts::time).
    if (!costs_->time(
            "first config",
            [&] {
              first = check(candidate, dir.path() / "first", {guilty_.front()}, unused);
              return !first.configs.empty() && prints_prediction(first.configs.front(), candidate.sidecar) == false;
            },
            unused))
      return false;
    std::vector<std::string> rest;
    for (const runners::Config& config : configs_)
      if (config.name != guilty_.front()) rest.push_back(config.name);
    return costs_->time(
        "other configs",
        [&] {
          const TestCheck run = check(candidate, dir.path() / "rest", rest, unused);
          for (const ConfigCheck& built : run.configs) {
            const bool reference = std::ranges::find(request_.reference, built.compile.config.name) !=
                                   request_.reference.end();
            if (prints_prediction(built, candidate.sidecar) != reference) return false;
          }
          // The guilty configs among themselves split as the finding split them.
          std::vector<ConfigCheck> all = run.configs;
          all.push_back(first.configs.front());
          return guilty_split(all) == request_.partition;
        },
        unused);
  }

  /// The reference config's program, built whole, is clean under every compute-sanitizer tool
  /// the candidate needs. Run only for the edit about to be kept (IrOptions::confirm): the
  /// stage's costliest step (8.4 s a candidate on an H100, against 4.1 s for the builds and runs).
  bool confirm(const generator::TestCase& candidate) const {
    return costs_->time("sanitizer", [&] { return sanitizer_clean(candidate); });
  }

  /// What the test's steps cost so far (TestCosts::summary).
  std::string costs() const { return costs_->summary(); }

private:
  TestCheck check(const generator::TestCase& candidate, const std::filesystem::path& dir,
                  const std::vector<std::string>& configs, std::stop_token unused) const {
    std::filesystem::create_directories(dir / "build");
    CheckRequest request = stopped_by(request_.check, unused);
    request.configs = configs_;
    request.mode = runners::Mode::run;
    // A candidate is a generated program with its launch plans: each front end once, ptxas per
    // config, the cubins launched in the executors (check_test builds it whole where it cannot:
    // host code, a kernel without a plan, a run that fails). Half the CPU of whole builds, on
    // every candidate; the sanitizer builds the reference's program (sanitizer_clean).
    request.build_path = BuildPath::device;
    request.executor = executor_;
    std::erase_if(request.configs, [&](const runners::Config& config) {
      return std::ranges::find(configs, config.name) == configs.end();
    });
    const std::filesystem::path file = dir / (candidate.name + ".cu");
    write_file(file, candidate.source);
    request.input.name = file.filename().string();
    request.input.source = candidate.source;
    request.input.file = file;
    request.input.sidecar = candidate.sidecar;
    return check_test(request, toolchain_, gpus_, dir / "build");
  }

  /// The configs grouped by what they printed, each group sorted, the groups sorted.
  static RunPartition guilty_split(const std::vector<ConfigCheck>& checks) {
    std::map<std::map<std::string, std::string>, std::vector<std::string>> groups;
    for (const ConfigCheck& check : checks)
      groups[printed_checksums(check).value_or(std::map<std::string, std::string>{})].push_back(
          check.compile.config.name);
    RunPartition split;
    for (auto& [printed, names] : groups) {
      std::ranges::sort(names);
      split.push_back(names);
    }
    std::ranges::sort(split);
    return split;
  }

  /// The program a person runs, whatever the candidates' runs were built as (cubins on the device
  /// path, shared objects in an executor): the first reference config's executable.
  bool sanitizer_clean(const generator::TestCase& candidate) const {
    const auto reference = std::ranges::find_if(configs_, [&](const runners::Config& config) {
      return std::ranges::find(request_.reference, config.name) != request_.reference.end();
    });
    if (reference == configs_.end()) return false;
    TempDir dir("cudiff-ir-sanitize");
    const std::filesystem::path file = dir.path() / (candidate.name + ".cu");
    write_file(file, candidate.source);
    const runners::CompileResult whole = runners::compile(toolchain_, *reference, runners::Mode::binary, file,
                                                          dir.path(), request_.check.compile_limits);
    if (whole.artifact.empty()) return false;
    return sanitizer_clean(whole.artifact, reference->name, candidate);
  }

  /// Every tool the program needs on `binary`, side by side: clean under all of them.
  bool sanitizer_clean(const std::filesystem::path& binary, const std::string& config,
                       const generator::TestCase& candidate) const {
    runners::Limits limits = request_.check.run_limits;
    limits.wall_seconds *= kSanitizerTimeFactor;
    std::vector<std::future<SanitizerRun>> runs;
    for (SanitizerTool tool : sanitizer_tools_for(candidate.source, candidate.sidecar))
      runs.push_back(std::async(std::launch::async, [&, tool] {
        return run_sanitizer(sanitizer_, tool, config, binary, gpus_.gpus.front(), limits);
      }));
    bool clean = true;
    for (std::future<SanitizerRun>& run : runs) clean = run.get().clean() && clean;
    return clean;
  }

  /// The first GPU's executors for the candidates' runs, `jobs` of them (at most 8: each holds a
  /// CUDA context); none without cudiff-executor (every run is then a process).
  std::shared_ptr<runners::ExecutorPool> own_executors(const runners::Toolchain& toolchain,
                                                       const runners::GpuDiscovery& gpus, std::size_t jobs) const {
    const auto program = runners::find_executor_program();
    if (!program) return nullptr;
    runners::ExecutorSetup setup;
    setup.program = *program;
    setup.cudart = runners::find_cudart(toolchain.cuda_home).value_or(std::filesystem::path{});
    setup.gpu = gpus.gpus.front();
    setup.workdir = executor_dir_.path();
    setup.slots = std::clamp<std::size_t>(jobs, 1, kIrExecutors);
    return std::make_shared<runners::ExecutorPool>(setup);
  }

  const IrReduceRequest& request_;
  const runners::Toolchain& toolchain_;
  const runners::GpuDiscovery& gpus_;
  std::filesystem::path sanitizer_;
  std::vector<std::string> guilty_;
  std::vector<runners::Config> configs_;  ///< the request's that run on the GPU
  SharedTestCosts costs_ = std::make_shared<TestCosts>();
  TempDir executor_dir_{"cudiff-ir-executors"};  ///< before executor_: the pool ends first
  std::shared_ptr<runners::ExecutorPool> executor_;
};

} // namespace

IrReduction reduce_generated(const IrReduceRequest& request, const runners::Toolchain& toolchain,
                             const runners::GpuDiscovery& gpus, std::ostream& err) {
  if (gpus.gpus.empty()) throw_environment("reducing a wrong-code finding needs a GPU: " + gpus.note);
  const WrongCodeTest test(request, toolchain, gpus, err);
  generator::ProgramReduction reduction(request.origin.policy, request.origin.seed, request.origin.size,
                                        request.origin.variant);
  if (!test(reduction.current()) || !test.confirm(reduction.current()))
    throw_usage("seed " + std::to_string(request.origin.seed) +
                "'s program does not show the finding again with its prediction: nothing to reduce at the IR level");
  IrOptions options = request.options;
  options.confirm = [&test](const generator::TestCase& candidate) { return test.confirm(candidate); };
  IrReduction result = reduce_ir(
      reduction,
      [&test](const generator::TestCase& candidate, std::stop_token unused) { return test(candidate, unused); },
      options, err);
  ++result.tests;  // the start's
  err << "ir-reduce: test steps: " << test.costs() << "\n" << std::flush;
  return result;
}

} // namespace cudiff::pipeline
