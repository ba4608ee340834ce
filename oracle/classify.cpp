// oracle: observe_compile — one compile's diagnostics and its outcome (accepted, rejected,
// crashed, hung), with the crash sign that decided it.
//
// Exit statuses seen for ordinary rejections (tests/golden/diagnostics/*.exit):
//   nvcc passes on the status of the sub-tool that failed: 1 from cicc (the device front
//   end), the host compiler, ld, or nvcc's own option errors ("nvcc fatal : Unknown option");
//   2 from cudafe++ (the host-side front end); 4 when cudafe++ stops ("Error limit reached",
//   "Command-line error"); 255 from ptxas and nvlink.
//   clang++-22 exits 1 for every rejection, and also when its front end CRASHES (the
//   driver reports the crash and still exits 1): for clang the text, not the status, tells.
// A sub-tool that nvcc runs through /bin/sh and that dies by a signal shows as the shell's
// "Segmentation fault" / "Aborted" line and exit 128+N (staged_crash.sh); a tool nvcc runs
// itself shows as "nvcc error : 'gcc' died due to signal 11 (...)".
#include "oracle/lines.h"
#include "oracle/oracle.h"

#include <array>
#include <charconv>

namespace cudiff::oracle {
namespace {

using detail::basename;
using detail::is_digit;
using detail::is_space;
using runners::CompilerKind;

/// Lines kept in a crash excerpt, and their length: enough for people to see what died.
constexpr std::size_t max_excerpt_lines = 10;
constexpr std::size_t max_excerpt_line_chars = 400;

/// How strongly a sign explains a crash: a stronger reason replaces a weaker one, so "an
/// assertion failed" wins over "the process then died by SIGABRT".
enum class Strength { stage_hint, generic, exit_status, signal, backend, internal, assertion };

struct Sign {
  Strength strength = Strength::generic;
  std::string stage;   ///< empty when the line does not say which stage
  std::string reason;
};

/// Signal descriptions as shells and clang print them ("Segmentation fault", strsignal()).
struct SignalName {
  std::string_view text;
  int number;
};
constexpr std::array<SignalName, 9> signal_names{{
    {"Segmentation fault", 11},
    {"Aborted", 6},
    {"Illegal instruction", 4},
    {"Bus error", 7},
    {"Floating point exception", 8},
    {"Killed", 9},
    {"Trace/breakpoint trap", 5},
    {"Terminated", 15},
    {"CPU time limit exceeded", 24},
}};

std::optional<int> signal_number(std::string_view text) {
  for (const SignalName& name : signal_names)
    if (text == name.text || text == std::string(name.text) + " (core dumped)") return name.number;
  return std::nullopt;
}

std::string signal_reason(int number) { return "signal " + std::to_string(number); }

std::string_view after(std::string_view line, std::string_view marker) {
  std::size_t at = line.find(marker);
  return at == std::string_view::npos ? std::string_view() : line.substr(at + marker.size());
}

/// The first integer in `text`, if it starts with one.
std::optional<int> leading_int(std::string_view text) {
  int value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end == text.data()) return std::nullopt;
  return value;
}

// ---- clang --------------------------------------------------------------------------------

/// "0.\tProgram arguments: /usr/lib/llvm-22/bin/clang -cc1 ..." names the process that
/// crashed: the front end (-cc1, in-process under the driver) or a tool such as
/// clang-linker-wrapper.
std::optional<Sign> clang_program_arguments(std::string_view line) {
  std::string_view arguments = after(line, "Program arguments: ");
  if (arguments.empty()) return std::nullopt;
  std::string_view program = arguments.substr(0, arguments.find(' '));
  std::string stage(basename(program));
  bool driver_or_front_end = stage.starts_with("clang") && stage.find("wrapper") == std::string::npos;
  if (arguments.find(" -cc1") != std::string_view::npos || driver_or_front_end) stage = "clang";
  return Sign{Strength::stage_hint, stage, ""};
}

/// "clang++-22: error: X command failed due to signal" / "... failed with exit code N": the
/// driver saying which sub-command died. ptxas, nvlink and the linker exit 255 or 1 after
/// an ordinary error, which is a rejection; only the front end failing with a status other
/// than 1 (70 after "error in backend", 134 after an assertion, 139) is a crash.
std::optional<Sign> clang_command_failed(std::string_view line) {
  constexpr std::string_view signal_marker = " command failed due to signal";
  constexpr std::string_view status_marker = " command failed with exit code ";
  std::string_view body = after(line, "error: ");
  if (body.empty()) return std::nullopt;
  std::size_t signal_at = body.find(signal_marker);
  std::size_t status_at = body.find(status_marker);
  std::size_t at = std::min(signal_at, status_at);
  if (at == std::string_view::npos) return std::nullopt;
  std::string command(body.substr(0, at));
  std::string stage = command == "clang frontend" ? "clang" : command == "linker" ? "clang-linker-wrapper" : command;
  if (signal_at != std::string_view::npos) return Sign{Strength::signal, stage, "signal"};
  std::optional<int> status = leading_int(body.substr(status_at + status_marker.size()));
  if (command != "clang frontend" || !status || *status == 1) return std::nullopt;
  return Sign{Strength::exit_status, stage, "exit " + std::to_string(*status)};
}

/// clang's crash signs. `line` is not indented (indented lines are source excerpts, which
/// may contain any text).
std::optional<Sign> clang_sign(std::string_view line) {
  if (line.starts_with("PLEASE submit a bug report") || line == "Stack dump:")
    return Sign{Strength::generic, "", "crash"};
  if (auto sign = clang_program_arguments(line)) return sign;
  // "clang++-22: /path/SemaExpr.cpp:123: void f(): Assertion `x && "y"' failed."
  if (line.find("Assertion `") != std::string_view::npos && line.ends_with("' failed."))
    return Sign{Strength::assertion, "", "assertion"};
  if (line.find("error in backend:") != std::string_view::npos || line.starts_with("LLVM ERROR:"))
    return Sign{Strength::backend, "", "backend error"};
  // "clang++-22: error: unable to execute command: Illegal instruction"
  std::string_view unable = after(line, "error: unable to execute command: ");
  if (!unable.empty()) {
    std::optional<int> number = signal_number(unable);
    return number ? Sign{Strength::signal, "", signal_reason(*number)}
                  : Sign{Strength::generic, "", "unable to execute command"};
  }
  return clang_command_failed(line);
}

// ---- nvcc ---------------------------------------------------------------------------------

/// ptxas fatal lines that follow ordinary errors of invalid programs, not ptxas failing:
/// a call to a __device__ function that is declared but never defined (without -rdc the
/// call cannot be resolved: a link error, reported by ptxas), and the summary ptxas prints
/// after rejecting invalid PTX (e.g. bad inline asm).
bool is_ordinary_ptxas_fatal(std::string_view message) {
  return message.starts_with("Unresolved extern function") || message.starts_with("Ptx assembly aborted due to errors");
}

/// "nvcc error   : 'cicc' died due to signal 11 (Invalid memory reference)",
/// "nvcc error   : 'ptxas' died with status 0xC0000005 (ACCESS_VIOLATION)".
std::optional<Sign> nvcc_died(std::string_view line) {
  std::size_t died = line.find("' died ");
  if (!line.starts_with("nvcc ") || died == std::string_view::npos) return std::nullopt;
  std::size_t quote = line.rfind('\'', died - 1);
  std::string stage(quote == std::string_view::npos ? "" : basename(line.substr(quote + 1, died - quote - 1)));
  std::string_view how = line.substr(died + 7);
  if (how.starts_with("due to signal ")) {
    std::optional<int> number = leading_int(how.substr(14));
    return Sign{Strength::signal, stage, number ? signal_reason(*number) : "signal"};
  }
  return Sign{Strength::signal, stage, std::string(how.substr(0, how.find(' ')))};
}

/// "ptxas fatal   : ...", "nvlink fatal   : ...", and an "Internal error" in any NVIDIA
/// tool's line. nvlink fatal is always a sign: an nvlink error such as "Undefined
/// reference" is the ordinary rejection form.
std::optional<Sign> nvidia_tool_sign(std::string_view line) {
  for (std::string_view tool : {"ptxas", "nvlink", "fatbinary", "nvcc"}) {
    if (!line.starts_with(tool) || line.size() == tool.size() || line[tool.size()] != ' ') continue;
    std::string_view rest = detail::trim_left(line.substr(tool.size()));
    std::string_view message = detail::trim_left(after(rest, ":"));
    if (message.find("nternal error") != std::string_view::npos)
      return Sign{Strength::internal, std::string(tool), "internal error"};
    if (rest.starts_with("fatal") && tool != "nvcc" && !(tool == "ptxas" && is_ordinary_ptxas_fatal(message)))
      return Sign{Strength::generic, std::string(tool), "fatal"};
  }
  return std::nullopt;
}

/// nvcc's crash signs. `line` is not indented.
std::optional<Sign> nvcc_sign(std::string_view line) {
  if (auto sign = nvcc_died(line)) return sign;
  if (auto sign = nvidia_tool_sign(line)) return sign;
  // EDG's own assertion, "x.cu(4): internal error: assertion failed at: "...", line 123",
  // printed by cudafe++ or by cicc's front end (the line does not say which).
  bool located = line.find("): internal error") != std::string_view::npos ||
                 (line.find(") (col. ") != std::string_view::npos &&
                  line.find(": internal error") != std::string_view::npos);
  if (located || line.starts_with("internal error")) return Sign{Strength::internal, "", "internal error"};
  // cicc: "Error: Internal Compiler Error (codegen): "...""
  if (line.find("Internal Compiler Error") != std::string_view::npos)
    return Sign{Strength::internal, "cicc", "internal compiler error"};
  if (line.starts_with("LLVM ERROR:")) return Sign{Strength::backend, "cicc", "backend error"};
  return std::nullopt;
}

/// Signs either compiler can show: gcc (nvcc's host compiler) dying, and a shell's report
/// that the command it ran died by a signal.
std::optional<Sign> common_sign(std::string_view line) {
  if (line.find(": internal compiler error") != std::string_view::npos)
    return Sign{Strength::internal, "cc1plus", "internal compiler error"};
  if (std::optional<int> number = signal_number(line)) return Sign{Strength::signal, "", signal_reason(*number)};
  return std::nullopt;
}

/// The crash signs in `text`, with the lines that show them.
struct CrashScan {
  std::optional<Sign> best;
  std::string stage_hint;  ///< the first stage any sign named
  std::vector<std::string> excerpt;

  void add(const Sign& sign, std::string_view line) {
    if (stage_hint.empty()) stage_hint = sign.stage;
    if (excerpt.size() < max_excerpt_lines) excerpt.push_back(shorten(line, max_excerpt_line_chars));
    if (sign.strength == Strength::stage_hint) return;
    if (!best || sign.strength > best->strength) best = sign;
  }
};

void scan_for_crash(CompilerKind compiler, std::string_view text, CrashScan& scan) {
  bool in_stack_dump = false;
  detail::for_each_line(text, [&](std::string_view line) {
    if (line.empty() || is_space(line.front())) return;
    // clang's numbered stack-dump context ("1.\tx.cu:3:2: current parser token 'pragma'")
    // says where the front end was: worth a line of the excerpt each.
    if (in_stack_dump && is_digit(line.front()) && line.find(".\t") != std::string_view::npos &&
        line.find("Program arguments: ") == std::string_view::npos) {
      if (scan.excerpt.size() < max_excerpt_lines) scan.excerpt.push_back(shorten(line, max_excerpt_line_chars));
      return;
    }
    std::optional<Sign> sign = compiler == CompilerKind::clang ? clang_sign(line) : nvcc_sign(line);
    if (!sign) sign = common_sign(line);
    if (!sign) return;
    if (line == "Stack dump:") in_stack_dump = true;
    scan.add(*sign, line);
  });
}

// ---- outcome ------------------------------------------------------------------------------

std::string compiler_stage(CompilerKind compiler) { return compiler == CompilerKind::clang ? "clang" : "nvcc"; }

/// The exit statuses of ordinary rejections (see the top of this file).
bool is_ordinary_rejection_status(CompilerKind compiler, int status) {
  if (compiler == CompilerKind::clang) return status == 1;
  return status == 1 || status == 2 || status == 4 || status == 255;
}

bool has_error(const std::vector<Diagnostic>& diagnostics) {
  for (const Diagnostic& diagnostic : diagnostics)
    if (diagnostic.severity == Severity::error || diagnostic.severity == Severity::fatal) return true;
  return false;
}

/// The last lines of stderr, for crashes that no line explains (a bare exit status).
std::string tail_excerpt(std::string_view text) {
  std::vector<std::string> lines;
  detail::for_each_line(text, [&](std::string_view line) {
    if (detail::trim_left(line).empty()) return;
    lines.push_back(shorten(line, max_excerpt_line_chars));
    if (lines.size() > max_excerpt_lines) lines.erase(lines.begin());
  });
  return join(lines, "\n");
}

Crash crash_from_scan(CompilerKind compiler, const CrashScan& scan) {
  Crash crash;
  crash.reason = scan.best->reason;
  crash.stage = !scan.best->stage.empty()  ? scan.best->stage
                : !scan.stage_hint.empty() ? scan.stage_hint
                                           : compiler_stage(compiler);
  crash.excerpt = join(scan.excerpt, "\n");
  return crash;
}

/// Why a process that printed no crash sign still counts as crashed, if it does: killed by
/// a signal, past the memory limit, or an exit status no rejection gives. nullopt: it
/// accepted or rejected normally.
std::optional<Crash> crash_from_status(CompilerKind compiler, const runners::SubprocessResult& process, bool errors) {
  Crash crash{compiler_stage(compiler), "", tail_excerpt(process.err.text)};
  if (process.memory_limit_hit) crash.reason = "memory limit";
  else if (process.signal != 0) crash.reason = signal_reason(process.signal);
  else if (process.exit_code == 0) return std::nullopt;
  // nvcc runs most sub-tools through /bin/sh, which reports a child killed by signal N as
  // exit 128+N (and prints "Segmentation fault", which may have been cut from the capture).
  else if (compiler == CompilerKind::nvcc && process.exit_code > 128 && process.exit_code <= 128 + 64)
    crash.reason = signal_reason(process.exit_code - 128);
  else if (!errors) crash.reason = "exit " + std::to_string(process.exit_code) + " without a diagnostic";
  else if (!is_ordinary_rejection_status(compiler, process.exit_code))
    crash.reason = "exit " + std::to_string(process.exit_code);
  else return std::nullopt;
  return crash;
}

} // namespace

std::string to_string(CompileOutcome outcome) {
  switch (outcome) {
  case CompileOutcome::accepted: return "accepted";
  case CompileOutcome::rejected: return "rejected";
  case CompileOutcome::crashed: return "crashed";
  case CompileOutcome::hung: return "hung";
  }
  return "unknown";
}

const Diagnostic* CompileObservation::first_error() const {
  for (const Diagnostic& diagnostic : diagnostics)
    if (diagnostic.severity == Severity::error || diagnostic.severity == Severity::fatal) return &diagnostic;
  return nullptr;
}

CompileObservation observe_compile(const runners::CompileResult& result) {
  const runners::SubprocessResult& process = result.process;
  CompileObservation observation;
  observation.config = result.config.name;
  observation.compiler = result.config.compiler;
  observation.seconds = process.wall_seconds;
  observation.stage_seconds = read_nvcc_times(result.nvcc_times);
  CompilerKind compiler = result.config.compiler;

  // cudiff could not start the compiler: an environment problem the caller normally
  // reports before judging; if one gets here it must not pass for an accept or a reject.
  if (!process.started) {
    observation.outcome = CompileOutcome::crashed;
    observation.crash = Crash{"driver", "did not start: " + process.start_error, ""};
    return observation;
  }

  observation.diagnostics = parse_diagnostics(compiler, process.err.text);
  CrashScan scan;
  scan_for_crash(compiler, process.err.text, scan);
  scan_for_crash(compiler, process.out.text, scan);

  // Crash signs win over everything, a timeout included: a compiler that printed a stack
  // dump and then hung (symbolizing it) crashed.
  if (scan.best) {
    observation.outcome = CompileOutcome::crashed;
    observation.crash = crash_from_scan(compiler, scan);
    return observation;
  }
  if (process.timed_out) {
    observation.outcome = CompileOutcome::hung;
    return observation;
  }
  if (auto crash = crash_from_status(compiler, process, has_error(observation.diagnostics))) {
    observation.outcome = CompileOutcome::crashed;
    observation.crash = std::move(crash);
    return observation;
  }
  observation.outcome = process.exit_code == 0 ? CompileOutcome::accepted : CompileOutcome::rejected;
  return observation;
}

} // namespace cudiff::oracle
