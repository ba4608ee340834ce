// pipeline: the `focus` pass's oracle for a failure of ptxas — the text compiled once to PTX by
// the guilty config's front end, its `.entry` blocks cut down under ptxas alone (a fifth of a
// second a test, against seconds for a front end on a whole batch), and the kernels left named
// as the source spells them (docs/reducer.md, "Passes").
#include "pipeline/reduce_parts.h"

#include "common/common.h"

#include <atomic>
#include <chrono>
#include <cxxabi.h>
#include <memory>
#include <ostream>

namespace cudiff::pipeline {
namespace {

/// `ns::inner::kernel` from a mangled kernel name: the demangled signature without its
/// parameters, template arguments and return type. An unmangled name (extern "C") as it is.
std::string source_name(const std::string& mangled) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> demangled(abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status),
                                                   std::free);
  if (status != 0 || !demangled) return mangled;
  std::string name = demangled.get();
  // "(anonymous namespace)" holds a parenthesis and a space: out of the way while cutting.
  constexpr std::string_view anonymous = "(anonymous namespace)";
  for (std::size_t at = name.find(anonymous); at != std::string::npos; at = name.find(anonymous))
    name.replace(at, anonymous.size(), "\x01");
  int angles = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '<') ++angles;
    if (name[i] == '>') --angles;
    if (name[i] == '(' && angles == 0) {
      name.resize(i);
      break;
    }
  }
  // A template's arguments after its name, its return type before it (`void ns::k<int>`).
  if (!name.empty() && name.back() == '>') {
    int depth = 0;
    for (std::size_t i = name.size(); i-- > 0;) {
      if (name[i] == '>') ++depth;
      if (name[i] == '<' && --depth == 0) {
        name.resize(i);
        break;
      }
    }
  }
  angles = 0;
  for (std::size_t i = name.size(); i-- > 0;) {
    if (name[i] == '>') ++angles;
    if (name[i] == '<') --angles;
    if (name[i] == ' ' && angles == 0) {
      name.erase(0, i + 1);
      break;
    }
  }
  for (std::size_t at = name.find('\x01'); at != std::string::npos; at = name.find('\x01'))
    name.replace(at, 1, anonymous);
  return name;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

reducer::Culprits SignatureTest::ptxas_culprits(std::size_t jobs, std::ostream& err) const {
  if (!guilty_ || guilty_->outcome == oracle::CompileOutcome::accepted || !runners::device_buildable(guilty_->config))
    return nullptr;
  // A crash of another stage (cicc, the host compiler) is no business of ptxas's; nvcc's own
  // name is its crash of a tool it did not name (docs/oracle.md), which the oracle's first
  // ptxas run on the PTX settles.
  if (guilty_->outcome == oracle::CompileOutcome::crashed &&
      (!guilty_->crash || (guilty_->crash->stage != "ptxas" && guilty_->crash->stage != "nvcc")))
    return nullptr;
  const runners::Toolchain& toolchain = toolchain_;
  return [&toolchain, &err, guilty = *guilty_, limits = check_.compile_limits, file_name = file_name_,
          jobs](const std::string& text) -> std::vector<std::string> {
    const auto started = std::chrono::steady_clock::now();
    TempDir dir("cudiff-focus");
    const std::filesystem::path file = dir.path() / file_name;
    write_file(file, text);
    const runners::CompileResult front = runners::compile(toolchain, runners::front_end_config(guilty.config),
                                                          runners::Mode::ptx, file, dir.path() / "front-end", limits);
    if (front.artifact.empty()) {
      err << "focus: " << guilty.config.name << "'s front end gave no PTX: not a failure of ptxas\n" << std::flush;
      return {};
    }
    const std::string ptx = read_file(front.artifact);
    std::size_t kernels = 0;
    for (const reducer::PtxEntry& entry : reducer::ptx_entries(ptx)) kernels += entry.defined ? 1 : 0;
    if (kernels == 0) return {};
    // A PTX text is interesting when ptxas fails on it as it failed on the original's: the same
    // outcome, a crash of the same stage for the same reason, a rejection's errors among the
    // target's.
    std::atomic<std::size_t> runs = 0;
    const auto same_failure = [&](const std::string& candidate) {
      ++runs;
      TempDir one("cudiff-focus-ptx");
      runners::CompileResult assembled = front;
      assembled.artifact = one.path() / front.artifact.filename();
      write_file(assembled.artifact, candidate);
      const oracle::CompileObservation seen = oracle::observe_compile(
          runners::assemble(toolchain, guilty.config, assembled, one.path(), limits));
      if (seen.outcome != guilty.outcome) return false;
      // ptxas run alone is named; the whole build's crash may not be (nvcc names no tool).
      if (seen.outcome == oracle::CompileOutcome::crashed)
        return seen.crash && guilty.crash && seen.crash->reason == guilty.crash->reason;
      if (seen.outcome == oracle::CompileOutcome::rejected)
        for (const oracle::Diagnostic& diagnostic : seen.diagnostics)
          if ((diagnostic.severity == oracle::Severity::error || diagnostic.severity == oracle::Severity::fatal) &&
              !guilty.allowed_error_ids.contains(diagnostic.id))
            return false;
      return true;
    };
    reducer::Result fewer;
    try {
      fewer = reducer::reduce_entries(ptx, same_failure, jobs);
    } catch (const Error&) {
      err << "focus: ptxas alone does not fail on " << guilty.config.name << "'s PTX as the target does ("
          << format_seconds(seconds_since(started)) << ")\n"
          << std::flush;
      return {};
    }
    std::vector<std::string> names;
    for (const reducer::PtxEntry& entry : reducer::ptx_entries(fewer.text))
      if (entry.defined) names.push_back(source_name(entry.name));
    err << "focus: " << names.size() << " of " << kernels << " kernels in the PTX make ptxas fail alone ("
        << runs.load() << " ptxas runs, " << format_seconds(seconds_since(started)) << "): " << join(names, ", ")
        << "\n"
        << std::flush;
    return names;
  };
}

} // namespace cudiff::pipeline
