// How a check is shown: one table row per config, notes, the verdict; or all of it as JSON.
#include "cli/commands.h"

#include <algorithm>

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

std::string run_cell(const pipeline::ConfigCheck& config) {
  if (!config.run) return "-";
  const oracle::RunObservation& run = *config.run;
  std::string cell = run.status_text + ", " + std::to_string(run.output_lines.size()) + " lines";
  if (!run.output_lines.empty()) cell += ": " + shorten(run.output_lines.front(), 40);
  if (!run.cuda_errors.empty()) cell += "; CUDA error: " + shorten(run.cuda_errors.front(), 60);
  return cell;
}

std::string cell(const oracle::LayoutView& view, const std::string& type, const std::string& property) {
  auto by_type = view.values.find(type);
  if (by_type == view.values.end()) return "-";
  auto found = by_type->second.find(property);
  return found == by_type->second.end() ? "-" : std::to_string(found->second);
}

/// The layout section of the table: one row per probed property, one column per view.
std::string render_layout(const pipeline::LayoutCheck& layout) {
  std::vector<std::string> header = {"type", "property", "member kind"};
  for (const oracle::LayoutView& view : layout.views)
    header.push_back(view.config + " " + oracle::to_string(view.side));
  TextTable table(header);
  for (const oracle::LayoutProbe& probe : layout.probes) {
    for (const std::string& property : probe.properties) {
      const std::string member = property.rfind("offsetof.", 0) == 0 ? property.substr(9) : "";
      auto kind = probe.member_kinds.find(member);
      std::vector<std::string> row = {probe.type, property, kind == probe.member_kinds.end() ? "" : kind->second};
      for (const oracle::LayoutView& view : layout.views) row.push_back(cell(view, probe.type, property));
      table.add_row(std::move(row));
    }
  }
  std::string out = "layout probes (" + layout.sidecar.filename().string() +
                    "): " + std::to_string(layout.probes.size()) + " types, " + std::to_string(layout.views.size()) +
                    " views\n";
  if (!layout.probes.empty()) out += table.render();
  for (const std::string& note : layout.notes) out += "note: layout: " + note + "\n";
  return out;
}

boost::json::value layout_json(const pipeline::LayoutCheck& layout) {
  boost::json::array probes;
  for (const oracle::LayoutProbe& probe : layout.probes) {
    boost::json::array properties;
    for (const std::string& property : probe.properties) properties.push_back(boost::json::string(property));
    probes.push_back(boost::json::object{{"type", probe.type}, {"array", probe.array}, {"properties", properties}});
  }
  boost::json::array views;
  for (const oracle::LayoutView& view : layout.views) {
    boost::json::object values;
    for (const auto& [type, properties] : view.values) {
      boost::json::object by_property;
      for (const auto& [property, value] : properties) by_property[property] = value;
      values[type] = std::move(by_property);
    }
    views.push_back(boost::json::object{{"config", view.config},
                                        {"compiler", runners::to_string(view.compiler)},
                                        {"side", oracle::to_string(view.side)},
                                        {"values", std::move(values)},
                                        {"problem", view.problem}});
  }
  boost::json::array notes;
  for (const std::string& note : layout.notes) notes.push_back(boost::json::string(note));
  return boost::json::object{{"sidecar", layout.sidecar.string()},
                             {"probes", probes},
                             {"views", views},
                             {"notes", notes}};
}

} // namespace

std::string render_check_table(const pipeline::TestCheck& run) {
  const bool any_run = std::any_of(run.configs.begin(), run.configs.end(),
                                   [](const pipeline::ConfigCheck& c) { return c.run.has_value(); });
  std::vector<std::string> header = {"config", "compiler", "build", "time", "diagnostics"};
  if (any_run) header.insert(header.end(), {"run", "run time"});
  TextTable table(header);
  for (const pipeline::ConfigCheck& config : run.configs) {
    const auto& compiler = run.toolchain.get(config.compile.config.compiler);
    std::vector<std::string> row = {config.compile.config.name,
                                    runners::to_string(compiler.kind) + " " + compiler.version,
                                    oracle::to_string(config.observation.outcome),
                                    format_seconds(config.observation.seconds), diagnostics_cell(config.observation)};
    if (any_run) {
      row.push_back(run_cell(config));
      row.push_back(config.run ? format_seconds(config.run->seconds) : "-");
    }
    table.add_row(row);
  }
  std::string out = run.file.string() + " (mode: " + runners::to_string(run.mode) + ")\n" + table.render();
  for (const pipeline::ConfigCheck& config : run.configs)
    if (!config.note.empty()) out += "note: " + config.compile.config.name + ": " + config.note + "\n";
  for (const std::string& note : run.notes) out += "note: " + note + "\n";
  if (run.layout) out += render_layout(*run.layout);
  if (run.expected && run.expected->reject)
    out += "expected: rejected (breaks " +
           (run.expected->rule_id.empty() ? std::string("an E rule") : run.expected->rule_id) +
           (run.expected->line > 0 ? ", line " + std::to_string(run.expected->line) : std::string()) + ")\n";
  if (run.verdict.findings.size() > 1)
    for (std::size_t i = 0; i < run.verdict.findings.size(); ++i)
      out += "finding " + std::to_string(i + 1) + ": [" + oracle::to_string(run.verdict.findings[i].kind) + "] " +
             run.verdict.findings[i].summary + "\n";
  out += "verdict: " + run.verdict.headline() + "\n";
  return out;
}

boost::json::value check_json(const pipeline::TestCheck& run) {
  boost::json::array configs;
  for (const pipeline::ConfigCheck& config : run.configs) {
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
  boost::json::object json{{"file", run.file.string()},
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

} // namespace cudiff::cli
