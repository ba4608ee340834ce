// runners: the launch description's JSON reader and writer, and the executor's line form
// (runners/launch.h).
#include "runners/launch.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>

namespace cudiff::runners {
namespace {

constexpr std::uint64_t kMaxBufferBytes = 1ull << 30;  // all buffers together: a GPU has far more
constexpr std::uint32_t kMaxBlockThreads = 1024;        // every GPU cudiff supports
constexpr std::uint64_t kMaxParamBytes = 4096;          // a kernel's parameters in all, before CUDA 12.1

[[noreturn]] void refuse(const std::string& where, const std::string& what) {
  throw_usage("launch description: " + (where.empty() ? what : where + ": " + what));
}

/// Bytes of a scalar type, 0 for a name that is not one.
std::uint32_t scalar_bytes(std::string_view type) {
  static const std::map<std::string_view, std::uint32_t> bytes = {{"u8", 1},  {"u16", 2}, {"u32", 4}, {"u64", 8},
                                                                  {"s8", 1},  {"s16", 2}, {"s32", 4}, {"s64", 8},
                                                                  {"f32", 4}, {"f64", 8}};
  const auto found = bytes.find(type);
  return found == bytes.end() ? 0 : found->second;
}

/// A JSON integer or "0x..." string as an unsigned word of at most `bytes` bytes; a negative
/// integer is taken in two's complement when it fits the width as a signed value.
std::uint64_t word(const boost::json::value& value, std::uint32_t bytes, const std::string& where) {
  const unsigned bits = bytes * 8;
  const std::uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
  if (value.is_string()) {
    const std::string_view text = value.get_string();
    std::uint64_t parsed = 0;
    if (!text.starts_with("0x") && !text.starts_with("0X")) refuse(where, "a word in quotes must be \"0x...\"");
    const auto [end, ec] = std::from_chars(text.data() + 2, text.data() + text.size(), parsed, 16);
    if (ec != std::errc() || end != text.data() + text.size() || text.size() == 2)
      refuse(where, "\"" + std::string(text) + "\" is not a hex word");
    if ((parsed & ~mask) != 0) refuse(where, std::string(text) + " does not fit " + std::to_string(bytes) + " bytes");
    return parsed;
  }
  if (value.is_uint64() || (value.is_int64() && value.get_int64() >= 0)) {
    const std::uint64_t parsed = value.is_uint64() ? value.get_uint64() : static_cast<std::uint64_t>(value.get_int64());
    if ((parsed & ~mask) != 0)
      refuse(where, std::to_string(parsed) + " does not fit " + std::to_string(bytes) + " bytes");
    return parsed;
  }
  if (value.is_int64()) {
    const std::int64_t parsed = value.get_int64();
    if (bits < 64 && parsed < -(std::int64_t{1} << (bits - 1)))
      refuse(where, std::to_string(parsed) + " does not fit " + std::to_string(bytes) + " bytes");
    return static_cast<std::uint64_t>(parsed) & mask;
  }
  refuse(where, "expected an integer or a \"0x...\" string");
}

std::uint64_t count_of(const boost::json::value& value, const std::string& where, std::uint64_t min,
                       std::uint64_t max) {
  std::uint64_t n = 0;
  if (value.is_uint64()) n = value.get_uint64();
  else if (value.is_int64() && value.get_int64() >= 0) n = static_cast<std::uint64_t>(value.get_int64());
  else refuse(where, "expected a whole number");
  if (n < min || n > max)
    refuse(where, std::to_string(n) + " is outside " + std::to_string(min) + ".." + std::to_string(max));
  return n;
}

std::array<std::uint32_t, 3> dims(const boost::json::value& value, const std::string& where) {
  std::array<std::uint32_t, 3> out{1, 1, 1};
  if (!value.is_array()) {
    out[0] = static_cast<std::uint32_t>(count_of(value, where, 1, 0x7fffffff));
    return out;
  }
  const boost::json::array& items = value.get_array();
  if (items.empty() || items.size() > 3) refuse(where, "expected 1 to 3 numbers");
  for (std::size_t i = 0; i < items.size(); ++i)
    out[i] = static_cast<std::uint32_t>(count_of(items[i], where + "[" + std::to_string(i) + "]", 1, 0x7fffffff));
  return out;
}

void only_keys(const boost::json::object& object, std::initializer_list<std::string_view> keys,
               const std::string& where) {
  for (const auto& [key, value] : object)
    if (std::find(keys.begin(), keys.end(), std::string_view(key)) == keys.end())
      refuse(where, "unknown key \"" + std::string(key) + "\"");
}

std::uint64_t scalar_value(const boost::json::value& value, const std::string& type, const std::string& where) {
  const std::uint32_t bytes = scalar_bytes(type);
  if (type == "f32" || type == "f64") {
    if (value.is_string()) return word(value, bytes, where);
    if (!value.is_number()) refuse(where, "expected a number");
    const double number = value.to_number<double>();
    if (type == "f64") {
      std::uint64_t bits = 0;
      std::memcpy(&bits, &number, 8);
      return bits;
    }
    const float single = static_cast<float>(number);
    std::uint32_t bits = 0;
    std::memcpy(&bits, &single, 4);
    return bits;
  }
  if (type.front() == 'u' && value.is_int64() && value.get_int64() < 0)
    refuse(where, "a negative value for an unsigned type");
  return word(value, bytes, where);
}

/// A buffer's or symbol's "fill": absent (0), one word, or a list of exactly `count` words.
std::vector<std::uint64_t> fill_of(const boost::json::object& object, std::uint32_t element_bytes, std::uint64_t count,
                                   const std::string& where) {
  const auto* fill = object.if_contains("fill");
  if (fill == nullptr) return {0};
  if (!fill->is_array()) return {word(*fill, element_bytes, where + ": fill")};
  const boost::json::array& words = fill->get_array();
  if (words.size() != count)
    refuse(where, "fill has " + std::to_string(words.size()) + " words, count is " + std::to_string(count));
  std::vector<std::uint64_t> out;
  for (std::size_t i = 0; i < words.size(); ++i)
    out.push_back(word(words[i], element_bytes, where + ": fill[" + std::to_string(i) + "]"));
  return out;
}

/// A bytes parameter: `size` bytes (1 to 4 KiB, the most a kernel's parameters take) given
/// as `data`, 2 * size hex digits in memory order.
LaunchParam bytes_param(const boost::json::object& object, LaunchParam param, const std::string& where) {
  only_keys(object, {"bytes", "size", "data"}, where);
  param.kind = LaunchParam::Kind::bytes;
  const auto* size = object.if_contains("size");
  if (size == nullptr) refuse(where, "needs a size");
  const std::uint64_t n = count_of(*size, where + ": size", 1, kMaxParamBytes);
  const auto* data = object.if_contains("data");
  if (data == nullptr || !data->is_string()) refuse(where, "needs data as a string of hex digits");
  const std::string_view text = data->get_string();
  if (text.size() != 2 * n)
    refuse(where, "data has " + std::to_string(text.size()) + " hex digits, size " + std::to_string(n) + " needs " +
                      std::to_string(2 * n));
  for (std::size_t i = 0; i < n; ++i) {
    std::uint8_t byte = 0;
    const auto [end, ec] = std::from_chars(text.data() + 2 * i, text.data() + 2 * i + 2, byte, 16);
    if (ec != std::errc() || end != text.data() + 2 * i + 2) refuse(where, "data is not hex digits");
    param.data.push_back(byte);
  }
  return param;
}

LaunchParam param_of(const boost::json::value& value, std::size_t index) {
  std::string where = "params[" + std::to_string(index) + "]";
  if (!value.is_object()) refuse(where, "expected an object");
  const boost::json::object& object = value.get_object();
  LaunchParam param;
  const bool buffer = object.contains("buffer"), raw = object.contains("bytes");
  if (int{buffer} + int{raw} + int{object.contains("scalar")} != 1)
    refuse(where, "needs exactly one of \"buffer\", \"scalar\" and \"bytes\"");
  const boost::json::value& name = buffer ? object.at("buffer") : raw ? object.at("bytes") : object.at("scalar");
  if (!name.is_string() || name.get_string().empty()) refuse(where, "the name must be a non-empty string");
  param.name = std::string(name.get_string());
  if (param.name.find_first_of(" \t\n") != std::string::npos) refuse(where, "the name must have no blanks");
  where += " (" + param.name + ")";
  if (raw) return bytes_param(object, std::move(param), where);
  if (!buffer) {
    only_keys(object, {"scalar", "type", "value"}, where);
    param.kind = LaunchParam::Kind::scalar;
    const auto* type = object.if_contains("type");
    if (type == nullptr || !type->is_string() || scalar_bytes(type->get_string()) == 0)
      refuse(where, "type must be one of u8 u16 u32 u64 s8 s16 s32 s64 f32 f64");
    param.type = std::string(type->get_string());
    const auto* number = object.if_contains("value");
    if (number == nullptr) refuse(where, "needs a value");
    param.bits = scalar_value(*number, param.type, where + ": value");
    return param;
  }
  only_keys(object, {"buffer", "element_bytes", "count", "fill", "print"}, where);
  if (const auto* bytes = object.if_contains("element_bytes")) {
    param.element_bytes = static_cast<std::uint32_t>(count_of(*bytes, where + ": element_bytes", 1, 8));
    if (std::popcount(param.element_bytes) != 1) refuse(where, "element_bytes must be 1, 2, 4 or 8");
  }
  const auto* count = object.if_contains("count");
  if (count == nullptr) refuse(where, "needs a count");
  param.count = count_of(*count, where + ": count", 1, kMaxBufferBytes / param.element_bytes);
  if (const auto* print = object.if_contains("print")) {
    if (!print->is_bool()) refuse(where, "print must be true or false");
    param.print = print->get_bool();
  }
  param.fill = fill_of(object, param.element_bytes, param.count, where);
  return param;
}

/// A symbol: its name, element_bytes, count and fill as a buffer's.
LaunchSymbol symbol_of(const boost::json::value& value, std::size_t index) {
  std::string where = "symbols[" + std::to_string(index) + "]";
  if (!value.is_object()) refuse(where, "expected an object");
  const boost::json::object& object = value.get_object();
  const auto* name = object.if_contains("symbol");
  if (name == nullptr || !name->is_string() || name->get_string().empty())
    refuse(where, "needs the symbol's name as a string");
  LaunchSymbol symbol;
  symbol.name = std::string(name->get_string());
  if (symbol.name.find_first_of(" \t\n") != std::string::npos) refuse(where, "the name must have no blanks");
  where += " (" + symbol.name + ")";
  only_keys(object, {"symbol", "element_bytes", "count", "fill"}, where);
  if (const auto* bytes = object.if_contains("element_bytes")) {
    symbol.element_bytes = static_cast<std::uint32_t>(count_of(*bytes, where + ": element_bytes", 1, 8));
    if (std::popcount(symbol.element_bytes) != 1) refuse(where, "element_bytes must be 1, 2, 4 or 8");
  }
  const auto* count = object.if_contains("count");
  if (count == nullptr) refuse(where, "needs a count");
  symbol.count = count_of(*count, where + ": count", 1, kMaxBufferBytes / symbol.element_bytes);
  symbol.fill = fill_of(object, symbol.element_bytes, symbol.count, where);
  return symbol;
}

LaunchChecksum checksum_of(const boost::json::value& value, std::size_t index,
                           const std::map<std::string, std::size_t>& names) {
  std::string where = "checksums[" + std::to_string(index) + "]";
  if (!value.is_object()) refuse(where, "expected an object");
  const boost::json::object& object = value.get_object();
  only_keys(object, {"label", "fold"}, where);
  const auto* label = object.if_contains("label");
  if (label == nullptr || !label->is_string() || label->get_string().empty())
    refuse(where, "needs a label as a string");
  LaunchChecksum checksum;
  checksum.label = std::string(label->get_string());
  if (checksum.label.find_first_of(" \t\n") != std::string::npos) refuse(where, "the label must have no blanks");
  const auto* fold = object.if_contains("fold");
  if (fold == nullptr || !fold->is_array() || fold->get_array().empty())
    refuse(where, "fold must be a list of buffer and symbol names");
  for (const boost::json::value& part : fold->get_array()) {
    if (!part.is_string() || !names.contains(std::string(part.get_string())))
      refuse(where, "fold names " + (part.is_string() ? "\"" + std::string(part.get_string()) + "\"" : "a non-string") +
                        ", which is no buffer or symbol");
    checksum.fold.emplace_back(part.get_string());
  }
  return checksum;
}

boost::json::value hex_word(std::uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return boost::json::value(text);
}

boost::json::value fill_json(const std::vector<std::uint64_t>& fill) {
  if (fill.size() == 1) return hex_word(fill.front());
  boost::json::array words;
  for (std::uint64_t w : fill) words.push_back(hex_word(w));
  return words;
}

/// Bytes as hex digits, two each, in memory order.
std::string hex_bytes(const std::vector<std::uint8_t>& data) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text;
  for (std::uint8_t byte : data) {
    text += kDigits[byte >> 4];
    text += kDigits[byte & 15];
  }
  return text;
}

std::string fill_text(const std::vector<std::uint64_t>& fill) {
  std::string text = std::to_string(fill.size());
  char hex[24];
  for (std::uint64_t w : fill) {
    std::snprintf(hex, sizeof hex, " %llx", static_cast<unsigned long long>(w));
    text += hex;
  }
  return text;
}

} // namespace

std::uint64_t cudiff_fold(const std::vector<std::uint64_t>& words) {
  std::uint64_t hash = 1469598103934665603ull;
  for (std::uint64_t w : words) hash = (hash ^ w) * 1099511628211ull;
  return hash;
}

std::string checksum_line(std::string_view label, std::uint64_t hash) {
  char hex[24];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return "checksum " + std::string(label) + " " + hex;
}

std::uint32_t LaunchParam::param_bytes() const {
  if (kind == Kind::bytes) return static_cast<std::uint32_t>(data.size());
  return kind == Kind::buffer ? 8 : scalar_bytes(type);
}

LaunchDescription parse_launch(std::string_view json) {
  boost::system::error_code ec;
  const boost::json::value root = boost::json::parse(json, ec);
  if (ec) refuse("", "not JSON (" + ec.message() + ")");
  if (!root.is_object()) refuse("", "expected an object");
  const boost::json::object& object = root.get_object();
  only_keys(object, {"kernel", "grid", "block", "shared_bytes", "params", "stack_bytes", "symbols", "checksums"}, "");
  LaunchDescription launch;
  const auto* kernel = object.if_contains("kernel");
  if (kernel == nullptr || !kernel->is_string() || kernel->get_string().empty())
    refuse("kernel", "needs the kernel's name as a string");
  launch.kernel = std::string(kernel->get_string());
  if (launch.kernel.find_first_of(" \t\n") != std::string::npos) refuse("kernel", "the name must have no blanks");
  if (const auto* grid = object.if_contains("grid")) launch.grid = dims(*grid, "grid");
  if (const auto* block = object.if_contains("block")) launch.block = dims(*block, "block");
  const std::uint64_t threads = std::uint64_t{launch.block[0]} * launch.block[1] * launch.block[2];
  if (threads > kMaxBlockThreads)
    refuse("block", std::to_string(threads) + " threads, more than " + std::to_string(kMaxBlockThreads));
  if (const auto* shared = object.if_contains("shared_bytes"))
    launch.shared_bytes = static_cast<std::uint32_t>(count_of(*shared, "shared_bytes", 0, 1u << 20));
  const auto* params = object.if_contains("params");
  if (params != nullptr && !params->is_array()) refuse("params", "expected a list");
  std::uint64_t total = 0;
  if (params != nullptr)
    for (std::size_t i = 0; i < params->get_array().size(); ++i) {
      launch.params.push_back(param_of(params->get_array()[i], i));
      const LaunchParam& param = launch.params.back();
      if (param.kind == LaunchParam::Kind::buffer) total += param.count * param.element_bytes;
      if (total > kMaxBufferBytes) refuse("params", "buffers of more than 1 GiB in all");
    }
  if (const auto* stack = object.if_contains("stack_bytes"))
    launch.stack_bytes = static_cast<std::uint32_t>(count_of(*stack, "stack_bytes", 0, 1u << 20));
  // Buffers and symbols by name: what a checksum folds.
  std::map<std::string, std::size_t> names;
  for (const LaunchParam& param : launch.params)
    if (param.kind == LaunchParam::Kind::buffer && !names.emplace(param.name, names.size()).second)
      refuse("params", "two buffers named " + param.name);
  const auto* symbols = object.if_contains("symbols");
  if (symbols != nullptr && !symbols->is_array()) refuse("symbols", "expected a list");
  if (symbols != nullptr)
    for (std::size_t i = 0; i < symbols->get_array().size(); ++i) {
      launch.symbols.push_back(symbol_of(symbols->get_array()[i], i));
      if (!names.emplace(launch.symbols.back().name, names.size()).second)
        refuse("symbols", "the name " + launch.symbols.back().name + " is taken");
    }
  const auto* checksums = object.if_contains("checksums");
  if (checksums != nullptr && !checksums->is_array()) refuse("checksums", "expected a list");
  if (checksums != nullptr)
    for (std::size_t i = 0; i < checksums->get_array().size(); ++i)
      launch.checksums.push_back(checksum_of(checksums->get_array()[i], i, names));
  return launch;
}

LaunchDescription read_launch(const std::filesystem::path& file) {
  const std::string text = read_file(file);
  try {
    return parse_launch(text);
  } catch (const Error& error) {
    throw_usage(file.string() + ": " + error.what());
  }
}

boost::json::value to_json(const LaunchDescription& launch) {
  const auto triple = [](const std::array<std::uint32_t, 3>& d) { return boost::json::array{d[0], d[1], d[2]}; };
  boost::json::array params;
  for (const LaunchParam& param : launch.params) {
    if (param.kind == LaunchParam::Kind::scalar) {
      params.push_back(
          boost::json::object{{"scalar", param.name}, {"type", param.type}, {"value", hex_word(param.bits)}});
      continue;
    }
    if (param.kind == LaunchParam::Kind::bytes) {
      params.push_back(
          boost::json::object{{"bytes", param.name}, {"size", param.data.size()}, {"data", hex_bytes(param.data)}});
      continue;
    }
    boost::json::value fill = fill_json(param.fill);
    params.push_back(boost::json::object{{"buffer", param.name},
                                         {"element_bytes", param.element_bytes},
                                         {"count", param.count},
                                         {"fill", std::move(fill)},
                                         {"print", param.print}});
  }
  boost::json::object json{{"kernel", launch.kernel},
                           {"grid", triple(launch.grid)},
                           {"block", triple(launch.block)},
                           {"shared_bytes", launch.shared_bytes},
                           {"params", std::move(params)}};
  // The extensions only where used, so a plain description reads as it always did.
  if (launch.stack_bytes != 0) json["stack_bytes"] = launch.stack_bytes;
  if (!launch.symbols.empty()) {
    boost::json::array symbols;
    for (const LaunchSymbol& symbol : launch.symbols)
      symbols.push_back(boost::json::object{{"symbol", symbol.name},
                                            {"element_bytes", symbol.element_bytes},
                                            {"count", symbol.count},
                                            {"fill", fill_json(symbol.fill)}});
    json["symbols"] = std::move(symbols);
  }
  if (!launch.checksums.empty()) {
    boost::json::array checksums;
    for (const LaunchChecksum& checksum : launch.checksums) {
      boost::json::array fold;
      for (const std::string& part : checksum.fold) fold.emplace_back(part);
      checksums.push_back(boost::json::object{{"label", checksum.label}, {"fold", std::move(fold)}});
    }
    json["checksums"] = std::move(checksums);
  }
  return json;
}

std::string executor_text(const LaunchDescription& launch) {
  const auto triple = [](const std::array<std::uint32_t, 3>& d) {
    return std::to_string(d[0]) + " " + std::to_string(d[1]) + " " + std::to_string(d[2]);
  };
  std::string text = "kernel " + launch.kernel + "\ngrid " + triple(launch.grid) + "\nblock " + triple(launch.block) +
                     "\nshared " + std::to_string(launch.shared_bytes) + "\n";
  char hex[24];
  for (const LaunchParam& param : launch.params) {
    if (param.kind == LaunchParam::Kind::scalar) {
      std::snprintf(hex, sizeof hex, "%llx", static_cast<unsigned long long>(param.bits));
      text += "scalar " + param.name + " " + std::to_string(param.param_bytes()) + " " + hex + "\n";
      continue;
    }
    if (param.kind == LaunchParam::Kind::bytes) {
      text += "bytes " + param.name + " " + std::to_string(param.data.size()) + " " + hex_bytes(param.data) + "\n";
      continue;
    }
    text += "buffer " + param.name + " " + std::to_string(param.element_bytes) + " " + std::to_string(param.count) +
            " " + (param.print ? "1" : "0") + " " + fill_text(param.fill) + "\n";
  }
  if (launch.stack_bytes != 0) text += "stack " + std::to_string(launch.stack_bytes) + "\n";
  for (const LaunchSymbol& symbol : launch.symbols)
    text += "symbol " + symbol.name + " " + std::to_string(symbol.element_bytes) + " " + std::to_string(symbol.count) +
            " " + fill_text(symbol.fill) + "\n";
  for (const LaunchChecksum& checksum : launch.checksums)
    text += "checksum " + checksum.label + " " + std::to_string(checksum.fold.size()) + " " + join(checksum.fold, " ") +
            "\n";
  return text;
}

std::string executor_text(const std::vector<LaunchDescription>& launches) {
  std::string text;
  for (const LaunchDescription& launch : launches) text += executor_text(launch);
  return text;
}

} // namespace cudiff::runners
