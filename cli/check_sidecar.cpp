// `cudiff check` with a sidecar: collects the layout views of a generated program (device
// from each config's PTX, host from its binary run with --layout) and shows them; reads what
// the file is expected to do (sidecar or `// expected-error: ID` comment).
#include "cli/check.h"

#include <future>

namespace cudiff::cli {
namespace {

/// The config's PTX text: the artifact when the check already built PTX, else a PTX compile
/// of its own (beside the other artifacts: `<stem>.ptx` clashes with no other mode's output).
oracle::LayoutView device_view(const CheckRun& run, const ConfigCheck& check, const runners::Limits& limits,
                               const std::filesystem::path& workdir, const std::vector<oracle::LayoutProbe>& probes) {
  const runners::Config& config = check.compile.config;
  oracle::LayoutView empty{config.name, config.compiler, oracle::LayoutSide::device, {}, {}};
  std::filesystem::path ptx = check.compile.artifact;
  if (run.mode != runners::Mode::ptx) {
    const runners::CompileResult result = runners::compile(run.toolchain, config, runners::Mode::ptx, run.file, workdir, limits);
    if (result.artifact.empty()) {
      empty.problem = "the PTX compile failed (" + result.process.status_text() + ")";
      return empty;
    }
    ptx = result.artifact;
  }
  try {
    return oracle::device_layout_view(config.name, config.compiler, read_file(ptx), probes);
  } catch (const Error& error) {
    empty.problem = error.what();
    return empty;
  }
}

oracle::LayoutView host_view(const ConfigCheck& check, const runners::Limits& limits, const std::filesystem::path& workdir) {
  const runners::Config& config = check.compile.config;
  runners::Command command;
  command.argv = {check.compile.artifact.string(), "--layout"};
  command.cwd = workdir / config.name;
  command.limits = limits;
  const runners::SubprocessResult result = runners::run_subprocess(command);
  oracle::LayoutView view = oracle::host_layout_view(config.name, config.compiler, result.out.text);
  if (!result.exited_zero()) view.problem = "`" + config.name + " --layout` ended with " + result.status_text();
  return view;
}

bool accepted(const ConfigCheck& check) { return check.observation.outcome == oracle::CompileOutcome::accepted; }

std::string cell(const oracle::LayoutView& view, const std::string& type, const std::string& property) {
  auto by_type = view.values.find(type);
  if (by_type == view.values.end()) return "-";
  auto found = by_type->second.find(property);
  return found == by_type->second.end() ? "-" : std::to_string(found->second);
}

} // namespace

std::optional<LayoutCheck> check_layout(const CheckRun& run, const runners::Limits& compile_limits,
                                        const runners::Limits& run_limits, const std::filesystem::path& workdir,
                                        oracle::Observations& observations) {
  LayoutCheck layout;
  layout.sidecar = std::filesystem::path(run.file).replace_extension(".json");
  std::error_code ec;
  if (!std::filesystem::is_regular_file(layout.sidecar, ec)) return std::nullopt;
  boost::system::error_code parse_error;
  const boost::json::value sidecar = boost::json::parse(read_file(layout.sidecar), parse_error);
  if (parse_error) {
    layout.notes.push_back(layout.sidecar.filename().string() + " is not JSON (" + parse_error.message() + "): no layout check");
    return layout;
  }
  if (!sidecar.is_object() || !sidecar.as_object().contains("layout_probes")) return std::nullopt;
  layout.probes = oracle::parse_layout_probes(sidecar, layout.notes);
  if (layout.probes.empty()) return layout;

  // PTX compiles run in parallel, like the builds; the --layout runs are quick and serial.
  std::vector<std::future<oracle::LayoutView>> pending;
  for (const ConfigCheck& check : run.configs)
    if (accepted(check))
      pending.push_back(std::async(std::launch::async, device_view, std::cref(run), std::cref(check),
                                   std::cref(compile_limits), std::cref(workdir), std::cref(layout.probes)));
  std::size_t next = 0;
  for (const ConfigCheck& check : run.configs) {
    if (!accepted(check)) continue;
    layout.views.push_back(pending[next++].get());
    const bool binary = run.mode == runners::Mode::binary || run.mode == runners::Mode::run;
    if (binary && !check.compile.artifact.empty()) layout.views.push_back(host_view(check, run_limits, workdir));
  }
  for (const oracle::LayoutView& view : layout.views)
    if (!view.problem.empty()) layout.notes.push_back(view.config + " " + oracle::to_string(view.side) + ": " + view.problem);
  if (run.mode != runners::Mode::binary && run.mode != runners::Mode::run)
    layout.notes.push_back("no binaries in mode " + runners::to_string(run.mode) + ": device views only");
  observations.layout_probes = layout.probes;
  observations.layouts = layout.views;
  return layout;
}

std::string render_layout(const LayoutCheck& layout) {
  std::vector<std::string> header = {"type", "property", "member kind"};
  for (const oracle::LayoutView& view : layout.views) header.push_back(view.config + " " + oracle::to_string(view.side));
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
  std::string out = "layout probes (" + layout.sidecar.filename().string() + "): " + std::to_string(layout.probes.size()) +
                    " types, " + std::to_string(layout.views.size()) + " views\n";
  if (!layout.probes.empty()) out += table.render();
  for (const std::string& note : layout.notes) out += "note: layout: " + note + "\n";
  return out;
}

boost::json::value layout_json(const LayoutCheck& layout) {
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
  return boost::json::object{{"sidecar", layout.sidecar.string()}, {"probes", probes}, {"views", views}, {"notes", notes}};
}

std::optional<oracle::Expectation> expectation_of(const CheckRequest& request) {
  if (request.expected) return request.expected;
  std::error_code ec;
  const std::filesystem::path sidecar = std::filesystem::path(request.file).replace_extension(".json");
  if (std::filesystem::is_regular_file(sidecar, ec)) {
    boost::system::error_code parse_error;
    const boost::json::value json = boost::json::parse(read_file(sidecar), parse_error);
    if (!parse_error)
      if (std::optional<oracle::Expectation> expected = oracle::expectation_from_sidecar(json)) return expected;
  }
  return oracle::expectation_from_source(read_file(request.file));
}

} // namespace cudiff::cli
