// pipeline: a finding's cause key — the guilty config's PTX built from the reproducer and
// normalised (triage/cause.cpp), or the signature's part that names the bug; and a file's
// causes (`cudiff triage cause`, the known-bug suite's keys).
#include "pipeline/cause.h"

#include "pipeline/record.h"

namespace cudiff::pipeline {
namespace {

std::vector<std::string> strings_at(const boost::json::object& details, std::string_view key) {
  std::vector<std::string> out;
  const auto* value = details.if_contains(key);
  if (value != nullptr && value->is_array())
    for (const auto& item : value->as_array())
      if (item.is_string()) out.emplace_back(item.as_string());
  return out;
}

} // namespace

std::string guilty_config_of(const oracle::Finding& finding) {
  if (const std::vector<std::string> differing = strings_at(finding.details, "differing"); !differing.empty())
    return differing.front();
  if (const auto* groups = finding.details.if_contains("groups");
      groups != nullptr && groups->is_array() && groups->as_array().size() > 1 && groups->as_array()[1].is_object())
    if (const auto configs = strings_at(groups->as_array()[1].as_object(), "configs"); !configs.empty())
      return configs.front();
  return finding.configs.empty() ? std::string() : finding.configs.front();
}

std::optional<triage::Cause> ptx_cause(const std::filesystem::path& source, const runners::Config& config,
                                       const std::vector<std::string>& kernels, const runners::Toolchain& toolchain,
                                       double compile_seconds, std::string& note) {
  TempDir scratch("cudiff-cause");
  const std::filesystem::path output = scratch.path() / (source.stem().string() + ".ptx");
  runners::Command command = runners::compile_command(toolchain, config, runners::Mode::ptx, source, output,
                                                      scratch.path());
  command.limits.wall_seconds = compile_seconds;
  const runners::SubprocessResult built = runners::run_subprocess(command);
  std::error_code ec;
  if (!built.exited_zero() || !std::filesystem::exists(output, ec)) {
    note = config.name + "'s PTX did not build (" + built.status_text() + ")";
    return std::nullopt;
  }
  const std::string ptx = triage::normalize_ptx(read_file(output), kernels);
  if (ptx.empty()) {
    note = config.name + "'s PTX holds no device function";
    return std::nullopt;
  }
  return triage::make_cause("ptx", ptx);
}

triage::Cause cause_of(const oracle::Finding& finding, const triage::Signature& signature, const std::string& stage,
                       const std::filesystem::path& source, const std::vector<runners::Config>& configs,
                       const runners::Toolchain& toolchain, double compile_seconds, std::string& note) {
  note.clear();
  if (!triage::cause_from_ptx(signature.kind, stage)) return triage::cause_from_signature(signature);
  const std::string guilty = guilty_config_of(finding);
  const auto config = std::ranges::find_if(configs, [&](const runners::Config& c) { return c.name == guilty; });
  if (config == configs.end()) {
    note = "its guilty config '" + guilty + "' is not among the configs checked: keyed by its signature";
    return triage::cause_from_signature(signature);
  }
  if (auto cause = ptx_cause(source, *config, strings_at(finding.details, "differing_kernels"), toolchain,
                             compile_seconds, note))
    return *cause;
  note += ": keyed by its signature";
  return triage::cause_from_signature(signature);
}

std::vector<FileCause> causes_of_file(CheckRequest request, const runners::Toolchain& toolchain,
                                      const runners::GpuDiscovery& gpus) {
  request.attribute_stages = true;
  TempDir dir("cudiff-cause");
  const TestCheck run = check_test(request, toolchain, gpus, dir.path());
  const std::vector<triage::Signature> signatures = signatures_of(run);
  std::vector<FileCause> causes;
  for (std::size_t i = 0; i < run.verdict.findings.size(); ++i) {
    FileCause entry{run.verdict.findings[i], signatures[i], {}, {}};
    const auto* stage = entry.finding.details.if_contains("stage");
    entry.cause = cause_of(entry.finding, entry.signature,
                           stage != nullptr && stage->is_string() ? std::string(stage->as_string())
                                                                  : entry.signature.stage,
                           run.file, request.configs, toolchain, request.compile_limits.wall_seconds, entry.note);
    causes.push_back(std::move(entry));
  }
  return causes;
}

} // namespace cudiff::pipeline
