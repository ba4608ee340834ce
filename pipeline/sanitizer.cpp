// pipeline: compute-sanitizer — finding it, choosing the tools a program needs, running one
// tool on one binary, and reading what it printed (the documented report format: every line
// starts with "=========", an error is a headline and indented detail lines, and a summary
// line counts the errors). The gate that uses it is sanitizer_gate.cpp.
#include "pipeline/sanitizer_parts.h"

#include <algorithm>
#include <cstdlib>

namespace cudiff::pipeline {
namespace {

/// Every line compute-sanitizer prints starts with this (then a space, or nothing on a
/// separator line).
constexpr std::string_view kPrefix = "=========";

std::string lower(std::string_view text) {
  std::string out(text);
  std::ranges::transform(out, out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

/// The number that follows `label` in `line`, if any ("ERROR SUMMARY: 3 errors" -> 3).
std::optional<std::int64_t> number_after(std::string_view line, std::string_view label) {
  const std::size_t at = line.find(label);
  if (at == std::string_view::npos) return std::nullopt;
  std::size_t pos = at + label.size();
  while (pos < line.size() && line[pos] == ' ') ++pos;
  std::int64_t value = 0;
  bool digits = false;
  for (; pos < line.size() && line[pos] >= '0' && line[pos] <= '9' && value < (std::int64_t{1} << 50); ++pos) {
    value = value * 10 + (line[pos] - '0');
    digits = true;
  }
  return digits ? std::optional<std::int64_t>(value) : std::nullopt;
}

/// Lines of the tool's own banner and summaries: never an error's headline.
bool bookkeeping(std::string_view body) {
  return body.starts_with("COMPUTE-SANITIZER") || contains(body, "ERROR SUMMARY") ||
         contains(body, "RACECHECK SUMMARY") || contains(body, "LEAK SUMMARY") ||
         body.starts_with("Target application returned an error") || body.starts_with("This application");
}

} // namespace

std::string to_string(SanitizerTool tool) {
  switch (tool) {
  case SanitizerTool::memcheck: return "memcheck";
  case SanitizerTool::initcheck: return "initcheck";
  case SanitizerTool::racecheck: return "racecheck";
  case SanitizerTool::synccheck: return "synccheck";
  }
  return "memcheck";
}

std::string sanitizer_cause(std::string_view error_text) {
  const std::string text = lower(error_text);
  // Order matters: "Warp Hardware Stack Overflow" and "Invalid __local__ write" near a stack
  // overflow are a stack overflow; "misaligned" comes with an "Invalid ... read" headline.
  if (contains(text, "stack overflow")) return "stack overflow";
  if (contains(text, "uninitialized")) return "uninitialized read";
  if (contains(text, "race reported") || contains(text, "hazard")) return "race";
  if (contains(text, "barrier") || contains(text, "divergent thread") || contains(text, "syncwarp") ||
      contains(text, "invalid arguments"))
    return "barrier";
  if (contains(text, "misaligned")) return "misaligned";
  if (contains(text, "out of bounds") || contains(text, "out-of-range") || contains(text, "invalid __global__") ||
      contains(text, "invalid __shared__") || contains(text, "invalid __local__"))
    return "out-of-bounds";
  if (contains(text, "illegal address")) return "illegal address";
  if (contains(text, "leak")) return "leak";
  if (contains(text, "illegal instruction") || contains(text, "hardware exception") || contains(text, "warp "))
    return "hardware exception";
  if (contains(text, "program hit")) return "api error";
  return "other";
}

SanitizerReport parse_sanitizer_output(std::string_view text) {
  SanitizerReport report;
  bool in_error = false;
  std::vector<std::string> later_headlines;  // for the cause when the first error is an API error
  for (const std::string& raw : split_lines(std::string(text))) {
    std::string_view line = raw;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.starts_with(kPrefix)) continue;  // the program's own output
    std::string_view body = line.substr(kPrefix.size());
    if (body.empty() || trim(body).empty()) {  // a separator: ends an error's block
      in_error = false;
      continue;
    }
    if (body.front() == ' ') body.remove_prefix(1);
    if (const auto errors = number_after(body, "ERROR SUMMARY:")) {
      report.summary_found = true;
      report.errors = std::max(report.errors, *errors);
      in_error = false;
      continue;
    }
    if (contains(body, "RACECHECK SUMMARY:")) {
      // "RACECHECK SUMMARY: 2 hazards displayed (1 error, 1 warning)": errors count, warnings
      // (WAR hazards the tool is unsure of) do not.
      if (const std::size_t open = body.find('('); open != std::string_view::npos)
        if (const auto errors = number_after(body.substr(open), "(")) {
          report.summary_found = true;
          report.errors = std::max(report.errors, *errors);
        }
      in_error = false;
      continue;
    }
    if (bookkeeping(body)) continue;
    const bool detail = body.starts_with(" ");
    if (!detail) {
      if (report.first_error.empty()) {
        report.first_error.emplace_back(trim(body));
        in_error = true;
      } else {
        later_headlines.emplace_back(trim(body));
        in_error = false;
      }
      continue;
    }
    if (in_error && report.first_error.size() < 8) report.first_error.emplace_back(trim(body));
  }
  if (!report.first_error.empty()) {
    report.cause = sanitizer_cause(join(report.first_error, "\n"));
    // "Program hit cudaErrorLaunchFailure ..." follows the device fault that caused it when
    // the fault was reported; name the fault.
    if (report.cause == "api error")
      for (const std::string& headline : later_headlines)
        if (const std::string cause = sanitizer_cause(headline); cause != "api error" && cause != "other") {
          report.cause = cause;
          break;
        }
  }
  return report;
}

bool SanitizerRun::clean() const {
  return process.started && !process.timed_out && process.signal == 0 && process.exit_code != 86 &&
         report.summary_found && report.errors == 0;
}

std::string SanitizerRun::inconclusive_reason() const {
  if (!process.started) return "compute-sanitizer did not start (" + process.start_error + ")";
  if (process.timed_out || process.signal != 0) return to_string(tool) + " " + process.status_text();
  if (!report.summary_found) return to_string(tool) + " printed no summary (" + process.status_text() + ")";
  return "";
}

std::optional<std::filesystem::path> find_compute_sanitizer(const runners::Toolchain& toolchain) {
  std::vector<std::filesystem::path> homes;
  if (const char* home = std::getenv("CUDA_HOME"); home != nullptr && *home != '\0') homes.emplace_back(home);
  if (!toolchain.cuda_home.empty()) homes.push_back(toolchain.cuda_home);
  homes.emplace_back("/usr/local/cuda");
  std::error_code ec;
  for (const std::filesystem::path& home : homes)
    for (const std::filesystem::path& candidate :
         {home / "bin" / "compute-sanitizer", home / "compute-sanitizer" / "compute-sanitizer"})
      if (std::filesystem::is_regular_file(candidate, ec)) return candidate;
  return find_on_path("compute-sanitizer");
}

std::filesystem::path require_compute_sanitizer(const runners::Toolchain& toolchain, std::string_view why) {
  if (auto found = find_compute_sanitizer(toolchain)) return *found;
  throw_environment(std::string(why) + " needs compute-sanitizer (looked in $CUDA_HOME/bin, " +
                    (toolchain.cuda_home / "bin").string() + ", /usr/local/cuda/bin and PATH)");
}

std::vector<SanitizerTool> sanitizer_tools_for(std::string_view source,
                                               const std::optional<generator::Sidecar>& sidecar) {
  std::vector<SanitizerTool> tools = {SanitizerTool::memcheck, SanitizerTool::initcheck};
  bool shared = contains(source, "__shared__");
  bool barrier = false;
  for (std::string_view word :
       {"__syncthreads", "__syncwarp", "_sync(", "barrier", "bar.sync", "cooperative_groups", "this_thread_block"})
    barrier = barrier || contains(source, word);
  // A generated program's sidecar names the constructs it used; a batch's, each test's.
  auto read = [&](const generator::Sidecar& test) {
    if (!test.constructs_used) return;
    for (const auto& construct : *test.constructs_used) {
      shared = shared || contains(construct.name, "shared");
      barrier = barrier || contains(construct.name, "sync") || contains(construct.name, "shuffle") ||
                contains(construct.name, "vote") || contains(construct.name, "exchange") ||
                contains(construct.name, "last_block");
    }
  };
  if (sidecar) {
    read(*sidecar);
    if (sidecar->batch)
      for (const generator::Sidecar& test : sidecar->batch->tests) read(test);
  }
  if (shared) tools.push_back(SanitizerTool::racecheck);
  if (barrier) tools.push_back(SanitizerTool::synccheck);
  return tools;
}

SanitizerRun run_sanitizer(const std::filesystem::path& sanitizer, SanitizerTool tool, const std::string& config,
                           const std::filesystem::path& binary, const runners::GpuInfo& gpu,
                           const runners::Limits& limits) {
  SanitizerRun run;
  run.tool = tool;
  run.config = config;
  // --error-exitcode: a report shows in the exit status too; --print-limit: the first errors
  // are enough to name the cause, and a faulting kernel of 10,000 threads prints one per thread.
  run.command.argv = {sanitizer.string(), "--tool", to_string(tool), "--error-exitcode", "86",
                      "--print-limit",    "10",     binary.string()};
  run.command.limits = limits;
  // The environment of the program's other runs (a process's, an executor's): the driver's
  // JIT cache off too, so a PTX-only binary is JIT-compiled here as it was there.
  run.command.env_overrides = runners::program_environment(gpu.visible_device);
  run.command.cwd = binary.parent_path();
  run.process = runners::run_subprocess(run.command);
  // compute-sanitizer prints to stdout, interleaved with the program's own lines.
  run.report = parse_sanitizer_output(run.process.out.text + "\n" + run.process.err.text);
  return run;
}

} // namespace cudiff::pipeline
