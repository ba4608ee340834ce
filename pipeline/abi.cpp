// pipeline: where the parameter-ABI comparison gets its PTX (docs/pipeline.md, "Parameter
// ABI"): the artifacts in ptx mode; in object, binary and run mode one PTX compile for one nvcc
// and one clang config of each arch and separate-compilation mode, reusing the layout check's.
#include "pipeline/check_parts.h"

#include <future>

namespace cudiff::pipeline {
namespace {

bool accepted(const ConfigCheck& check) { return check.observation.outcome == oracle::CompileOutcome::accepted; }

/// The configs whose PTX is read: all accepted ones in ptx mode (their artifacts are PTX), else
/// the first accepted nvcc and the first accepted clang config of each (arch, separate
/// compilation) pair that has both: a signature does not depend on the optimization level
/// (tests/golden/abi), and each extra config would cost a compile.
std::vector<const ConfigCheck*> chosen_configs(const TestCheck& run) {
  std::vector<const ConfigCheck*> chosen;
  for (const ConfigCheck& check : run.configs) {
    if (!accepted(check)) continue;
    if (run.mode == runners::Mode::ptx) {
      chosen.push_back(&check);
      continue;
    }
    const runners::Config& config = check.compile.config;
    const bool taken = std::ranges::any_of(chosen, [&](const ConfigCheck* other) {
      const runners::Config& c = other->compile.config;
      return c.compiler == config.compiler && c.arch == config.arch &&
             separate_compilation(c) == separate_compilation(config);
    });
    if (!taken) chosen.push_back(&check);
  }
  // A view with no counterpart of the other compiler would be read for nothing.
  std::erase_if(chosen, [&](const ConfigCheck* check) {
    const runners::Config& config = check->compile.config;
    return std::ranges::none_of(chosen, [&](const ConfigCheck* other) {
      const runners::Config& c = other->compile.config;
      return c.compiler != config.compiler && c.arch == config.arch &&
             separate_compilation(c) == separate_compilation(config);
    });
  });
  return chosen;
}

oracle::AbiView read_view(const TestCheck& run, const ConfigCheck& check, const runners::Limits& limits,
                          const std::filesystem::path& workdir) {
  const runners::Config& config = check.compile.config;
  oracle::AbiView view;
  view.config = config.name;
  view.compiler = config.compiler;
  view.arch = config.arch;
  view.separate_compilation = separate_compilation(config);
  // The device path's PTX, or ptx mode's artifact: read, never compiled again.
  std::filesystem::path ptx = !check.ptx.empty()               ? check.ptx
                              : run.mode == runners::Mode::ptx ? check.compile.artifact
                                                               : std::filesystem::path();
  if (ptx.empty() && run.layout) {
    // The layout check compiled this config's PTX already, to the same place a compile would.
    const std::filesystem::path made = workdir / config.name / (run.file.stem().string() + ".ptx");
    std::error_code ec;
    if (std::filesystem::is_regular_file(made, ec)) ptx = made;
  }
  if (ptx.empty()) {
    const runners::CompileResult result = runners::compile(run.toolchain, config, runners::Mode::ptx, run.file, workdir,
                                                           limits);
    if (result.artifact.empty()) {
      view.problem = "the PTX compile failed (" + result.process.status_text() + ")";
      return view;
    }
    ptx = result.artifact;
  }
  try {
    view.functions = oracle::read_ptx_functions(read_file(ptx));
  } catch (const Error& error) {
    view.problem = error.what();
  }
  return view;
}

} // namespace

bool separate_compilation(const runners::Config& config) {
  for (const std::string& flag : config.extra_flags)
    if (flag == "-rdc=true" || flag == "-rdc" || flag == "--relocatable-device-code=true" || flag == "-dc" ||
        flag == "-fgpu-rdc")
      return true;
  return false;
}

bool wants_abi_check(const TestInput& input) {
  // A person's file is always compared. A generated test only when it uses the ABI family:
  // every other program's kernels take the same few pointer and integer parameters, which the
  // family covers too (measured in bench/RESULTS.md, "Parameter ABI: where the PTX comes from").
  if (!input.sidecar) return true;
  return input.sidecar->abi_functions && !input.sidecar->abi_functions->empty();
}

std::vector<oracle::AbiFunctionKinds> abi_kinds_of(const generator::Sidecar& sidecar) {
  std::vector<oracle::AbiFunctionKinds> kinds;
  if (!sidecar.abi_functions) return kinds;
  for (const generator::Sidecar::AbiFunction& function : *sidecar.abi_functions)
    kinds.push_back(oracle::AbiFunctionKinds{function.name, function.kernel, function.params, function.result});
  return kinds;
}

std::optional<AbiCheck> check_abi(const TestCheck& run, const TestInput& input, const runners::Limits& compile_limits,
                                  const std::filesystem::path& workdir, oracle::Observations& observations) {
  if (run.mode == runners::Mode::syntax || !wants_abi_check(input)) return std::nullopt;
  // A generated test outside ptx mode costs one PTX compile per compiler (about a quarter of a
  // build). Without separate compilation only kernels bind, and every kernel of the family
  // agreed (bench/RESULTS.md, "Parameter ABI"): a campaign pays for the comparison only when
  // its configs include separate compilation, where the measured differences are.
  if (input.sidecar && run.mode != runners::Mode::ptx &&
      std::ranges::none_of(run.configs,
                           [](const ConfigCheck& check) { return separate_compilation(check.compile.config); }))
    return std::nullopt;
  const std::vector<const ConfigCheck*> chosen = chosen_configs(run);
  if (chosen.empty()) return std::nullopt;
  AbiCheck abi;
  // PTX compiles run in parallel, like the builds.
  std::vector<std::future<oracle::AbiView>> pending;
  for (const ConfigCheck* check : chosen)
    pending.push_back(std::async(std::launch::async, read_view, std::cref(run), std::cref(*check),
                                 std::cref(compile_limits), std::cref(workdir)));
  for (auto& view : pending) abi.views.push_back(view.get());
  for (const oracle::AbiView& view : abi.views)
    if (!view.problem.empty()) abi.notes.push_back("parameter ABI: " + view.config + ": " + view.problem);
  observations.abi_views = abi.views;
  if (input.sidecar) observations.abi_kinds = abi_kinds_of(*input.sidecar);
  return abi;
}

} // namespace cudiff::pipeline
