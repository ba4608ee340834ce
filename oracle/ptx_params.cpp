// oracle: the parameter declarations of every function in a compiler's PTX (docs/oracle.md,
// "Parameter ABI"): `.entry` kernels and `.func` device functions, definitions and
// declarations, with their linkage, parameters and return values as the header spells them.
//
// The reader tokenizes the text once (comments and string literals skipped) and looks at
// headers only at brace depth 0, so the `.param` variables a body declares for its calls and
// `.callprototype` lines are never taken for a function. Never throws; linear.
#include "oracle/lines.h"
#include "oracle/oracle.h"

#include <charconv>

namespace cudiff::oracle {
namespace {

using detail::is_digit;

struct Token {
  std::string_view text;
  bool word = false;  ///< a directive, type, identifier or number; else one punctuation char
};

bool is_word_char(char c) { return detail::is_word(c) || c == '.' || c == '$' || c == '%'; }

/// Words (`.param`, `.b8`, `_Z3fooi_param_0`, `16`) and single punctuation characters;
/// comments, string literals and white space dropped.
std::vector<Token> tokenize(std::string_view text) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      i = text.find('\n', i);
      if (i == std::string_view::npos) break;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      i = text.find("*/", i + 2);
      if (i == std::string_view::npos) break;
      i += 2;
    } else if (c == '"') {
      const std::size_t end = text.find('"', i + 1);
      if (end == std::string_view::npos) break;
      i = end + 1;
    } else if (is_word_char(c)) {
      std::size_t end = i;
      while (end < text.size() && is_word_char(text[end])) ++end;
      tokens.push_back({text.substr(i, end - i), true});
      i = end;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
    } else {
      tokens.push_back({text.substr(i, 1), false});
      ++i;
    }
  }
  return tokens;
}

bool is(const Token& token, std::string_view text) { return token.text == text; }

/// A decimal number (PTX sizes and alignments), capped at 2^32 so products stay in 64 bits.
std::optional<std::uint64_t> number(std::string_view text) {
  if (text.empty() || !is_digit(text.front())) return std::nullopt;
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range) return std::uint64_t{1} << 32;
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return std::min<std::uint64_t>(value, std::uint64_t{1} << 32);
}

/// Bytes of a PTX fundamental type (".b8" .. ".b128", ".u16", ".s64", ".f16x2", ".bf16",
/// ".pred" as 1, as ptxas stores it); nullopt for a word that is not one.
std::optional<std::uint32_t> type_bytes(std::string_view type) {
  if (type == ".pred") return 1;
  std::string_view rest;
  if (type.rfind(".bf", 0) == 0) rest = type.substr(3);
  else if (type.size() > 2 && type[0] == '.' && (type[1] == 'b' || type[1] == 'u' || type[1] == 's' || type[1] == 'f'))
    rest = type.substr(2);
  else return std::nullopt;
  int lanes = 1;
  if (rest.size() > 2 && rest.substr(rest.size() - 2) == "x2") {
    lanes = 2;
    rest.remove_suffix(2);
  }
  constexpr std::pair<std::string_view, std::uint32_t> widths[] = {
      {"8", 1}, {"16", 2}, {"32", 4}, {"64", 8}, {"128", 16}};
  for (const auto& [bits, bytes] : widths)
    if (rest == bits) return bytes * static_cast<std::uint32_t>(lanes);
  return std::nullopt;
}

std::string declaration_text(const std::vector<Token>& tokens, std::size_t begin, std::size_t end,
                             std::size_t name_at) {
  std::string text;
  for (std::size_t i = begin; i < end; ++i) {
    if (i == name_at) continue;
    const bool tight = is(tokens[i], "]") || (i > begin && is(tokens[i - 1], "["));
    if (!text.empty() && !tight) text += ' ';
    text += tokens[i].text;
  }
  return text;
}

/// One parameter from tokens [begin, end): `.param [.align N] TYPE [attributes] NAME [[N]]`.
PtxParam read_param(const std::vector<Token>& tokens, std::size_t begin, std::size_t end) {
  PtxParam param;
  std::size_t name_at = end;
  bool typed = false;
  std::uint32_t vector_lanes = 1;
  for (std::size_t i = begin; i < end; ++i) {
    const Token& token = tokens[i];
    if (!token.word) {
      if (is(token, "[")) {
        param.array = true;
        param.count = 0;  // `[]`: an unsized array
        if (i + 1 < end) {
          if (std::optional<std::uint64_t> n = number(tokens[i + 1].text)) param.count = *n;
        }
      }
      continue;
    }
    if (i == begin && (is(token, ".param") || is(token, ".reg"))) {
      param.space = std::string(token.text);
    } else if (is(token, ".align")) {
      std::optional<std::uint64_t> n = i + 1 < end ? number(tokens[i + 1].text) : std::nullopt;
      if (!typed && n) {
        param.alignment = static_cast<std::uint32_t>(*n);
        param.explicit_alignment = true;
      } else {
        // After the type, `.ptr [.space] .align N` is the pointee's alignment: an attribute.
        param.attributes.push_back(".align" + (n ? " " + std::to_string(*n) : std::string()));
      }
      if (n) ++i;
    } else if (is(token, ".v2") || is(token, ".v4")) {
      vector_lanes = is(token, ".v2") ? 2 : 4;
    } else if (std::optional<std::uint32_t> bytes = typed ? std::nullopt : type_bytes(token.text)) {
      param.type = std::string(token.text);
      param.element_bytes = *bytes * vector_lanes;
      typed = true;
    } else if (token.text.front() == '.') {
      param.attributes.push_back(std::string(token.text));
    } else if (!is_digit(token.text.front()) && name_at == end) {
      param.name = std::string(token.text);
      name_at = i;
    }
  }
  if (!param.explicit_alignment) param.alignment = param.element_bytes;
  param.declaration = declaration_text(tokens, begin, end, name_at);
  return param;
}

/// The parameters between the '(' at `open` and its ')'; `next` is set past the ')'.
std::vector<PtxParam> read_list(const std::vector<Token>& tokens, std::size_t open, std::size_t& next) {
  std::vector<PtxParam> params;
  std::size_t start = open + 1;
  for (std::size_t i = open + 1; i < tokens.size(); ++i) {
    const bool close = is(tokens[i], ")");
    if (close || is(tokens[i], ",")) {
      if (i > start) params.push_back(read_param(tokens, start, i));
      start = i + 1;
      if (close) {
        next = i + 1;
        return params;
      }
    } else if (is(tokens[i], "{") || is(tokens[i], ";") || is(tokens[i], ".entry") || is(tokens[i], ".func")) {
      break;  // an unclosed list: what was read stands (stopping here keeps the reader linear)
    }
  }
  next = start;
  return params;
}

/// Skips to the end of the header: past a ';' (a declaration) or past the body's matching
/// '}' (a definition). Directives in between (`.maxntid 128, 1, 1`, `.noreturn`) are skipped.
std::size_t skip_rest(const std::vector<Token>& tokens, std::size_t i, bool& defined) {
  for (; i < tokens.size(); ++i) {
    if (is(tokens[i], ";")) return i + 1;
    if (is(tokens[i], ".entry") || is(tokens[i], ".func")) return i;  // no body: malformed
    if (!is(tokens[i], "{")) continue;
    defined = true;
    int depth = 0;
    for (; i < tokens.size(); ++i) {
      if (is(tokens[i], "{")) ++depth;
      else if (is(tokens[i], "}") && --depth == 0) return i + 1;
    }
  }
  return i;
}

void keep(std::vector<PtxFunction>& functions, std::map<std::string, std::size_t>& index, PtxFunction function) {
  auto [known, fresh] = index.try_emplace(function.name, functions.size());
  if (fresh) functions.push_back(std::move(function));
  // A forward declaration then the definition: the definition stands.
  else if (function.defined && !functions[known->second].defined) functions[known->second] = std::move(function);
}

} // namespace

std::string to_string(PtxLinkage linkage) {
  switch (linkage) {
  case PtxLinkage::internal: return "internal";
  case PtxLinkage::visible: return "visible";
  case PtxLinkage::weak: return "weak";
  case PtxLinkage::external: return "extern";
  case PtxLinkage::common: return "common";
  }
  return "?";
}

std::vector<PtxFunction> read_ptx_functions(std::string_view ptx) {
  const std::vector<Token> tokens = tokenize(ptx);
  std::vector<PtxFunction> functions;
  std::map<std::string, std::size_t> index;  // name -> position in functions
  PtxLinkage linkage = PtxLinkage::internal;
  int depth = 0;
  std::size_t i = 0;
  while (i < tokens.size()) {
    const Token& token = tokens[i];
    if (is(token, "{")) ++depth;
    else if (is(token, "}")) depth = depth > 0 ? depth - 1 : 0;
    if (depth > 0 || !token.word) {
      if (is(token, ";") || is(token, "}")) linkage = PtxLinkage::internal;
      ++i;
      continue;
    }
    if (is(token, ".visible")) linkage = PtxLinkage::visible;
    else if (is(token, ".weak")) linkage = PtxLinkage::weak;
    else if (is(token, ".extern")) linkage = PtxLinkage::external;
    else if (is(token, ".common")) linkage = PtxLinkage::common;
    if (!is(token, ".entry") && !is(token, ".func")) {
      ++i;
      continue;
    }
    PtxFunction function;
    function.kernel = is(token, ".entry");
    function.linkage = linkage;
    linkage = PtxLinkage::internal;
    ++i;
    // `.func (.param .b32 func_retval0) name(...)`: the return values come first.
    if (!function.kernel && i < tokens.size() && is(tokens[i], "(")) function.returns = read_list(tokens, i, i);
    if (i < tokens.size() && tokens[i].word && tokens[i].text.front() != '.') function.name = tokens[i++].text;
    if (i < tokens.size() && is(tokens[i], "(")) function.params = read_list(tokens, i, i);
    i = skip_rest(tokens, i, function.defined);
    if (!function.name.empty()) keep(functions, index, std::move(function));
  }
  return functions;
}

} // namespace cudiff::oracle
