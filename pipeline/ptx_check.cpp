// pipeline: a PTX module through ptxas at every level and the driver's JIT, launched with a
// description, judged, each finding's stage named (pipeline/ptx_check.h).
#include "pipeline/ptx_check.h"

#include <cctype>
#include <cstdlib>
#include <future>
#include <iterator>
#include <map>

namespace cudiff::pipeline {
namespace {

constexpr const char* kLevels[] = {"O0", "O1", "O2", "O3"};
constexpr const char* kDriverJit = "driver-jit";

runners::Config level_config(const std::string& level, const std::string& arch) {
  runners::Config config;
  config.name = "ptxas-" + level;
  config.compiler = runners::CompilerKind::nvcc;  // ptxas's messages are read as nvcc passes them on
  config.opt_level = level;
  config.arch = arch;
  config.ptxas_opt_level = level;
  config.arch_fixed = true;
  return config;
}

/// ptxas on the module at one level, as nvcc would run it for `config`'s architecture.
ConfigCheck assemble_level(const runners::Toolchain& toolchain, const runners::Config& config,
                           const std::filesystem::path& ptx, const std::filesystem::path& workdir,
                           const runners::Limits& limits) {
  const std::filesystem::path dir = workdir / config.name;
  std::error_code ec;
  std::filesystem::create_directories(dir / "tmp", ec);
  ConfigCheck check;
  runners::CompileResult& compile = check.compile;
  compile.config = config;
  compile.mode = runners::Mode::cubin;
  compile.command.argv = {(toolchain.cuda_home / "bin" / "ptxas").string(),
                          "-arch=" + config.arch,
                          "-" + config.ptxas_opt_level,
                          ptx.string(),
                          "-o",
                          (dir / "module.cubin").string()};
  compile.command.env_overrides = {{"TMPDIR", (dir / "tmp").string()}};
  compile.command.cwd = dir;
  compile.command.limits = limits;
  compile.process = runners::run_subprocess(compile.command);
  if (compile.process.timed_out) {
    runners::Limits longer = limits;
    longer.wall_seconds *= kHangConfirmationFactor;
    runners::Command retry = compile.command;
    retry.limits = longer;
    runners::SubprocessResult again = runners::run_subprocess(retry);
    if (!again.timed_out)
      check.note = "passed its " + format_seconds(limits.wall_seconds) + " limit, finished in " +
                   format_seconds(again.wall_seconds) + " with a longer one";
    compile.command = retry;
    compile.process = std::move(again);
  }
  if (compile.process.exited_zero()) compile.artifact = dir / "module.cubin";
  check.observation = oracle::observe_compile(compile);
  return check;
}

/// The driver's JIT has no build of its own: the module is the PTX, compiled when it loads.
ConfigCheck driver_jit(const std::filesystem::path& ptx, const std::string& arch) {
  ConfigCheck check;
  check.compile.config.name = kDriverJit;
  check.compile.config.arch = "compute_" + arch.substr(arch.find('_') + 1);
  check.compile.config.arch_fixed = true;
  check.compile.mode = runners::Mode::cubin;
  check.compile.command.argv = {"cuModuleLoadDataEx", ptx.string()};
  check.compile.process.started = true;
  check.compile.process.exit_code = 0;
  check.compile.artifact = ptx;
  check.observation = oracle::observe_compile(check.compile);
  return check;
}

std::shared_ptr<runners::ExecutorPool> own_executor(const runners::GpuInfo& gpu, const std::filesystem::path& workdir) {
  const std::optional<std::filesystem::path> program = runners::find_executor_program();
  if (!program) throw_environment("no cudiff-executor beside cudiff (or at $CUDIFF_EXECUTOR): a PTX file runs there");
  runners::ExecutorSetup setup;
  setup.program = *program;
  setup.gpu = gpu;  // no runtime: the launches reach the driver alone
  setup.workdir = workdir / "executor";
  setup.slots = 1;
  return std::make_shared<runners::ExecutorPool>(setup);
}

/// What a run showed, as one comparable value.
std::string run_key(const oracle::RunObservation& run) {
  return std::to_string(run.timed_out) + "|" + std::to_string(run.signal) + "|" + std::to_string(run.exit_code) + "|" +
         join(run.cuda_errors, "\n") + "|" + join(run.output_lines, "\n");
}

/// A run difference's stage: which configs print what -O0 prints, which depart from it.
void attribute_run(oracle::Finding& finding, const std::vector<ConfigCheck>& configs) {
  std::map<std::string, std::string> key;
  for (const ConfigCheck& check : configs)
    if (check.run) key[check.compile.config.name] = run_key(*check.run);
  const auto zero = key.find("ptxas-O0");
  boost::json::array departing;
  if (zero == key.end()) {
    finding.details["stage"] = oracle::to_string(oracle::Stage::ptxas);
    finding.details["stage_why"] = "the same PTX gives different results between ptxas levels (-O0 did not run)";
    return;
  }
  std::vector<std::string> with_zero, departs;
  bool in_order = true, jit_departs = false, jit_ran = false;
  for (const char* level : kLevels) {
    const auto found = key.find(std::string("ptxas-") + level);
    if (found == key.end()) continue;
    const bool differs = found->second != zero->second;
    if (!differs && !departs.empty()) in_order = false;
    (differs ? departs : with_zero).push_back(std::string("-") + level);
    if (differs) departing.push_back(boost::json::value(found->first));
  }
  if (const auto jit = key.find(kDriverJit); jit != key.end()) {
    jit_ran = true;
    jit_departs = jit->second != zero->second;
    if (jit_departs) departing.push_back(boost::json::value(kDriverJit));
  }
  finding.details["departing"] = departing;
  if (departs.empty() && !jit_departs) {
    finding.details["stage"] = oracle::to_string(oracle::Stage::unknown);
    finding.details["stage_why"] = "every config behaves alike: the PTX itself, not one of its compilers";
    return;
  }
  if (departs.empty()) {
    finding.details["stage"] = oracle::to_string(oracle::Stage::driver_jit);
    finding.details["stage_why"] = "every ptxas level prints the same; the driver's JIT of the same PTX differs";
    return;
  }
  std::string why = "the same PTX differs between ptxas levels";
  if (!in_order)
    why += "; the levels do not split in order (" + join(with_zero, ", ") + " as -O0; " + join(departs, ", ") +
           " otherwise): which is wrong is not told";
  else
    why += "; the first level that departs from -O0 is " + departs.front() +
           ", the likelier wrong one (-O0 transforms the PTX least): " + join(with_zero, ", ") +
           (with_zero.size() == 1 ? " prints" : " print") + " one result, " + join(departs, ", ") + " another";
  if (jit_ran)
    why += jit_departs ? "; the driver's JIT sides with " + departs.back() : "; the driver's JIT sides with -O0";
  finding.details["stage"] = oracle::to_string(oracle::Stage::ptxas);
  finding.details["stage_why"] = why;
}

/// Compile findings between levels: ptxas failing at some levels only (a rejection where
/// another level accepts the same PTX is ptxas failing, not the PTX being invalid) is a crash.
void attribute_compile(oracle::Finding& finding, const std::vector<ConfigCheck>& configs) {
  std::vector<std::string> failing;
  std::string first;
  for (const ConfigCheck& check : configs) {
    if (check.observation.outcome == oracle::CompileOutcome::accepted) continue;
    failing.push_back(check.compile.config.name);
    if (first.empty()) {
      if (const oracle::Diagnostic* error = check.observation.first_error()) first = error->message;
      else if (check.observation.crash) first = check.observation.crash->reason;
    }
  }
  if (finding.kind == oracle::FindingKind::compile_status_mismatch) {
    finding.kind = oracle::FindingKind::crash;
    finding.summary = "ptxas fails at " + join(failing, ", ") + " only" + (first.empty() ? "" : ": " + first);
    finding.details["failing"] = boost::json::value_from(failing);
  }
  finding.details["stage"] = oracle::to_string(oracle::Stage::ptxas);
  finding.details["stage_why"] = "ptxas alone ran on the PTX, and failed at " + join(failing, ", ");
}

} // namespace

std::string ptx_target(std::string_view ptx) {
  for (const std::string& line : split_lines(ptx)) {
    std::string_view text = trim(line);
    if (!text.starts_with(".target")) continue;
    text = trim(text.substr(7));
    const std::size_t end = text.find_first_of(", \t/");
    return std::string(text.substr(0, end));
  }
  return "";
}

namespace {

/// "sm_103a" -> 103; 0 when the name is not sm_<digits>.
int arch_number(std::string_view arch) {
  if (!arch.starts_with("sm_")) return 0;
  int number = 0;
  for (char c : arch.substr(3)) {
    if (c < '0' || c > '9') break;
    number = number * 10 + (c - '0');
  }
  return number;
}

/// The lowest PTX ISA version (times ten) whose `.target` may name `arch`: the PTX ISA's table of
/// targets. An older `.version` with a newer `.target` is an error ptxas reports, so a module
/// retargeted to a newer GPU needs its version raised with it.
int minimum_ptx_version(std::string_view arch) {
  static const std::map<int, int> kFirstVersion = {{70, 60},  {72, 61},  {75, 63},  {80, 70},  {86, 71},
                                                   {87, 74},  {89, 78},  {90, 78},  {100, 86}, {101, 86},
                                                   {103, 88}, {110, 90}, {120, 87}, {121, 88}};
  const auto found = kFirstVersion.upper_bound(arch_number(arch));
  return found == kFirstVersion.begin() ? 0 : std::prev(found)->second;
}

/// `.version X.Y` raised to at least `wanted` (times ten); unchanged when already there or absent.
std::string raise_version(std::string text, int wanted) {
  const std::size_t directive = text.find(".version");
  if (directive == std::string::npos || wanted == 0) return text;
  std::size_t at = directive + 8;
  while (at < text.size() && (text[at] == ' ' || text[at] == '\t')) ++at;
  std::size_t end = at;
  while (end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '.')) ++end;
  const std::string number = text.substr(at, end - at);
  const std::size_t dot = number.find('.');
  if (dot == std::string::npos) return text;
  const int current = std::atoi(number.substr(0, dot).c_str()) * 10 + std::atoi(number.substr(dot + 1).c_str());
  if (current >= wanted) return text;
  text.replace(at, end - at, std::to_string(wanted / 10) + "." + std::to_string(wanted % 10));
  return text;
}

} // namespace

bool needs_retarget(std::string_view ptx, std::string_view arch) {
  const std::string current = ptx_target(ptx);
  if (current.empty() || current == arch) return false;
  // PTX for an older GPU assembles for a newer one as written (ptxas compiles a lower virtual
  // target to a higher real one): only a newer or architecture-specific target ("sm_90a") is
  // rewritten, so an older module is tested exactly as its author wrote it.
  const bool specific = !current.empty() && !std::isdigit(static_cast<unsigned char>(current.back()));
  return specific || arch_number(current) > arch_number(arch);
}

std::string retarget_ptx(std::string_view ptx, std::string_view arch) {
  if (!needs_retarget(ptx, arch)) return std::string(ptx);
  const std::string current = ptx_target(ptx);
  std::string text(ptx);
  const std::size_t directive = text.find(".target");
  const std::size_t at = text.find(current, directive);
  text.replace(at, current.size(), arch);
  return raise_version(std::move(text), minimum_ptx_version(arch));
}

TestCheck check_ptx(const PtxCheckRequest& request, const runners::Toolchain& toolchain,
                    const runners::GpuDiscovery& gpus, const std::filesystem::path& workdir) {
  TestCheck run;
  run.toolchain = toolchain;
  run.gpus = gpus;
  run.compile_seconds = request.compile_limits.wall_seconds;
  run.run_seconds = request.run_limits.wall_seconds;
  const bool gpu = !gpus.gpus.empty();
  run.mode = request.mode.value_or(gpu && request.launch ? runners::Mode::run : runners::Mode::object);
  if (run.mode == runners::Mode::run && !request.launch)
    throw_usage("a PTX file runs only with a launch description (--launch DESC.json)");
  if (run.mode != runners::Mode::run) {
    run.mode = runners::Mode::object;
    run.notes.push_back(!request.launch ? "no launch description: every level assembled, nothing run"
                        : gpu           ? "every level assembled, nothing run"
                                        : "no GPU (" + gpus.note + "): every level assembled, nothing run");
  } else if (!gpu) {
    run.notes.push_back("no GPU (" + gpus.note + "): every level assembled, nothing run");
  }
  const bool runs = run.mode == runners::Mode::run && gpu;

  const std::string source = read_file(request.file);
  std::string arch = request.arch;
  if (arch.empty()) arch = gpu ? gpus.gpus.front().arch() : ptx_target(source);
  if (!arch.starts_with("sm_")) arch = "sm_90";
  std::error_code ec;
  std::filesystem::create_directories(workdir, ec);
  run.file = workdir / request.file.filename();
  const std::string target = ptx_target(source);
  if (needs_retarget(source, arch)) run.notes.push_back(".target " + target + " rewritten to " + arch);
  write_file(run.file, retarget_ptx(source, arch));

  std::vector<std::future<ConfigCheck>> pending;
  for (const char* level : kLevels)
    pending.push_back(std::async(std::launch::async, assemble_level, std::cref(toolchain), level_config(level, arch),
                                 std::cref(run.file), std::cref(workdir), std::cref(request.compile_limits)));
  for (auto& future : pending) run.configs.push_back(future.get());
  if (runs) {
    // The driver's JIT compiles the PTX as it loads: a config only where modules are loaded.
    run.configs.push_back(driver_jit(run.file, arch));
    const std::shared_ptr<runners::ExecutorPool> executor = request.executor ? request.executor
                                                                             : own_executor(gpus.gpus.front(), workdir);
    for (ConfigCheck& check : run.configs) {
      if (check.observation.outcome != oracle::CompileOutcome::accepted) continue;
      runners::ExecutorPool::RunAttempt attempt = executor->launch(check.compile.artifact, *request.launch,
                                                                   request.run_limits);
      if (!attempt.result) {
        check.note = "not run: " + attempt.fallback;
        continue;
      }
      if (!attempt.failure.empty()) check.note = attempt.failure;
      check.run_process = std::move(attempt.result);
      check.run = oracle::observe_run(check.compile.config.name, *check.run_process);
      check.ran_in_executor = true;
    }
  }

  oracle::Observations observations;
  for (const ConfigCheck& check : run.configs) {
    observations.compiles.push_back(check.observation);
    if (check.run) observations.runs.push_back(*check.run);
  }
  run.verdict = oracle::judge(observations, oracle::JudgeOptions{});
  for (oracle::Finding& finding : run.verdict.findings) {
    if (oracle::is_run_kind(finding.kind) || finding.kind == oracle::FindingKind::hang)
      attribute_run(finding, run.configs);
    else if (finding.kind == oracle::FindingKind::crash || finding.kind == oracle::FindingKind::compile_status_mismatch)
      attribute_compile(finding, run.configs);
  }
  return run;
}

} // namespace cudiff::pipeline
