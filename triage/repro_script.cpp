// triage: repro.sh — one command that rebuilds a finding's reproducer with the configs that
// decide its signature, under the limits it was recorded with, runs it where the finding is a
// run's (repro_script_run.cpp), and says whether the bug is still there: exit 1 while it is, 0
// once it is fixed, 125 when it cannot tell. Plain bash, no cudiff needed.
#include "triage/report_parts.h"
#include "triage/repro_parts.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace cudiff::triage {
namespace {

/// The words of a command line as Command::display() wrote it: words split at spaces, single
/// quotes literal, `'\''` a quote.
std::vector<std::string> shell_words(std::string_view line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == ' ') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else if (c == '\'') {
      in_word = true;
      const auto end = line.find('\'', i + 1);
      word += line.substr(i + 1, (end == std::string_view::npos ? line.size() : end) - i - 1);
      i = end == std::string_view::npos ? line.size() : end;
    } else if (c == '\\' && i + 1 < line.size()) {
      in_word = true;
      word += line[++i];
    } else {
      in_word = true;
      word += c;
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

} // namespace

namespace repro {

/// A literal for bash: single-quoted unless it is plainly safe.
std::string literal(std::string_view text) {
  const bool safe = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("_@%+=:,./-").find(c) != std::string_view::npos;
  });
  if (safe) return std::string(text);
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

/// A name bash accepts in a function name: the config's, with anything else made `_`.
std::string identifier(std::string_view name) {
  std::string id;
  for (char c : name) id += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return id;
}

std::string text_of(const boost::json::value* value) {
  if (value == nullptr) return {};
  if (const auto* text = value->if_string()) return std::string(*text);
  return {};
}

std::string field(const boost::json::value& object, std::string_view key) {
  const auto* map = object.if_object();
  return map == nullptr ? std::string() : text_of(map->if_contains(key));
}

std::vector<std::string> strings(const boost::json::value& object, std::string_view key) {
  std::vector<std::string> out;
  const auto* map = object.if_object();
  const auto* array = map == nullptr ? nullptr : map->if_contains(key);
  if (array != nullptr && array->is_array())
    for (const auto& item : array->as_array())
      if (item.is_string()) out.emplace_back(item.as_string());
  return out;
}

bool contains(const std::vector<std::string>& names, std::string_view name) {
  return std::ranges::find(names, name) != names.end();
}

std::pair<std::vector<std::string>, std::vector<std::string>> run_sides(const boost::json::value& details) {
  std::vector<std::string> matching = strings(details, "matching"), differing = strings(details, "differing");
  if (!matching.empty() || !differing.empty()) return {matching, differing};
  const auto* map = details.if_object();
  const auto* groups = map == nullptr ? nullptr : map->if_contains("groups");
  if (groups == nullptr || !groups->is_array()) return {matching, differing};
  for (std::size_t g = 0; g < groups->as_array().size(); ++g)
    for (std::string& config : strings(groups->as_array()[g], "configs"))
      (g == 0 ? matching : differing).push_back(std::move(config));
  return {matching, differing};
}

} // namespace repro

namespace {

using namespace repro;

/// The recorded command made portable: the compiler through $NVCC or $CLANG, the toolkit
/// through $CUDA_HOME, the source through $src, outputs under $work/CONFIG; cudiff's own
/// instrumentation (nvcc --time, clang's crash-diagnostics directory, TMPDIR) left out.
ScriptConfig script_config(const boost::json::value& config, const std::string& original, const std::string& cuda_home,
                           const std::string& mode, std::string_view reproducer = {}) {
  // `reproducer` set: the command as a person types it (report.md): the recorded compiler and
  // toolkit paths, the reproducer's name, outputs under CONFIG/; else repro.sh's variables.
  const bool concrete = !reproducer.empty();
  ScriptConfig out;
  out.name = field(config, "config");
  out.compiler = field(config, "compiler");
  out.outcome = field(config, "outcome");
  if (const auto* map = config.if_object(); map != nullptr && map->contains("run")) out.ran = true;
  const std::vector<std::string> words = shell_words(field(config, "command"));
  std::vector<std::string> line;
  if (!concrete) line.push_back("LC_ALL=C");
  const std::string dir = concrete ? literal(out.name) : "\"$work\"/" + literal(out.name);
  bool compiler_seen = false;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& word = words[i];
    if (!compiler_seen) {
      if (word.find('=') != std::string::npos && word.find('/') != 0 && word.find('=') < word.find('/')) continue;
      line.push_back(concrete ? literal(word) : out.compiler == "clang" ? "\"$CLANG\"" : "\"$NVCC\"");
      compiler_seen = true;
      continue;
    }
    if (word == "--time" && i + 1 < words.size()) {
      ++i;
      continue;
    }
    if (word.starts_with("-fcrash-diagnostics-dir=")) continue;
    if (word == "-o" && i + 1 < words.size()) {
      const std::string target = words[++i];
      const std::string base = target == "/dev/null" ? "" : std::filesystem::path(target).filename().string();
      line.push_back("-o");
      line.push_back(base.empty() ? "/dev/null" : dir + "/" + literal(base));
      if (mode == "run" && !base.empty()) out.binary = dir + "/" + literal(base);
      continue;
    }
    if (word == original) {
      line.push_back(concrete ? literal(reproducer) : "\"$src\"");
      continue;
    }
    if (concrete) {
      line.push_back(literal(word));
      continue;
    }
    // The toolkit's path inside a word: --cuda-path=/usr/local/cuda, -L/usr/local/cuda/lib64.
    if (const auto at = cuda_home.empty() ? std::string::npos : word.find(cuda_home); at != std::string::npos) {
      line.push_back((at > 0 ? literal(word.substr(0, at)) : "") + "\"$CUDA_HOME\"" +
                     (at + cuda_home.size() < word.size() ? literal(word.substr(at + cuda_home.size())) : ""));
      continue;
    }
    line.push_back(literal(word));
  }
  out.build = join(line, " ");
  return out;
}

constexpr std::string_view prelude = R"sh(set -u
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
present() { echo "present: $*"; exit 1; }
fixed() { echo "fixed: $*"; exit 0; }
cannot_tell() { echo "cannot tell: $*" >&2; exit 125; }
have() { [ -x "$1" ] || command -v "$1" > /dev/null 2>&1; }

# Builds one config; prints its outcome as cudiff names it: accepted, rejected, crashed, hung.
# A crash is a signal or a compiler's crash report on stderr; a hang, a compile still running
# after COMPILE_SECONDS.
outcome() {
  local name="$1" status
  mkdir -p "$work/$name"
  timeout -k 10 "$COMPILE_SECONDS" bash -c "build_$2" > "$work/$name.out" 2> "$work/$name.err"
  status=$?
  if [ $status -eq 124 ] || [ $status -eq 137 ]; then echo hung
  elif [ $status -eq 0 ]; then echo accepted
  elif [ $status -gt 128 ] || grep -qE 'PLEASE submit a bug report|Stack dump:|error in backend|internal compiler error|Segmentation fault|Assertion .* failed|ptxas fatal|[Ii]nternal error' "$work/$name.err"; then echo crashed
  else echo rejected
  fi
}

# The first error line of a config's build (or of its stderr), on one line.
first_error() { { grep -m 1 -E 'error|fatal|Error|Assertion' "$work/$1.err" || head -n 1 "$work/$1.err"; } | cut -c1-200; }

# Runs a built binary in its directory for at most RUN_SECONDS; its stdout in $work/NAME.run,
# its exit status and stdout together in $work/NAME.seen. Fails when it does not exit 0.
run() {
  local name="$1" binary="$2" status
  (cd "$work/$name" && timeout -k 10 "$RUN_SECONDS" "$binary" > "$work/$name.run" 2> "$work/$name.run.err")
  status=$?
  { echo "exit $status"; cat "$work/$name.run"; } > "$work/$name.seen"
  return $status
}

# The value a config's binary printed for one checksum line.
checksum() { awk -v k="$2" '$1 == "checksum" && $2 == k { print $3; exit }' "$work/$1.run"; }
)sh";

/// Whole seconds, rounded up: bash's `timeout` is given what cudiff waited at least.
std::string seconds_text(double seconds) { return std::to_string(static_cast<long long>(std::ceil(seconds))); }

double number_of(const boost::json::value* value) {
  return value != nullptr && value->is_number() ? value->to_number<double>() : 0.0;
}

/// How long repro.sh waits for a compile and a run, and where that came from: the limits
/// recorded with the finding (a compile past its limit was confirmed once with a longer one
/// before it was called a hang, so the hang threshold is the longer one); for a finding
/// recorded before cudiff kept them, the recorded timeout of a hung config; else a guess.
struct ScriptLimits {
  double compile = 600, run = 120;
  std::string why;
};

ScriptLimits script_limits(const boost::json::value& outputs) {
  ScriptLimits limits;
  const auto* map = outputs.if_object();
  const auto* recorded = map == nullptr ? nullptr : map->if_contains("limits");
  const auto* object = recorded != nullptr ? recorded->if_object() : nullptr;
  const double compile = object ? number_of(object->if_contains("compile_seconds")) : 0;
  const double run = object ? number_of(object->if_contains("run_seconds")) : 0;
  double factor = object ? number_of(object->if_contains("hang_confirmation_factor")) : 0;
  if (factor < 1) factor = 1;
  if (compile > 0) {
    limits.compile = compile * factor;
    limits.why = "the limits recorded with the finding: a compile past its " + seconds_text(compile) + " s" +
                 (factor > 1 ? " was given " + seconds_text(compile * factor) + " s before it was called a hang"
                             : " was called a hang");
  } else {
    limits.why = "not recorded with this finding (an older cudiff): a compile is a hang past 600 s";
    const auto* configs = map == nullptr ? nullptr : map->if_contains("configs");
    if (configs != nullptr && configs->is_array())
      for (const auto& config : configs->as_array()) {
        const std::string status = field(config, "status");
        constexpr std::string_view prefix = "timed out after ";
        if (field(config, "outcome") != "hung" || !status.starts_with(prefix)) continue;
        const double waited = std::atof(status.c_str() + prefix.size());
        if (waited <= 0) continue;
        limits.compile = waited;
        limits.why = "not recorded with this finding (an older cudiff): as long as its hung config was waited for";
        break;
      }
  }
  if (run > 0) limits.run = run;
  return limits;
}

/// A JSON array of strings (a finding's configs).
std::vector<std::string> names_of(const boost::json::value& value) {
  std::vector<std::string> out;
  if (value.is_array())
    for (const auto& item : value.as_array())
      if (item.is_string()) out.emplace_back(item.as_string());
  return out;
}

/// Whether a config's recorded outcome is what makes a compile-time finding a bug: a crash's or
/// hang's config crashed or hung; a missed diagnostic's accepted; a rejection's rejected.
bool bug_outcome(const std::string& kind, const std::string& outcome) {
  const bool accepted = outcome == "accepted";
  if (kind == "crash") return outcome == "crashed";
  if (kind == "hang") return outcome == "hung";
  if (kind == "missed_diagnostic" || kind == "missed_by_all" || kind == "dialect_difference") return accepted;
  if (kind == "false_rejection" || kind == "compile_status_mismatch" || kind == "late_rejection") return !accepted;
  return false;
}

/// A kind whose signature is the bug configs' outcome alone (which configs crash, hang or let a
/// rule through): the others' outcomes are detail. The rest are partitions: who accepts and
/// who rejects is the signature.
bool bug_configs_decide(const std::string& kind) {
  return kind == "crash" || kind == "hang" || kind == "missed_diagnostic" || kind == "missed_by_all" ||
         kind == "dialect_difference";
}

/// The configs that decide the finding's signature, in recorded order: a run kind's sides (the
/// configs that print as recorded and those that do not: configs that did not build or run
/// are in neither); a crash's, hang's or missed diagnostic's bug configs; a partition's every
/// config it names. The finding's configs where it names none; every recorded config where
/// that leaves none.
std::vector<const ScriptConfig*> needed_configs(const std::string& kind, const StoredFinding& finding,
                                                const std::vector<ScriptConfig>& configs) {
  std::vector<std::string> names;
  if (oracle::is_run_kind(kind)) {
    auto [matching, differing] = run_sides(finding.details);
    names = std::move(matching);
    names.insert(names.end(), differing.begin(), differing.end());
  }
  if (names.empty()) names = names_of(finding.configs);
  std::vector<const ScriptConfig*> needed;
  for (const ScriptConfig& config : configs) {
    if (!names.empty() && !contains(names, config.name)) continue;
    if (!oracle::is_run_kind(kind) && bug_configs_decide(kind) && !bug_outcome(kind, config.outcome)) continue;
    needed.push_back(&config);
  }
  if (needed.empty())
    for (const ScriptConfig& config : configs) needed.push_back(&config);
  return needed;
}

/// The compile kinds' checks: each needed config's outcome against the recorded one.
void append_compile_checks(std::string& sh, const std::string& kind, const std::vector<const ScriptConfig*>& needed) {
  std::vector<const ScriptConfig*> bug;  // the configs whose outcome is the bug
  for (const ScriptConfig* config : needed)
    if (bug_outcome(kind, config->outcome)) bug.push_back(config);
  if (bug.empty()) {
    sh += "cannot_tell \"a " + kind + " finding is not checked by this script: report.md says what to compare\"\n";
    return;
  }
  const bool crash_or_hang = kind == "crash" || kind == "hang";
  sh += "now=\"\" recorded=\"\"\n";
  std::vector<std::string> needed_names;
  for (const ScriptConfig* config : needed) {
    const std::string id = identifier(config->name);
    needed_names.push_back(config->name);
    sh += "o_" + id + "=$(outcome " + literal(config->name) + " " + id + ")\n";
    sh += "echo \"" + config->name + ": $o_" + id + " (recorded: " + config->outcome + ")\"\n";
    sh += "now=\"$now $o_" + id + "\" recorded=\"$recorded " + config->outcome + "\"\n";
  }
  // Present: a crash or hang while its configs still crash or hang; a partition (who accepts,
  // who rejects) while every needed config still builds as recorded.
  std::string still = "[ \"$now\" = \"$recorded\" ]";
  // Whose stderr the verdict quotes: a crash's or hang's own config; for a partition the first
  // config that did not accept (its error).
  std::string speaker = bug.front()->name;
  for (const ScriptConfig* config : needed)
    if (!crash_or_hang && config->outcome != "accepted") {
      speaker = config->name;
      break;
    }
  if (crash_or_hang) {
    still = "true";
    for (const ScriptConfig* config : bug)
      still += " && [ \"$o_" + identifier(config->name) + "\" = " + config->outcome + " ]";
  }
  sh += "if " + still + "; then present \"" +
        (crash_or_hang        ? bug.front()->name + " " + bug.front()->outcome
         : needed.size() == 1 ? needed.front()->name + " builds as recorded"
                              : (needed_names.size() == 2 ? join(needed_names, " and ") : join(needed_names, ", ")) +
                                    " build as recorded") +
        ": $(grep -m 3 -E 'error|fatal|Assertion|Stack dump' \"$work/" + speaker +
        ".err\" | cut -c1-200 | tr '\\n' ' ')\"; fi\n";
  // Fixed: the bug's configs no longer do what made it a bug.
  std::string gone = "true";
  for (const ScriptConfig* config : bug) {
    const std::string id = identifier(config->name);
    if (kind == "missed_diagnostic" || kind == "missed_by_all" || kind == "dialect_difference")
      gone += " && [ \"$o_" + id + "\" = rejected ]";
    else if (crash_or_hang) gone += " && [ \"$o_" + id + "\" != " + config->outcome + " ]";
    else gone += " && [ \"$o_" + id + "\" = accepted ]";
  }
  sh += "if " + gone + "; then fixed \"" +
        (kind == "crash"  ? std::string("no config crashes")
         : kind == "hang" ? std::string("no config hangs")
         : kind.starts_with("missed") || kind == "dialect_difference"
             ? std::string("the compilers that accepted the program reject it now")
             : std::string("the compilers that rejected the program accept it now")) +
        "\"; fi\n";
  sh += "cannot_tell \"the configs now build otherwise than recorded:$now\"\n";
}

} // namespace

std::string report::clean_command(const boost::json::value& config, std::string_view original,
                                  std::string_view reproducer, std::string_view mode) {
  return script_config(config, std::string(original), "", std::string(mode), reproducer).build;
}

std::string render_repro_script(const Bucket& bucket, const StoredFinding& finding,
                                const std::string& reproducer_name) {
  const boost::json::value& outputs = finding.outputs;
  const std::string original = field(outputs, "file");
  const std::string mode = field(outputs, "mode");
  const auto* toolchain = outputs.is_object() ? outputs.as_object().if_contains("toolchain") : nullptr;
  const std::string cuda_home = toolchain != nullptr ? field(*toolchain, "cuda_home") : "";
  const std::string nvcc = toolchain != nullptr && toolchain->is_object() && toolchain->as_object().contains("nvcc")
                               ? field(toolchain->as_object().at("nvcc"), "path")
                               : "";
  const std::string clang = toolchain != nullptr && toolchain->is_object() && toolchain->as_object().contains("clang")
                                ? field(toolchain->as_object().at("clang"), "path")
                                : "";
  std::vector<ScriptConfig> configs;
  if (const auto* list = outputs.is_object() ? outputs.as_object().if_contains("configs") : nullptr;
      list != nullptr && list->is_array())
    for (const auto& config : list->as_array()) configs.push_back(script_config(config, original, cuda_home, mode));
  const std::string kind = bucket.kind;
  const std::vector<const ScriptConfig*> needed = needed_configs(kind, finding, configs);
  const ScriptLimits limits = script_limits(outputs);

  std::string sh = "#!/usr/bin/env bash\n";
  std::string title = bucket.title;
  std::ranges::replace(title, '\n', ' ');
  sh += "# Reproduces cudiff bucket " + bucket.key.substr(0, 12) + " (" + bucket.kind + "): " + title + "\n";
  sh += "# Exit 1: the bug is present. 0: it is gone (fixed). 125: cannot tell (a compiler or the GPU\n"
        "# missing, or the programs now do something else than either).\n"
        "# NVCC=, CLANG= and CUDA_HOME= override the compilers and the toolkit (default: those recorded).\n";
  std::vector<std::string> needed_names;
  for (const ScriptConfig* config : needed) needed_names.push_back(config->name);
  sh += "# Built: the configs that decide the signature (" + join(needed_names, ", ") + ").\n";
  sh += "# COMPILE_SECONDS= and RUN_SECONDS= override the limits (default: " + limits.why + "; a run gets " +
        seconds_text(limits.run) + " s).\n";
  sh += std::string(prelude);
  sh += "COMPILE_SECONDS=\"${COMPILE_SECONDS:-" + seconds_text(limits.compile) + "}\"\nRUN_SECONDS=\"${RUN_SECONDS:-" +
        seconds_text(limits.run) + "}\"\n";
  sh += "src=\"$here\"/" + literal(reproducer_name) + "\n";
  sh += "NVCC=\"${NVCC:-" + nvcc + "}\"\nCLANG=\"${CLANG:-" + clang + "}\"\nCUDA_HOME=\"${CUDA_HOME:-" + cuda_home +
        "}\"\nexport work src NVCC CLANG CUDA_HOME\n";
  sh += "[ -f \"$src\" ] || cannot_tell \"the reproducer $src is missing\"\n";
  std::set<std::string> compilers;
  for (const ScriptConfig* config : needed) compilers.insert(config->compiler);
  if (compilers.contains("nvcc")) sh += "have \"$NVCC\" || cannot_tell \"nvcc not found ($NVCC); set NVCC=\"\n";
  if (compilers.contains("clang")) sh += "have \"$CLANG\" || cannot_tell \"clang not found ($CLANG); set CLANG=\"\n";
  sh += "\n# The recorded builds, one function per config.\n";
  for (const ScriptConfig& config : configs) {
    sh += "build_" + identifier(config.name) + "() { " + config.build + "; }\n";
    sh += "export -f build_" + identifier(config.name) + "\n";
  }
  sh += "\n";
  if (oracle::is_run_kind(kind)) append_run_checks(sh, kind, finding, needed);
  else append_compile_checks(sh, kind, needed);
  return sh;
}

} // namespace cudiff::triage
