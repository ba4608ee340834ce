// pipeline: the device path of a check's builds — each front end once per level to PTX, ptxas
// once per config on that PTX — and which tests it may build (docs/pipeline.md, "Build paths").
#include "pipeline/check_parts.h"

#include <algorithm>
#include <array>
#include <functional>
#include <future>
#include <map>

namespace cudiff::pipeline {
namespace {

/// Constructs whose host code is more than the generator's harness: a device-only build would
/// leave out what they test (extended lambdas are made and passed by host code; managed
/// memory is written and read by it).
constexpr std::array<std::string_view, 2> host_side_constructs{"extended_lambda", "managed_memory"};

/// Why one test's sidecar (a program's, or one test of a batch) needs its host code; empty: none.
std::string host_side_of(const generator::Sidecar& sidecar) {
  if (sidecar.layout_probes && !sidecar.layout_probes->empty()) return "layout probes (host views)";
  if (sidecar.probes && !sidecar.probes->empty()) return "planted probes";
  if (sidecar.edge) return "an edge program";
  if (sidecar.constructs_used)
    for (const generator::Sidecar::Construct& construct : *sidecar.constructs_used)
      if (std::ranges::find(host_side_constructs, construct.name) != host_side_constructs.end())
        return "construct " + construct.name;
  return {};
}

/// A compile with the check's hang confirmation: past its limit, once more with a longer one.
runners::CompileResult confirmed(const std::function<runners::CompileResult(const runners::Limits&)>& build,
                                 const runners::Limits& limits, std::string& note) {
  runners::CompileResult result = build(limits);
  if (!result.process.timed_out) return result;
  runners::Limits longer = limits;
  longer.wall_seconds *= kHangConfirmationFactor;
  runners::CompileResult retry = build(longer);
  if (!retry.process.timed_out)
    note = "passed its " + format_seconds(limits.wall_seconds) + " limit, finished in " +
           format_seconds(retry.process.wall_seconds) + " with a longer one";
  return retry;
}

/// One front end and the configs that share it: the PTX compile once, then ptxas per config.
std::vector<ConfigCheck> build_group(const runners::Toolchain& toolchain, const std::vector<runners::Config>& configs,
                                     const CheckRequest& options, const std::filesystem::path& file,
                                     const std::filesystem::path& workdir) {
  runners::Config front = runners::front_end_config(configs.front());
  std::string front_note;
  const runners::CompileResult front_end = confirmed(
      [&](const runners::Limits& limits) {
        return runners::compile(toolchain, front, runners::Mode::ptx, file, workdir / "front-end", limits);
      },
      options.compile_limits, front_note);
  std::vector<ConfigCheck> checks;
  for (const runners::Config& config : configs) {
    ConfigCheck check;
    if (front_end.artifact.empty()) {
      // The front end did not give PTX: every config sharing it observes that compile.
      check.compile = front_end;
      check.compile.config = config;
      check.compile.front_end = front_end.command;  // a device-path build, for the record
      check.note = front_note;
    } else {
      check.ptx = front_end.artifact;
      check.compile = confirmed(
          [&](const runners::Limits& limits) {
            return runners::assemble(toolchain, config, front_end, workdir, limits);
          },
          options.compile_limits, check.note);
      if (check.note.empty()) check.note = front_note;
    }
    check.observation = oracle::observe_compile(check.compile);
    checks.push_back(std::move(check));
  }
  return checks;
}

/// Whether a rejection was decided before ptxas ran: every error is the front end's or NVVM's,
/// and no tool after them (ptxas, nvlink, the host compiler nvcc runs after ptxas) said anything.
bool rejected_before_ptxas(const ConfigCheck& check) {
  const oracle::CompileObservation& seen = check.observation;
  if (seen.outcome != oracle::CompileOutcome::rejected || check.compile.process.timed_out) return false;
  bool any_error = false;
  for (const oracle::Diagnostic& diagnostic : seen.diagnostics) {
    if (diagnostic.tool != oracle::Tool::frontend && diagnostic.tool != oracle::Tool::device_codegen) return false;
    any_error = any_error || diagnostic.severity == oracle::Severity::error ||
                diagnostic.severity == oracle::Severity::fatal;
  }
  return any_error;
}

} // namespace

std::vector<ConfigCheck> build_sharing_front_end_rejections(const runners::Toolchain& toolchain,
                                                            const std::vector<runners::Config>& configs,
                                                            const WholeBuild& whole) {
  // Configs with one front end in one chain, in the order of their first config.
  std::vector<std::vector<std::size_t>> chains;
  std::map<std::vector<std::string>, std::size_t> chain_of;
  for (std::size_t i = 0; i < configs.size(); ++i) {
    if (!runners::device_buildable(configs[i])) {
      chains.push_back({i});
      continue;
    }
    const auto [at, added] = chain_of.emplace(runners::front_end_key(toolchain, configs[i]), chains.size());
    if (added) chains.emplace_back();
    chains[at->second].push_back(i);
  }
  const auto build_chain = [&](const std::vector<std::size_t>& chain) {
    std::vector<ConfigCheck> checks;
    for (std::size_t index : chain) {
      const runners::Config& config = configs[index];
      if (!checks.empty() && rejected_before_ptxas(checks.front())) {
        ConfigCheck shared = checks.front();
        shared.compile.config = config;
        shared.observation = oracle::observe_compile(shared.compile);
        shared.note = checks.front().compile.config.name + "'s build, shared: rejected before ptxas, which alone " +
                      "differs between the two";
        checks.push_back(std::move(shared));
      } else {
        checks.push_back(whole(config));
      }
    }
    return checks;
  };
  std::vector<std::future<std::vector<ConfigCheck>>> pending;
  for (const auto& chain : chains) pending.push_back(std::async(std::launch::async, build_chain, std::cref(chain)));
  std::vector<ConfigCheck> checks(configs.size());
  for (std::size_t c = 0; c < chains.size(); ++c) {
    std::vector<ConfigCheck> built = pending[c].get();
    for (std::size_t k = 0; k < chains[c].size(); ++k) checks[chains[c][k]] = std::move(built[k]);
  }
  return checks;
}

std::string to_string(BuildPath path) { return path == BuildPath::device ? "device" : "whole"; }

std::optional<BuildPath> parse_build_path(std::string_view text) {
  if (text == "device") return BuildPath::device;
  if (text == "whole") return BuildPath::whole;
  return std::nullopt;
}

std::string whole_build_reason(const TestInput& input, runners::Mode mode, bool runs) {
  if (mode != runners::Mode::binary && mode != runners::Mode::run) return "mode " + runners::to_string(mode);
  if (!input.sidecar || !input.sidecar->kernels || input.sidecar->kernels->empty())
    return "not a generated program (no sidecar kernels)";
  if (!executor_can_load(input.source)) return "managed memory";
  if (std::string why = host_side_of(*input.sidecar); !why.empty()) return why;
  if (input.sidecar->batch)
    for (const generator::Sidecar& test : input.sidecar->batch->tests)
      if (std::string why = host_side_of(test); !why.empty()) return why;
  // Binaries that run: the cubins run instead, each kernel from its launch plan.
  if (runs) return device_run_reason(input);
  return {};
}

std::vector<ConfigCheck> build_device_path(const runners::Toolchain& toolchain, const CheckRequest& options,
                                           const std::filesystem::path& file, const std::filesystem::path& workdir,
                                           const WholeBuild& whole) {
  // Configs with the same front end share one group, in the order of their first config.
  std::vector<std::vector<runners::Config>> groups;
  std::map<std::vector<std::string>, std::size_t> group_of;
  std::vector<std::pair<bool, std::size_t>> place;  // per config: (grouped, group or config index)
  for (std::size_t i = 0; i < options.configs.size(); ++i) {
    const runners::Config& config = options.configs[i];
    if (!runners::device_buildable(config)) {
      place.emplace_back(false, i);
      continue;
    }
    const auto [at, added] = group_of.emplace(runners::front_end_key(toolchain, config), groups.size());
    if (added) groups.emplace_back();
    place.emplace_back(true, at->second);
    groups[at->second].push_back(config);
  }
  // Every group and every whole build at once, as build_all does: each is its own process tree.
  std::vector<std::future<std::vector<ConfigCheck>>> grouped;
  for (const auto& group : groups)
    grouped.push_back(std::async(std::launch::async, build_group, std::cref(toolchain), std::cref(group),
                                 std::cref(options), std::cref(file), std::cref(workdir)));
  std::map<std::size_t, std::future<ConfigCheck>> wholes;
  for (const auto& [is_grouped, index] : place)
    if (!is_grouped) wholes.emplace(index, std::async(std::launch::async, whole, std::cref(options.configs[index])));
  std::vector<std::vector<ConfigCheck>> built;
  for (auto& future : grouped) built.push_back(future.get());
  std::vector<std::size_t> next(groups.size(), 0);
  std::vector<ConfigCheck> checks;
  for (std::size_t i = 0; i < place.size(); ++i) {
    const auto [is_grouped, index] = place[i];
    if (is_grouped) checks.push_back(std::move(built[index][next[index]++]));
    else checks.push_back(wholes.at(i).get());
  }
  return checks;
}

} // namespace cudiff::pipeline
