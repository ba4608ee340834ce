// ubscan constants: integer constant expressions over tokens (literals, operators, casts,
// sizeof, constants and macros) and the sizes and alignments of the types the scan knows.
#include "ubscan/parts.h"

#include <cctype>
#include <climits>

namespace cudiff::ubscan::detail {

/// Sizes and alignments of the types a pointer into dynamic shared memory may have.
std::optional<std::pair<int, int>> size_and_alignment(std::string_view type) {
  static const std::map<std::string_view, int> scalars = {{"char", 1},
                                                          {"signed char", 1},
                                                          {"unsigned char", 1},
                                                          {"bool", 1},
                                                          {"int8_t", 1},
                                                          {"uint8_t", 1},
                                                          {"short", 2},
                                                          {"unsigned short", 2},
                                                          {"short int", 2},
                                                          {"int16_t", 2},
                                                          {"uint16_t", 2},
                                                          {"half", 2},
                                                          {"__half", 2},
                                                          {"__nv_bfloat16", 2},
                                                          {"int", 4},
                                                          {"unsigned", 4},
                                                          {"unsigned int", 4},
                                                          {"signed", 4},
                                                          {"int32_t", 4},
                                                          {"uint32_t", 4},
                                                          {"float", 4},
                                                          {"long", 8},
                                                          {"unsigned long", 8},
                                                          {"long long", 8},
                                                          {"unsigned long long", 8},
                                                          {"long int", 8},
                                                          {"long long int", 8},
                                                          {"unsigned long long int", 8},
                                                          {"int64_t", 8},
                                                          {"uint64_t", 8},
                                                          {"size_t", 8},
                                                          {"double", 8},
                                                          {"ptrdiff_t", 8},
                                                          {"uintptr_t", 8}};
  if (auto found = scalars.find(type); found != scalars.end()) return std::pair{found->second, found->second};
  // Built-in vector types: the guide's alignment table (V-VECTOR-ALIGN).
  static const std::map<std::string_view, int> vector_bases = {{"char", 1},      {"uchar", 1}, {"short", 2},
                                                               {"ushort", 2},    {"int", 4},   {"uint", 4},
                                                               {"long", 8},      {"ulong", 8}, {"longlong", 8},
                                                               {"ulonglong", 8}, {"float", 4}, {"double", 8}};
  if (type.empty() || !std::isdigit(static_cast<unsigned char>(type.back()))) return std::nullopt;
  const auto base = vector_bases.find(type.substr(0, type.size() - 1));
  const int n = type.back() - '0';
  if (base == vector_bases.end() || n < 1 || n > 4) return std::nullopt;
  const int size = base->second * n;
  const int align = n == 3 ? base->second : std::min(16, size);
  return std::pair{size, align};
}

namespace {

// ---- integer constant expressions ------------------------------------------------------------

/// Evaluates an integer constant expression over tokens: literals, + - * / % << >> & | ^ ~,
/// parentheses, integer casts, sizeof of known types, and names of constexpr/const variables
/// or object-like macros with such values. Anything else is unknown.
class ConstantEvaluator {
public:
  ConstantEvaluator(const Analysis& analysis, const std::vector<Token>& tokens, int depth)
      : a_(analysis), t_(tokens), depth_(depth) {}

  std::optional<long long> evaluate(std::size_t begin, std::size_t end) {
    pos_ = begin;
    end_ = end;
    if (depth_ > 6 || begin >= end) return std::nullopt;
    const auto value = binary(0);
    if (!value || pos_ != end_) return std::nullopt;
    return value;
  }

private:
  std::string_view text(std::size_t i) const { return i < end_ ? t_[i].text : std::string_view(); }

  static int precedence(std::string_view op) {
    if (op == "*" || op == "/" || op == "%") return 5;
    if (op == "+" || op == "-") return 4;
    if (op == "<<" || op == ">>") return 3;
    if (op == "&") return 2;
    if (op == "^") return 1;
    if (op == "|") return 0;
    return -1;
  }

  std::optional<long long> binary(int min_precedence) {
    auto left = unary();
    while (left && pos_ < end_) {
      const std::string_view op = text(pos_);
      const int p = precedence(op);
      if (p < min_precedence || p < 0) break;
      ++pos_;
      const auto right = binary(p + 1);
      if (!right) return std::nullopt;
      left = apply(op, *left, *right);
    }
    return left;
  }

  static std::optional<long long> apply(std::string_view op, long long l, long long r) {
    const auto ul = static_cast<unsigned long long>(l), ur = static_cast<unsigned long long>(r);
    if (op == "+") return static_cast<long long>(ul + ur);
    if (op == "-") return static_cast<long long>(ul - ur);
    if (op == "*") return static_cast<long long>(ul * ur);
    if ((op == "/" || op == "%") && (r == 0 || (l == LLONG_MIN && r == -1))) return std::nullopt;
    if (op == "/") return l / r;
    if (op == "%") return l % r;
    if (op == "<<") return r < 0 || r > 63 ? std::nullopt : std::optional<long long>(static_cast<long long>(ul << r));
    if (op == ">>") return r < 0 || r > 63 ? std::nullopt : std::optional<long long>(l >> r);
    if (op == "&") return l & r;
    if (op == "^") return l ^ r;
    return l | r;
  }

  std::optional<long long> unary() {
    const std::string_view t = text(pos_);
    if (t == "-" || t == "+" || t == "~" || t == "!") {
      ++pos_;
      const auto v = unary();
      if (!v) return std::nullopt;
      if (t == "-") return static_cast<long long>(0ull - static_cast<unsigned long long>(*v));
      if (t == "~") return ~*v;
      if (t == "!") return *v == 0 ? 1 : 0;
      return v;
    }
    if (t == "(") return parenthesized();
    if (t == "sizeof") return size_of();
    if (t == "static_cast" && text(pos_ + 1) == "<") return static_cast_value();
    if (pos_ < end_ && t_[pos_].kind == TokenKind::number) return literal(t_[pos_++].text);
    if (pos_ < end_ && t_[pos_].kind == TokenKind::identifier) return named(pos_++);
    return std::nullopt;
  }

  std::optional<long long> parenthesized() {
    // A cast to an integer type, or a parenthesized expression.
    std::size_t j = pos_ + 1;
    while (j < end_ && t_[j].kind == TokenKind::identifier &&
           (is_builtin_type_word(t_[j].text) || t_[j].text.ends_with("_t")))
      ++j;
    if (j > pos_ + 1 && text(j) == ")") {
      pos_ = j + 1;
      return unary();
    }
    ++pos_;
    auto v = binary(0);
    if (text(pos_) != ")") return std::nullopt;
    ++pos_;
    return v;
  }

  std::optional<long long> static_cast_value() {
    std::size_t j = pos_ + 2;
    while (j < end_ && text(j) != ">") ++j;
    if (text(j + 1) != "(") return std::nullopt;
    pos_ = j + 1;
    return parenthesized();
  }

  std::optional<long long> size_of() {
    if (text(pos_ + 1) != "(") return std::nullopt;
    std::string type;
    std::size_t j = pos_ + 2;
    for (; j < end_ && text(j) != ")"; ++j) type += (type.empty() ? "" : " ") + std::string(text(j));
    if (text(j) != ")") return std::nullopt;
    pos_ = j + 1;
    const auto sa = size_and_alignment(type);
    if (!sa) return std::nullopt;
    return sa->first;
  }

  static std::optional<long long> literal(std::string_view text) {
    std::string digits;
    for (char c : text)
      if (c != '\'') digits += c;
    while (!digits.empty() &&
           (digits.back() == 'u' || digits.back() == 'U' || digits.back() == 'l' || digits.back() == 'L'))
      digits.pop_back();
    if (digits.empty() || digits.find('.') != std::string::npos) return std::nullopt;
    int base = 10;
    std::size_t start = 0;
    if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) base = 16, start = 2;
    else if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'b' || digits[1] == 'B')) base = 2, start = 2;
    else if (digits.size() > 1 && digits[0] == '0') base = 8, start = 1;
    unsigned long long value = 0;
    for (std::size_t i = start; i < digits.size(); ++i) {
      const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(digits[i])));
      const int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : 99;
      if (d >= base) return std::nullopt;
      value = value * static_cast<unsigned long long>(base) + static_cast<unsigned long long>(d);
    }
    return static_cast<long long>(value);
  }

  std::optional<long long> named(std::size_t k) {
    const std::string name(t_[k].text);
    if (&t_ == &a_.m.tokens) {
      const Variable* v = a_.variable_at(name, k);
      if (v && v->is_const && v->init_end > v->init_begin && !v->array)
        return ConstantEvaluator(a_, a_.m.tokens, depth_ + 1).evaluate(v->init_begin, v->init_end);
    }
    const auto macro = a_.m.object_macros.find(name);
    if (macro == a_.m.object_macros.end()) return std::nullopt;
    const Lexed lexed = lex(macro->second);
    return ConstantEvaluator(a_, lexed.tokens, depth_ + 1).evaluate(0, lexed.tokens.size());
  }

  const Analysis& a_;
  const std::vector<Token>& t_;
  int depth_;
  std::size_t pos_ = 0, end_ = 0;
};

} // namespace

std::optional<long long> Analysis::constant(std::size_t a, std::size_t b) const {
  return ConstantEvaluator(*this, m.tokens, 0).evaluate(a, b);
}

} // namespace cudiff::ubscan::detail
