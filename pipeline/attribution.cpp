// pipeline: stage attribution — a finding rebuilt with stages swapped until the guilty stage
// is named (docs/pipeline.md, "Stage attribution"). The rules are in attribution_decide.cpp;
// this file builds, runs and gathers the evidence.
#include "pipeline/attribution_parts.h"

#include <algorithm>
#include <map>

namespace cudiff::pipeline {
namespace {

using attribution::Decision;
using attribution::OddConfig;
using attribution::SwapResult;

/// Two configs that build the same thing, whatever they are called.
bool same_build(runners::Config a, const runners::Config& b) {
  a.name = b.name;
  a.arch_fixed = b.arch_fixed;
  return a == b;
}

std::string first_line(std::string_view text) {
  for (const std::string& line : split(std::string(text), '\n'))
    if (!trim(line).empty()) return std::string(trim(line));
  return {};
}

/// The config with ptxas at `level`; no explicit level when it is the one the config's own
/// level implies (so nvcc-O3-ptxas0 swapped is exactly nvcc-O3).
runners::Config with_ptxas_level(runners::Config config, const std::string& level) {
  config.ptxas_opt_level.clear();
  if (runners::ptxas_level(config) != level) config.ptxas_opt_level = level;
  config.name += "+ptxas-" + level;
  return config;
}

/// A PTX-only config's twin with SASS from ptxas (nvcc-O3 for nvcc-O3-jit), or an rdc
/// config's twin without separate compilation (nvcc-O3 for nvcc-O3-rdc).
runners::Config twin_of(runners::Config config) {
  const auto strip = [&](std::string_view suffix) {
    config.name = config.name.ends_with(suffix) ? config.name.substr(0, config.name.size() - suffix.size())
                                                : config.name + "-twin";
  };
  if (runners::ptx_only(config)) {
    config.arch = "sm_" + config.arch.substr(std::string("compute_").size());
    strip("-jit");
  } else {
    std::erase_if(config.extra_flags,
                  [](const std::string& flag) { return flag == "-rdc=true" || flag == "-fgpu-rdc"; });
    strip("-rdc");
  }
  return config;
}

/// The same config with PTX only, so that the driver's JIT assembles the PTX ptxas did.
runners::Config driver_jit_of(runners::Config config) {
  config.arch = "compute_" + config.arch.substr(std::string("sm_").size());
  config.ptxas_opt_level.clear();
  config.name += "+driver-jit";
  return config;
}

class Attributor {
public:
  Attributor(const AttributionRequest& request, const runners::Toolchain& toolchain, const runners::GpuInfo& gpu,
             const std::filesystem::path& workdir)
      : request_(request), toolchain_(toolchain), gpu_(gpu), workdir_(workdir) {}

  StageAttribution run_side(const oracle::Finding& finding) {
    gather_baseline();
    std::vector<oracle::RunObservation> runs;
    for (const auto& [name, run] : baseline_) runs.push_back(run);
    reference_ = attribution::reference_of(runs, request_.input.sidecar);
    // Host-only first: equal device results need no reference, so two configs that split
    // evenly over a host line are still the host compiler's.
    if (attribution::host_only_difference(runs, reference_)) {
      note("outputs as found", names_of(runs), "host lines differ", host_line(runs));
      set(attribution::decide_finding({}, true, false));
      return std::move(result_);
    }
    if (!reference_.usable()) {
      // No reference, but a config and its ptxas twin that differ need none.
      if (!twin_rule()) result_.why = "no reference: the configs split evenly and no output is predicted";
      return std::move(result_);
    }
    std::vector<Decision> decisions;
    for (const runners::Config& config : request_.configs) {
      auto found = baseline_.find(config.name);
      if (found == baseline_.end() || reference_.right(found->second)) continue;
      odd_line_ = reference_.differing_line(found->second);
      note(config.name + " as found, against " + reference_.describe(), {config.name}, "wrong", odd_line_);
      decisions.push_back(attribution::decide_config(swaps_of(config)));
    }
    set(attribution::decide_finding(decisions, false, finding.kind == oracle::FindingKind::common_wrong_code));
    if (result_.stage == oracle::Stage::unknown) twin_rule();
    return std::move(result_);
  }

private:
  struct Built {
    SwapResult outcome = SwapResult::not_run;
    std::string line;
    std::optional<oracle::RunObservation> run;
  };

  void set(const Decision& decision) {
    result_.stage = decision.stage;
    result_.why = decision.why;
  }

  void note(std::string swap, std::vector<std::string> configs, std::string outcome, std::string line) {
    result_.evidence.push_back(StageSwap{std::move(swap), std::move(configs), std::move(outcome), std::move(line)});
  }

  static std::vector<std::string> names_of(const std::vector<oracle::RunObservation>& runs) {
    std::vector<std::string> names;
    for (const auto& run : runs) names.push_back(run.config);
    return names;
  }

  /// The first output line where the runs part (they agree on every checksum line).
  static std::string host_line(const std::vector<oracle::RunObservation>& runs) {
    for (const auto& run : runs)
      for (std::size_t i = 0; i < run.output_lines.size(); ++i)
        if (i >= runs.front().output_lines.size() || run.output_lines[i] != runs.front().output_lines[i])
          return run.config + ": " + run.output_lines[i];
    return {};
  }

  std::filesystem::path source_file() {
    if (request_.input.file) return *request_.input.file;
    if (source_.empty()) {
      std::error_code ec;
      std::filesystem::create_directories(workdir_, ec);  // a failure shows in write_file
      source_ = workdir_ / request_.input.name;
      write_file(source_, request_.input.source);
    }
    return source_;
  }

  /// The check's runs when given, else every config rebuilt and run on this GPU.
  void gather_baseline() {
    for (const oracle::RunObservation& run : request_.runs) baseline_[run.config] = run;
    if (!baseline_.empty()) return;
    for (const runners::Config& config : request_.configs) {
      Built built = build_and_run(config);
      if (built.run) baseline_[config.name] = *built.run;
    }
  }

  Built build_and_run(const runners::Config& config) {
    Built built;
    if (!runners::runs_on(config, gpu_)) {
      built.line = config.arch + " code does not run on " + gpu_.describe();
      return built;
    }
    ++result_.builds;
    const runners::CompileResult compile = runners::compile(toolchain_, config, runners::Mode::binary, source_file(),
                                                            workdir_, request_.compile_limits);
    const oracle::CompileObservation observed = oracle::observe_compile(compile);
    if (observed.outcome != oracle::CompileOutcome::accepted || compile.artifact.empty()) {
      built.outcome = SwapResult::build_failed;
      const oracle::Diagnostic* error = observed.first_error();
      built.line = error != nullptr ? error->message : compile.process.status_text();
      return built;
    }
    const runners::SubprocessResult process = runners::execute(compile.artifact, request_.run_limits,
                                                               gpu_.visible_device, workdir_ / config.name);
    built.run = oracle::observe_run(config.name, process);
    return built;
  }

  /// `config` as the reference judges it: from the baseline when a config there builds the
  /// same thing, else rebuilt. Noted as evidence under `swap`.
  SwapResult judged(const runners::Config& config, const std::string& swap, const std::string& odd) {
    Built built;
    for (const runners::Config& known : request_.configs)
      if (same_build(config, known) && baseline_.count(known.name)) {
        built.run = baseline_.at(known.name);
        built.outcome = SwapResult::not_run;
      }
    if (!built.run) built = build_and_run(config);
    if (built.run) {
      built.outcome = reference_.right(*built.run) ? SwapResult::right : SwapResult::still_wrong;
      built.line = built.outcome == SwapResult::right ? matching_line(*built.run)
                                                      : reference_.differing_line(*built.run);
      if (built.run->config != config.name) built.line = "(" + built.run->config + ") " + built.line;
    }
    note(swap, {odd}, attribution::to_string(built.outcome), built.line);
    return built.outcome;
  }

  /// In a right run, the line that stands where the odd config's wrong line stood: the same
  /// kernel's checksum line, else the first line.
  std::string matching_line(const oracle::RunObservation& run) const {
    const std::vector<std::string> words = split(odd_line_, ' ');
    if (words.size() == 3 && words[0] == "checksum")
      for (const std::string& line : run.output_lines)
        if (line.starts_with("checksum " + words[1] + " ")) return line;
    return run.output_lines.empty() ? run.status_text : run.output_lines.front();
  }

  /// The twin rule (attribution::decide_twins): the first config among the finding's whose
  /// ptxas twin is among them too and printed something else. The same PTX then goes through
  /// ptxas's other levels (and, for nvcc, the driver's JIT) to tell which level is odd. False
  /// when no such pair exists; nothing is set then.
  bool twin_rule() {
    for (const runners::Config& config : request_.configs)
      for (const runners::Config& twin : request_.configs) {
        const std::string level = runners::ptxas_level(config), twin_level = runners::ptxas_level(twin);
        if (&config == &twin || level.empty() || twin_level.empty() || level <= twin_level) continue;
        if (!same_build(with_ptxas_level(config, twin_level), twin)) continue;
        const auto run = baseline_.find(config.name), twin_run = baseline_.find(twin.name);
        if (run == baseline_.end() || twin_run == baseline_.end()) continue;
        if (attribution::same_behaviour(run->second, twin_run->second)) continue;
        note(config.name + " against its ptxas twin " + twin.name, {config.name, twin.name}, "differ",
             config.name + ": " + differing_output(run->second, twin_run->second) + " / " + twin.name + ": " +
                 differing_output(twin_run->second, run->second));
        attribution::PtxasTwins twins{config.name, level, twin.name, twin_level, {}};
        const auto side_of = [&](const Built& built) -> std::optional<bool> {
          if (!built.run) return std::nullopt;
          if (attribution::same_behaviour(*built.run, run->second)) return true;
          if (attribution::same_behaviour(*built.run, twin_run->second)) return false;
          return std::nullopt;
        };
        const auto other = [&](const runners::Config& rebuilt, const std::string& name, const std::string& at) {
          const Built built = build_and_run(rebuilt);
          const std::optional<bool> side = side_of(built);
          twins.others.push_back({name, at, side});
          // The line that shows the side it took: where it departs from the other twin.
          const oracle::RunObservation& against = side && !*side ? run->second : twin_run->second;
          note(config.name + "'s PTX through " + name, {config.name},
               side ? (*side ? "as " + config.name : "as " + twin.name)
                    : (built.run ? "neither" : attribution::to_string(built.outcome)),
               built.run ? differing_output(*built.run, against) : built.line);
        };
        for (const std::string& third : {"O0", "O1", "O2", "O3"})
          if (third != level && third != twin_level) other(with_ptxas_level(config, third), "ptxas -" + third, third);
        if (config.compiler == runners::CompilerKind::nvcc && !runners::relocatable_device_code(config) &&
            config.arch.starts_with("sm_"))
          other(driver_jit_of(config), "the driver's JIT", "");
        set(attribution::decide_twins(twins));
        return true;
      }
    return false;
  }

  /// The first line of `run` that `other` does not print in the same place (else how it
  /// ended): what tells twins apart.
  static std::string differing_output(const oracle::RunObservation& run, const oracle::RunObservation& other) {
    for (std::size_t i = 0; i < run.output_lines.size(); ++i)
      if (i >= other.output_lines.size() || run.output_lines[i] != other.output_lines[i]) return run.output_lines[i];
    return run.status_text;
  }

  OddConfig swaps_of(const runners::Config& config) {
    OddConfig odd;
    odd.config = config.name;
    odd.ptx_only = runners::ptx_only(config);
    odd.relocatable = runners::relocatable_device_code(config);
    odd.ptxas_level = runners::ptxas_level(config);
    if (odd.ptx_only || odd.relocatable) {
      const runners::Config twin = twin_of(config);
      odd.twin = judged(twin,
                        config.name + "'s twin " + twin.name + (odd.ptx_only ? " (SASS from ptxas)" : " (no rdc)"),
                        config.name);
    }
    if (odd.ptx_only || odd.ptxas_level.empty()) return odd;
    const std::string level = attribution::other_ptxas_level(odd.ptxas_level);
    odd.ptxas_swapped = judged(with_ptxas_level(config, level), config.name + " with ptxas -" + level, config.name);
    if (odd.ptxas_swapped == SwapResult::still_wrong && config.compiler == runners::CompilerKind::nvcc &&
        !odd.relocatable && config.arch.starts_with("sm_"))
      odd.driver_jit = judged(driver_jit_of(config), config.name + "'s PTX compiled by the driver's JIT", config.name);
    // The PTX is wrong: which half of nvcc's device code generator made it. Only then, so a
    // ptxas finding costs no extra build.
    const std::optional<runners::Config> lowered = runners::cicc_lowered_twin(config);
    if (odd.ptxas_swapped == SwapResult::still_wrong && odd.driver_jit != SwapResult::right && lowered &&
        !odd.relocatable) {
      odd.cicc_twin = lowered->name;
      odd.cicc_lowered = judged(*lowered,
                                config.name + "'s twin " + lowered->name + " (cicc -O0, ptxas -" + odd.ptxas_level +
                                    ")",
                                config.name);
    }
    return odd;
  }

  const AttributionRequest& request_;
  const runners::Toolchain& toolchain_;
  const runners::GpuInfo& gpu_;
  std::filesystem::path workdir_;
  std::filesystem::path source_;
  std::map<std::string, oracle::RunObservation> baseline_;
  attribution::Reference reference_;
  std::string odd_line_;
  StageAttribution result_;
};

StageAttribution compile_side(const oracle::Finding& finding, const std::string& crash_output) {
  const Decision decision = attribution::decide_compile(finding, crash_output);
  StageAttribution result;
  result.stage = decision.stage;
  result.why = decision.why;
  std::string line;
  if (finding.kind == oracle::FindingKind::crash) {
    const auto* excerpt = finding.details.if_contains("excerpt");
    line = excerpt != nullptr && excerpt->is_string() ? first_line(excerpt->as_string()) : first_line(crash_output);
  } else if (const auto* rejected = finding.details.if_contains("rejected"); rejected && rejected->is_array()) {
    for (const auto& entry : rejected->as_array())
      if (const auto* error = entry.is_object() ? entry.as_object().if_contains("first_error") : nullptr;
          error != nullptr && error->is_object())
        if (const auto* message = error->as_object().if_contains("message"); message && message->is_string()) {
          line = std::string(message->as_string());
          break;
        }
  }
  result.evidence.push_back(StageSwap{"none: the tool that spoke", finding.configs,
                                      finding.kind == oracle::FindingKind::crash ? "crashed" : "rejected", line});
  return result;
}

/// An nvcc crash that named no tool (its shell said "Segmentation fault"): the same build once
/// more with -v, whose last printed step is the one that died (attribution::last_nvcc_step).
/// Object mode: every device step runs, and no host link after them can crash instead.
void name_nvcc_crash_step(StageAttribution& result, const oracle::Finding& finding, const AttributionRequest& request,
                          const runners::Toolchain& toolchain, const std::filesystem::path& workdir) {
  if (finding.configs.empty()) return;
  const auto crashed = std::ranges::find_if(request.configs, [&](const runners::Config& config) {
    return config.name == finding.configs.front();
  });
  if (crashed == request.configs.end() || crashed->compiler != runners::CompilerKind::nvcc) return;
  runners::Config verbose = *crashed;
  verbose.extra_flags.push_back("-v");
  verbose.name += "+v";
  std::filesystem::path source;
  if (request.input.file) {
    source = *request.input.file;
  } else {
    std::error_code ec;
    std::filesystem::create_directories(workdir, ec);  // a failure shows in write_file
    source = workdir / request.input.name;
    write_file(source, request.input.source);
  }
  ++result.builds;
  const runners::CompileResult compile = runners::compile(toolchain, verbose, runners::Mode::object, source, workdir,
                                                          request.compile_limits);
  const std::optional<attribution::LastStep> step = attribution::last_nvcc_step(compile.process.err.text);
  const bool crashed_again = oracle::observe_compile(compile).outcome == oracle::CompileOutcome::crashed;
  if (!step || !crashed_again) {
    result.evidence.push_back(StageSwap{"nvcc -v (the steps nvcc starts)",
                                        {verbose.name},
                                        crashed_again ? "crashed, no step printed" : compile.process.status_text(),
                                        step ? step->command : ""});
    result.why += crashed_again ? "; nvcc -v printed no step" : "; rebuilt with nvcc -v it did not crash";
    return;
  }
  const auto* reason = finding.details.if_contains("reason");
  const attribution::Decision decision = attribution::decide_nvcc_crash_step(
      *step, reason != nullptr && reason->is_string() ? std::string_view(reason->as_string())
                                                      : std::string_view(compile.process.status_text()));
  result.stage = decision.stage;
  result.why = decision.why;
  result.evidence.push_back(
      StageSwap{"nvcc -v (the last step nvcc started)", {verbose.name}, compile.process.status_text(), step->command});
}

} // namespace

bool attributable(const oracle::Finding& finding) {
  using Kind = oracle::FindingKind;
  return oracle::is_run_kind(finding.kind) || finding.kind == Kind::crash ||
         finding.kind == Kind::compile_status_mismatch || finding.kind == Kind::false_rejection ||
         finding.kind == Kind::late_rejection;
}

StageAttribution attribute_stage(const oracle::Finding& finding, const AttributionRequest& request,
                                 const runners::Toolchain& toolchain, const runners::GpuDiscovery& gpus,
                                 const std::filesystem::path& workdir) {
  if (!attributable(finding)) return StageAttribution{oracle::Stage::unknown, "not a kind attribution names", {}, 0};
  if (!oracle::is_run_kind(finding.kind)) {
    StageAttribution result = compile_side(finding, request.crash_output);
    if (finding.kind == oracle::FindingKind::crash && result.stage == oracle::Stage::unknown)
      name_nvcc_crash_step(result, finding, request, toolchain, workdir);
    return result;
  }
  if (gpus.gpus.empty()) {
    StageAttribution result;
    result.why = "no GPU (" + gpus.note + "): nothing was rebuilt";
    return result;
  }
  // The first GPU, as check_test runs its binaries there.
  return Attributor(request, toolchain, gpus.gpus.front(), workdir).run_side(finding);
}

void record_stage(oracle::Finding& finding, const StageAttribution& attribution) {
  boost::json::object& details = finding.details;
  // A crash's "stage" named the tool that died; the tool stays, under its own name.
  if (finding.kind == oracle::FindingKind::crash && !details.contains("tool"))
    if (const auto* tool = details.if_contains("stage"); tool != nullptr && tool->is_string()) {
      const boost::json::value kept = *tool;
      details["tool"] = kept;
    }
  details["stage"] = oracle::to_string(attribution.stage);
  details["stage_why"] = attribution.why;
  boost::json::array evidence;
  for (const StageSwap& swap : attribution.evidence) {
    boost::json::array configs;
    for (const std::string& config : swap.configs) configs.push_back(boost::json::value(config));
    evidence.push_back(boost::json::object{
        {"swap", swap.swap}, {"configs", std::move(configs)}, {"outcome", swap.outcome}, {"line", swap.line}});
  }
  details["stage_evidence"] = std::move(evidence);
}

} // namespace cudiff::pipeline
