// How a check is shown: one table row per config, notes, the verdict; or all of it as JSON.
#include "cli/check.h"

#include <algorithm>
#include <cctype>

namespace cudiff::cli {
namespace {

std::string location(const oracle::Diagnostic& d) {
  if (d.file.empty()) return "";
  return " (" + std::filesystem::path(d.file).filename().string() + ":" + std::to_string(d.line) + ")";
}

/// The diagnostics column: the first error when rejected, else the first warning, with counts.
std::string diagnostics_cell(const oracle::CompileObservation& observation) {
  if (observation.crash) return "crash: " + observation.crash->stage + ", " + observation.crash->reason;
  std::size_t errors = 0, warnings = 0;
  const oracle::Diagnostic* first_warning = nullptr;
  for (const auto& d : observation.diagnostics) {
    if (d.severity == oracle::Severity::error || d.severity == oracle::Severity::fatal) ++errors;
    if (d.severity == oracle::Severity::warning) {
      ++warnings;
      if (first_warning == nullptr) first_warning = &d;
    }
  }
  const oracle::Diagnostic* shown = observation.first_error();
  std::size_t more = errors;
  std::string label = "error";
  if (shown == nullptr) {
    shown = first_warning;
    more = warnings;
    label = "warning";
  }
  if (shown == nullptr) return "-";
  std::string cell = label + ": " + shorten(shown->message, 90) + location(*shown);
  if (more > 1) cell += " (+" + std::to_string(more - 1) + " more)";
  return cell;
}

std::string run_cell(const ConfigCheck& config) {
  if (!config.run) return "-";
  const oracle::RunObservation& run = *config.run;
  std::string cell = run.status_text + ", " + std::to_string(run.output_lines.size()) + " lines";
  if (!run.output_lines.empty()) cell += ": " + shorten(run.output_lines.front(), 40);
  if (!run.cuda_errors.empty()) cell += "; CUDA error: " + shorten(run.cuda_errors.front(), 60);
  return cell;
}

} // namespace

std::string render_check_table(const CheckRun& run) {
  const bool any_run = std::any_of(run.configs.begin(), run.configs.end(),
                                   [](const ConfigCheck& c) { return c.run.has_value(); });
  std::vector<std::string> header = {"config", "compiler", "build", "time", "diagnostics"};
  if (any_run) header.insert(header.end(), {"run", "run time"});
  TextTable table(header);
  for (const ConfigCheck& config : run.configs) {
    const auto& compiler = run.toolchain.get(config.compile.config.compiler);
    std::vector<std::string> row = {config.compile.config.name,
                                    runners::to_string(compiler.kind) + " " + compiler.version,
                                    oracle::to_string(config.observation.outcome),
                                    format_seconds(config.observation.seconds),
                                    diagnostics_cell(config.observation)};
    if (any_run) {
      row.push_back(run_cell(config));
      row.push_back(config.run ? format_seconds(config.run->seconds) : "-");
    }
    table.add_row(row);
  }
  std::string out = run.file.string() + " (mode: " + runners::to_string(run.mode) + ")\n" + table.render();
  for (const ConfigCheck& config : run.configs)
    if (!config.note.empty()) out += "note: " + config.compile.config.name + ": " + config.note + "\n";
  for (const std::string& note : run.notes) out += "note: " + note + "\n";
  if (run.layout) out += render_layout(*run.layout);
  if (run.expected && run.expected->reject)
    out += "expected: rejected (breaks " + (run.expected->rule_id.empty() ? std::string("an E rule") : run.expected->rule_id) +
           (run.expected->line > 0 ? ", line " + std::to_string(run.expected->line) : std::string()) + ")\n";
  if (run.verdict.findings.size() > 1)
    for (std::size_t i = 0; i < run.verdict.findings.size(); ++i)
      out += "finding " + std::to_string(i + 1) + ": [" + oracle::to_string(run.verdict.findings[i].kind) +
             "] " + run.verdict.findings[i].summary + "\n";
  out += "verdict: " + run.verdict.headline() + "\n";
  return out;
}

boost::json::value check_json(const CheckRun& run) {
  boost::json::array configs;
  for (const ConfigCheck& config : run.configs) {
    boost::json::object entry{{"config", config.compile.config.name},
                              {"compiler", runners::to_string(config.compile.config.compiler)},
                              {"command", runners::to_json(config.compile.command)},
                              {"process", runners::to_json(config.compile.process)},
                              {"observation", oracle::to_json(config.observation)}};
    if (config.run) entry["run"] = oracle::to_json(*config.run);
    if (config.run_process) entry["run_process"] = runners::to_json(*config.run_process);
    if (!config.note.empty()) entry["note"] = config.note;
    configs.push_back(std::move(entry));
  }
  boost::json::array gpus;
  for (const auto& gpu : run.gpus.gpus)
    gpus.push_back(boost::json::object{
        {"index", gpu.index}, {"name", gpu.name}, {"arch", gpu.arch()}, {"visible_device", gpu.visible_device}});
  boost::json::array notes;
  for (const auto& note : run.notes) notes.push_back(boost::json::string(note));
  boost::json::object json{
      {"file", run.file.string()},
      {"mode", runners::to_string(run.mode)},
      {"notes", notes},
      {"toolchain", boost::json::object{{"nvcc", runners::to_json(run.toolchain.nvcc)},
                                        {"clang", runners::to_json(run.toolchain.clang)},
                                        {"cuda_home", run.toolchain.cuda_home.string()}}},
      {"gpus", gpus},
      {"gpu_note", run.gpus.note},
      {"configs", configs},
      {"verdict", oracle::to_json(run.verdict)},
      {"agree", run.verdict.agree()}};
  if (run.layout) json["layout"] = layout_json(*run.layout);
  if (run.expected) json["expected"] = oracle::to_json(*run.expected);
  return json;
}

namespace {

/// The source with comments and string/char literals blanked, so only code is searched.
std::string code_only(std::string_view source) {
  std::string code(source);
  for (std::size_t i = 0; i < code.size(); ++i) {
    if (code.compare(i, 2, "//") == 0) {
      while (i < code.size() && code[i] != '\n') code[i++] = ' ';
    } else if (code.compare(i, 2, "/*") == 0) {
      std::size_t end = code.find("*/", i + 2);
      end = end == std::string::npos ? code.size() : end + 2;
      for (; i < end; ++i)
        if (code[i] != '\n') code[i] = ' ';
      --i;
    } else if (code[i] == '"' || code[i] == '\'') {
      const char quote = code[i];
      for (++i; i < code.size() && code[i] != quote && code[i] != '\n'; ++i) {
        if (code[i] == '\\' && i + 1 < code.size()) code[i++] = ' ';
        code[i] = ' ';
      }
    }
  }
  return code;
}

bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

} // namespace

bool defines_main(std::string_view source) {
  const std::string code = code_only(source);
  for (std::size_t at = code.find("main"); at != std::string::npos; at = code.find("main", at + 4)) {
    if (at > 0 && (identifier_char(code[at - 1]) || code[at - 1] == '.' || code[at - 1] == ':' ||
                   code[at - 1] == '>'))
      continue;  // part of a longer name, a member, or a qualified name
    std::size_t next = code.find_first_not_of(" \t\r\n", at + 4);
    if (next == std::string::npos || code[next] != '(') continue;
    // A definition: the parameter list is followed by a body before any ';'.
    std::size_t close = code.find(')', next);
    if (close == std::string::npos) return false;
    std::size_t body = code.find_first_of("{;", close);
    if (body != std::string::npos && code[body] == '{') return true;
  }
  return false;
}

} // namespace cudiff::cli
