// `cudiff check FILE.cu`: build one file with every config, run the binaries when a GPU is
// present, judge, and report. The wiring of runners and oracle for a single test case.
#include "cli/check.h"
#include "cli/commands.h"

#include <future>
#include <ostream>

namespace cudiff::cli {
namespace {

/// A compile past its limit is confirmed once with this much more time before it is called a
/// hang (docs/architecture.md, "Oracles" 4): a slow machine must not produce hang findings.
constexpr double kHangConfirmationFactor = 3.0;

/// The request (file, mode, configs, warnings, limits) plus what only `check` itself uses.
struct CheckOptions : CheckRequest {
  bool json = false;
  std::optional<std::filesystem::path> keep;
};

CheckOptions read_options(const ParsedArgs& args) {
  if (args.positionals.size() != 1)
    throw_usage(args.positionals.empty() ? "check needs a CUDA file (see cudiff check --help)"
                                         : "check takes one file, got " + std::to_string(args.positionals.size()));
  CheckOptions options;
  options.file = args.positionals.front();
  std::error_code ec;
  if (!std::filesystem::exists(options.file, ec)) throw_environment("no such file: " + options.file.string());
  if (std::filesystem::is_directory(options.file, ec))
    throw_environment(options.file.string() + " is a directory, not a CUDA file");
  read_file(options.file);  // unreadable files fail here, with the reason
  if (auto mode = args.value("--mode")) {
    options.mode = runners::parse_mode(*mode);
    if (!options.mode) throw_usage("unknown mode '" + *mode + "' (syntax, ptx, object, binary, run)");
  }
  options.configs = args.has("--config") ? runners::parse_configs(*args.value("--config"))
                                         : runners::default_configs();
  if (auto arch = args.value("--arch"))
    for (auto& config : options.configs) config.arch = *arch;
  options.warnings = args.has("--warnings");
  options.json = args.has("--json");
  if (auto keep = args.value("--keep")) options.keep = *keep;
  options.compile_limits.wall_seconds = args.positive_number("--timeout").value_or(300);
  options.compile_limits.memory_bytes = 16ull << 30;
  options.run_limits.wall_seconds = args.positive_number("--run-timeout").value_or(60);
  options.run_limits.memory_bytes = 16ull << 30;
  return options;
}

/// Default: run when a GPU is present, else build a binary; a file without main() is
/// checked as an object, since linking it would only show two identical link errors.
runners::Mode choose_mode(const CheckRequest& options, const runners::GpuDiscovery& gpus,
                          std::vector<std::string>& notes) {
  runners::Mode mode = options.mode.value_or(gpus.gpus.empty() ? runners::Mode::binary : runners::Mode::run);
  const bool links = mode == runners::Mode::binary || mode == runners::Mode::run;
  if (links && !defines_main(read_file(options.file))) {
    notes.push_back("no main(): checked as an object file");
    return runners::Mode::object;
  }
  if (mode == runners::Mode::run && gpus.gpus.empty())
    notes.push_back("no GPU (" + gpus.note + "): binaries were built but not run");
  else if (!options.mode && gpus.gpus.empty())
    notes.push_back("no GPU (" + gpus.note + "): binaries built, not run");
  return mode;
}

ConfigCheck build_one(const runners::Toolchain& toolchain, const runners::Config& config,
                      runners::Mode mode, const CheckRequest& options, const std::filesystem::path& workdir) {
  ConfigCheck check;
  check.compile = runners::compile(toolchain, config, mode, options.file, workdir, options.compile_limits);
  if (check.compile.process.timed_out) {
    runners::Limits longer = options.compile_limits;
    longer.wall_seconds *= kHangConfirmationFactor;
    runners::CompileResult retry = runners::compile(toolchain, config, mode, options.file, workdir, longer);
    if (!retry.process.timed_out)
      check.note = "passed its " + format_seconds(options.compile_limits.wall_seconds) +
                   " limit, finished in " + format_seconds(retry.process.wall_seconds) + " with a longer one";
    check.compile = std::move(retry);
  }
  check.observation = oracle::observe_compile(check.compile);
  return check;
}

/// Compiles run in parallel (one thread per config): each is a separate process tree, and
/// nvcc spends most of a second in start-up that would otherwise be serialized.
std::vector<ConfigCheck> build_all(const runners::Toolchain& toolchain, const CheckRequest& options,
                                   runners::Mode mode, const std::filesystem::path& workdir) {
  std::vector<std::future<ConfigCheck>> pending;
  for (const auto& config : options.configs)
    pending.push_back(std::async(std::launch::async, build_one, std::cref(toolchain), std::cref(config),
                                 mode, std::cref(options), std::cref(workdir)));
  std::vector<ConfigCheck> checks;
  for (auto& future : pending) checks.push_back(future.get());
  return checks;
}

/// Runs each built binary in turn on the first GPU: one GPU worker, as in a campaign.
void run_all(std::vector<ConfigCheck>& checks, const CheckRequest& options, const runners::GpuDiscovery& gpus,
             const std::filesystem::path& workdir) {
  for (ConfigCheck& check : checks) {
    if (check.observation.outcome != oracle::CompileOutcome::accepted || check.compile.artifact.empty()) continue;
    check.run_process = runners::execute(check.compile.artifact, options.run_limits, gpus.gpus.front().visible_device,
                                         workdir / check.compile.config.name);
    check.run = oracle::observe_run(check.compile.config.name, *check.run_process);
  }
}

/// --keep: everything a person needs to re-run the compilers by hand.
void keep_files(const CheckRun& run, const std::filesystem::path& workdir) {
  for (const ConfigCheck& check : run.configs) {
    const auto dir = workdir / check.compile.config.name;
    write_file(dir / "command.txt", check.compile.command.display() + "\n");
    write_file(dir / "compile.stdout.txt", check.compile.process.out.text);
    write_file(dir / "compile.stderr.txt", check.compile.process.err.text);
    if (check.run_process) {
      write_file(dir / "run.stdout.txt", check.run_process->out.text);
      write_file(dir / "run.stderr.txt", check.run_process->err.text);
    }
  }
  write_file(workdir / "check.json", pretty_json(check_json(run)));
}

} // namespace

CheckRun check_file(const CheckRequest& request, const runners::Toolchain& toolchain, const runners::GpuDiscovery& gpus,
                    const std::filesystem::path& workdir) {
  CheckRun run;
  run.file = request.file;
  run.toolchain = toolchain;
  run.gpus = gpus;
  run.mode = choose_mode(request, run.gpus, run.notes);
  run.configs = build_all(run.toolchain, request, run.mode, workdir);
  if (run.mode == runners::Mode::run && !run.gpus.gpus.empty()) run_all(run.configs, request, run.gpus, workdir);

  oracle::Observations observations;
  for (const ConfigCheck& check : run.configs) {
    observations.compiles.push_back(check.observation);
    if (check.run) observations.runs.push_back(*check.run);
  }
  run.layout = check_layout(run, request.compile_limits, request.run_limits, workdir, observations);
  run.expected = expectation_of(request);
  observations.expected = run.expected;
  run.verdict = oracle::judge(observations, oracle::JudgeOptions{request.warnings});
  return run;
}

namespace {

int run_check(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
  const CheckOptions options = read_options(args);
  CheckRecorder recorder = open_check_recorder(args);  // --db / --known, before any compile
  const runners::Toolchain toolchain = runners::Toolchain::from(runners::discover_toolchain(toolchain_search(args)));
  const runners::GpuDiscovery gpus = runners::discover_gpus();

  std::optional<TempDir> temp;
  std::filesystem::path workdir;
  if (options.keep) {
    workdir = std::filesystem::absolute(*options.keep);
    std::error_code ec;
    std::filesystem::create_directories(workdir, ec);
    if (ec) throw_environment("cannot create " + workdir.string() + ": " + ec.message());
  } else {
    workdir = temp.emplace("cudiff-check").path();
  }

  CheckRun run = check_file(options, toolchain, gpus, workdir);
  record_check(recorder, run);  // cli/check_record.cpp

  if (options.keep) keep_files(run, workdir);
  out << (options.json ? pretty_json(check_json(run)) : render_check_table(run));
  if (options.keep && !options.json) out << "kept: " << workdir.string() << "\n";
  return run.verdict.agree() ? 0 : 1;
}

} // namespace

Subcommand check_subcommand() {
  CommandSpec spec{
      "check",
      "cudiff check FILE.cu [--mode syntax|ptx|object|binary|run] [--config LIST] [--warnings] [--json] [--keep DIR]",
      "Compare nvcc and clang-cuda on one CUDA file: build it with every config, run the\n"
      "binaries when a GPU is present, and say where they differ.\n"
      "Exit status: 0 agree (a file neither compiler accepts is agreement), 1 discrepancy,\n"
      "2 usage or environment error.",
      {{"--mode", "MODE", "how far to go: syntax, ptx (device only), object, binary, run "
                          "(default: run with a GPU, else binary; object when there is no main)"},
       {"--config", "LIST", "comma-separated configs (default nvcc-O3,clang-O3; also nvcc-O0, clang-O0, "
                            "nvcc-G, clang-O3-old-driver)"},
       {"--arch", "SM", "GPU architecture for every config (default sm_90)"},
       {"--warnings", "", "warnings only one compiler emits are findings too"},
       {"--json", "", "print JSON instead of a table"},
       {"--keep", "DIR", "keep commands, outputs and artifacts in DIR"},
       {"--timeout", "SECONDS", "wall-clock limit per compile (default 300)"},
       {"--run-timeout", "SECONDS", "wall-clock limit per program run (default 60)"}}};
  for (auto& option : toolchain_options()) spec.options.push_back(option);
  for (auto& option : check_record_options()) spec.options.push_back(option);
  return {spec, run_check};
}

} // namespace cudiff::cli
