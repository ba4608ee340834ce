// pipeline: what a test's sidecar adds to a check — the layout views of a generated program
// (device from each config's PTX, host from its binary run with --layout), and what the test
// is expected to do (sidecar, or an `// expected-error: ID` comment).
#include "pipeline/check_parts.h"

#include <future>

namespace cudiff::pipeline {
namespace {

/// The config's PTX text: the artifact when the check already built PTX, else a PTX compile
/// of its own (beside the other artifacts: `<stem>.ptx` clashes with no other mode's output).
oracle::LayoutView device_view(const TestCheck& run, const ConfigCheck& check, const runners::Limits& limits,
                               const std::filesystem::path& workdir, const std::vector<oracle::LayoutProbe>& probes) {
  const runners::Config& config = check.compile.config;
  oracle::LayoutView empty{config.name, config.compiler, oracle::LayoutSide::device, {}, {}};
  std::filesystem::path ptx = check.ptx.empty() ? check.compile.artifact : check.ptx;
  if (run.mode != runners::Mode::ptx && check.ptx.empty()) {
    const runners::CompileResult result = runners::compile(run.toolchain, config, runners::Mode::ptx, run.file, workdir,
                                                           limits);
    if (result.artifact.empty()) {
      empty.problem = "the PTX compile failed (" + result.process.status_text() + ")";
      return empty;
    }
    ptx = result.artifact;
  }
  try {
    return oracle::device_layout_view(config.name, config.compiler, read_file(ptx), probes);
  } catch (const Error& error) {
    empty.problem = error.what();
    return empty;
  }
}

oracle::LayoutView host_view(const TestCheck& run, const ConfigCheck& check, const runners::Limits& compile_limits,
                             const runners::Limits& limits, const std::filesystem::path& workdir,
                             runners::ExecutorPool* executor) {
  const runners::Config& config = check.compile.config;
  std::optional<runners::SubprocessResult> result;
  std::filesystem::path binary = check.compile.artifact;
  if (check.compile.linkage == runners::Linkage::shared_object) {
    if (executor) result = executor->run(binary, {"--layout"}, limits, workdir / config.name).result;
    // A process needs an executable: built beside, for this run alone.
    if (!result)
      binary = runners::compile(run.toolchain, config, runners::Mode::binary, run.file, workdir / "layout-executable",
                                compile_limits)
                   .artifact;
  }
  if (!result) {
    if (binary.empty()) {
      oracle::LayoutView view = oracle::host_layout_view(config.name, config.compiler, "");
      view.problem = "`" + config.name + " --layout`: the executable did not build";
      return view;
    }
    runners::Command command;
    command.argv = {binary.string(), "--layout"};
    command.cwd = workdir / config.name;
    command.limits = limits;
    command.env_overrides = runners::program_environment(std::nullopt);  // `--layout` makes no CUDA call
    result = runners::run_subprocess(command);
  }
  oracle::LayoutView view = oracle::host_layout_view(config.name, config.compiler, result->out.text);
  if (!result->exited_zero()) view.problem = "`" + config.name + " --layout` ended with " + result->status_text();
  return view;
}

bool accepted(const ConfigCheck& check) { return check.observation.outcome == oracle::CompileOutcome::accepted; }

} // namespace

std::optional<LayoutCheck> check_layout(const TestCheck& run, const TestInput& input,
                                        const runners::Limits& compile_limits, const runners::Limits& run_limits,
                                        const std::filesystem::path& workdir, oracle::Observations& observations,
                                        runners::ExecutorPool* executor) {
  LayoutCheck layout;
  layout.sidecar = input.sidecar_path.empty() ? std::filesystem::path(input.name).replace_extension(".json")
                                              : input.sidecar_path;
  if (!input.sidecar_error.empty()) {
    layout.notes.push_back(layout.sidecar.filename().string() + " is " + input.sidecar_error + ": no layout check");
    return layout;
  }
  if (!input.sidecar || !input.sidecar->layout_probes) return std::nullopt;
  layout.probes = layout_probes_of(*input.sidecar);
  if (layout.probes.empty()) return layout;

  // PTX compiles run in parallel, like the builds; the --layout runs are quick and serial.
  std::vector<std::future<oracle::LayoutView>> pending;
  for (const ConfigCheck& check : run.configs)
    if (accepted(check))
      pending.push_back(std::async(std::launch::async, device_view, std::cref(run), std::cref(check),
                                   std::cref(compile_limits), std::cref(workdir), std::cref(layout.probes)));
  std::size_t next = 0;
  for (const ConfigCheck& check : run.configs) {
    if (!accepted(check)) continue;
    layout.views.push_back(pending[next++].get());
    const bool binary = run.mode == runners::Mode::binary || run.mode == runners::Mode::run;
    if (binary && !check.compile.artifact.empty())
      layout.views.push_back(host_view(run, check, compile_limits, run_limits, workdir, executor));
  }
  for (const oracle::LayoutView& view : layout.views)
    if (!view.problem.empty())
      layout.notes.push_back(view.config + " " + oracle::to_string(view.side) + ": " + view.problem);
  if (run.mode != runners::Mode::binary && run.mode != runners::Mode::run)
    layout.notes.push_back("no binaries in mode " + runners::to_string(run.mode) + ": device views only");
  observations.layout_probes = layout.probes;
  observations.layouts = layout.views;
  return layout;
}

std::vector<oracle::LayoutProbe> layout_probes_of(const generator::Sidecar& sidecar) {
  std::vector<oracle::LayoutProbe> probes;
  if (!sidecar.layout_probes) return probes;
  for (const generator::Sidecar::LayoutProbe& probe : *sidecar.layout_probes)
    probes.push_back(oracle::LayoutProbe{
        probe.type, probe.array, probe.properties, {probe.member_kinds.begin(), probe.member_kinds.end()}});
  return probes;
}

std::optional<oracle::Expectation> expectation_of(const generator::Sidecar& sidecar) {
  if (!sidecar.expected_verdict) return std::nullopt;
  oracle::Expectation expected;
  expected.reject = *sidecar.expected_verdict == generator::Sidecar::Verdict::reject;
  if (sidecar.edge) {
    expected.rule_id = sidecar.edge->rule;
    expected.line = sidecar.edge->line;
  }
  return expected;
}

std::optional<oracle::Expectation> expectation_of(const CheckRequest& request) {
  if (request.expected) return request.expected;
  if (request.input.sidecar)
    if (std::optional<oracle::Expectation> expected = expectation_of(*request.input.sidecar)) return expected;
  return oracle::expectation_from_source(request.input.source);
}

} // namespace cudiff::pipeline
