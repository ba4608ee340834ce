// Command-line option parsing and help text, driven by each subcommand's CommandSpec; the
// flags several commands share, declared once, and their readers.
#include "cli/options.h"
#include "common/common.h"
#include "pipeline/pipeline.h"

#include <algorithm>
#include <cctype>
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

std::optional<double> ParsedArgs::duration(const std::string& name) const {
  const auto text = value(name);
  if (!text) return std::nullopt;
  return parse_duration(*text, name);
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
  for (const auto& option : spec.options) width = std::max(width, option.name.size() + 1 + option.value_name.size());
  for (const auto& option : spec.options) {
    std::string left = option.name + (option.value_name.empty() ? "" : " " + option.value_name);
    left.resize(width, ' ');
    out += "  " + left + "  " + option.help + "\n";
  }
  out += "  " + std::string("--help").append(width - 6, ' ') + "  show this help\n";
  return out;
}

double parse_duration(const std::string& text, const std::string& option) {
  // A sum of parts, each a number with an optional unit: "90", "90s", "15m", "4m30s", "1h30m",
  // "1.5h". A bare number counts as seconds and may only stand alone or come last.
  double total = 0;
  std::size_t at = 0;
  bool valid = !text.empty();
  int last_scale = 0;  // units must decrease: "30s4m" is refused
  while (valid && at < text.size()) {
    std::size_t used = 0;
    double value = -1;
    const char first = text[at];
    if (!std::isdigit(static_cast<unsigned char>(first)) && first != '.') {
      valid = false;
      break;
    }
    try {
      value = std::stod(text.substr(at), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    // stod would read "1e3" or "0x10": only plain decimals are durations.
    const std::string number = text.substr(at, used);
    if (used == 0 || number.find_first_not_of("0123456789.") != std::string::npos) {
      valid = false;
      break;
    }
    at += used;
    int scale = 1;
    if (at < text.size()) {
      const char unit = text[at++];
      scale = unit == 's' ? 1 : unit == 'm' ? 60 : unit == 'h' ? 3600 : 0;
    } else if (last_scale != 0) {
      scale = 0;  // "1h30": minutes or seconds? Refused rather than guessed.
    }
    if (scale == 0 || (last_scale != 0 && scale >= last_scale)) {
      valid = false;
      break;
    }
    last_scale = scale;
    total += value * scale;
  }
  if (!valid || total <= 0) throw_usage(option + " needs a duration like 90s, 15m, 4m30s or 8h, got '" + text + "'");
  return total;
}

namespace {

/// "300", "1.5": a default in seconds as the help shows it.
std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", seconds);
  return text;
}

std::string names_of(const std::vector<runners::Config>& configs) {
  std::vector<std::string> names;
  for (const runners::Config& config : configs) names.push_back(config.name);
  return join(names, ",");
}

/// --config's help: the command's default rule, then every preset, so --help is the list.
std::string config_help(const Defaults& defaults) {
  std::vector<std::string> others;
  const std::vector<runners::Config> defaults_list = runners::default_configs();
  const std::vector<runners::Config> cross = runners::cross_level_configs();
  for (const runners::Config& preset : runners::preset_configs()) {
    const auto named = [&](const runners::Config& c) { return c.name == preset.name; };
    if (std::ranges::none_of(defaults_list, named) &&
        !(defaults.cross_level_with_gpu && std::ranges::any_of(cross, named)))
      others.push_back(preset.name);
  }
  std::string help = "comma-separated configs (default " + names_of(defaults_list);
  if (defaults.cross_level_with_gpu)
    help += "; with a GPU and a mode that runs, the cross-level set " + names_of(cross);
  return help + "; also " + join(others, ", ") + ")";
}

} // namespace

OptionSpec shared_option(Flag flag, const Defaults& defaults) {
  switch (flag) {
  case Flag::db:
    return {"--db", "FILE",
            !defaults.db ? "record the findings in this triage database (created if missing; see cudiff triage)"
            : defaults.db_created ? "triage database (default " + *defaults.db + "; created if missing)"
                                  : "the triage database (default " + *defaults.db + ")"};
  case Flag::known: return {"--known", "FILE", defaults.known};
  case Flag::config: return {"--config", "LIST", config_help(defaults)};
  case Flag::arch:
    return {"--arch", "SM", "GPU architecture for every config (default sm_90; the -sm80/-sm100 presets keep theirs)"};
  case Flag::mode:
    return {"--mode", "MODE",
            "how far to go: syntax, ptx and cubin (device only), object, binary, run "
            "(default: run with a GPU, else binary; object when there is no main)"};
  case Flag::build_path:
    return {"--build-path", "PATH",
            "device (default: where the test allows it, each front end once to PTX and ptxas once per config on "
            "it, no host code; what needs host code builds whole) or whole (every config builds the whole program)"};
  case Flag::size: return {"--size", "SIZE", "small (default; compiles in under 2 s), medium, large"};
  case Flag::policy: return {"--policy", "FILE", "generator policy: knob values (see cudiff generate --dump-policy)"};
  case Flag::jobs: return {"--jobs", "N", defaults.jobs};
  case Flag::seed: return {"--seed", "N", defaults.seed};
  case Flag::nvcc:
    return {"--nvcc", "PATH", "nvcc to use (default: $CUDIFF_NVCC, $CUDA_HOME/bin, /usr/local/cuda/bin, PATH)"};
  case Flag::clang:
    return {"--clang", "PATH", "clang++ (22 or newer) to use (default: $CUDIFF_CLANG, clang++-22 on PATH)"};
  case Flag::timeout:
    return {"--timeout", "DURATION",
            "wall-clock limit per compile (default " + seconds_text(defaults.compile_seconds) + " s)"};
  case Flag::run_timeout:
    return {"--run-timeout", "DURATION",
            "wall-clock limit per program run (default " + seconds_text(defaults.run_seconds) + " s)"};
  case Flag::warnings: return {"--warnings", "", "warnings only one compiler emits are findings too"};
  case Flag::json: return {"--json", "", defaults.json};
  case Flag::quiet: return {"--quiet", "", defaults.quiet};
  }
  throw Error(ErrorKind::internal, "unknown shared flag");
}

std::vector<OptionSpec> shared_options(std::initializer_list<Flag> flags, const Defaults& defaults) {
  std::vector<OptionSpec> options;
  for (Flag flag : flags) {
    options.push_back(shared_option(flag, defaults));
    if (flag == Flag::known) options.push_back(no_known_option());
  }
  return options;
}

std::optional<std::filesystem::path> read_db(const ParsedArgs& args, const Defaults& defaults) {
  if (auto db = args.value("--db")) return std::filesystem::path(*db);
  if (defaults.db) return std::filesystem::path(*defaults.db);
  return std::nullopt;
}

triage::KnownDifferences read_known(const ParsedArgs& args) {
  triage::KnownDifferences known = args.has("--no-known") ? triage::KnownDifferences::none()
                                                          : triage::KnownDifferences::shipped();
  if (auto file = args.value("--known")) known.add(triage::KnownDifferences::load(*file));
  return known;
}

OptionSpec no_known_option() {
  return {"--no-known", "",
          "apply none of the project's known differences (triage/known_differences.json, the rules "
          "catalog's dialect entries): every finding counts as new"};
}

std::vector<runners::Config> read_configs(const ParsedArgs& args, const Defaults& defaults, bool binaries_run) {
  std::vector<runners::Config> configs = args.has("--config") ? runners::parse_configs(*args.value("--config"))
                                         : defaults.cross_level_with_gpu && binaries_run
                                             ? runners::cross_level_configs()
                                             : runners::default_configs();
  if (auto arch = args.value("--arch"))
    for (auto& config : configs) runners::set_arch(config, *arch);
  return configs;
}

bool binaries_run(const ParsedArgs& args, bool gpu_present) {
  const std::optional<runners::Mode> mode = read_mode(args);
  return gpu_present && (!mode || *mode == runners::Mode::run);
}

std::optional<runners::Mode> read_mode(const ParsedArgs& args) {
  auto text = args.value("--mode");
  if (!text) return std::nullopt;
  std::optional<runners::Mode> mode = runners::parse_mode(*text);
  if (!mode) throw_usage("unknown mode '" + *text + "' (syntax, ptx, cubin, object, binary, run)");
  return mode;
}

pipeline::BuildPath read_build_path(const ParsedArgs& args) {
  const std::string text = args.value("--build-path").value_or("device");
  const std::optional<pipeline::BuildPath> path = pipeline::parse_build_path(text);
  if (!path) throw_usage("--build-path takes device or whole, got '" + text + "'");
  return *path;
}

generator::Size read_size(const ParsedArgs& args) {
  return generator::parse_size(args.value("--size").value_or("small"));
}

generator::Policy read_policy(const ParsedArgs& args) {
  auto path = args.value("--policy");
  if (!path) return generator::Policy::defaults();
  try {
    return generator::Policy::load(read_file(*path));
  } catch (const Error& error) {
    if (error.kind() == ErrorKind::usage) throw_usage(*path + ": " + error.what());
    throw;
  }
}

runners::Limits read_compile_limits(const ParsedArgs& args, const Defaults& defaults) {
  return pipeline::limits(args.duration("--timeout").value_or(defaults.compile_seconds));
}

runners::Limits read_run_limits(const ParsedArgs& args, const Defaults& defaults) {
  return pipeline::limits(args.duration("--run-timeout").value_or(defaults.run_seconds));
}

runners::ToolchainSearch toolchain_search(const ParsedArgs& args) {
  auto from = [&](const char* flag, const char* variable) -> std::optional<std::filesystem::path> {
    if (auto value = args.value(flag)) return std::filesystem::path(*value);
    if (const char* env = std::getenv(variable); env != nullptr && *env != '\0') return std::filesystem::path(env);
    return std::nullopt;
  };
  runners::ToolchainSearch search;
  search.nvcc = from("--nvcc", "CUDIFF_NVCC");
  search.clang = from("--clang", "CUDIFF_CLANG");
  if (const char* home = std::getenv("CUDA_HOME"); home != nullptr && *home != '\0') search.cuda_home = home;
  return search;
}

runners::Toolchain read_toolchain(const ParsedArgs& args) {
  return runners::Toolchain::from(runners::discover_toolchain(toolchain_search(args)));
}

} // namespace cudiff::cli
