// pipeline: stage attribution's rules — which stage what the swaps showed points at, and the
// stage of a compile finding from the tool that spoke. Pure: no compiler runs here.
#include "pipeline/attribution_parts.h"

#include <algorithm>
#include <map>

namespace cudiff::pipeline::attribution {
namespace {

using oracle::Stage;

std::string text_of(const boost::json::object& object, std::string_view key) {
  const auto* value = object.if_contains(key);
  return value != nullptr && value->is_string() ? std::string(value->as_string()) : std::string();
}

bool mentions(std::string_view text, std::initializer_list<std::string_view> parts) {
  return std::ranges::any_of(parts, [&](std::string_view part) { return text.find(part) != std::string_view::npos; });
}

/// clang runs its front end and the NVPTX backend in one process (-cc1): the crash text tells
/// which was running. Backend errors, instruction selection and pass-manager frames are code
/// generation; the parser and Sema are the front end.
Decision clang_crash(std::string_view reason, std::string_view text) {
  if (reason == "backend error" || mentions(text, {"error in backend", "LLVM ERROR", "Cannot select", "Code generation",
                                                   "Running pass", "SelectionDAG", "NVPTX", "llvm::MachineFunction"}))
    return {Stage::device_codegen, "clang crashed in code generation (" + std::string(reason) + ")"};
  if (mentions(text, {"clang::Sema", "clang::Parser", "parser at"}))
    return {Stage::frontend, "clang crashed in its front end (" + std::string(reason) + ")"};
  return {Stage::unknown, "clang crashed (" + std::string(reason) + ") and its output does not say in which part"};
}

/// The stage of the tool a crash names (oracle::Crash::stage).
Decision crash_stage(const boost::json::object& details, std::string_view crash_output) {
  std::string tool = text_of(details, "tool");
  if (tool.empty()) tool = text_of(details, "stage");
  const std::string reason = text_of(details, "reason");
  const std::string text = crash_output.empty() ? text_of(details, "excerpt") : std::string(crash_output);
  const std::string said = tool + " crashed (" + reason + ")";
  if (tool == "cicc" || tool == "nvvm" || tool == "libnvvm") return {Stage::device_codegen, said};
  if (tool == "ptxas") return {Stage::ptxas, said};
  if (tool == "cudafe++" || tool == "cudafe") return {Stage::frontend, said};
  if (tool == "nvlink" || tool == "fatbinary" || tool == "ld" || tool == "collect2" || tool == "clang-linker-wrapper" ||
      tool == "clang-nvlink-wrapper" || tool == "llvm-offload-binary")
    return {Stage::linker, said};
  if (tool == "gcc" || tool == "g++" || tool == "cc1plus" || tool == "cc1") return {Stage::host_compiler, said};
  if (tool == "clang" || tool.starts_with("clang++")) return clang_crash(reason, text);
  return {Stage::unknown, said + ": no stage is known for that tool"};
}

/// oracle::Tool's spelling of the first error's tool, as a stage.
Decision rejection_stage(const boost::json::object& details) {
  const auto* rejected = details.if_contains("rejected");
  if (rejected == nullptr || !rejected->is_array()) return {Stage::unknown, "no rejecting config is named"};
  for (const auto& entry : rejected->as_array()) {
    if (!entry.is_object()) continue;
    const auto* error = entry.as_object().if_contains("first_error");
    if (error == nullptr || !error->is_object()) continue;
    const std::string tool = text_of(error->as_object(), "tool");
    const std::string said = text_of(entry.as_object(), "config") + " rejected it: the first error is " + tool + "'s";
    if (tool == "frontend") return {Stage::frontend, said};
    if (tool == "device_codegen") return {Stage::device_codegen, said};
    if (tool == "host_compiler") return {Stage::host_compiler, said};
    if (tool == "ptxas") return {Stage::ptxas, said};
    if (tool == "nvlink" || tool == "linker") return {Stage::linker, said};
    return {Stage::unknown, said + ", which names no stage"};
  }
  return {Stage::unknown, "the rejecting configs printed no error"};
}

} // namespace

std::string other_ptxas_level(const std::string& level) { return level == "O0" ? "O3" : "O0"; }

std::string to_string(SwapResult result) {
  switch (result) {
  case SwapResult::right: return "right";
  case SwapResult::still_wrong: return "still wrong";
  case SwapResult::build_failed: return "build failed";
  case SwapResult::not_run: return "not run";
  }
  return "?";
}

Decision decide_config(const OddConfig& odd) {
  const std::string& name = odd.config;
  if (odd.ptx_only) {
    if (odd.twin == SwapResult::right)
      return {Stage::driver_jit, name + " is wrong, the same PTX assembled by ptxas is right: the driver's JIT"};
    if (odd.twin == SwapResult::still_wrong)
      return {Stage::device_codegen, name + " and its ptxas-built twin are both wrong: the PTX itself is wrong"};
    return {Stage::unknown, name + ": its ptxas-built twin could not be built or run"};
  }
  if (!odd.ptxas_swapped) return {Stage::unknown, name + ": no ptxas level to swap (-G debug code)"};
  const std::string swapped = "ptxas -" + other_ptxas_level(odd.ptxas_level);
  switch (*odd.ptxas_swapped) {
  case SwapResult::right:
    return {Stage::ptxas, name + " is right with " + swapped + ", the same PTX: ptxas -" + odd.ptxas_level};
  case SwapResult::build_failed:
  case SwapResult::not_run: return {Stage::unknown, name + " with " + swapped + ": " + to_string(*odd.ptxas_swapped)};
  case SwapResult::still_wrong: break;
  }
  if (odd.relocatable && odd.twin == SwapResult::right)
    return {Stage::unknown, name + " is wrong only with relocatable device code, and with " + swapped +
                                " too: the relocatable PTX (device-codegen) or the device link (linker); "
                                "these swaps do not split them"};
  if (odd.driver_jit == SwapResult::right)
    return {Stage::unknown, name + " is wrong with ptxas at both levels but right through the driver's JIT of the "
                                   "same PTX: the assemblers disagree on it"};
  std::string why = name + " is still wrong with " + swapped + ": the PTX is already wrong";
  if (odd.driver_jit == SwapResult::still_wrong) why += " (the driver's JIT of it is wrong too)";
  // ptxas is cleared (the same PTX is wrong at both of its levels); the cicc-lowered twin keeps
  // ptxas's level and changes only what NVVM's optimizer did to the PTX.
  if (odd.cicc_lowered == SwapResult::right)
    return {Stage::nvvm, why + "; its twin " + odd.cicc_twin + " (cicc -O0, ptxas -" + odd.ptxas_level +
                             ") is right: NVVM's optimizer made the wrong PTX"};
  if (odd.cicc_lowered == SwapResult::still_wrong)
    why += "; its twin " + odd.cicc_twin + " (cicc -O0) is wrong too: not NVVM's optimizer alone";
  return {Stage::device_codegen, why};
}

Decision decide_twins(const PtxasTwins& twins) {
  const std::string a = twins.config + " (ptxas -" + twins.level + ")";
  const std::string b = twins.twin + " (ptxas -" + twins.twin_level + ")";
  std::string why = a + " and " + b + " differ on the same PTX: ptxas";
  // Each ptxas level's side: true as `config`, false as `twin`, none for neither or unknown.
  std::map<std::string, std::optional<bool>> side = {{twins.level, true}, {twins.twin_level, false}};
  std::vector<std::string> jit_like_config, jit_like_twin;
  for (const PtxasTwins::Other& other : twins.others) {
    if (!other.level.empty()) side[other.level] = other.like_config;
    else if (other.like_config) (*other.like_config ? jit_like_config : jit_like_twin).push_back(other.name);
  }
  const auto zero = side.find("O0");
  // Two levels alone tell nothing more than that they differ.
  if (twins.others.empty() || zero == side.end() || !zero->second) return {Stage::ptxas, why};
  const auto name_of = [&](bool like_config) { return like_config ? twins.config : twins.twin; };
  std::vector<std::string> with_zero, departing;
  bool in_order = true;
  for (const char* level : {"O0", "O1", "O2", "O3"}) {
    const auto found = side.find(level);
    if (found == side.end() || !found->second) continue;  // not built, or printed neither
    const bool departs = *found->second != *zero->second;
    if (!departs && !departing.empty()) in_order = false;
    (departs ? departing : with_zero).push_back(std::string("-") + level);
  }
  if (departing.empty()) return {Stage::ptxas, why};
  if (!in_order) {
    why += "; the levels do not split in order (" + join(with_zero, ", ") + " as " + name_of(*zero->second) + "; " +
           join(departing, ", ") + " as " + name_of(!*zero->second) + "): which is wrong is not told";
    return {Stage::ptxas, why};
  }
  why += "; the first level that departs from -O0 is " + departing.front() +
         ", the likelier wrong one (-O0 "
         "transforms the PTX least): " +
         join(with_zero, ", ") + (with_zero.size() == 1 ? " prints" : " print") + " what " + name_of(*zero->second) +
         " prints, " + join(departing, ", ") + " what " + name_of(!*zero->second) + " prints";
  const std::vector<std::string>& jit_departs = *zero->second ? jit_like_twin : jit_like_config;
  const std::vector<std::string>& jit_stays = *zero->second ? jit_like_config : jit_like_twin;
  if (!jit_departs.empty()) why += "; the driver's JIT sides with " + departing.back();
  else if (!jit_stays.empty()) why += "; the driver's JIT sides with -O0";
  return {Stage::ptxas, why};
}

Decision decide_finding(const std::vector<Decision>& odd_configs, bool host_only, bool common) {
  if (host_only)
    return {Stage::host_compiler, "every config prints the same device results; only lines host code prints differ"};
  if (odd_configs.empty())
    return {Stage::unknown, "no config's output could be called wrong (no prediction and no majority, or the "
                            "difference did not show again)"};
  const Stage stage = odd_configs.front().stage;
  const bool agree = std::ranges::all_of(odd_configs, [&](const Decision& d) { return d.stage == stage; });
  if (!agree) {
    std::vector<std::string> stages;
    for (const Decision& decision : odd_configs) stages.push_back(oracle::to_string(decision.stage));
    return {Stage::unknown, "the wrong configs point at different stages (" + join(stages, ", ") + ")"};
  }
  if (stage == Stage::unknown) return {Stage::unknown, odd_configs.front().why};
  if (common && stage == Stage::device_codegen)
    return {Stage::unknown, "every config's PTX seems wrong in the same way: the prediction itself is the likelier "
                            "culprit (or a bug both compilers share)"};
  std::vector<std::string> reasons;
  for (const Decision& decision : odd_configs) reasons.push_back(decision.why);
  return {stage, join(reasons, "; ")};
}

std::optional<LastStep> last_nvcc_step(std::string_view verbose_stderr) {
  std::optional<LastStep> last;
  for (const std::string& raw : split(std::string(verbose_stderr), '\n')) {
    const std::string_view line = trim(raw);
    if (!line.starts_with("#$ ")) continue;
    const std::string command(trim(line.substr(3)));
    std::string word = split(command, ' ').front();
    // "_NVVM_BRANCH_=nvvm", "PATH=...": settings, not steps.
    if (word.empty() || word.find('=') != std::string::npos) continue;
    std::erase(word, '"');
    if (const std::size_t slash = word.rfind('/'); slash != std::string::npos) word = word.substr(slash + 1);
    last = LastStep{word, command};
  }
  return last;
}

Decision decide_nvcc_crash_step(const LastStep& step, std::string_view reason) {
  boost::json::object details{{"tool", step.tool}, {"reason", std::string(reason)}};
  Decision decision = crash_stage(details, "");
  decision.why = "nvcc named no tool; rebuilt with nvcc -v, the last step it started was " + step.tool + ", which " +
                 "crashed (" + std::string(reason) + ")";
  if (decision.stage == Stage::unknown) decision.why += ": no stage is known for that tool";
  return decision;
}

Decision decide_compile(const oracle::Finding& finding, std::string_view crash_output) {
  switch (finding.kind) {
  case oracle::FindingKind::crash: return crash_stage(finding.details, crash_output);
  case oracle::FindingKind::compile_status_mismatch:
  case oracle::FindingKind::false_rejection:
  case oracle::FindingKind::late_rejection: return rejection_stage(finding.details);
  default: return {Stage::unknown, "not a compile finding"};
  }
}

} // namespace cudiff::pipeline::attribution
