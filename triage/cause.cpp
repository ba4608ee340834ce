// triage: cause keys — a reduced finding's PTX normalised to its instruction sequence, or the
// part of its signature that names the bug (a crash's frames, a diagnostic, a rule), hashed.
#include "triage/cause.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace cudiff::triage {
namespace {

/// The text without `//` and `/* */` comments (PTX has no string literal holding either but
/// `.pragma`'s, which holds neither).
std::string without_comments(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      i = text.find('\n', i);
      if (i == std::string_view::npos) break;
      out += '\n';
    } else if (text[i] == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      const auto end = text.find("*/", i + 2);
      if (end == std::string_view::npos) break;
      out.append(static_cast<std::size_t>(std::count(text.begin() + static_cast<std::ptrdiff_t>(i),
                                                     text.begin() + static_cast<std::ptrdiff_t>(end), '\n')),
                 '\n');
      i = end + 1;
    } else {
      out += text[i];
    }
  }
  return out;
}

bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

bool has_word(std::string_view line, std::string_view word) {
  for (auto at = line.find(word); at != std::string_view::npos; at = line.find(word, at + 1)) {
    const bool before = at == 0 || line[at - 1] == ' ' || line[at - 1] == '\t';
    const std::size_t after = at + word.size();
    if (before && (after == line.size() || !identifier_char(line[after]))) return true;
  }
  return false;
}

/// Whether `line` names `name` as a whole identifier.
bool mentions(std::string_view line, std::string_view name) {
  for (auto at = line.find(name); at != std::string_view::npos; at = line.find(name, at + 1)) {
    const std::size_t after = at + name.size();
    if ((at == 0 || !identifier_char(line[at - 1])) && (after == line.size() || !identifier_char(line[after])))
      return true;
  }
  return false;
}

/// One function of the module with its raw header (declaration up to its body) and body lines.
struct Function {
  std::string name, header;
  bool entry = false;
  std::vector<std::string> body;
};

/// The name a `.entry` or `.func` header declares: after the keyword and a `.func`'s return
/// parameters, up to its own parameters.
std::string declared_name(std::string_view header) {
  auto at = header.find(".entry");
  at = at == std::string_view::npos ? header.find(".func") : at;
  if (at == std::string_view::npos) return {};
  at = header.find_first_not_of(" \t", header.find(' ', at));
  if (at != std::string_view::npos && header[at] == '(') {
    at = header.find(')', at);
    at = at == std::string_view::npos ? at : header.find_first_not_of(" \t", at + 1);
  }
  if (at == std::string_view::npos) return {};
  std::size_t end = at;
  while (end < header.size() && identifier_char(header[end])) ++end;
  return std::string(header.substr(at, end - at));
}

/// The functions with a body, in file order; prototypes and module-level data are left out.
std::vector<Function> functions_of(std::string_view ptx) {
  std::vector<Function> functions;
  std::string header, statement;
  bool in_header = false;
  int depth = 0;
  for (const std::string& raw : split_lines(without_comments(ptx))) {
    const std::string line(trim(raw));
    if (line.empty()) continue;
    if (depth == 0) {
      if (!in_header && !has_word(line, ".entry") && !has_word(line, ".func")) continue;
      header += (in_header ? " " : "") + line;
      in_header = true;
      if (line.ends_with(";")) {  // a prototype
        header.clear();
        in_header = false;
      } else if (line.ends_with("{")) {
        header.pop_back();
        Function function;
        function.header = std::string(trim(header));
        function.name = declared_name(function.header);
        function.entry = has_word(function.header, ".entry");
        functions.push_back(std::move(function));
        header.clear();
        in_header = false;
        depth = 1;
      }
      continue;
    }
    // A brace alone opens or closes a scope; a vector operand's braces sit inside a line.
    if (line == "{" || line == "}") {
      if (!statement.empty()) functions.back().body.push_back(std::move(statement));
      statement.clear();
      if (line == "{") ++depth;
      if (line == "}" && --depth == 0) continue;
      functions.back().body.push_back(line);
      continue;
    }
    // A statement may span lines (nvcc writes a call's operands one per line): it ends at `;`,
    // and a label at `:`.
    statement += (statement.empty() ? "" : " ") + line;
    if (line.ends_with(";") || line.ends_with(":")) {
      functions.back().body.push_back(std::move(statement));
      statement.clear();
    }
  }
  return functions;
}

/// Whether an entry's mangled name holds every component of a checksum name ("s12/dense_0":
/// `3s12` and `7dense_0`, as the Itanium ABI spells namespace and function names).
bool names_kernel(const std::string& mangled, std::string_view kernel) {
  if (kernel.empty()) return false;
  for (const std::string& part : split(kernel, '/')) {
    if (part.empty()) continue;
    if (mangled.find(std::to_string(part.size()) + part) == std::string::npos && mangled != part) return false;
  }
  return true;
}

bool digits(std::string_view text) {
  return !text.empty() && std::ranges::all_of(text, [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

/// An identifier's kind, never its name: a label (numbered in order of appearance), a
/// parameter, a return value, the local depot, a call prototype, any other symbol.
std::string identifier_kind(const std::string& name, const std::set<std::string>& labels,
                            std::map<std::string, std::string>& label_numbers) {
  if (labels.contains(name)) {
    const auto [at, inserted] = label_numbers.try_emplace(name, "L" + std::to_string(label_numbers.size()));
    return at->second;
  }
  const auto suffix_digits = [&](std::string_view prefix) {
    const auto at = name.rfind(prefix);
    return at != std::string::npos && digits(std::string_view(name).substr(at + prefix.size()));
  };
  if (suffix_digits("retval")) return "retval";
  if (suffix_digits("_param_") || (name.starts_with("param") && digits(std::string_view(name).substr(5))))
    return "param";
  if (name.starts_with("__local_depot")) return "depot";
  if (name.starts_with("prototype_")) return "proto";
  return "sym";
}

/// One line's operands (or a directive, a header): registers by class, numbers as N, names by
/// kind, keywords (`.b32`) and punctuation as they are, spaces only between words.
std::string normalized_operands(std::string_view text, const std::set<std::string>& labels,
                                std::map<std::string, std::string>& label_numbers) {
  std::vector<std::string> tokens;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == ' ' || c == '\t') {
      ++i;
      continue;
    }
    std::size_t end = i + 1;
    if (c == '%') {
      while (end < text.size() && (identifier_char(text[end]) || text[end] == '.')) ++end;
      std::string reg(text.substr(i, end - i));
      std::size_t letters = 1;
      while (letters < reg.size() && (std::isalpha(static_cast<unsigned char>(reg[letters])) || reg[letters] == '_'))
        ++letters;
      // %r12 -> %r, %rd3 -> %rd; %r<8> (a declaration) -> %r; %tid.x, %laneid, %SP as they are.
      if (digits(std::string_view(reg).substr(letters))) reg.resize(letters);
      if (end < text.size() && text[end] == '<') {
        reg.resize(letters);
        end = text.find('>', end);
        end = end == std::string_view::npos ? text.size() : end + 1;
      }
      tokens.push_back(reg);
    } else if (c == '.' && end < text.size() && std::isalpha(static_cast<unsigned char>(text[end]))) {
      while (end < text.size() && (identifier_char(text[end]) || text[end] == '.')) ++end;
      tokens.emplace_back(text.substr(i, end - i));
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '.')) ++end;
      tokens.emplace_back("N");
    } else if (identifier_char(c)) {
      while (end < text.size() && identifier_char(text[end])) ++end;
      tokens.push_back(identifier_kind(std::string(text.substr(i, end - i)), labels, label_numbers));
    } else {
      tokens.emplace_back(1, c);
    }
    i = end;
  }
  std::string out;
  for (std::size_t t = 0; t < tokens.size(); ++t) {
    const std::string& token = tokens[t];
    const bool tight_after = !out.empty() && std::string_view("([{!@-+").find(out.back()) != std::string_view::npos;
    const bool tight_before = token.size() == 1 && std::string_view(",;)]}:+").find(token[0]) != std::string_view::npos;
    // A function's parameter list follows its name: `sym(`, `.func (`.
    const bool call_paren = token == "(" && t > 0 && tokens[t - 1] != "," && !tokens[t - 1].starts_with(".");
    if (!out.empty() && !tight_after && !tight_before && !call_paren) out += ' ';
    out += token;
  }
  if (out.ends_with(";")) out.pop_back();
  return out;
}

/// Where a statement's leading label (`NAME:`) ends: the colon's index; 0 for none.
std::size_t label_end(std::string_view statement) {
  std::size_t end = 0;
  while (end < statement.size() && identifier_char(statement[end])) ++end;
  return end > 0 && end < statement.size() && statement[end] == ':' ? end : 0;
}

/// A function's header and body with names, registers, numbers and labels dropped.
std::string normalized_function(const Function& function) {
  std::set<std::string> labels;
  for (const std::string& line : function.body)
    if (const std::size_t colon = label_end(line); colon != 0) labels.insert(line.substr(0, colon));
  std::map<std::string, std::string> label_numbers;
  std::string header = function.header;
  for (std::string_view linkage : {".visible ", ".weak ", ".extern "})
    for (auto at = header.find(linkage); at != std::string::npos; at = header.find(linkage))
      header.erase(at, linkage.size());
  std::string out = normalized_operands(header, labels, label_numbers);
  for (const std::string& line : function.body) {
    if (line.starts_with(".reg ") || line.starts_with(".loc ") || line.starts_with(".loc\t") ||
        line.starts_with(".file"))
      continue;
    std::string_view rest = line;
    std::string normalized;
    // A label, alone or before a statement (`$L_brx_0: .branchtargets ...`).
    if (const std::size_t colon = label_end(rest); colon != 0) {
      normalized = normalized_operands(rest.substr(0, colon + 1), labels, label_numbers);
      rest = trim(rest.substr(colon + 1));
      if (!rest.empty()) normalized += " ";
    }
    // A guard (@%p1, @!%p1), then the opcode with its modifiers as it is.
    if (rest.starts_with("@")) {
      const auto space = rest.find_first_of(" \t");
      normalized = normalized_operands(rest.substr(0, space), labels, label_numbers) + " ";
      rest = space == std::string_view::npos ? std::string_view() : trim(rest.substr(space));
    }
    if (!rest.empty() && rest.front() != '.' && rest != "{" && rest != "}") {
      const auto space = rest.find_first_of(" \t;");
      normalized += std::string(rest.substr(0, space));
      rest = space == std::string_view::npos ? std::string_view() : rest.substr(space);
      const std::string operands = normalized_operands(rest, labels, label_numbers);
      if (!operands.empty()) normalized += " " + operands;
    } else {
      normalized += normalized_operands(rest, labels, label_numbers);
    }
    out += "\n" + normalized;
  }
  return out;
}

/// The compilers of a signature's side ("nvcc-O3+nvcc-O0" or "nvcc+clang"): "nvcc", "clang+nvcc".
std::string compilers_of(std::string_view side) {
  std::set<std::string> compilers;
  for (const std::string& part : split(side, '+')) {
    const std::string name(trim(part.substr(0, part.find('-'))));
    if (!name.empty()) compilers.insert(name);
  }
  return join(std::vector<std::string>(compilers.begin(), compilers.end()), "+");
}

} // namespace

Cause make_cause(std::string basis, std::string text) {
  Cause cause{"", std::move(basis), std::move(text)};
  cause.key = content_key("cudiff-cause v" + std::to_string(cause_version) + "\n" + cause.basis + "\n" + cause.text);
  return cause;
}

std::string normalize_ptx(std::string_view ptx, const std::vector<std::string>& kernels) {
  const std::vector<Function> functions = functions_of(ptx);
  std::map<std::string, const Function*> by_name;
  for (const Function& function : functions) by_name.emplace(function.name, &function);
  // The guilty kernels' entries, else every entry; else (a module of device functions) all.
  std::vector<const Function*> pending;
  for (const Function& function : functions)
    if (function.entry &&
        std::ranges::any_of(kernels, [&](const std::string& k) { return names_kernel(function.name, k); }))
      pending.push_back(&function);
  if (pending.empty())
    for (const Function& function : functions)
      if (function.entry) pending.push_back(&function);
  if (pending.empty())
    for (const Function& function : functions) pending.push_back(&function);
  // And the functions they call, transitively.
  std::set<const Function*> kept;
  while (!pending.empty()) {
    const Function* function = pending.back();
    pending.pop_back();
    if (!kept.insert(function).second) continue;
    for (const std::string& line : function->body) {
      if (line.find("call") == std::string::npos) continue;
      for (const auto& [name, callee] : by_name)
        if (callee != function && !callee->entry && mentions(line, name)) pending.push_back(callee);
    }
  }
  std::vector<std::string> blocks;
  for (const Function* function : kept) blocks.push_back(normalized_function(*function));
  std::ranges::sort(blocks);
  return join(blocks, "\n\n");
}

bool cause_from_ptx(std::string_view kind, std::string_view stage) {
  if (oracle::is_run_kind(kind))
    return stage.empty() || stage == "ptxas" || stage == "device-codegen" || stage == "nvvm" || stage == "driver-jit" ||
           stage == "unknown";
  return (kind == "crash" || kind == "hang" || kind == "slow_compile") && stage == "ptxas";
}

Cause cause_from_signature(const Signature& signature) {
  std::vector<std::string> lines;
  const auto fields = [&](std::initializer_list<std::string_view> names) {
    for (const std::string& line : split_lines(signature.symptom))
      for (std::string_view name : names)
        if (line.starts_with(std::string(name) + " ")) lines.push_back(line);
  };
  const std::string& kind = signature.kind;
  if (kind == "crash") {
    lines.push_back("compiler " + compilers_of(signature.side));
    lines.push_back("stage " + signature.stage);
    fields({"reason", "at", "frame"});
    return make_cause("crash", join(lines, "\n"));
  }
  if (kind == "compile_status_mismatch" || kind == "false_rejection" || kind == "late_rejection") {
    // The rejecting compiler and what it said, whoever accepted: a false rejection and a
    // compile-status mismatch with the same error are one cause.
    lines.push_back("compiler " + compilers_of(signature.side));
    fields({"id"});
    return make_cause("diagnostic", join(lines, "\n"));
  }
  if (kind == "missed_diagnostic" || kind == "missed_by_all" || kind == "dialect_difference") {
    lines.push_back("compiler " + compilers_of(signature.side));
    fields({"rule"});
    return make_cause("rule", join(lines, "\n"));
  }
  return make_cause("signature", signature.symptom);
}

} // namespace cudiff::triage
