// Command-line options: one declarative table per subcommand drives parsing and --help.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cudiff::cli {

struct OptionSpec {
  std::string name;        ///< "--mode"
  std::string value_name;  ///< "MODE"; empty for a flag without a value
  std::string help;
};

struct CommandSpec {
  std::string name;         ///< "check"
  std::string usage;        ///< "cudiff check FILE.cu [options]"
  std::string description;  ///< a few lines
  std::vector<OptionSpec> options;
  /// Takes what follows a bare "--" untouched (another command's options), in ParsedArgs::rest.
  bool takes_rest = false;
};

class ParsedArgs {
public:
  std::vector<std::string> positionals;
  std::vector<std::string> rest;  ///< after "--" (CommandSpec::takes_rest)
  bool has(const std::string& name) const { return values_.count(name) != 0; }
  std::optional<std::string> value(const std::string& name) const;
  /// A number option; throws Error(usage) when it is not a positive number.
  std::optional<double> positive_number(const std::string& name) const;
  /// The option as a non-negative integer (decimal digits only), if given; throws Error(usage).
  std::optional<std::uint64_t> unsigned_number(const std::string& name) const;
  void set(const std::string& name, std::string value) { values_[name] = std::move(value); }

private:
  std::map<std::string, std::string> values_;
};

/// Accepts "--opt VALUE", "--opt=VALUE" and flags; "--help"/"-h" is always known.
/// Throws Error(usage) for an unknown option or a missing value.
ParsedArgs parse_args(const CommandSpec& spec, const std::vector<std::string>& args);
std::string render_help(const CommandSpec& spec);
/// The flags of an option that passes them on to another program ("-max_len=8192 -seed=3",
/// "--account=lab --qos=high"): split at spaces, no quoting, empty words dropped.
std::vector<std::string> split_flags(const std::string& text);
/// Seconds from a duration like "90", "90s", "15m", "8h" or "1.5h"; throws Error(usage) naming
/// `option` for anything else, or a duration that is not positive.
double parse_duration(const std::string& text, const std::string& option);

} // namespace cudiff::cli
