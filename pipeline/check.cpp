// pipeline: one check — build every config in parallel, run the binaries, read the layout
// views, judge. The wiring of runners and oracle for a single test case.
#include "pipeline/attribution.h"
#include "pipeline/check_parts.h"
#include "pipeline/record.h"
#include "pipeline/sanitizer.h"

#include <algorithm>
#include <cctype>
#include <future>
#include <map>

namespace cudiff::pipeline {
namespace {

/// Default: run when a GPU is present, else build a binary; a file without main() is
/// checked as an object, since linking it would only show two identical link errors.
runners::Mode choose_mode(const CheckRequest& options, const runners::GpuDiscovery& gpus,
                          std::vector<std::string>& notes) {
  runners::Mode mode = options.mode.value_or(gpus.gpus.empty() ? runners::Mode::binary : runners::Mode::run);
  const bool links = mode == runners::Mode::binary || mode == runners::Mode::run;
  if (links && !defines_main(options.input.source)) {
    notes.push_back("no main(): checked as an object file");
    return runners::Mode::object;
  }
  if (mode == runners::Mode::run && gpus.gpus.empty())
    notes.push_back("no GPU (" + gpus.note + "): binaries were built but not run");
  else if (!options.mode && gpus.gpus.empty()) notes.push_back("no GPU (" + gpus.note + "): binaries built, not run");
  return mode;
}

ConfigCheck build_one(const runners::Toolchain& toolchain, const runners::Config& config, runners::Mode mode,
                      const CheckRequest& options, const std::filesystem::path& file,
                      const std::filesystem::path& workdir, runners::Linkage linkage) {
  ConfigCheck check;
  check.compile = runners::compile(toolchain, config, mode, file, workdir, options.compile_limits, linkage);
  // A shared object only stands in for a build that succeeds: any other outcome is observed
  // on the executable a person would build.
  if (linkage == runners::Linkage::shared_object && !check.compile.process.exited_zero())
    return build_one(toolchain, config, mode, options, file, workdir, runners::Linkage::executable);
  if (check.compile.process.timed_out) {
    runners::Limits longer = options.compile_limits;
    longer.wall_seconds *= kHangConfirmationFactor;
    runners::CompileResult retry = runners::compile(toolchain, config, mode, file, workdir, longer, linkage);
    if (!retry.process.timed_out)
      check.note = "passed its " + format_seconds(options.compile_limits.wall_seconds) + " limit, finished in " +
                   format_seconds(retry.process.wall_seconds) + " with a longer one";
    check.compile = std::move(retry);
  }
  check.observation = oracle::observe_compile(check.compile);
  return check;
}

/// Compiles run in parallel (one thread per config): each is a separate process tree, and
/// nvcc spends most of a second in start-up that would otherwise be serialized.
std::vector<ConfigCheck> build_all(const runners::Toolchain& toolchain, const CheckRequest& options, runners::Mode mode,
                                   const std::filesystem::path& file, const std::filesystem::path& workdir, bool runs,
                                   std::vector<std::string>& notes) {
  if (options.build_path == BuildPath::device) {
    const std::string reason = whole_build_reason(options.input, mode, runs);
    if (reason.empty()) {
      notes.push_back(
          std::string("device path: each front end once to PTX, ptxas once per config on it; no host code compiled") +
          (runs ? "; each cubin run in an executor, every kernel launched from the sidecar's launch plan" : ""));
      return build_device_path(toolchain, options, file, workdir, [&](const runners::Config& config) {
        return build_one(toolchain, config, mode, options, file, workdir, runners::Linkage::executable);
      });
    }
    // Said only where the device path could have applied: a generated test in a mode that links.
    const bool linking = mode == runners::Mode::binary || mode == runners::Mode::run;
    if (linking && options.input.sidecar && options.input.sidecar->kernels && !options.input.sidecar->kernels->empty())
      notes.push_back("whole-program build: " + reason);
    // A must-reject program: each front end once, as the device path would, while it rejects.
    if (options.input.sidecar && options.input.sidecar->edge)
      return build_sharing_front_end_rejections(toolchain, options.configs, [&](const runners::Config& config) {
        return build_one(toolchain, config, mode, options, file, workdir, runners::Linkage::executable);
      });
  }
  const runners::Linkage linkage = options.executor && mode == runners::Mode::run &&
                                           executor_can_load(options.input.source)
                                       ? runners::Linkage::shared_object
                                       : runners::Linkage::executable;
  std::vector<std::future<ConfigCheck>> pending;
  for (const auto& config : options.configs)
    pending.push_back(std::async(std::launch::async, build_one, std::cref(toolchain), std::cref(config), mode,
                                 std::cref(options), std::cref(file), std::cref(workdir), linkage));
  std::vector<ConfigCheck> checks;
  for (auto& future : pending) checks.push_back(future.get());
  return checks;
}

/// A shared-object build's run in the request's executor; false when it must run as a
/// process, after the build was redone as an executable (the note says why).
bool run_in_executor(ConfigCheck& check, const runners::Toolchain& toolchain, const CheckRequest& options,
                     const std::filesystem::path& file, const std::filesystem::path& workdir) {
  if (check.compile.linkage != runners::Linkage::shared_object) return false;
  const runners::Config& config = check.compile.config;
  if (options.executor) {
    runners::ExecutorPool::RunAttempt outcome = options.executor->run(check.compile.artifact, {}, options.run_limits,
                                                                      workdir / config.name);
    if (outcome.result) {
      check.run_process = std::move(outcome.result);
      check.run = oracle::observe_run(config.name, *check.run_process);
      check.ran_in_executor = true;
      return true;
    }
    check.note = "run as a process: " + outcome.fallback;
  }
  const std::string note = check.note;
  check = build_one(toolchain, config, check.compile.mode, options, file, workdir, runners::Linkage::executable);
  check.note = note;
  return false;
}

/// Runs each built binary in turn on the first GPU: one GPU worker, as in a campaign.
void run_all(std::vector<ConfigCheck>& checks, const CheckRequest& options, const runners::GpuDiscovery& gpus,
             const runners::Toolchain& toolchain, const std::filesystem::path& file,
             const std::filesystem::path& workdir) {
  for (ConfigCheck& check : checks) {
    if (check.observation.outcome != oracle::CompileOutcome::accepted || check.compile.artifact.empty()) continue;
    if (check.compile.mode == runners::Mode::cubin) continue;  // the device path's: run_device_path ran it
    // A config for another GPU (nvcc-O3-sm100 on an sm_90 GPU) is built, never run: its
    // embedded PTX might load through the driver's JIT, but that is not what it names.
    if (!runners::runs_on(check.compile.config, gpus.gpus.front())) {
      check.note = "built for " + check.compile.config.arch + ", not run on " + gpus.gpus.front().describe() +
                   " (compile-only here)";
      continue;
    }
    if (run_in_executor(check, toolchain, options, file, workdir)) continue;
    if (check.observation.outcome != oracle::CompileOutcome::accepted || check.compile.artifact.empty()) continue;
    check.run_process = runners::execute(check.compile.artifact, options.run_limits, gpus.gpus.front().visible_device,
                                         workdir / check.compile.config.name);
    check.run = oracle::observe_run(check.compile.config.name, *check.run_process);
  }
}

/// The source with comments and string/char literals blanked, so only code is searched.
std::string code_only(std::string_view source) {
  std::string code(source);
  for (std::size_t i = 0; i < code.size(); ++i) {
    if (code.compare(i, 2, "//") == 0) {
      while (i < code.size() && code[i] != '\n') code[i++] = ' ';
    } else if (code.compare(i, 2, "/*") == 0) {
      std::size_t end = code.find("*/", i + 2);
      end = end == std::string::npos ? code.size() : end + 2;
      for (; i < end; ++i)
        if (code[i] != '\n') code[i] = ' ';
      --i;
    } else if (code[i] == '"' || code[i] == '\'') {
      const char quote = code[i];
      for (++i; i < code.size() && code[i] != quote && code[i] != '\n'; ++i) {
        if (code[i] == '\\' && i + 1 < code.size()) code[i++] = ' ';
        code[i] = ' ';
      }
    }
  }
  return code;
}

/// Stage attribution for every finding it names a stage for, with the check's own runs as
/// the baseline (docs/pipeline.md, "Stage attribution").
void attribute_findings(TestCheck& run, const CheckRequest& request, const std::filesystem::path& workdir) {
  AttributionRequest attribution;
  attribution.input = request.input;
  attribution.compile_limits = request.compile_limits;
  attribution.run_limits = request.run_limits;
  for (const ConfigCheck& check : run.configs) {
    attribution.configs.push_back(check.compile.config);
    if (check.run) attribution.runs.push_back(*check.run);
  }
  const bool invalid = run.gate && run.gate->result == GateResult::invalid;
  for (oracle::Finding& finding : run.verdict.findings) {
    if (!attributable(finding) || (invalid && oracle::is_run_kind(finding.kind))) continue;
    attribution.crash_output = crash_output(run, finding);
    record_stage(finding, attribute_stage(finding, attribution, run.toolchain, run.gpus, workdir));
  }
}

bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// The test checked again as the whole program, every binary run as a process, with `why` first
/// among its notes: a device-path run that did not end cleanly, or that found a difference
/// (what is filed is what the whole program shows, as a person re-running it sees it).
TestCheck whole_program_check(const CheckRequest& request, const runners::Toolchain& toolchain,
                              const runners::GpuDiscovery& gpus, const std::filesystem::path& workdir,
                              const std::string& why) {
  CheckRequest whole = request;
  whole.build_path = BuildPath::whole;
  whole.executor = nullptr;
  TestCheck again = check_test(whole, toolchain, gpus, workdir);
  again.notes.insert(again.notes.begin(), why);
  return again;
}

} // namespace

std::vector<oracle::ExpectedChecksum> expected_checksums_of(const generator::Sidecar& sidecar) {
  std::vector<oracle::ExpectedChecksum> expected;
  if (!sidecar.kernels) return expected;
  for (const generator::Sidecar::Kernel& kernel : *sidecar.kernels)
    if (!kernel.name.empty() && !kernel.expected_checksum.empty())
      expected.push_back({kernel.name, kernel.expected_checksum});
  return expected;
}

std::vector<oracle::VariantKernel> variant_kernels_of(const generator::Sidecar& sidecar) {
  std::vector<oracle::VariantKernel> pairs;
  if (!sidecar.batch) return pairs;
  std::map<std::uint64_t, const generator::Sidecar*> originals;
  for (const generator::Sidecar& test : sidecar.batch->tests)
    if (test.seed && !test.variant_of) originals.emplace(*test.seed, &test);
  for (const generator::Sidecar& test : sidecar.batch->tests) {
    if (!test.variant_of || !test.kernels) continue;
    const auto original = originals.find(test.variant_of->seed);
    if (original == originals.end() || !original->second->kernels) continue;
    const auto& kernels = *test.kernels;
    const auto& original_kernels = *original->second->kernels;
    for (std::size_t k = 0; k < kernels.size() && k < original_kernels.size(); ++k)
      pairs.push_back({kernels[k].name, original_kernels[k].name, test.variant_of->transforms});
  }
  return pairs;
}

runners::Limits limits(double seconds) {
  runners::Limits limits;
  limits.wall_seconds = seconds;
  limits.memory_bytes = kMemoryLimitBytes;
  return limits;
}

bool executor_can_load(std::string_view source) {
  return defines_main(source) && code_only(source).find("__managed__") == std::string::npos;
}

bool defines_main(std::string_view source) {
  const std::string code = code_only(source);
  for (std::size_t at = code.find("main"); at != std::string::npos; at = code.find("main", at + 4)) {
    if (at > 0 && (identifier_char(code[at - 1]) || code[at - 1] == '.' || code[at - 1] == ':' || code[at - 1] == '>'))
      continue;  // part of a longer name, a member, or a qualified name
    std::size_t next = code.find_first_not_of(" \t\r\n", at + 4);
    if (next == std::string::npos || code[next] != '(') continue;
    // A definition: the parameter list is followed by a body before any ';'.
    std::size_t close = code.find(')', next);
    if (close == std::string::npos) return false;
    std::size_t body = code.find_first_of("{;", close);
    if (body != std::string::npos && code[body] == '{') return true;
  }
  return false;
}

TestInput file_input(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) throw_environment("no such file: " + file.string());
  if (std::filesystem::is_directory(file, ec)) throw_environment(file.string() + " is a directory, not a CUDA file");
  TestInput input;
  input.name = file.filename().string();
  input.source = read_file(file);  // unreadable files fail here, with the reason
  input.file = file;
  const std::filesystem::path sidecar = std::filesystem::path(file).replace_extension(".json");
  if (!std::filesystem::is_regular_file(sidecar, ec)) return input;
  input.sidecar_path = sidecar;
  boost::system::error_code parse_error;
  const boost::json::value json = boost::json::parse(read_file(sidecar), parse_error);
  if (parse_error) {
    input.sidecar_error = "not JSON (" + parse_error.message() + ")";
    return input;
  }
  try {
    input.sidecar = generator::sidecar_from_json(json);
  } catch (const Error& error) {
    input.sidecar_error = "not a sidecar (" + std::string(error.what()) + ")";
  }
  return input;
}

TestCheck check_test(const CheckRequest& request, const runners::Toolchain& toolchain,
                     const runners::GpuDiscovery& gpus, const std::filesystem::path& workdir) {
  TestCheck run;
  if (request.input.file) {
    run.file = *request.input.file;
  } else {
    // Only the compilers need a file: the generated source is written for them, nothing else.
    std::error_code ec;
    std::filesystem::create_directories(workdir, ec);  // a failure shows in write_file, with its reason
    run.file = workdir / request.input.name;
    write_file(run.file, request.input.source);
  }
  run.toolchain = toolchain;
  run.gpus = gpus;
  run.mode = choose_mode(request, run.gpus, run.notes);
  run.compile_seconds = request.compile_limits.wall_seconds;
  run.run_seconds = request.run_limits.wall_seconds;
  const bool runs = run.mode == runners::Mode::run && !run.gpus.gpus.empty();
  run.configs = build_all(run.toolchain, request, run.mode, run.file, workdir, runs, run.notes);
  const bool cubins_run = runs && device_runs(run.configs);
  if (cubins_run)
    if (const std::string why = run_device_path(run.configs, request, run.gpus, workdir); !why.empty())
      return whole_program_check(request, toolchain, gpus, workdir,
                                 "device path fell back to the whole program, run as a process: " + why);
  if (run.mode == runners::Mode::run && !run.gpus.gpus.empty())
    run_all(run.configs, request, run.gpus, run.toolchain, run.file, workdir);

  oracle::Observations observations;
  for (const ConfigCheck& check : run.configs) {
    observations.compiles.push_back(check.observation);
    if (check.run) observations.runs.push_back(*check.run);
  }
  run.layout = check_layout(run, request.input, request.compile_limits, request.run_limits, workdir, observations,
                            request.executor.get());
  run.abi = check_abi(run, request.input, request.compile_limits, workdir, observations);
  if (run.abi) run.notes.insert(run.notes.end(), run.abi->notes.begin(), run.abi->notes.end());
  run.expected = expectation_of(request);
  run.assumed_stage = request.assumed_stage;
  observations.expected = run.expected;
  if (request.input.sidecar) observations.expected_checksums = expected_checksums_of(*request.input.sidecar);
  if (request.input.sidecar) observations.variant_kernels = variant_kernels_of(*request.input.sidecar);
  run.verdict = oracle::judge(observations, oracle::JudgeOptions{request.warnings});
  if (cubins_run &&
      std::ranges::any_of(run.verdict.findings, [](const oracle::Finding& f) { return oracle::is_run_kind(f.kind); }))
    return whole_program_check(request, toolchain, gpus, workdir,
                               "device path: the cubins' runs show a run finding; checked again as the whole "
                               "program, run as a process, which is what is filed");
  // The gate before attribution: an invalid program's run findings are never attributed.
  if (request.gate && run.mode == runners::Mode::run) run.gate = gate_check(*request.gate, run, request.input);
  // Every mode: a compile finding is attributed from what spoke, with no rebuild, so a crash
  // `cudiff check --mode ptx` finds is keyed with its stage, as the campaign keys it (one
  // bucket, not two); run findings exist only in mode run, and are rebuilt on the GPU.
  if (request.attribute_stages) attribute_findings(run, request, workdir / "attribution");
  return run;
}

} // namespace cudiff::pipeline
