// probe_check: no probe result may depend on an unspecified value (docs/generator.md, "Probes: no
// unspecified values"). A probe returns its argument only when what it tests works, so a value
// that may legally differ between compilers, levels or runs (an address, the non-zero result of
// a vote, a clock) makes the checksum differ with no compiler bug behind it: the
// V-KERNEL-CLOSURE-DEVFN probe once compared a __global__ function's device-side address with
// nullptr, which is 0 at run time on the GPU and folded to true at -O3.
//
// The check reads the fragment's tokens (common/cpp_lexer.h); it knows no types, so it looks
// for the spellings such uses take. It cannot see uninitialized reads or scheduling: those are
// compute-sanitizer's initcheck and racecheck on the GPU (tests/gpu).
#include "generator/generator.h"

#include "common/cpp_lexer.h"

#include <algorithm>
#include <array>
#include <set>

namespace cudiff::generator {
namespace {

struct Tokens {
  std::string_view text;
  std::vector<cpp::Token> tokens;  // without comments

  std::string_view at(std::size_t i) const { return i < tokens.size() ? tokens[i].text(text) : std::string_view(); }
  int line(std::size_t i) const { return i < tokens.size() ? tokens[i].line : 0; }
};

Tokens tokens_of(std::string_view fragment) {
  Tokens t{fragment, {}};
  for (const cpp::Token& token : cpp::tokenize(fragment))
    if (token.kind != cpp::TokenKind::comment) t.tokens.push_back(token);
  return t;
}

std::string where(const Tokens& t, std::size_t i, std::string_view what) {
  return "line " + std::to_string(t.line(i)) + ": " + std::string(what);
}

bool tests_a_value(std::string_view token) {
  static constexpr std::array<std::string_view, 10> ops = {"==", "!=", "<=", ">=", ">", "!", "&&", "||", "?", "<"};
  return std::ranges::find(ops, token) != ops.end();
}

/// Names holding a __global__ function's address: the kernels the fragment declares, and the
/// variables initialized from one (`void (*k)(...) = kernel<...>;`).
std::set<std::string> kernel_address_names(const Tokens& t) {
  std::set<std::string> names;
  for (std::size_t i = 0; i + 2 < t.tokens.size(); ++i)
    if (t.at(i) == "__global__") {
      std::size_t j = i + 1;
      while (j < t.tokens.size() && t.at(j) != "(" && t.at(j) != ";") ++j;
      if (j > i + 1 && t.at(j) == "(") names.insert(std::string(t.at(j - 1)));
    }
  for (std::size_t i = 0; i + 1 < t.tokens.size(); ++i)
    if (t.at(i) == "=" && names.count(std::string(t.at(i + 1)))) {
      // Walk back from `=` over the declarator `void (*k)(args)` to the variable's name.
      std::size_t j = i;
      int depth = 0;
      while (j > 0) {
        --j;
        if (t.at(j) == ")") ++depth;
        else if (t.at(j) == "(") --depth;
        else if (depth == 1 && t.tokens[j].kind == cpp::TokenKind::identifier && t.at(j - 1) == "*") {
          names.insert(std::string(t.at(j)));
          break;
        }
        if (t.at(j) == ";" || t.at(j) == "{") break;
      }
    }
  return names;
}

/// A kernel's address compared, negated or tested: a __global__ function has no address in
/// device code that both compilers agree on (0 at run time, non-null when folded).
void kernel_addresses(const Tokens& t, std::vector<std::string>& uses) {
  const std::set<std::string> names = kernel_address_names(t);
  for (std::size_t i = 0; i < t.tokens.size(); ++i) {
    if (!names.count(std::string(t.at(i)))) continue;
    const std::string_view before = i > 0 ? t.at(i - 1) : std::string_view();
    const std::string_view after = t.at(i + 1);
    const bool template_args = after == "<";  // kernel<T>: names an instantiation
    if ((tests_a_value(after) && !template_args) || tests_a_value(before))
      uses.push_back(
          where(t, i, "a __global__ function's address '" + std::string(t.at(i)) + "' is compared or tested"));
  }
}

/// A pointer turned into an integer: its value is an address.
void pointer_integers(const Tokens& t, std::vector<std::string>& uses) {
  static constexpr std::array<std::string_view, 6> address_types = {"uintptr_t", "intptr_t", "ptrdiff_t",
                                                                    "size_t",    "uint64_t", "long"};
  for (std::size_t i = 0; i + 2 < t.tokens.size(); ++i) {
    if (t.at(i) == "reinterpret_cast" && t.at(i + 1) == "<") {
      std::size_t j = i + 2;
      bool pointer = false, integer = false;
      for (; j < t.tokens.size() && t.at(j) != ">"; ++j) {
        if (t.at(j) == "*" || t.at(j) == "&") pointer = true;
        if (std::ranges::find(address_types, t.at(j)) != address_types.end() || t.at(j) == "unsigned") integer = true;
      }
      if (integer && !pointer) uses.push_back(where(t, i, "reinterpret_cast of a pointer to an integer"));
    }
    if (t.at(i) == "(" && (t.at(i + 1) == "uintptr_t" || t.at(i + 1) == "intptr_t") && t.at(i + 2) == ")")
      uses.push_back(where(t, i, "a pointer cast to " + std::string(t.at(i + 1))));
    if (t.tokens[i].kind == cpp::TokenKind::string && t.at(i).find("%p") != std::string_view::npos)
      uses.push_back(where(t, i, "an address printed with %p"));
  }
}

/// The index of the `)` that closes the call whose `(` is at `open`.
std::size_t closing_paren(const Tokens& t, std::size_t open) {
  int depth = 0;
  for (std::size_t j = open; j < t.tokens.size(); ++j) {
    if (t.at(j) == "(") ++depth;
    else if (t.at(j) == ")" && --depth == 0) return j;
  }
  return t.tokens.size();
}

/// __all_sync, __any_sync, __syncthreads_and/_or return a non-zero int of unspecified value:
/// only its truth may be used (compared with 0, negated, a condition, a logical operand).
void vote_values(const Tokens& t, std::vector<std::string>& uses) {
  static constexpr std::array<std::string_view, 6> votes = {"__all_sync",       "__any_sync", "__syncthreads_and",
                                                            "__syncthreads_or", "__all",      "__any"};
  for (std::size_t i = 0; i + 1 < t.tokens.size(); ++i) {
    if (std::ranges::find(votes, t.at(i)) == votes.end() || t.at(i + 1) != "(") continue;
    const std::size_t close = closing_paren(t, i + 1);
    const std::string_view before = i > 0 ? t.at(i - 1) : std::string_view();
    const std::string_view after = t.at(close + 1);
    const bool compared = (after == "!=" || after == "==") && (t.at(close + 2) == "0" || t.at(close + 2) == "0u");
    const bool logical = before == "!" || before == "&&" || before == "||" || after == "&&" || after == "||" ||
                         after == "?";
    const bool condition = before == "(" && after == ")" && i >= 2 &&
                           (t.at(i - 2) == "if" || t.at(i - 2) == "while" || t.at(i - 2) == "bool");
    if (!compared && !logical && !condition)
      uses.push_back(
          where(t, i, "the value of " + std::string(t.at(i)) + " used as a number (only != 0 is specified)"));
  }
}

/// Clocks, timers and scheduling state differ from run to run.
void clocks(const Tokens& t, std::vector<std::string>& uses) {
  static constexpr std::array<std::string_view, 10> calls = {"clock",        "clock64",      "__activemask",
                                                             "time",         "rand",         "__nanosleep",
                                                             "steady_clock", "system_clock", "cudaEventElapsedTime",
                                                             "__globaltimer"};
  static constexpr std::array<std::string_view, 7> registers = {"%%clock",  "%%clock64", "%%globaltimer", "%%smid",
                                                                "%%warpid", "%%nsmid",   "%%nwarpid"};
  for (std::size_t i = 0; i < t.tokens.size(); ++i) {
    const std::string_view token = t.at(i);
    if (t.tokens[i].kind == cpp::TokenKind::identifier && std::ranges::find(calls, token) != calls.end() &&
        (t.at(i + 1) == "(" || t.at(i + 1) == "::"))
      uses.push_back(where(t, i, "a clock or scheduling value: " + std::string(token)));
    if (t.tokens[i].kind == cpp::TokenKind::string)
      for (std::string_view reg : registers) {
        const std::size_t at = token.find(reg);
        // %%clock64 contains %%clock: report the register as spelled, once.
        if (at != std::string_view::npos && !(reg == "%%clock" && token.substr(at).starts_with("%%clock64")) &&
            !(reg == "%%warpid" && at > 0 && token[at - 1] == 'n'))
          uses.push_back(where(t, i, "a clock or scheduling register read: " + std::string(reg.substr(1))));
      }
  }
}

} // namespace

const std::map<std::string, std::pair<std::string, std::string>>& waived_unspecified_uses() {
  static const std::map<std::string, std::pair<std::string, std::string>> waived = {
      {"V-KERNEL-ASYNC",
       {"%globaltimer",
        "a 5 s timeout on a flag the host sets right after the launch: it only bounds the wait, and the result is "
        "the expected one unless the GPU stalls for 5 s"}},
  };
  return waived;
}

std::vector<std::string> unspecified_value_uses(const std::string& rule_id, const rules::RuleProbe& probe) {
  const Tokens t = tokens_of(probe.fragment);
  std::vector<std::string> uses;
  kernel_addresses(t, uses);
  pointer_integers(t, uses);
  vote_values(t, uses);
  clocks(t, uses);
  const auto waived = waived_unspecified_uses().find(rule_id);
  if (waived != waived_unspecified_uses().end())
    std::erase_if(uses, [&](const std::string& use) { return use.ends_with(waived->second.first); });
  return uses;
}

} // namespace cudiff::generator
