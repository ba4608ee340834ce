// `cudiff check FILE.cu`: build one file with every config, run the binaries when a GPU is
// present, judge (pipeline::check_test), record when asked, and show the result.
#include "cli/commands.h"

#include <ostream>

namespace cudiff::cli {
namespace {

/// check's own defaults for the shared flags.
Defaults defaults() {
  Defaults d;
  d.db = std::nullopt;  // a check is recorded only when asked
  d.compile_seconds = pipeline::kFileCompileSeconds;
  d.run_seconds = pipeline::kRunSeconds;
  d.known = "known-differences file: matching findings are labelled known (still exit 1)";
  d.cross_level_with_gpu = true;
  return d;
}

/// --keep: everything a person needs to re-run the compilers by hand.
void keep_files(const pipeline::TestCheck& run, const std::filesystem::path& workdir) {
  for (const pipeline::ConfigCheck& check : run.configs) {
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

/// `cudiff check FILE.ptx`: the module through ptxas at every level (pipeline::check_ptx),
/// launched with --launch's description when a GPU is here.
int run_ptx_check(const ParsedArgs& args, std::ostream& out) {
  for (const char* flag : {"--config", "--build-path", "--warnings", "--db", "--known", "--no-known"})
    if (args.has(flag))
      throw_usage(std::string(flag) + " does not apply to a PTX file (its configs are ptxas's levels)");
  pipeline::PtxCheckRequest request;
  request.file = args.positionals.front();
  if (const auto launch = args.value("--launch")) request.launch = runners::read_launch(*launch);
  request.mode = read_mode(args);
  if (request.mode && *request.mode != runners::Mode::object && *request.mode != runners::Mode::cubin &&
      *request.mode != runners::Mode::run)
    throw_usage("a PTX file is checked in mode object, cubin or run");
  request.arch = args.value("--arch").value_or("");
  request.compile_limits = read_compile_limits(args, defaults());
  request.run_limits = read_run_limits(args, defaults());
  const runners::GpuDiscovery gpus = runners::discover_gpus();
  const runners::Toolchain toolchain = read_toolchain(args);
  const std::optional<std::filesystem::path> keep = args.value("--keep");
  std::optional<TempDir> temp;
  const std::filesystem::path workdir = keep ? std::filesystem::absolute(*keep) : temp.emplace("cudiff-check").path();
  const pipeline::TestCheck run = pipeline::check_ptx(request, toolchain, gpus, workdir);
  const bool json = args.has("--json");
  if (keep) keep_files(run, workdir);
  out << (json ? pretty_json(check_json(run)) : render_check_table(run));
  if (keep && !json) out << "kept: " << workdir.string() << "\n";
  return run.verdict.agree() ? 0 : 1;
}

int run_check(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
  if (args.positionals.size() != 1)
    throw_usage(args.positionals.empty() ? "check needs a CUDA file (see cudiff check --help)"
                                         : "check takes one file, got " + std::to_string(args.positionals.size()));
  if (std::filesystem::path(args.positionals.front()).extension() == ".ptx") return run_ptx_check(args, out);
  if (args.has("--launch")) throw_usage("--launch applies to a PTX file only");
  pipeline::CheckRequest request;
  request.input = pipeline::file_input(args.positionals.front());
  request.mode = read_mode(args);
  request.build_path = read_build_path(args);
  const runners::GpuDiscovery gpus = runners::discover_gpus();
  request.configs = read_configs(args, defaults(), binaries_run(args, !gpus.gpus.empty()));
  request.warnings = args.has("--warnings");
  request.attribute_stages = !args.has("--no-attribution");
  request.compile_limits = read_compile_limits(args, defaults());
  request.run_limits = read_run_limits(args, defaults());
  const std::optional<std::filesystem::path> keep = args.value("--keep");
  // --db / --known, opened before any compile: a bad file fails at once.
  pipeline::CheckRecorder recorder = pipeline::open_check_recorder(read_db(args, defaults()), read_known(args));
  const runners::Toolchain toolchain = read_toolchain(args);

  std::optional<TempDir> temp;
  std::filesystem::path workdir;
  if (keep) {
    workdir = std::filesystem::absolute(*keep);
    std::error_code ec;
    std::filesystem::create_directories(workdir, ec);
    if (ec) throw_environment("cannot create " + workdir.string() + ": " + ec.message());
  } else {
    workdir = temp.emplace("cudiff-check").path();
  }

  // The sanitizer gate runs inside the check, after judging and before attribution (run mode
  // only): a program whose run faults is invalid, and its run-time findings are not recorded
  // as compiler bugs.
  request.gate = pipeline::make_sanitizer_gate(!args.has("--no-sanitizer-gate"), toolchain,
                                               request.run_limits.wall_seconds);
  pipeline::TestCheck run = pipeline::check_test(request, toolchain, gpus, workdir);
  const pipeline::GateOutcome gated = run.gate.value_or(
      pipeline::GateOutcome{pipeline::GateResult::clean, {}, {}, {}, ""});
  pipeline::record_check(recorder, run, &gated);

  const bool json = args.has("--json");
  if (keep) keep_files(run, workdir);
  out << (json ? pretty_json(check_json(run)) : render_check_table(run));
  if (keep && !json) out << "kept: " << workdir.string() << "\n";
  if (run.verdict.agree()) return 0;
  // Exit 3: every finding is a run-time one and the program's run faults under the sanitizer.
  const bool only_withheld = gated.result == pipeline::GateResult::invalid &&
                             std::ranges::all_of(run.verdict.findings, [](const oracle::Finding& finding) {
                               return oracle::is_run_kind(finding.kind);
                             });
  return only_withheld ? 3 : 1;
}

} // namespace

Subcommand check_subcommand() {
  CommandSpec spec{
      "check",
      "cudiff check FILE.cu [--mode syntax|ptx|cubin|object|binary|run] [--build-path device|whole] [--config LIST] [--warnings] [--json] [--keep DIR]\n"
      "       cudiff check FILE.ptx [--launch DESC.json] [--mode object|run] [--arch SM] [--json] [--keep DIR]",
      "Compare nvcc and clang-cuda on one CUDA file: build it with every config, run the\n"
      "binaries when a GPU is present, and say where they differ.\n"
      "In run mode, run-time findings first pass compute-sanitizer (memcheck, initcheck; racecheck\n"
      "and synccheck where the program uses shared memory or barriers) on the binaries that differ:\n"
      "a program whose run faults is invalid, not a compiler bug (recorded as an invalid test).\n"
      "Exit status: 0 agree (a file neither compiler accepts is agreement), 1 discrepancy,\n"
      "2 usage or environment error, 3 invalid program (its only findings are run-time ones and\n"
      "its run faults under compute-sanitizer).\n"
      "A PTX file is assembled by ptxas at -O0, -O1, -O2 and -O3 for the GPU's architecture (its\n"
      ".target rewritten when it names another); with a GPU and --launch, each module and the\n"
      "driver's JIT of the PTX run its kernel as the description says (docs/runners.md, \"Launching\n"
      "a module\"), and a difference names the first level that departs from -O0.",
      shared_options({Flag::mode, Flag::build_path, Flag::config, Flag::arch, Flag::warnings, Flag::json}, defaults())};
  spec.options.push_back({"--keep", "DIR", "keep commands, outputs and artifacts in DIR"});
  spec.options.push_back(
      {"--launch", "DESC.json",
       "a PTX file's launch description: kernel, grid, block, buffers and scalars (runners/launch.h)"});
  spec.options.push_back({"--no-attribution", "",
                          "in mode run, do not rebuild a finding with stages swapped to name its stage "
                          "(details.stage; docs/pipeline.md, \"Stage attribution\")"});
  spec.options.push_back(
      {"--no-sanitizer-gate", "", "report run-time findings without running compute-sanitizer on them first"});
  for (auto& option :
       shared_options({Flag::timeout, Flag::run_timeout, Flag::nvcc, Flag::clang, Flag::db, Flag::known}, defaults()))
    spec.options.push_back(option);
  return {spec, run_check};
}

} // namespace cudiff::cli
