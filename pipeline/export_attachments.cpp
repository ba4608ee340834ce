// pipeline: what an exported bug report carries beside its reproducer for a stage's bug — the
// PTX ptxas is given, or the device-side LLVM IR clang's backend is given — built from the
// exported reproducer with the guilty config's own flags.
#include "pipeline/limits.h"
#include "pipeline/recheck.h"

namespace cudiff::pipeline {
namespace {

std::string detail_text(const boost::json::value& details, std::string_view key) {
  const auto* object = details.if_object();
  const auto* value = object == nullptr ? nullptr : object->if_contains(key);
  return value != nullptr && value->is_string() ? std::string(value->as_string()) : std::string();
}

/// The config whose build shows the bug: the first differing one of a run finding, else the
/// finding's first config (a crash's, a rejection's).
std::string guilty_config(const triage::StoredFinding& finding) {
  if (const auto* details = finding.details.if_object())
    if (const auto* differing = details->if_contains("differing"); differing != nullptr && differing->is_array())
      for (const auto& config : differing->as_array())
        if (config.is_string()) return std::string(config.as_string());
  if (finding.configs.is_array())
    for (const auto& config : finding.configs.as_array())
      if (config.is_string()) return std::string(config.as_string());
  return {};
}

} // namespace

std::vector<std::filesystem::path> stage_attachments(const triage::Bucket& bucket, const triage::StoredFinding& finding,
                                                     const std::filesystem::path& reproducer,
                                                     const runners::Toolchain& toolchain,
                                                     std::vector<std::string>& notes) {
  std::string stage = detail_text(finding.details, "stage");
  if (stage.empty()) stage = bucket.stage;
  if (stage != "ptxas" && stage != "device-codegen" && stage != "nvvm") return {};
  const std::string name = guilty_config(finding);
  std::vector<runners::Config> configs;
  try {
    configs = runners::parse_configs(name);
  } catch (const Error& error) {
    notes.push_back("no PTX or IR attached: config '" + name + "' is not one cudiff knows (" + error.what() + ")");
    return {};
  }
  if (configs.size() != 1) return {};
  runners::Config config = configs.front();
  // A clang backend bug is best shown by the IR its backend is given; anything else by the PTX
  // (ptxas's input, or nvcc's device code generator's output).
  const bool llvm_ir = stage == "device-codegen" && config.compiler == runners::CompilerKind::clang;
  const std::filesystem::path directory = reproducer.parent_path();
  const std::filesystem::path output = directory /
                                       (reproducer.stem().string() + "." + config.name + (llvm_ir ? ".ll" : ".ptx"));
  TempDir scratch("cudiff-export");
  runners::Command command = runners::compile_command(toolchain, config, runners::Mode::ptx, reproducer, output,
                                                      scratch.path());
  if (llvm_ir) command.argv.push_back("-emit-llvm");
  command.limits.wall_seconds = kFileCompileSeconds;
  const runners::SubprocessResult built = runners::run_subprocess(command);
  std::error_code ec;
  if (!built.exited_zero() || !std::filesystem::exists(output, ec)) {
    std::filesystem::remove(output, ec);
    notes.push_back(std::string("no ") + (llvm_ir ? "LLVM IR" : "PTX") + " attached: " + config.name + " " +
                    built.status_text() + " building it (" + command.display() + ")");
    return {};
  }
  return {output};
}

} // namespace cudiff::pipeline
