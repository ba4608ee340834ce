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

LaunchParam param_of(const boost::json::value& value, std::size_t index) {
  std::string where = "params[" + std::to_string(index) + "]";
  if (!value.is_object()) refuse(where, "expected an object");
  const boost::json::object& object = value.get_object();
  LaunchParam param;
  const bool buffer = object.contains("buffer");
  if (buffer == object.contains("scalar")) refuse(where, "needs exactly one of \"buffer\" and \"scalar\"");
  const boost::json::value& name = buffer ? object.at("buffer") : object.at("scalar");
  if (!name.is_string() || name.get_string().empty()) refuse(where, "the name must be a non-empty string");
  param.name = std::string(name.get_string());
  if (param.name.find_first_of(" \t\n") != std::string::npos) refuse(where, "the name must have no blanks");
  where += " (" + param.name + ")";
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
  const auto* fill = object.if_contains("fill");
  if (fill == nullptr || !fill->is_array()) {
    param.fill.push_back(fill == nullptr ? 0 : word(*fill, param.element_bytes, where + ": fill"));
    return param;
  }
  const boost::json::array& words = fill->get_array();
  if (words.size() != param.count)
    refuse(where, "fill has " + std::to_string(words.size()) + " words, count is " + std::to_string(param.count));
  for (std::size_t i = 0; i < words.size(); ++i)
    param.fill.push_back(word(words[i], param.element_bytes, where + ": fill[" + std::to_string(i) + "]"));
  return param;
}

boost::json::value hex_word(std::uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return boost::json::value(text);
}

} // namespace

std::uint32_t LaunchParam::param_bytes() const { return kind == Kind::buffer ? 8 : scalar_bytes(type); }

LaunchDescription parse_launch(std::string_view json) {
  boost::system::error_code ec;
  const boost::json::value root = boost::json::parse(json, ec);
  if (ec) refuse("", "not JSON (" + ec.message() + ")");
  if (!root.is_object()) refuse("", "expected an object");
  const boost::json::object& object = root.get_object();
  only_keys(object, {"kernel", "grid", "block", "shared_bytes", "params"}, "");
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
    boost::json::value fill;
    if (param.fill.size() == 1) fill = hex_word(param.fill.front());
    else {
      boost::json::array words;
      for (std::uint64_t w : param.fill) words.push_back(hex_word(w));
      fill = std::move(words);
    }
    params.push_back(boost::json::object{{"buffer", param.name},
                                         {"element_bytes", param.element_bytes},
                                         {"count", param.count},
                                         {"fill", std::move(fill)},
                                         {"print", param.print}});
  }
  return boost::json::object{{"kernel", launch.kernel},
                             {"grid", triple(launch.grid)},
                             {"block", triple(launch.block)},
                             {"shared_bytes", launch.shared_bytes},
                             {"params", std::move(params)}};
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
    text += "buffer " + param.name + " " + std::to_string(param.element_bytes) + " " + std::to_string(param.count) +
            " " + (param.print ? "1" : "0") + " " + std::to_string(param.fill.size());
    for (std::uint64_t w : param.fill) {
      std::snprintf(hex, sizeof hex, " %llx", static_cast<unsigned long long>(w));
      text += hex;
    }
    text += "\n";
  }
  return text;
}

} // namespace cudiff::runners
