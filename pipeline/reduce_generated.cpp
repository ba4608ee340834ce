// pipeline: a wrong-code finding of a generated program reduced at the generator's IR level
// before the text passes (docs/reducer.md, "Reducing a generated program"): each candidate is
// a whole program with the interpreter's prediction, built with the finding's configs and run
// on the GPU; it is kept while the guilty configs still print another checksum than the
// prediction, the others print the prediction, the configs split as the finding split them,
// and compute-sanitizer is clean on the reference config's binary.
#include "pipeline/reduce_generated.h"
#include "pipeline/sanitizer_parts.h"

#include <algorithm>
#include <future>
#include <ostream>
#include <sstream>

#include <unistd.h>

namespace cudiff::pipeline {
namespace {

/// The value of a `// key: value` line of a generated program's header; "" when absent.
std::string header_value(const std::string& source, const std::string& key) {
  std::istringstream lines(source);
  std::string line;
  const std::string prefix = "// " + key + ": ";
  for (int n = 0; n < 8 && std::getline(lines, line); ++n)
    if (line.starts_with(prefix)) return line.substr(prefix.size());
  return "";
}

/// The variant a finding's differing kernel belongs to: "s<seed>v<j>/kernel_0" gives j.
int variant_of_finding(const triage::StoredFinding& finding) {
  const auto* object = finding.details.if_object();
  const auto* kernels = object == nullptr ? nullptr : object->if_contains("differing_kernels");
  if (kernels == nullptr || !kernels->is_array() || kernels->as_array().empty() ||
      !kernels->as_array().front().is_string())
    return 0;
  const std::string label(kernels->as_array().front().as_string());
  const std::size_t v = label.find('v'), slash = label.find('/');
  if (v == std::string::npos || slash == std::string::npos || v > slash) return 0;
  try {
    return std::stoi(label.substr(v + 1, slash - v - 1));
  } catch (const std::exception&) {
    return 0;
  }
}

/// A finding's stored campaign parameters, as far as they name the generator's input.
struct GeneratorParams {
  std::optional<generator::Policy> policy;
  int variants = 0;
};

GeneratorParams generator_params(const triage::Database& db, const std::string& campaign_id) {
  GeneratorParams params;
  const std::optional<std::string> text = db.campaign_params(campaign_id);
  if (!text) return params;
  boost::system::error_code ec;
  const boost::json::value json = boost::json::parse(*text, ec);
  const auto* object = ec ? nullptr : json.if_object();
  if (object == nullptr) return params;
  if (const auto* policy = object->if_contains("policy"); policy != nullptr && policy->is_string())
    params.policy = generator::Policy::load(policy->as_string());
  if (const auto* variants = object->if_contains("variants"); variants != nullptr && variants->is_int64())
    params.variants = static_cast<int>(variants->as_int64());
  return params;
}

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
  WrongCodeTest(const IrReduceRequest& request, const runners::Toolchain& toolchain, const runners::GpuDiscovery& gpus)
      : request_(request), toolchain_(toolchain), gpus_(gpus),
        sanitizer_(require_compute_sanitizer(toolchain, "reducing a wrong-code finding")) {
    for (const std::vector<std::string>& group : request.partition)
      if (group != request.reference) guilty_.insert(guilty_.end(), group.begin(), group.end());
    if (guilty_.empty() || request.reference.empty())
      throw_usage("the IR reduction needs a finding whose configs split into a reference and a guilty side");
  }

  /// Kept: the guilty configs print another checksum than the prediction, the reference ones
  /// print it, the verdict splits the configs as the finding did, the reference is clean.
  bool operator()(const generator::TestCase& candidate) const {
    TempDir dir("cudiff-ir-reduce");
    // The first guilty config alone first: most candidates lose the bug there, at one build.
    const TestCheck first = check(candidate, dir.path() / "first", {guilty_.front()});
    if (first.configs.empty() || prints_prediction(first.configs.front(), candidate.sidecar) != false) return false;
    std::vector<std::string> rest;
    for (const runners::Config& config : request_.check.configs)
      if (config.name != guilty_.front()) rest.push_back(config.name);
    const TestCheck run = check(candidate, dir.path() / "rest", rest);
    for (const ConfigCheck& built : run.configs) {
      const bool reference = std::ranges::find(request_.reference, built.compile.config.name) !=
                             request_.reference.end();
      if (prints_prediction(built, candidate.sidecar) != reference) return false;
    }
    // The guilty configs among themselves split as the finding split them.
    std::vector<ConfigCheck> all = run.configs;
    all.push_back(first.configs.front());
    if (guilty_split(all) != request_.partition) return false;
    return sanitizer_clean(run, candidate);
  }

private:
  TestCheck check(const generator::TestCase& candidate, const std::filesystem::path& dir,
                  const std::vector<std::string>& configs) const {
    std::filesystem::create_directories(dir / "build");
    CheckRequest request = request_.check;
    request.mode = runners::Mode::run;
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

  bool sanitizer_clean(const TestCheck& run, const generator::TestCase& candidate) const {
    const ConfigCheck* reference = nullptr;
    for (const ConfigCheck& built : run.configs)
      if (reference == nullptr && !built.compile.artifact.empty() &&
          std::ranges::find(request_.reference, built.compile.config.name) != request_.reference.end())
        reference = &built;
    if (reference == nullptr) return false;
    runners::Limits limits = request_.check.run_limits;
    limits.wall_seconds *= kSanitizerTimeFactor;
    for (SanitizerTool tool : sanitizer_tools_for(candidate.source, candidate.sidecar))
      if (!run_sanitizer(sanitizer_, tool, reference->compile.config.name, reference->compile.artifact,
                         gpus_.gpus.front(), limits)
               .clean())
        return false;
    return true;
  }

  const IrReduceRequest& request_;
  const runners::Toolchain& toolchain_;
  const runners::GpuDiscovery& gpus_;
  std::filesystem::path sanitizer_;
  std::vector<std::string> guilty_;
};

std::size_t line_count(const std::string& text) { return static_cast<std::size_t>(std::ranges::count(text, '\n')); }

} // namespace

std::optional<GeneratedOrigin> generated_origin(const triage::Database& db, const triage::StoredFinding& finding,
                                                std::string& why_not) {
  const std::string& source = finding.source;
  const std::string version = header_value(source, "generator version");
  if (version.empty()) {
    why_not = "not a generated program";
    return std::nullopt;
  }
  if (version != generator::kGeneratorVersion) {
    why_not = "made by generator " + version + ", this is " + std::string(generator::kGeneratorVersion);
    return std::nullopt;
  }
  const bool batch = source.starts_with("// cudiff generated batch");
  const std::string seeds = header_value(source, batch ? "seeds" : "seed");
  if (seeds.empty() || seeds.find(' ') != std::string::npos) {
    why_not = "not the program of one seed";
    return std::nullopt;
  }
  GeneratedOrigin origin;
  try {
    origin.seed = std::stoull(seeds);
    origin.size = generator::parse_size(header_value(source, "size"));
    GeneratorParams params = generator_params(db, finding.campaign_id);
    origin.policy = params.policy.value_or(generator::Policy::defaults());
    if (origin.policy.hash() != header_value(source, "policy hash")) {
      why_not = "its policy is not stored with its campaign";
      return std::nullopt;
    }
    origin.variant = variant_of_finding(finding);
    // Only a program the generator makes again byte for byte is reduced from its IR.
    const std::string again =
        batch ? generator::generate_batch(origin.policy, {origin.seed}, origin.size, params.variants).source
              : generator::generate_program(origin.policy, origin.seed, origin.size).source;
    if (again != source) {
      why_not = "the generator does not make the same program again";
      return std::nullopt;
    }
  } catch (const Error& error) {
    why_not = error.what();
    return std::nullopt;
  }
  return origin;
}

IrReduction reduce_generated(const IrReduceRequest& request, const runners::Toolchain& toolchain,
                             const runners::GpuDiscovery& gpus, std::ostream& err) {
  if (gpus.gpus.empty()) throw_environment("reducing a wrong-code finding needs a GPU: " + gpus.note);
  const WrongCodeTest test(request, toolchain, gpus);
  generator::ProgramReduction reduction(request.origin.policy, request.origin.seed, request.origin.size,
                                        request.origin.variant);
  IrReduction result;
  result.original_lines = line_count(reduction.current().source);
  const double started = unix_seconds();
  auto elapsed = [&] { return unix_seconds() - started; };
  auto out_of_time = [&] { return request.time_limit_seconds > 0 && elapsed() >= request.time_limit_seconds; };
  if (!test(reduction.current()))
    throw_usage("seed " + std::to_string(request.origin.seed) +
                "'s program does not show the finding again with its prediction: nothing to reduce at the IR level");
  ++result.tests;
  const bool terminal = ::isatty(STDERR_FILENO) == 1;
  double last_progress = -1e9;
  auto progress = [&](std::size_t edit) {
    if (!terminal && elapsed() - last_progress < 10) return;
    last_progress = elapsed();
    const std::string line = "ir-reduce: " + std::to_string(result.original_lines) + " -> " +
                             std::to_string(line_count(reduction.current().source)) + " lines | edit " +
                             std::to_string(edit) + "/" + std::to_string(reduction.edits()) + " | " +
                             std::to_string(result.accepted) + " accepted, " + std::to_string(result.tests) +
                             " tests | " + format_seconds(elapsed());
    if (terminal) err << "\r" << line << "\x1b[K" << std::flush;
    else err << line << "\n" << std::flush;
  };
  const std::size_t jobs = std::max<std::size_t>(1, request.jobs);
  for (bool progressed = true; progressed && !out_of_time();) {
    progressed = false;
    ++result.rounds;
    for (std::size_t next = 0; next < reduction.edits() && !out_of_time();) {
      // The next `jobs` edits that change something, tested side by side; the first kept one
      // in order wins, as a sequential run would have taken it.
      std::vector<std::pair<std::size_t, generator::TestCase>> window;
      for (; next < reduction.edits() && window.size() < jobs; ++next)
        if (std::optional<generator::TestCase> candidate = reduction.candidate(next))
          window.emplace_back(next, std::move(*candidate));
      std::vector<std::future<bool>> verdicts;
      for (const auto& [edit, candidate] : window)
        verdicts.push_back(std::async(std::launch::async, [&test, &candidate] { return test(candidate); }));
      std::optional<std::size_t> kept;
      for (std::size_t i = 0; i < verdicts.size(); ++i) {
        const bool interesting = verdicts[i].get();
        ++result.tests;
        if (interesting && !kept) kept = i;
      }
      progress(next);
      if (!kept) continue;
      const std::size_t edit = window[*kept].first;
      result.log.push_back(reduction.describe(edit));
      reduction.accept(edit);
      ++result.accepted;
      progressed = true;
      next = edit;  // the same number names the next edit now
      if (request.on_improvement) request.on_improvement(reduction.current());
    }
  }
  if (terminal) err << "\n";
  for (const std::string& edit : result.log) err << "ir-reduce: kept " << edit << "\n";
  result.stopped_early = out_of_time();
  result.seconds = elapsed();
  result.program = reduction.current();
  return result;
}

} // namespace cudiff::pipeline
