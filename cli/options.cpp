// Command-line option parsing and help text, driven by each subcommand's CommandSpec.
#include "cli/options.h"

#include "common/common.h"

#include <algorithm>
#include <cstdlib>

namespace cudiff::cli {

std::optional<std::string> ParsedArgs::value(const std::string& name) const {
  auto found = values_.find(name);
  if (found == values_.end()) return std::nullopt;
  return found->second;
}

std::optional<double> ParsedArgs::positive_number(const std::string& name) const {
  auto text = value(name);
  if (!text) return std::nullopt;
  char* end = nullptr;
  double number = std::strtod(text->c_str(), &end);
  if (text->empty() || end == nullptr || *end != '\0' || !(number > 0))
    throw_usage(name + " needs a positive number, got '" + *text + "'");
  return number;
}

std::optional<std::uint64_t> ParsedArgs::unsigned_number(const std::string& name) const {
  auto text = value(name);
  if (!text) return std::nullopt;
  std::size_t used = 0;
  std::uint64_t number = 0;
  try {
    number = std::stoull(*text, &used, 10);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text->size() || (*text)[0] == '-')
    throw_usage(name + " needs a non-negative integer, got '" + *text + "'");
  return number;
}

ParsedArgs parse_args(const CommandSpec& spec, const std::vector<std::string>& args) {
  ParsedArgs parsed;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--help" || arg == "-h") {
      parsed.set("--help", "");
      continue;
    }
    if (arg == "--") {
      if (!spec.takes_rest) throw_usage("'cudiff " + spec.name + "' takes nothing after '--' (see --help)");
      parsed.rest.assign(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
      break;
    }
    if (arg.size() < 2 || arg.compare(0, 2, "--") != 0) {
      parsed.positionals.push_back(arg);
      continue;
    }
    std::string name = arg;
    std::optional<std::string> inline_value;
    if (auto eq = arg.find('='); eq != std::string::npos) {
      name = arg.substr(0, eq);
      inline_value = arg.substr(eq + 1);
    }
    auto option = std::find_if(spec.options.begin(), spec.options.end(),
                               [&](const OptionSpec& o) { return o.name == name; });
    if (option == spec.options.end())
      throw_usage("unknown option '" + name + "' for 'cudiff " + spec.name + "' (see --help)");
    if (option->value_name.empty()) {
      if (inline_value) throw_usage(name + " takes no value");
      parsed.set(name, "");
    } else if (inline_value) {
      parsed.set(name, *inline_value);
    } else if (i + 1 < args.size()) {
      parsed.set(name, args[++i]);
    } else {
      throw_usage(name + " needs a value (" + option->value_name + ")");
    }
  }
  return parsed;
}

std::vector<std::string> split_flags(const std::string& text) {
  std::vector<std::string> flags;
  for (const std::string& word : split(text, ' '))
    if (!trim(word).empty()) flags.emplace_back(trim(word));
  return flags;
}

std::string render_help(const CommandSpec& spec) {
  std::string out = "usage: " + spec.usage + "\n\n" + spec.description + "\n";
  if (spec.options.empty()) return out;
  out += "\noptions:\n";
  std::size_t width = 0;
  for (const auto& option : spec.options)
    width = std::max(width, option.name.size() + 1 + option.value_name.size());
  for (const auto& option : spec.options) {
    std::string left = option.name + (option.value_name.empty() ? "" : " " + option.value_name);
    left.resize(width, ' ');
    out += "  " + left + "  " + option.help + "\n";
  }
  out += "  " + std::string("--help").append(width - 6, ' ') + "  show this help\n";
  return out;
}

double parse_duration(const std::string& text, const std::string& option) {
  std::size_t used = 0;
  double value = -1;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  const std::string unit = used ? text.substr(used) : "";
  const double scale = unit.empty() || unit == "s" ? 1 : unit == "m" ? 60 : unit == "h" ? 3600 : -1;
  if (used == 0 || scale < 0 || value <= 0)
    throw_usage(option + " needs a duration like 90s, 15m or 8h, got '" + text + "'");
  return value * scale;
}

} // namespace cudiff::cli
