// oracle: JSON for observations and verdicts (--json output and the triage database).
#include "oracle/oracle.h"

namespace cudiff::oracle {
namespace {

using boost::json::array;
using boost::json::object;

array string_array(const std::vector<std::string>& strings) {
  array values;
  for (const std::string& text : strings) values.push_back(boost::json::value(text));
  return values;
}

boost::json::value crash_json(const std::optional<Crash>& crash) {
  if (!crash) return nullptr;
  return object{{"stage", crash->stage}, {"reason", crash->reason}, {"excerpt", crash->excerpt}};
}

object finding_json(const Finding& finding) {
  return object{{"kind", to_string(finding.kind)},
                {"configs", string_array(finding.configs)},
                {"summary", finding.summary},
                {"details", finding.details}};
}

} // namespace

boost::json::value to_json(const Diagnostic& diagnostic) {
  return object{{"severity", to_string(diagnostic.severity)},
                {"id", diagnostic.id},
                {"file", diagnostic.file},
                {"line", diagnostic.line},
                {"column", diagnostic.column},
                {"message", diagnostic.message},
                {"tool", to_string(diagnostic.tool)}};
}

namespace {
/// In the order the sub-commands ran: [{"tool": "cicc", "seconds": 4.2}, ...].
array stage_seconds_json(const std::vector<std::pair<std::string, double>>& stages) {
  array json;
  for (const auto& [tool, seconds] : stages) json.push_back(object{{"tool", tool}, {"seconds", seconds}});
  return json;
}
} // namespace

boost::json::value to_json(const CompileObservation& observation) {
  array diagnostics;
  for (const Diagnostic& diagnostic : observation.diagnostics) diagnostics.push_back(to_json(diagnostic));
  return object{{"config", observation.config},
                {"compiler", runners::to_string(observation.compiler)},
                {"outcome", to_string(observation.outcome)},
                {"diagnostics", std::move(diagnostics)},
                {"crash", crash_json(observation.crash)},
                {"seconds", observation.seconds},
                {"stage_seconds", stage_seconds_json(observation.stage_seconds)}};
}

boost::json::value to_json(const RunObservation& observation) {
  return object{{"config", observation.config},
                {"exit_code", observation.exit_code},
                {"signal", observation.signal},
                {"timed_out", observation.timed_out},
                {"output_lines", string_array(observation.output_lines)},
                {"cuda_errors", string_array(observation.cuda_errors)},
                {"output_truncated", observation.output_truncated},
                {"seconds", observation.seconds},
                {"status_text", observation.status_text}};
}

boost::json::value to_json(const Verdict& verdict) {
  array findings;
  for (const Finding& finding : verdict.findings) findings.push_back(finding_json(finding));
  return object{{"agree", verdict.agree()},
                {"agreement", verdict.agreement},
                {"headline", verdict.headline()},
                {"findings", std::move(findings)}};
}

} // namespace cudiff::oracle
