// oracle: the layout views — device values, through the probes, from the PTX of either
// compiler, host values from a program's `layout` lines (docs/architecture.md, "Oracles" 5).
#include "oracle/lines.h"
#include "oracle/oracle.h"

#include <charconv>

namespace cudiff::oracle {
namespace {

constexpr std::string_view kArrayPrefix = "cudiff_layout_";

std::optional<std::uint64_t> parse_number(std::string_view text) {
  text = trim(text);
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  if (!text.empty() && (text.back() == 'U' || text.back() == 'u')) text.remove_suffix(1);
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

/// Bits per element of a PTX type token such as ".b8" or ".u64"; 0 for anything else.
int element_bits(std::string_view token) {
  if (token.size() < 3 || token[0] != '.' || (token[1] != 'b' && token[1] != 'u' && token[1] != 's')) return 0;
  const std::string_view digits = token.substr(2);
  if (digits == "8") return 8;
  if (digits == "16") return 16;
  if (digits == "32") return 32;
  if (digits == "64") return 64;
  return 0;
}

struct Declaration {
  std::string name;
  int bits = 0;
  std::size_t count = 0;
  std::vector<std::uint64_t> elements;  ///< the initializer as written (may be short)
};

/// One declaration from the start of its line to its ';' (initializers may span lines).
std::optional<Declaration> parse_declaration(std::string_view statement) {
  const std::size_t at = statement.find(kArrayPrefix);
  const std::size_t equals = statement.find('=');
  std::string_view head = statement.substr(0, std::min(at, equals));
  // Only definitions in the global state space; debug sections name the arrays too (-G).
  bool global = false;
  int bits = 0;
  std::size_t from = 0;
  while (from < head.size()) {
    while (from < head.size() && detail::is_space(head[from])) ++from;
    std::size_t to = from;
    while (to < head.size() && !detail::is_space(head[to])) ++to;
    const std::string_view token = head.substr(from, to - from);
    if (token == ".extern") return std::nullopt;
    if (token == ".global") global = true;
    if (int b = element_bits(token); b > 0) bits = b;
    from = to;
  }
  if (!global || bits == 0) return std::nullopt;
  Declaration declaration;
  declaration.bits = bits;
  std::size_t end = at;
  while (end < statement.size() && detail::is_word(statement[end])) ++end;
  declaration.name = std::string(statement.substr(at, end - at));
  const std::size_t open = statement.find('[', end);
  const std::size_t close = statement.find(']', end);
  if (open != end || close == std::string_view::npos) return std::nullopt;
  const auto count = parse_number(statement.substr(open + 1, close - open - 1));
  if (!count || *count > (1u << 20)) return std::nullopt;
  declaration.count = static_cast<std::size_t>(*count);
  const std::size_t brace = statement.find('{', close);
  if (brace != std::string_view::npos) {
    const std::size_t last = statement.find('}', brace);
    if (last == std::string_view::npos) return std::nullopt;
    for (const std::string& item : split(statement.substr(brace + 1, last - brace - 1), ',')) {
      if (trim(item).empty()) continue;
      const auto value = parse_number(item);
      if (!value) return std::nullopt;  // a symbol or an expression: not a probe we wrote
      declaration.elements.push_back(*value);
    }
  }
  return declaration;
}

/// How many 64-bit values the declared elements fill.
std::size_t value_count(const Declaration& declaration) {
  const std::size_t per_value = 64 / static_cast<std::size_t>(declaration.bits);
  return (declaration.count + per_value - 1) / per_value;
}

/// Elements of `bits` each, little-endian (PTX's byte order on every NVIDIA target), as
/// 64-bit values; the missing tail of a short initializer is zero.
std::vector<std::uint64_t> to_u64(const Declaration& declaration) {
  const std::size_t per_value = 64 / static_cast<std::size_t>(declaration.bits);
  std::vector<std::uint64_t> out(value_count(declaration), 0);
  const std::uint64_t mask = declaration.bits == 64 ? ~0ull : ((1ull << declaration.bits) - 1);
  for (std::size_t i = 0; i < declaration.elements.size() && i < declaration.count; ++i)
    out[i / per_value] |= (declaration.elements[i] & mask) << (declaration.bits * (i % per_value));
  return out;
}

std::string property_name(const LayoutProbe& probe, std::size_t index) { return probe.properties[index]; }

/// More 64-bit values than this in all (8 MiB) is not PTX cudiff wrote (a probe array holds a
/// few per type): declared sizes are zero-filled, so without a bound a short text declaring
/// many large arrays took gigabytes.
constexpr std::size_t kMaxValues = std::size_t{1} << 20;

/// The first `c` at or after a position, for positions that never decrease: a hit still ahead
/// is reused, so each byte is searched once however many positions ask.
class NextChar {
public:
  NextChar(std::string_view text, char c) : text_(text), c_(c) {}
  std::size_t from(std::size_t pos) {
    if (!searched_ || found_ < pos) found_ = text_.find(c_, pos);
    searched_ = true;
    return found_;
  }

private:
  std::string_view text_;
  char c_;
  bool searched_ = false;
  std::size_t found_ = std::string_view::npos;
};

} // namespace

std::string to_string(LayoutSide side) { return side == LayoutSide::host ? "host" : "device"; }

std::map<std::string, std::vector<std::uint64_t>> read_ptx_layout(std::string_view ptx) {
  std::map<std::string, std::vector<std::uint64_t>> arrays;
  // Every search moves forward only, so that many names on one line or in one statement are
  // read in linear time: searching back to the line start and on to the ';' from each name
  // re-read the line once per name (24 s for a MiB of them).
  NextChar semicolons(ptx, ';'), newlines(ptx, '\n'), braces(ptx, '{');
  std::size_t start = 0;  // where the statement holding `at` starts: after the last '\n' or ';'
  std::size_t seen = 0;   // the text before it was searched for that
  std::size_t values = 0;
  for (std::size_t at = ptx.find(kArrayPrefix); at != std::string_view::npos; at = ptx.find(kArrayPrefix, at + 1)) {
    if (at > 0 && detail::is_word(ptx[at - 1])) continue;  // part of a longer name
    if (const std::size_t end = ptx.substr(seen, at - seen).find_last_of(";\n"); end != std::string_view::npos)
      start = seen + end + 1;
    seen = at;
    const std::size_t semicolon = semicolons.from(at);
    // A declaration ends at its ';'; one whose line ends first without an initializer opening
    // is something else (a debug-section reference, a use in an instruction).
    if (semicolon == std::string_view::npos) break;
    if (newlines.from(at) < semicolon && braces.from(start) >= semicolon) continue;
    const std::string_view statement = ptx.substr(start, semicolon - start);
    if (auto declaration = parse_declaration(statement);
        declaration && values + value_count(*declaration) <= kMaxValues) {
      values += value_count(*declaration);
      arrays[declaration->name] = to_u64(*declaration);
    }
    at = semicolon;  // one array per statement: later names in the same statement are not declarations
  }
  return arrays;
}

LayoutView device_layout_view(const std::string& config, runners::CompilerKind compiler, std::string_view ptx,
                              const std::vector<LayoutProbe>& probes) {
  LayoutView view{config, compiler, LayoutSide::device, {}, {}};
  const auto arrays = read_ptx_layout(ptx);
  std::vector<std::string> missing;
  for (const LayoutProbe& probe : probes) {
    auto found = arrays.find(probe.array);
    if (found == arrays.end()) {
      missing.push_back(probe.array);
      continue;
    }
    auto& values = view.values[probe.type];
    for (std::size_t i = 0; i < probe.properties.size() && i < found->second.size(); ++i)
      values[property_name(probe, i)] = found->second[i];
  }
  if (!missing.empty()) view.problem = "not in the PTX: " + join(missing, ", ");
  return view;
}

LayoutView host_layout_view(const std::string& config, runners::CompilerKind compiler, std::string_view output) {
  LayoutView view{config, compiler, LayoutSide::host, {}, {}};
  detail::for_each_line(output, [&](std::string_view line) {
    const std::vector<std::string> words = split(trim(line), ' ');
    if (words.size() != 4 || words[0] != "layout") return;
    if (const auto value = parse_number(words[3])) view.values[words[1]][words[2]] = *value;
  });
  return view;
}

} // namespace cudiff::oracle
