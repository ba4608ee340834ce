// Unit tests for parse_diagnostics: real compiler captures (golden) and each parsing rule.
//
// Golden files: tests/golden/diagnostics/NAME.stderr.txt is what a compiler really printed
// (capture.sh, staged_crash.sh; crash_like_* are documented samples, see crash_like_samples.md).
// NAME.expected holds what parse_diagnostics must find, one line per diagnostic, in order:
//
//   severity|id|file|line|column|tool|message
//
// e.g. `error|identifier "_" is undefined|undefined_identifier.cu|3|0|frontend|identifier "foo" is undefined`.
// A '|' or '\' inside a field is written '\|' or '\\'. Lines starting with '#' are comments,
// blank lines are ignored, and lines starting with '@' belong to classify_test.cpp
// (`@outcome rejected`, `@crash STAGE|REASON`). The compiler is the NAME's prefix: nvcc_,
// clang_, crash_like_nvcc_, crash_like_clang_. A mismatch prints every differing field and
// the whole parse, ready to review and paste.
#include "oracle/oracle.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>
#include <random>
#include <sstream>

namespace cudiff::oracle {
namespace {

using runners::CompilerKind;

std::string escape_field(std::string_view field) {
  std::string out;
  for (char c : field) {
    if (c == '|' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

std::vector<std::string> split_fields(std::string_view line) {
  std::vector<std::string> fields(1);
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\\' && i + 1 < line.size()) fields.back().push_back(line[++i]);
    else if (line[i] == '|') fields.emplace_back();
    else fields.back().push_back(line[i]);
  }
  return fields;
}

std::string render(const Diagnostic& d) {
  return to_string(d.severity) + "|" + escape_field(d.id) + "|" + escape_field(d.file) + "|" + std::to_string(d.line) +
         "|" + std::to_string(d.column) + "|" + to_string(d.tool) + "|" + escape_field(d.message);
}

CompilerKind compiler_of(const std::string& name) {
  bool clang = name.starts_with("clang_") || name.starts_with("crash_like_clang_");
  return clang ? CompilerKind::clang : CompilerKind::nvcc;
}

std::vector<std::string> expected_diagnostic_lines(const std::filesystem::path& path) {
  std::vector<std::string> lines;
  for (const std::string& line : split_lines(read_file(path)))
    if (!line.empty() && line[0] != '#' && line[0] != '@') lines.push_back(line);
  return lines;
}

std::vector<std::string> golden_names() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(test::data("golden/diagnostics"))) {
    std::string file = entry.path().filename().string();
    constexpr std::string_view suffix = ".stderr.txt";
    if (file.ends_with(suffix)) names.push_back(file.substr(0, file.size() - suffix.size()));
  }
  std::sort(names.begin(), names.end());
  return names;
}

constexpr std::array<std::string_view, 7> field_names{"severity", "id", "file", "line", "column", "tool", "message"};

/// Empty when equal; otherwise a readable account of every difference.
std::string compare(const std::vector<std::string>& expected, const std::vector<std::string>& actual) {
  std::ostringstream out;
  for (std::size_t i = 0; i < std::max(expected.size(), actual.size()); ++i) {
    if (i < expected.size() && i < actual.size() && expected[i] == actual[i]) continue;
    out << "  diagnostic #" << i + 1 << ":\n";
    if (i >= actual.size()) {
      out << "    missing: " << expected[i] << "\n";
      continue;
    }
    if (i >= expected.size()) {
      out << "    unexpected: " << actual[i] << "\n";
      continue;
    }
    std::vector<std::string> want = split_fields(expected[i]), got = split_fields(actual[i]);
    for (std::size_t f = 0; f < std::max(want.size(), got.size()); ++f) {
      std::string w = f < want.size() ? want[f] : "<none>", g = f < got.size() ? got[f] : "<none>";
      if (w != g)
        out << "    " << (f < field_names.size() ? field_names[f] : "extra field") << ": expected [" << w << "] got ["
            << g << "]\n";
    }
  }
  return out.str();
}

TEST(DiagnosticsGolden, EveryCaptureParsesAsExpected) {
  std::vector<std::string> names = golden_names();
  ASSERT_GE(names.size(), 30u) << "golden captures not found under " << test::data("golden/diagnostics");
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    std::filesystem::path dir = test::data("golden/diagnostics");
    std::string text = read_file(dir / (name + ".stderr.txt"));
    std::vector<std::string> actual;
    for (const Diagnostic& d : parse_diagnostics(compiler_of(name), text)) actual.push_back(render(d));
    std::filesystem::path expected_path = dir / (name + ".expected");
    ASSERT_TRUE(std::filesystem::exists(expected_path)) << "no " << expected_path << "; the parse is:\n"
                                                        << join(actual, "\n");
    std::string differences = compare(expected_diagnostic_lines(expected_path), actual);
    EXPECT_TRUE(differences.empty()) << name << ".expected differs:\n"
                                     << differences << "whole parse:\n"
                                     << join(actual, "\n");
  }
}

// ---- rules, one by one ----------------------------------------------------------------

Diagnostic only(CompilerKind compiler, std::string_view text) {
  std::vector<Diagnostic> diagnostics = parse_diagnostics(compiler, text);
  EXPECT_EQ(diagnostics.size(), 1u) << text;
  return diagnostics.empty() ? Diagnostic{} : diagnostics.front();
}

TEST(Diagnostics, NvccErrorHasNoNumberSoItsIdIsTheTemplate) {
  Diagnostic d = only(CompilerKind::nvcc, "k.cu(3): error: identifier \"foo\" is undefined\n");
  EXPECT_EQ(d.severity, Severity::error);
  EXPECT_EQ(d.id, "identifier \"_\" is undefined");
  EXPECT_EQ(d.file, "k.cu");
  EXPECT_EQ(d.line, 3);
  EXPECT_EQ(d.column, 0);
  EXPECT_EQ(d.tool, Tool::frontend);
  EXPECT_EQ(d.message, "identifier \"foo\" is undefined");
}

TEST(Diagnostics, NvccNumberedWarningRemarkNoteUseTheNumber) {
  auto ds = parse_diagnostics(CompilerKind::nvcc,
                              "a.cu(3): warning #177-D: variable \"x\" was declared but never referenced\n"
                              "a.cu(4): remark #20238-D: no __launch_bounds__ specified\n"
                              "a.cu(5): note #3326-D: function \"f(int)\" does not match\n");
  ASSERT_EQ(ds.size(), 3u);
  EXPECT_EQ(ds[0].severity, Severity::warning);
  EXPECT_EQ(ds[0].id, "177-D");
  EXPECT_EQ(ds[1].severity, Severity::remark);
  EXPECT_EQ(ds[1].id, "20238-D");
  EXPECT_EQ(ds[2].severity, Severity::note);
  EXPECT_EQ(ds[2].id, "3326-D");
}

// cicc reuses EDG's location form with "Error": the error is code generation's, after the
// front end accepted the program.
TEST(Diagnostics, CiccsCapitalisedErrorIsDeviceCodeGeneration) {
  const Diagnostic d = only(CompilerKind::nvcc, "k.cu(2): Error: Formal parameter space overflowed (40008 bytes "
                                                "required, max 32764 bytes allowed) in function _Z1k3BigPi\n");
  EXPECT_EQ(d.tool, Tool::device_codegen);
  EXPECT_EQ(d.severity, Severity::error);
  EXPECT_EQ(d.line, 2);
  EXPECT_EQ(to_string(d.tool), "device_codegen");
  EXPECT_EQ(only(CompilerKind::nvcc, "k.cu(2): error: identifier \"x\" is undefined\n").tool, Tool::frontend);
}

TEST(Diagnostics, NvccCatastrophicAndInternalErrorsAreFatal) {
  auto ds = parse_diagnostics(CompilerKind::nvcc,
                              "a.cu(1): catastrophic error: cannot open source file \"x.h\"\n"
                              "a.cu(50) (col. 24): internal error: assertion failed: f (x.c, line 9)\n");
  ASSERT_EQ(ds.size(), 2u);
  EXPECT_EQ(ds[0].severity, Severity::fatal);
  EXPECT_EQ(ds[1].severity, Severity::fatal);
  EXPECT_EQ(ds[1].line, 50);
  EXPECT_EQ(ds[1].column, 24);
}

TEST(Diagnostics, NvccFileNameWithParenthesesAndPath) {
  Diagnostic d = only(CompilerKind::nvcc, "/tmp/dir (2)/f(1).cu(12): error: expected a \";\"\n");
  EXPECT_EQ(d.file, "/tmp/dir (2)/f(1).cu");
  EXPECT_EQ(d.line, 12);
}

TEST(Diagnostics, NvccInstantiationBacktraceBecomesNotes) {
  auto ds = parse_diagnostics(CompilerKind::nvcc,
                              "t.cu(4): error: expression must have class type\n"
                              "    return t.value();\n"
                              "           ^\n"
                              "          detected during instantiation of \"int get(T) [with T=int]\" at line 9\n"
                              "\n"
                              "t.cu(5): error: another\n"
                              "          detected during:\n"
                              "            instantiation of \"void k(T) [with T=int]\" at line 13 of \"other.cu\"\n");
  ASSERT_EQ(ds.size(), 4u);
  EXPECT_EQ(ds[1].severity, Severity::note);
  EXPECT_EQ(ds[1].message, "instantiation of \"int get(T) [with T=int]\"");
  EXPECT_EQ(ds[1].id, "instantiation of \"_\"");
  EXPECT_EQ(ds[1].file, "t.cu");
  EXPECT_EQ(ds[1].line, 9);
  EXPECT_EQ(ds[3].file, "other.cu");
  EXPECT_EQ(ds[3].line, 13);
}

TEST(Diagnostics, IndentedTextIsNeverADiagnostic) {
  // Source excerpts may contain anything, including text in a compiler's format.
  EXPECT_TRUE(parse_diagnostics(CompilerKind::clang, "    3 | x.cu:1:1: error: no\n  a.cu(3): error: no\n").empty());
  // EDG backtrace lines outside a diagnostic block are ignored too.
  EXPECT_TRUE(parse_diagnostics(CompilerKind::nvcc, "   instantiation of \"f\" at line 3\n").empty());
}

TEST(Diagnostics, NvccSummariesAreSkipped) {
  EXPECT_TRUE(parse_diagnostics(CompilerKind::nvcc,
                                "Remark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n"
                                "4 errors detected in the compilation of \"a.cu\".\n"
                                "1 catastrophic error detected in this compilation.\n"
                                "Error limit reached.\nCompilation terminated.\nCompilation aborted.\n")
                  .empty());
}

TEST(Diagnostics, ClangFormWithFlagAndWerror) {
  auto ds = parse_diagnostics(CompilerKind::clang, "u.cu:3:7: warning: unused variable 'a' [-Wunused-variable]\n"
                                                   "u.cu:4:7: error: unused variable 'b' [-Werror,-Wunused-variable]\n"
                                                   "u.cu:9: warning: no column here\n");
  ASSERT_EQ(ds.size(), 3u);
  EXPECT_EQ(ds[0].id, "-Wunused-variable");
  EXPECT_EQ(ds[0].message, "unused variable 'a'");
  EXPECT_EQ(ds[0].column, 7);
  EXPECT_EQ(ds[1].severity, Severity::error);
  EXPECT_EQ(ds[1].id, "-Wunused-variable");
  EXPECT_EQ(ds[2].line, 9);
  EXPECT_EQ(ds[2].column, 0);
}

TEST(Diagnostics, GccFormUnderNvccIsTheHostCompiler) {
  Diagnostic d = only(CompilerKind::nvcc, "s.cu:5:10: warning: comparison of integer expressions "
                                          "[-Werror=sign-compare]\n");
  EXPECT_EQ(d.tool, Tool::host_compiler);
  EXPECT_EQ(d.id, "-Wsign-compare");
  EXPECT_EQ(only(CompilerKind::clang, "s.cu:5:10: error: x\n").tool, Tool::frontend);
}

TEST(Diagnostics, GccContextLinesAreSkipped) {
  EXPECT_TRUE(parse_diagnostics(CompilerKind::nvcc, "s.cu: In function \xE2\x80\x98int main()\xE2\x80\x99:\n"
                                                    "In file included from s.cu:2:\n"
                                                    "s.cu:12:5:   required from here\n"
                                                    "compilation terminated.\n")
                  .empty());
}

TEST(Diagnostics, LocationlessProgramLines) {
  auto ds = parse_diagnostics(CompilerKind::clang, "clang++-22: error: unknown argument: '--bogus-flag'\n"
                                                   "clang: error: nvlink command failed with exit code 1\n"
                                                   "/usr/lib/llvm-22/bin/clang-linker-wrapper: error: 'ld' failed\n"
                                                   "/usr/lib/llvm-22/bin/clang-nvlink-wrapper: error: 'nvlink' failed\n"
                                                   "collect2: error: ld returned 1 exit status\n"
                                                   "fatal error: error in backend: oops\n"
                                                   "LLVM ERROR: Cannot select: t1\n");
  ASSERT_EQ(ds.size(), 7u);
  EXPECT_EQ(ds[0].tool, Tool::driver);
  EXPECT_EQ(ds[1].tool, Tool::driver);
  EXPECT_EQ(ds[2].tool, Tool::linker);
  EXPECT_EQ(ds[3].tool, Tool::nvlink);
  EXPECT_EQ(ds[4].tool, Tool::linker);
  EXPECT_EQ(ds[5].severity, Severity::fatal);
  EXPECT_EQ(ds[5].file, "");
  EXPECT_EQ(ds[6].severity, Severity::fatal);
}

TEST(Diagnostics, NvidiaToolLines) {
  auto ds = parse_diagnostics(CompilerKind::nvcc,
                              "nvcc fatal   : Unknown option '--bogus-flag'\n"
                              "nvcc warning : The 'compute_75' architecture is deprecated\n"
                              "ptxas error   : Entry function '_Z1kv' uses too much shared data\n"
                              "ptxas fatal   : Unresolved extern function '_Z1fi'\n"
                              "ptxas info    : Used 10 registers, used 0 barriers\n"
                              "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                              "nvlink error   : Undefined reference to '_Z1fi' in 'a.o'\n"
                              "ptxas /tmp/x.ptx, line 27; error   : Unknown modifier '.instruction'\n");
  ASSERT_EQ(ds.size(), 7u);
  EXPECT_EQ(ds[0].tool, Tool::driver);
  EXPECT_EQ(ds[0].severity, Severity::fatal);
  EXPECT_EQ(ds[1].severity, Severity::warning);
  EXPECT_EQ(ds[2].tool, Tool::ptxas);
  EXPECT_EQ(ds[3].severity, Severity::fatal);
  EXPECT_EQ(ds[4].severity, Severity::remark);  // ptxas -v info: never an error
  EXPECT_EQ(ds[5].tool, Tool::nvlink);
  EXPECT_EQ(ds[6].file, "/tmp/x.ptx");
  EXPECT_EQ(ds[6].line, 27);
  EXPECT_EQ(ds[6].message, "Unknown modifier '.instruction'");
}

TEST(Diagnostics, LinkerLines) {
  auto ds = parse_diagnostics(CompilerKind::nvcc,
                              "/usr/bin/ld: /tmp/a.o: in function `main':\n"
                              "a.cudafe1.cpp:(.text+0x87): undefined reference to `missing()'\n"
                              "/usr/bin/ld: b.o: multiple definition of `g'; a.o: first defined here\n"
                              "/usr/bin/ld: warning: x.o: missing .note.GNU-stack section\n");
  ASSERT_EQ(ds.size(), 3u);
  EXPECT_EQ(ds[0].tool, Tool::linker);
  EXPECT_EQ(ds[0].message, "undefined reference to `missing()'");
  EXPECT_EQ(ds[0].id, "undefined reference to `_'");
  EXPECT_EQ(ds[0].file, "");
  EXPECT_EQ(ds[1].severity, Severity::error);
  EXPECT_EQ(ds[2].severity, Severity::warning);
}

TEST(Diagnostics, ClangReproducerNotesAreNotDiagnostics) {
  EXPECT_TRUE(parse_diagnostics(CompilerKind::clang, "clang++-22: note: diagnostic msg: /tmp/x-sm_90-0d2584.cu\n"
                                                     "clang++-22: note: diagnostic msg: \n")
                  .empty());
}

TEST(Diagnostics, CrLfLineEndings) {
  Diagnostic d = only(CompilerKind::clang, "a.cu:1:2: error: bad thing\r\n");
  EXPECT_EQ(d.message, "bad thing");
}

// ---- robustness -------------------------------------------------------------------------

double seconds_to_parse(CompilerKind compiler, const std::string& text, std::size_t& count) {
  auto start = std::chrono::steady_clock::now();
  count = parse_diagnostics(compiler, text).size();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(DiagnosticsRobustness, RandomBytesNeverCrash) {
  std::mt19937_64 random(1234);
  std::string alphabet = "abc:()#'\"`-[]| \t\n\r0123456789errorwarningnote";
  for (int round = 0; round < 2000; ++round) {
    std::string text(static_cast<std::size_t>(random() % 300), ' ');
    for (char& c : text) c = random() % 2 ? static_cast<char>(random()) : alphabet[random() % alphabet.size()];
    for (CompilerKind compiler : {CompilerKind::nvcc, CompilerKind::clang})
      EXPECT_NO_THROW(parse_diagnostics(compiler, text));
  }
}

TEST(DiagnosticsRobustness, TruncatedAndDegenerateLines) {
  std::vector<std::string_view> texts{"a.cu(",
                                      "a.cu(3",
                                      "a.cu(3)",
                                      "a.cu(3):",
                                      "a.cu(3): error",
                                      "a.cu(3): warning #",
                                      "a.cu(3): warning #17-",
                                      "(3): error: x",
                                      "a.cu:1:",
                                      "a.cu:1:2: error",
                                      ": error: x",
                                      "ptxas ",
                                      "ptxas , line ;",
                                      "ptxas x, line 99999999999999999999; error : x",
                                      "a.cu(99999999999999999999): error: x",
                                      "nvcc",
                                      "nvcc fatal",
                                      "x [-W",
                                      "a.cu:1:2: warning: x [-W]",
                                      "a.cu:1:2: warning: x [-Werror,]",
                                      "/usr/bin/ld:",
                                      ": undefined reference to ",
                                      std::string_view("\0(\0", 3),
                                      "'",
                                      "\"",
                                      "`",
                                      "\xE2\x80\x98"};
  for (std::string_view text : texts) {
    for (CompilerKind compiler : {CompilerKind::nvcc, CompilerKind::clang})
      EXPECT_NO_THROW(parse_diagnostics(compiler, text)) << text;
  }
}

TEST(DiagnosticsRobustness, FourMegabyteLineIsFast) {
  std::string line = "a.cu(1): error: " + std::string(4u << 20, '(');
  std::string quotes = "x.cu:1:2: error: ";
  while (quotes.size() < (4u << 20))
    quotes += "'a `b \"c \xE2\x80\x98"
              "d (aka '";
  std::string colons(4u << 20, ':');
  for (const std::string* text : {&line, &quotes, &colons}) {
    std::size_t count = 0;
    EXPECT_LT(seconds_to_parse(CompilerKind::nvcc, *text, count), 1.0);
    EXPECT_LT(seconds_to_parse(CompilerKind::clang, *text, count), 1.0);
  }
  std::size_t count = 0;
  seconds_to_parse(CompilerKind::nvcc, line, count);
  EXPECT_EQ(count, 1u);
}

TEST(DiagnosticsRobustness, HundredThousandLinesAreFast) {
  std::string text;
  for (int i = 0; i < 25000; ++i) {
    text += "big.cu(" + std::to_string(i) + "): error: identifier \"x" + std::to_string(i) + "\" is undefined\n";
    text += "    out[0] = x;\n             ^\n\n";
  }
  std::size_t count = 0;
  EXPECT_LT(seconds_to_parse(CompilerKind::nvcc, text, count), 1.0);
  EXPECT_EQ(count, 25000u);
  std::string clang_text;
  for (int i = 0; i < 100000; ++i)
    clang_text += "c.cu:" + std::to_string(i) + ":3: warning: unused variable 'v' [-Wunused-variable]\n";
  EXPECT_LT(seconds_to_parse(CompilerKind::clang, clang_text, count), 1.0);
  EXPECT_EQ(count, 100000u);
}

TEST(Diagnostics, SeverityAndToolNames) {
  EXPECT_EQ(to_string(Severity::fatal), "fatal");
  EXPECT_EQ(to_string(Severity::note), "note");
  EXPECT_EQ(to_string(Tool::host_compiler), "host_compiler");
  EXPECT_EQ(to_string(Tool::nvlink), "nvlink");
}

} // namespace
} // namespace cudiff::oracle
