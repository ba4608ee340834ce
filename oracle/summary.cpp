// oracle: observations summarized for people — a compile's diagnostics and a run in one table
// cell each, the layout views as one table (`cudiff check`), and the layout views as JSON.
#include "oracle/oracle.h"

#include <filesystem>

namespace cudiff::oracle {
namespace {

std::string location(const Diagnostic& d) {
  if (d.file.empty()) return "";
  return " (" + std::filesystem::path(d.file).filename().string() + ":" + std::to_string(d.line) + ")";
}

std::string cell(const LayoutView& view, const std::string& type, const std::string& property) {
  auto by_type = view.values.find(type);
  if (by_type == view.values.end()) return "-";
  auto found = by_type->second.find(property);
  return found == by_type->second.end() ? "-" : std::to_string(found->second);
}

} // namespace

std::string diagnostics_summary(const CompileObservation& observation) {
  if (observation.crash) return "crash: " + observation.crash->stage + ", " + observation.crash->reason;
  std::size_t errors = 0, warnings = 0;
  const Diagnostic* first_warning = nullptr;
  for (const auto& d : observation.diagnostics) {
    if (d.severity == Severity::error || d.severity == Severity::fatal) ++errors;
    if (d.severity == Severity::warning) {
      ++warnings;
      if (first_warning == nullptr) first_warning = &d;
    }
  }
  const Diagnostic* shown = observation.first_error();
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

std::string run_summary(const RunObservation& run) {
  std::string cell = run.status_text + ", " + std::to_string(run.output_lines.size()) + " lines";
  if (!run.output_lines.empty()) cell += ": " + shorten(run.output_lines.front(), 40);
  if (!run.cuda_errors.empty()) cell += "; CUDA error: " + shorten(run.cuda_errors.front(), 60);
  return cell;
}

std::string layout_table(const std::vector<LayoutProbe>& probes, const std::vector<LayoutView>& views) {
  std::vector<std::string> header = {"type", "property", "member kind"};
  for (const LayoutView& view : views) header.push_back(view.config + " " + to_string(view.side));
  TextTable table(header);
  for (const LayoutProbe& probe : probes) {
    for (const std::string& property : probe.properties) {
      const std::string member = property.rfind("offsetof.", 0) == 0 ? property.substr(9) : "";
      auto kind = probe.member_kinds.find(member);
      std::vector<std::string> row = {probe.type, property, kind == probe.member_kinds.end() ? "" : kind->second};
      for (const LayoutView& view : views) row.push_back(cell(view, probe.type, property));
      table.add_row(std::move(row));
    }
  }
  return table.render();
}

boost::json::value to_json(const LayoutProbe& probe) {
  boost::json::array properties;
  for (const std::string& property : probe.properties) properties.push_back(boost::json::string(property));
  return boost::json::object{{"type", probe.type}, {"array", probe.array}, {"properties", properties}};
}

boost::json::value to_json(const LayoutView& view) {
  boost::json::object values;
  for (const auto& [type, properties] : view.values) {
    boost::json::object by_property;
    for (const auto& [property, value] : properties) by_property[property] = value;
    values[type] = std::move(by_property);
  }
  return boost::json::object{{"config", view.config},
                             {"compiler", runners::to_string(view.compiler)},
                             {"side", to_string(view.side)},
                             {"values", std::move(values)},
                             {"problem", view.problem}};
}

} // namespace cudiff::oracle
