// oracle: parse_diagnostics — every diagnostic in nvcc's or clang's stderr, normalized.
//
// Hand-written scanning, one line at a time, no regex: compiler output is untrusted and may
// be megabytes (a flood of errors, binary junk), so every rule below is linear in the line
// and none can throw. The forms are those seen in the real captures under
// tests/golden/diagnostics (capture.sh says how they were made).
#include "oracle/lines.h"
#include "oracle/oracle.h"

#include <array>
#include <charconv>
#include <optional>

namespace cudiff::oracle {
namespace {

using detail::basename;
using detail::is_digit;
using detail::is_space;
using detail::trim_left;

/// No compiler prints a message this long; a longer "message" is a flood or junk, and
/// keeping all of it would only make ids and reports unwieldy.
constexpr std::size_t max_message_chars = 8192;

struct SeverityWord {
  std::string_view word;
  Severity severity;
};

/// gcc and clang severities, longest first so "fatal error" wins over "error".
constexpr std::array<SeverityWord, 6> gcc_severities{{
    {"internal compiler error", Severity::fatal},
    {"fatal error", Severity::fatal},
    {"error", Severity::error},
    {"warning", Severity::warning},
    {"remark", Severity::remark},
    {"note", Severity::note},
}};

/// EDG (nvcc's cudafe++ and cicc front ends) severities. A catastrophic error stops the
/// compilation and an internal error is EDG's own assertion: both are fatal. cicc's NVVM half
/// reports its own errors in the same located form with a capital "Error" (measured, nvcc
/// 13.0: "FILE(818): Error: Formal parameter space overflowed (32776 bytes required, max 32764
/// bytes allowed) in function ..."); without it such a rejection read as an exit 1 with no
/// diagnostic, a crash.
constexpr std::array<SeverityWord, 7> edg_severities{{
    {"catastrophic error", Severity::fatal},
    {"internal error", Severity::fatal},
    {"error", Severity::error},
    {"Error", Severity::error},
    {"warning", Severity::warning},
    {"remark", Severity::remark},
    {"note", Severity::note},
}};

/// The severities of the NVIDIA tools' own "TOOL SEVERITY : message" lines. ptxas "info"
/// lines (-Xptxas -v: registers, stack, compile time) are remarks, never errors.
constexpr std::array<SeverityWord, 4> tool_severities{{
    {"fatal", Severity::fatal},
    {"error", Severity::error},
    {"warning", Severity::warning},
    {"info", Severity::remark},
}};

template <std::size_t N>
std::optional<SeverityWord> severity_at(std::string_view text, const std::array<SeverityWord, N>& table) {
  for (const SeverityWord& entry : table)
    if (text.starts_with(entry.word)) return entry;
  return std::nullopt;
}

/// Reads a run of digits at `pos` (advanced past it); nullopt when there is none or it
/// does not fit an int.
std::optional<int> read_int(std::string_view text, std::size_t& pos) {
  std::size_t start = pos;
  while (pos < text.size() && is_digit(text[pos])) ++pos;
  if (pos == start || pos - start > 9) return std::nullopt;
  int value = 0;
  std::from_chars(text.data() + start, text.data() + pos, value);
  return value;
}

bool consume(std::string_view text, std::size_t& pos, std::string_view expected) {
  if (!text.substr(pos).starts_with(expected)) return false;
  pos += expected.size();
  return true;
}

void skip_spaces(std::string_view text, std::size_t& pos) {
  while (pos < text.size() && is_space(text[pos])) ++pos;
}

/// Builds a diagnostic; the id is the printed number or flag when there is one, else the
/// message template (docs/architecture.md, "Oracles").
Diagnostic make(Severity severity, Tool tool, std::string_view message, std::string id = {}) {
  Diagnostic diagnostic;
  diagnostic.severity = severity;
  diagnostic.tool = tool;
  diagnostic.message = std::string(trim_left(message.substr(0, max_message_chars)));
  while (!diagnostic.message.empty() && is_space(diagnostic.message.back())) diagnostic.message.pop_back();
  diagnostic.id = id.empty() ? message_template(diagnostic.message) : std::move(id);
  return diagnostic;
}

// ---- nvcc's front end (EDG) --------------------------------------------------------------

/// `FILE(LINE): SEVERITY[ #NNN-D]: MSG`, also `FILE(LINE) (col. C): ...` (older EDG). nvcc
/// numbers warnings, remarks and notes ("177-D") but not errors: the number is the id when
/// printed. The file may itself contain parentheses, so every "(" is a candidate; the file
/// part never contains ": ", which also keeps gcc-form lines out.
std::optional<Diagnostic> parse_edg(std::string_view line) {
  std::size_t first_colon_space = line.find(": ");
  for (std::size_t open = line.find('('); open != std::string_view::npos && open > 0; open = line.find('(', open + 1)) {
    if (open > first_colon_space) return std::nullopt;  // later "(" cannot start a location
    std::size_t pos = open + 1;
    std::optional<int> line_number = read_int(line, pos);
    if (!line_number || !consume(line, pos, ")")) continue;
    int column = 0;
    if (consume(line, pos, " (col. ")) {
      std::optional<int> col = read_int(line, pos);
      if (!col || !consume(line, pos, ")")) continue;
      column = *col;
    }
    if (!consume(line, pos, ": ")) continue;
    std::optional<SeverityWord> severity = severity_at(line.substr(pos), edg_severities);
    if (!severity) continue;
    pos += severity->word.size();
    std::string number;
    if (consume(line, pos, " #")) {
      std::size_t start = pos;
      if (!read_int(line, pos)) continue;
      consume(line, pos, "-D");
      number = std::string(line.substr(start, pos - start));
    }
    skip_spaces(line, pos);
    if (!consume(line, pos, ":")) continue;
    // Severity has no "internal error" (EDG's own assertion): the words stay in the message.
    std::string message(line.substr(pos, max_message_chars));
    if (severity->word == "internal error") message = "internal error:" + message;
    // EDG spells its severities in lower case; cicc, which reuses EDG's location form, says
    // "Error": that error comes from code generation, not from the front end.
    const Tool tool = severity->word == "Error" ? Tool::device_codegen : Tool::frontend;
    Diagnostic diagnostic = make(severity->severity, tool, message, number);
    diagnostic.file = std::string(line.substr(0, open));
    diagnostic.line = *line_number;
    diagnostic.column = column;
    return diagnostic;
  }
  return std::nullopt;
}

/// EDG's instantiation backtrace, printed under the diagnostic it explains:
///   `          detected during instantiation of "void f<T>() [with T=int]" at line 12`
///   `          detected during:` then one `instantiation of "..." at line N [of "FILE"]` each.
/// Each step becomes a note at that line (as clang reports the same backtrace as notes), so
/// the two compilers' backtraces compare alike; "at line N" without a file means the file
/// of the diagnostic above.
std::optional<Diagnostic> parse_edg_context(std::string_view indented, const Diagnostic& above) {
  std::string_view text = trim_left(indented);
  if (text.starts_with("detected during ")) text.remove_prefix(std::string_view("detected during ").size());
  if (!text.starts_with("instantiation of ") && !text.starts_with("implicit generation of ")) return std::nullopt;
  std::size_t at = text.rfind(" at line ");
  if (at == std::string_view::npos) return std::nullopt;
  std::size_t pos = at + std::string_view(" at line ").size();
  std::optional<int> line_number = read_int(text, pos);
  if (!line_number) return std::nullopt;
  std::string file = above.file;
  if (consume(text, pos, " of \"")) {
    std::size_t close = text.find('"', pos);
    if (close != std::string_view::npos) file = std::string(text.substr(pos, close - pos));
  }
  Diagnostic note = make(Severity::note, Tool::frontend, text.substr(0, at));
  note.file = std::move(file);
  note.line = *line_number;
  return note;
}

/// EDG lines with no location: `Command-line error: invalid option: --bogus` (cudafe++
/// given a bad option; it counts as a catastrophic error), and `catastrophic error: ...` /
/// `internal error: ...` printed before a file is open.
std::optional<Diagnostic> parse_edg_unlocated(std::string_view line) {
  constexpr std::string_view command_line = "Command-line error:";
  if (line.starts_with(command_line)) return make(Severity::fatal, Tool::frontend, line.substr(command_line.size()));
  for (std::string_view word : {"catastrophic error:", "internal error:"})
    if (line.starts_with(word)) return make(Severity::fatal, Tool::frontend, line.substr(word.size()));
  return std::nullopt;
}

// ---- the NVIDIA tools' own lines ----------------------------------------------------------

std::optional<Tool> nvidia_tool(std::string_view name) {
  if (name == "nvcc") return Tool::driver;
  if (name == "ptxas") return Tool::ptxas;
  if (name == "nvlink") return Tool::nvlink;
  if (name == "fatbinary") return Tool::linker;
  if (name == "cudafe++" || name == "cicc") return Tool::frontend;
  return std::nullopt;
}

/// `ptxas error   : MSG`, `nvlink fatal   : MSG`, `nvcc fatal   : MSG`, `ptxas info    : MSG`
/// (the severity is padded to a column before the colon). No location.
std::optional<Diagnostic> parse_tool_line(std::string_view line) {
  std::size_t space = line.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  std::optional<Tool> tool = nvidia_tool(line.substr(0, space));
  if (!tool) return std::nullopt;
  std::size_t pos = space;
  skip_spaces(line, pos);
  std::optional<SeverityWord> severity = severity_at(line.substr(pos), tool_severities);
  if (!severity) return std::nullopt;
  pos += severity->word.size();
  skip_spaces(line, pos);
  if (!consume(line, pos, ":")) return std::nullopt;
  return make(severity->severity, *tool, line.substr(pos));
}

/// `ptxas FILE, line N; error   : MSG`: ptxas rejecting a line of PTX (invalid inline asm,
/// a code generator's bad PTX). FILE is the temporary .ptx/.s file, as printed.
std::optional<Diagnostic> parse_ptxas_located(std::string_view line) {
  constexpr std::string_view prefix = "ptxas ";
  if (!line.starts_with(prefix)) return std::nullopt;
  std::size_t comma = line.find(", line ", prefix.size());
  if (comma == std::string_view::npos) return std::nullopt;
  std::size_t pos = comma + std::string_view(", line ").size();
  std::optional<int> line_number = read_int(line, pos);
  if (!line_number || !consume(line, pos, ";")) return std::nullopt;
  skip_spaces(line, pos);
  std::optional<SeverityWord> severity = severity_at(line.substr(pos), tool_severities);
  if (!severity) return std::nullopt;
  pos += severity->word.size();
  skip_spaces(line, pos);
  if (!consume(line, pos, ":")) return std::nullopt;
  Diagnostic diagnostic = make(severity->severity, Tool::ptxas, line.substr(pos));
  diagnostic.file = std::string(line.substr(prefix.size(), comma - prefix.size()));
  diagnostic.line = *line_number;
  return diagnostic;
}

// ---- gcc and clang: FILE:LINE:COL: SEVERITY: MSG [-Wflag] ----------------------------------

/// The flag in a trailing `[-Wflag]`, `[-Werror,-Wflag]`, `[-Werror=flag]` (gcc) or
/// `[-Rpass=inline]` (a remark); the message loses it. Empty when there is none.
std::string take_flag(std::string& message) {
  if (message.empty() || message.back() != ']') return {};
  std::size_t open = message.rfind(" [-");
  if (open == std::string::npos) return {};
  std::string_view inside(message);
  inside = inside.substr(open + 2, inside.size() - open - 3);
  std::string flag;
  for (std::size_t start = 0; start <= inside.size();) {
    std::size_t comma = inside.find(',', start);
    std::string_view part = inside.substr(start, comma == std::string_view::npos ? comma : comma - start);
    if (part.starts_with("-Werror=")) flag = "-W" + std::string(part.substr(8));
    else if (part != "-Werror" && (part.starts_with("-W") || part.starts_with("-R"))) flag = part;
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (!flag.empty()) message.resize(open);
  return flag;
}

bool is_clang_driver_name(std::string_view name) {
  if (!name.starts_with("clang")) return false;
  name.remove_prefix(5);
  if (name.starts_with("++")) name.remove_prefix(2);
  if (name.empty()) return true;
  if (name.front() != '-' || name.size() == 1) return false;
  for (char c : name.substr(1))
    if (!is_digit(c)) return false;
  return true;
}

/// Which program a location-less `PROGRAM: SEVERITY: MSG` line comes from; nullopt when the
/// prefix is not a known program (then it is a file printed without a line number).
std::optional<Tool> program_tool(std::string_view prefix) {
  std::string_view name = basename(prefix);
  if (is_clang_driver_name(name) || name == "nvcc") return Tool::driver;
  if (name == "clang-nvlink-wrapper" || name == "nvlink") return Tool::nvlink;
  if (name == "ptxas") return Tool::ptxas;
  for (std::string_view linker :
       {"clang-linker-wrapper", "ld", "ld.bfd", "ld.gold", "ld.lld", "lld", "collect2", "fatbinary"})
    if (name == linker) return Tool::linker;
  for (std::string_view host : {"cc1plus", "cc1", "gcc", "g++", "c++", "cc", "as"})
    if (name == host) return Tool::host_compiler;
  return std::nullopt;
}

/// Peels a trailing ":DIGITS" off `prefix`; nullopt (prefix unchanged) when there is none.
std::optional<int> peel_number(std::string_view& prefix) {
  std::size_t colon = prefix.rfind(':');
  if (colon == std::string_view::npos) return std::nullopt;
  std::size_t pos = colon + 1;
  std::optional<int> value = read_int(prefix, pos);
  if (!value || pos != prefix.size()) return std::nullopt;
  prefix = prefix.substr(0, colon);
  return value;
}

/// A gcc-form diagnostic's severity and message, after the location prefix.
std::optional<Diagnostic> gcc_body(std::string_view rest, Tool tool) {
  std::optional<SeverityWord> severity = severity_at(rest, gcc_severities);
  if (!severity) return std::nullopt;
  std::size_t pos = severity->word.size();
  if (!consume(rest, pos, ":")) return std::nullopt;
  std::string message(trim_left(rest.substr(pos, max_message_chars)));
  std::string flag = take_flag(message);
  // Severity has no "internal compiler error": the words stay in the message instead.
  if (severity->word == "internal compiler error") message = std::string(severity->word) + ": " + message;
  return make(severity->severity, tool, message, flag);
}

/// `FILE:LINE:COL: SEVERITY: MSG`, `FILE:LINE: SEVERITY: MSG`, `PROGRAM: SEVERITY: MSG`
/// (clang++-22, collect2, clang-linker-wrapper, cc1plus) and `SEVERITY: MSG` (clang's
/// location-less "fatal error: error in backend: ..." and remarks). Located lines are the
/// front end's under clang and the host compiler's (g++) under nvcc, whose own front end
/// prints the EDG form instead.
std::optional<Diagnostic> parse_gcc_form(runners::CompilerKind compiler, std::string_view line) {
  Tool located = compiler == runners::CompilerKind::clang ? Tool::frontend : Tool::host_compiler;
  if (std::optional<Diagnostic> bare = gcc_body(line, Tool::frontend)) return bare;
  std::size_t colon = line.find(": ");
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  std::string_view prefix = line.substr(0, colon);
  std::optional<int> second = peel_number(prefix);
  std::optional<int> first = second ? peel_number(prefix) : std::nullopt;
  std::optional<Tool> program = second ? std::nullopt : program_tool(prefix);
  std::optional<Diagnostic> diagnostic = gcc_body(line.substr(colon + 2), program.value_or(located));
  if (!diagnostic) return std::nullopt;
  if (!program) diagnostic->file = std::string(prefix);
  diagnostic->line = first ? *first : second.value_or(0);
  diagnostic->column = first ? *second : 0;
  return diagnostic;
}

/// Lines about the crash reproducer clang writes ("clang++-22: note: diagnostic msg: /tmp/x-
/// 3325cd.cu"): bookkeeping with random file names, not diagnostics about the program. The
/// crash itself is detected from other lines (classify.cpp).
bool is_reproducer_note(const Diagnostic& diagnostic) {
  return diagnostic.tool == Tool::driver && diagnostic.severity == Severity::note &&
         diagnostic.message.starts_with("diagnostic msg:");
}

// ---- linkers ------------------------------------------------------------------------------

bool is_ld_name(std::string_view name) {
  return name == "ld" || name == "ld.bfd" || name == "ld.gold" || name == "ld.lld";
}

struct LinkerLine {
  bool skip = false;  ///< a context line ("in function `main':"), not a diagnostic
  std::optional<Diagnostic> diagnostic;
};

/// ld's own lines: `/usr/bin/ld: /tmp/x.o: in function `main':` (context for the next
/// line), `/usr/bin/ld:x.o: file format not recognized; ...`, `/usr/bin/ld: warning: ...`;
/// and the undefined-reference lines that follow, `x.cpp:(.text+0x87): undefined reference
/// to `f()'`. The file there is an object or temporary file that changes every run, so it
/// is left out: the message (with the symbol) says what matters.
LinkerLine parse_linker(std::string_view line) {
  for (std::string_view phrase : {"undefined reference to ", "multiple definition of "}) {
    std::size_t at = line.find(phrase);
    if (at != std::string_view::npos && at >= 2 && line.substr(at - 2, 2) == ": ")
      return {false, make(Severity::error, Tool::linker, line.substr(at))};
  }
  std::size_t colon = line.find(':');
  if (colon == std::string_view::npos || !is_ld_name(basename(line.substr(0, colon)))) return {};
  std::string_view rest = trim_left(line.substr(colon + 1));
  if (rest.find("in function ") != std::string_view::npos && rest.ends_with(":")) return {true, {}};
  if (rest.starts_with("warning: ")) return {false, make(Severity::warning, Tool::linker, rest.substr(9))};
  return {false, make(Severity::error, Tool::linker, rest)};
}

/// cicc (nvcc's device front end and optimizer, built on LLVM) reports its own failures as
/// `Error: Internal Compiler Error (codegen): "..."` and `LLVM ERROR: ...`; clang's backend
/// also prints `LLVM ERROR: ...`. Both are fatal and come from the compiler proper.
std::optional<Diagnostic> parse_llvm_style(std::string_view line) {
  for (std::string_view word : {"LLVM ERROR:", "Error:"})
    if (line.starts_with(word)) return make(Severity::fatal, Tool::frontend, line.substr(word.size()));
  return std::nullopt;
}

/// Parses one line that is not indented, trying the forms from the most to the least
/// specific. nullopt: not a diagnostic (summaries, stack dumps, ld context, clang's
/// "In file included from", gcc's "FILE: In function ...", "Remark: The warnings can be
/// suppressed ...", "N errors detected in the compilation of ...").
std::optional<Diagnostic> parse_line(runners::CompilerKind compiler, std::string_view line) {
  if (auto diagnostic = parse_edg(line)) return diagnostic;
  if (auto diagnostic = parse_ptxas_located(line)) return diagnostic;
  if (auto diagnostic = parse_tool_line(line)) return diagnostic;
  if (compiler == runners::CompilerKind::nvcc)
    if (auto diagnostic = parse_edg_unlocated(line)) return diagnostic;
  if (auto diagnostic = parse_llvm_style(line)) return diagnostic;
  if (auto diagnostic = parse_gcc_form(compiler, line))
    return is_reproducer_note(*diagnostic) ? std::nullopt : diagnostic;
  return parse_linker(line).diagnostic;
}

} // namespace

std::string to_string(Severity severity) {
  switch (severity) {
  case Severity::note: return "note";
  case Severity::remark: return "remark";
  case Severity::warning: return "warning";
  case Severity::error: return "error";
  case Severity::fatal: return "fatal";
  }
  return "unknown";
}

std::string to_string(Tool tool) {
  switch (tool) {
  case Tool::frontend: return "frontend";
  case Tool::device_codegen: return "device_codegen";
  case Tool::host_compiler: return "host_compiler";
  case Tool::ptxas: return "ptxas";
  case Tool::nvlink: return "nvlink";
  case Tool::linker: return "linker";
  case Tool::driver: return "driver";
  }
  return "unknown";
}

std::vector<Diagnostic> parse_diagnostics(runners::CompilerKind compiler, std::string_view text) {
  std::vector<Diagnostic> diagnostics;
  // Index of the EDG diagnostic whose block (caret, context, backtrace) is still open: it
  // ends at a blank line or at the next line that is not indented.
  std::optional<std::size_t> edg_block;
  detail::for_each_line(text, [&](std::string_view line) {
    if (line.empty() || is_space(line.front())) {
      // Indented lines are source excerpts, carets, ptxas -v details and EDG context; only
      // the last can be a diagnostic. Never parsing them otherwise keeps source text that
      // happens to read "x.cu:1:1: error: ..." from counting.
      if (trim_left(line).empty()) edg_block.reset();
      else if (edg_block)
        if (auto note = parse_edg_context(line, diagnostics[*edg_block])) diagnostics.push_back(std::move(*note));
      return;
    }
    edg_block.reset();
    std::optional<Diagnostic> diagnostic = parse_line(compiler, line);
    if (!diagnostic) return;
    bool edg = !diagnostic->file.empty() && diagnostic->tool == Tool::frontend &&
               compiler == runners::CompilerKind::nvcc;
    diagnostics.push_back(std::move(*diagnostic));
    if (edg) edg_block = diagnostics.size() - 1;
  });
  return diagnostics;
}

} // namespace cudiff::oracle
