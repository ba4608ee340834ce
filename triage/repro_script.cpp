// triage: repro.sh — one command that rebuilds a finding's reproducer with the recorded configs,
// runs it where the finding is a run's, and says whether the bug is still there: exit 1 while
// it is, 0 once it is fixed, 125 when it cannot tell. Plain bash, no cudiff needed.
#include "triage/report_parts.h"
#include "triage/triage.h"

#include <algorithm>
#include <map>
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

/// The sides of a run finding: its "matching" and "differing" configs where it names them
/// (wrong code, and run mismatches of generated programs); else, for a run mismatch filed
/// from a person's file (only "groups"), the first group against the others.
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

/// One recorded config, as repro.sh rebuilds it.
struct ScriptConfig {
  std::string name, compiler, outcome;  ///< outcome as recorded: accepted, rejected, crashed, hung
  std::string build;                    ///< the bash command line
  std::string binary;                   ///< where the build writes its binary (run mode), else empty
  bool ran = false;                     ///< a run was recorded
};

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
# A crash is a signal or a compiler's crash report on stderr.
outcome() {
  local name="$1" status
  mkdir -p "$work/$name"
  timeout "${COMPILE_SECONDS:-600}" bash -c "build_$2" > "$work/$name.out" 2> "$work/$name.err"
  status=$?
  if [ $status -eq 124 ]; then echo hung
  elif [ $status -eq 0 ]; then echo accepted
  elif [ $status -gt 128 ] || grep -qE 'PLEASE submit a bug report|Stack dump:|error in backend|internal compiler error|Segmentation fault|Assertion .* failed|ptxas fatal|[Ii]nternal error' "$work/$name.err"; then echo crashed
  else echo rejected
  fi
}

# Runs a built binary in its directory; its stdout in $work/NAME.run. Fails when it does not exit 0.
run() {
  local name="$1" binary="$2"
  (cd "$work/$name" && timeout "${RUN_SECONDS:-120}" "$binary" > "$work/$name.run" 2> "$work/$name.run.err")
}

# The value a config's binary printed for one checksum line.
checksum() { awk -v k="$2" '$1 == "checksum" && $2 == k { print $3; exit }' "$work/$1.run"; }
)sh";

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

  std::string sh = "#!/usr/bin/env bash\n";
  std::string title = bucket.title;
  std::ranges::replace(title, '\n', ' ');
  sh += "# Reproduces cudiff bucket " + bucket.key.substr(0, 12) + " (" + bucket.kind + "): " + title + "\n";
  sh += "# Exit 1: the bug is present. 0: it is gone (fixed). 125: cannot tell (a compiler or the GPU\n"
        "# missing, or the programs now do something else than either).\n"
        "# NVCC=, CLANG= and CUDA_HOME= override the compilers and the toolkit (default: those recorded).\n";
  sh += std::string(prelude);
  sh += "src=\"$here\"/" + literal(reproducer_name) + "\n";
  sh += "NVCC=\"${NVCC:-" + nvcc + "}\"\nCLANG=\"${CLANG:-" + clang + "}\"\nCUDA_HOME=\"${CUDA_HOME:-" + cuda_home +
        "}\"\nexport work src NVCC CLANG CUDA_HOME\n";
  sh += "[ -f \"$src\" ] || cannot_tell \"the reproducer $src is missing\"\n";
  std::set<std::string> compilers;
  for (const ScriptConfig& config : configs) compilers.insert(config.compiler);
  if (compilers.contains("nvcc")) sh += "have \"$NVCC\" || cannot_tell \"nvcc not found ($NVCC); set NVCC=\"\n";
  if (compilers.contains("clang")) sh += "have \"$CLANG\" || cannot_tell \"clang not found ($CLANG); set CLANG=\"\n";
  sh += "\n# The recorded builds, one function per config.\n";
  for (const ScriptConfig& config : configs) {
    sh += "build_" + identifier(config.name) + "() { " + config.build + "; }\n";
    sh += "export -f build_" + identifier(config.name) + "\n";
  }
  sh += "\n";

  const std::string kind = bucket.kind;
  // A metamorphic bucket's check needs its variant beside the original: repro.sh does not
  // rebuild variants yet, so it ends in "cannot tell" below.
  const bool run_kind = oracle::is_run_kind(kind) && kind != oracle::to_string(oracle::FindingKind::metamorphic);
  if (run_kind) {
    const auto [matching, differing] = run_sides(finding.details);
    const std::vector<std::string> kernels = strings(finding.details, "differing_kernels");
    const auto* expected = finding.details.is_object() ? finding.details.as_object().if_contains("expected") : nullptr;
    sh += "have nvidia-smi && nvidia-smi -L 2> /dev/null | grep -q '^GPU' || cannot_tell \"no GPU here\"\n";
    for (const ScriptConfig& config : configs) {
      if (config.binary.empty()) continue;
      const std::string id = identifier(config.name);
      sh += "[ \"$(outcome " + literal(config.name) + " " + id + ")\" = accepted ] || cannot_tell \"" + config.name +
            " does not build: $(head -3 \"$work/" + config.name + ".err\")\"\n";
      sh += "run " + literal(config.name) + " " + config.binary + " || cannot_tell \"the " + config.name +
            " binary failed: $(head -3 \"$work/" + config.name + ".run.err\")\"\n";
    }
    if (kind != "run_mismatch" && expected != nullptr && expected->is_object() && !kernels.empty()) {
      // Against the generator's prediction: present while the differing configs print another
      // value and (wrong code) the matching ones print it; fixed when every config prints it.
      sh += "wrong=0 right=0 total=0\n";
      for (const std::string& kernel : kernels) {
        const std::string want = text_of(expected->as_object().if_contains(kernel));
        for (const ScriptConfig& config : configs) {
          if (config.binary.empty()) continue;
          const bool differs = std::ranges::find(differing, config.name) != differing.end();
          sh += "v=$(checksum " + literal(config.name) + " " + literal(kernel) + "); total=$((total + 1))\n";
          sh += "echo \"" + config.name + " " + kernel + ": ${v:-nothing} (expected " + want + ")\"\n";
          sh += "if [ \"$v\" = " + literal(want) + " ]; then right=$((right + 1)); " +
                (differs ? "else wrong=$((wrong + 1)); fi\n" : "fi\n");
        }
      }
      std::size_t differing_runs = 0;
      for (const ScriptConfig& config : configs)
        if (!config.binary.empty() && std::ranges::find(differing, config.name) != differing.end()) ++differing_runs;
      sh += "[ \"$right\" -eq \"$total\" ] && fixed \"every config prints the generator's checksums\"\n";
      sh += "[ \"$wrong\" -eq " + std::to_string(differing_runs * kernels.size()) + " ] && [ $((right + wrong)) -eq " +
            "\"$total\" ] && present \"" + join(differing, ", ") + " print another checksum than the generator" +
            (matching.empty() ? "" : "; " + join(matching, ", ") + " print it") + "\"\n";
      sh += "cannot_tell \"the configs now print something else than recorded\"\n";
    } else {
      // Output against output: present while the recorded sides still differ, fixed when all
      // print the same.
      std::string reference;
      for (const ScriptConfig& config : configs)
        if (!config.binary.empty() && std::ranges::find(matching, config.name) != matching.end()) {
          reference = config.name;
          break;
        }
      if (reference.empty())
        for (const ScriptConfig& config : configs)
          if (!config.binary.empty()) {
            reference = config.name;
            break;
          }
      sh += "same=1 split=1\n";
      for (const ScriptConfig& config : configs) {
        if (config.binary.empty() || config.name == reference) continue;
        const bool differs = std::ranges::find(differing, config.name) != differing.end();
        // Alike: a differing config that prints as the reference undoes the split. Not alike:
        // not all the same, and a matching config that departs breaks the split too.
        sh += "if cmp -s \"$work/" + reference + ".run\" \"$work/" + config.name + ".run\"; then " +
              (differs ? "split=0" : ":") + "; else same=0; " + (differs ? ":" : "split=0") + "; fi\n";
      }
      sh += "[ $same -eq 1 ] && fixed \"every config prints the same\"\n";
      sh += "[ $split -eq 1 ] && present \"" + join(differing, ", ") + " print other output than " + reference + "\"\n";
      sh += "cannot_tell \"the configs now split otherwise than recorded\"\n";
    }
    return sh;
  }

  // Compile-time kinds: each config's outcome against the recorded one.
  std::vector<const ScriptConfig*> bug;  // the configs whose outcome is the bug
  for (const ScriptConfig& config : configs) {
    const bool accepted = config.outcome == "accepted";
    if (kind == "crash"  ? config.outcome == "crashed"
        : kind == "hang" ? config.outcome == "hung"
        : kind == "missed_diagnostic" || kind == "missed_by_all" || kind == "dialect_difference"     ? accepted
        : kind == "false_rejection" || kind == "compile_status_mismatch" || kind == "late_rejection" ? !accepted
                                                                                                     : false)
      bug.push_back(&config);
  }
  if (bug.empty()) {
    sh += "cannot_tell \"a " + kind + " finding is not checked by this script: report.md says what to compare\"\n";
    return sh;
  }
  sh += "now=\"\" recorded=\"\"\n";
  for (const ScriptConfig& config : configs) {
    const std::string id = identifier(config.name);
    sh += "o_" + id + "=$(outcome " + literal(config.name) + " " + id + ")\n";
    sh += "echo \"" + config.name + ": $o_" + id + " (recorded: " + config.outcome + ")\"\n";
    sh += "now=\"$now $o_" + id + "\" recorded=\"$recorded " + config.outcome + "\"\n";
  }
  // Present: a crash or hang while its configs still crash or hang; a partition (who accepts,
  // who rejects) while every config still builds as recorded.
  std::string still = "[ \"$now\" = \"$recorded\" ]";
  // Whose stderr the verdict quotes: a crash's or hang's own config; for a partition the first
  // config that did not accept (its error).
  std::string speaker = bug.front()->name;
  for (const ScriptConfig& config : configs)
    if (kind != "crash" && kind != "hang" && config.outcome != "accepted") {
      speaker = config.name;
      break;
    }
  if (kind == "crash" || kind == "hang") {
    still = "true";
    for (const ScriptConfig* config : bug)
      still += " && [ \"$o_" + identifier(config->name) + "\" = " + config->outcome + " ]";
  }
  sh += "if " + still + "; then present \"" +
        (kind == "crash" || kind == "hang" ? bug.front()->name + " " + bug.front()->outcome
                                           : std::string("every config builds as recorded")) +
        ": $(grep -m 3 -E 'error|fatal|Assertion|Stack dump' \"$work/" + speaker +
        ".err\" | cut -c1-200 | tr '\\n' ' ')\"; fi\n";
  // Fixed: the bug's configs no longer do what made it a bug.
  std::string gone = "true";
  for (const ScriptConfig* config : bug) {
    const std::string id = identifier(config->name);
    if (kind == "missed_diagnostic" || kind == "missed_by_all" || kind == "dialect_difference")
      gone += " && [ \"$o_" + id + "\" = rejected ]";
    else if (kind == "crash" || kind == "hang") gone += " && [ \"$o_" + id + "\" != " + config->outcome + " ]";
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
  return sh;
}

} // namespace cudiff::triage
