// campaign: the conformance measurement (`cudiff rules --measure`) — plants every E rule's
// violation (and its fixed form) into one generated program, builds every V rule's probe,
// compiles each with every config in object mode, and judges each against what the rules say
// (the spec oracle). The result is the conformance table's data, kept in a JSON file.
#include "campaign/conformance.h"
#include "pipeline/check.h"
#include "pipeline/record.h"

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <ostream>
#include <thread>

namespace cudiff::campaign {
namespace {

/// One program to measure, before it is compiled.
struct Planned {
  std::string rule, variant;
  std::string source;
  oracle::Expectation expected;
};

/// A probe in a translation unit of its own: a device probe called from a kernel, a host probe
/// from main (object mode builds both without running them).
std::string probe_program(const rules::RuleProbe& probe) {
  std::string text = "#include <cstdio>\n#include <cstdint>\n#include <cuda_runtime.h>\n";
  for (const std::string& header : probe.headers) text += "#include " + header + "\n";
  text += probe.fragment;
  if (!probe.fragment.empty() && probe.fragment.back() != '\n') text += "\n";
  if (probe.host) {
    text += "int main() { return " + probe.function + "(42ull) == 42ull ? 0 : 1; }\n";
  } else {
    text += "__global__ void cudiff_measure_kernel(unsigned long long* data) { data[threadIdx.x] = " + probe.function +
            "(data[threadIdx.x]); }\n";
  }
  return text;
}

std::vector<Planned> plan(const generator::Policy& policy, std::uint64_t seed, generator::Size size,
                          const std::optional<std::string>& only) {
  const generator::TestCase host = generator::generate_program(policy, seed, size);
  std::vector<Planned> planned;
  for (const rules::Rule& rule : rules::rule_catalog()) {
    if (only && rule.id != *only) continue;
    if (rule.violation && rule.checkable) {
      int line = 0;
      std::string source = generator::plant_violation(host.source, rule.id, *rule.violation, line);
      planned.push_back({rule.id, "violation", std::move(source), oracle::Expectation{true, rule.id, line}});
      if (!rule.violation->fixed.empty()) {
        rules::RuleViolation fixed{rule.violation->fixed, "", ""};
        std::string fixed_source = generator::plant_violation(host.source, rule.id, fixed, line);
        planned.push_back({rule.id, "fixed", std::move(fixed_source), oracle::Expectation{false, rule.id, 0}});
      }
    }
    if (rule.probe)
      planned.push_back({rule.id, "probe", probe_program(*rule.probe), oracle::Expectation{false, rule.id, 0}});
  }
  if (only && planned.empty()) throw_usage("rule '" + *only + "' has neither a violation template nor a probe");
  return planned;
}

MeasuredItem measure_one(const Planned& planned, const pipeline::CheckRequest& base,
                         const runners::Toolchain& toolchain, const triage::KnownDifferences& known,
                         const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  pipeline::CheckRequest request = base;
  request.input.name = "measure_" + planned.rule + "_" + planned.variant + ".cu";
  request.input.source = planned.source;
  request.expected = planned.expected;
  const pipeline::TestCheck run = pipeline::check_test(request, toolchain, runners::GpuDiscovery{}, dir);

  MeasuredItem item{planned.rule, planned.variant, planned.expected.reject, planned.expected.line, {}, {}, {}, {}};
  for (const pipeline::ConfigCheck& check : run.configs) {
    MeasuredCompile compile{check.compile.config.name, oracle::to_string(check.observation.outcome), {}, {}, 0, false};
    if (const oracle::Diagnostic* error = check.observation.first_error()) {
      compile.first_error = error->message;
      compile.tool = oracle::to_string(error->tool);
      compile.line = error->line;
      compile.at_planted_line = planned.expected.line > 0 && error->line == planned.expected.line;
    } else if (check.observation.crash) {
      compile.first_error = check.observation.crash->stage + ": " + check.observation.crash->reason;
    }
    item.compiles.push_back(std::move(compile));
  }
  if (!run.verdict.findings.empty()) {
    const oracle::Finding& finding = run.verdict.findings.front();
    item.finding = finding.summary;
    item.finding_kind = oracle::to_string(finding.kind);
    if (const triage::KnownDifference* match = known.match(
            triage::signature_of(finding, pipeline::crash_output(run, finding))))
      item.known_reason = match->reason;
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  return item;
}

} // namespace

std::string MeasuredItem::verdict_of(std::string_view compiler) const {
  for (const MeasuredCompile& compile : compiles) {
    if (!compile.config.starts_with(compiler)) continue;
    if (compile.outcome == "accepted") return "accept";
    if (compile.outcome == "rejected") return "reject";
    if (compile.outcome == "crashed") return "crash";
    return "hang";
  }
  return {};
}

boost::json::value to_json(const Measurement& measurement) {
  boost::json::array items;
  for (const MeasuredItem& item : measurement.items) {
    boost::json::array compiles;
    for (const MeasuredCompile& c : item.compiles)
      compiles.push_back(boost::json::object{{"config", c.config},
                                             {"outcome", c.outcome},
                                             {"first_error", c.first_error},
                                             {"tool", c.tool},
                                             {"line", c.line},
                                             {"at_planted_line", c.at_planted_line}});
    items.push_back(boost::json::object{{"rule", item.rule},
                                        {"program", item.variant},
                                        {"expected", item.must_reject ? "reject" : "accept"},
                                        {"planted_line", item.planted_line},
                                        {"compiles", std::move(compiles)},
                                        {"finding", item.finding},
                                        {"finding_kind", item.finding_kind},
                                        {"known", item.known_reason}});
  }
  boost::json::array configs;
  for (const std::string& config : measurement.configs) configs.emplace_back(config);
  return boost::json::object{{"measured_at", measurement.measured_at},
                             {"nvcc_version", measurement.nvcc_version},
                             {"clang_version", measurement.clang_version},
                             {"seed", measurement.seed},
                             {"size", measurement.size},
                             {"configs", std::move(configs)},
                             {"items", std::move(items)}};
}

Measurement measurement_from_json(const boost::json::value& json, const std::string& origin) {
  const auto fail = [&](const std::string& what) -> Measurement {
    throw_usage(origin + ": not a conformance measurement (" + what + "); re-run cudiff rules --measure");
  };
  if (!json.is_object()) return fail("not a JSON object");
  const boost::json::object& root = json.as_object();
  const auto* items = root.if_contains("items");
  if (items == nullptr || !items->is_array()) return fail("no \"items\"");
  auto text = [](const boost::json::object& o, std::string_view key) {
    const auto* v = o.if_contains(key);
    return v != nullptr && v->is_string() ? std::string(v->as_string()) : std::string();
  };
  auto integer = [](const boost::json::object& o, std::string_view key) {
    const auto* v = o.if_contains(key);
    return v != nullptr && v->is_int64() ? static_cast<int>(v->as_int64()) : 0;
  };
  Measurement m;
  if (const auto* at = root.if_contains("measured_at"); at != nullptr && at->is_number())
    m.measured_at = at->to_number<double>();
  m.nvcc_version = text(root, "nvcc_version");
  m.clang_version = text(root, "clang_version");
  m.size = text(root, "size");
  for (const auto& value : items->as_array()) {
    if (!value.is_object()) return fail("an item is not an object");
    const boost::json::object& o = value.as_object();
    MeasuredItem item;
    item.rule = text(o, "rule");
    item.variant = text(o, "program");
    item.must_reject = text(o, "expected") == "reject";
    item.planted_line = integer(o, "planted_line");
    item.finding = text(o, "finding");
    item.finding_kind = text(o, "finding_kind");
    item.known_reason = text(o, "known");
    if (const auto* compiles = o.if_contains("compiles"); compiles != nullptr && compiles->is_array())
      for (const auto& c : compiles->as_array())
        if (c.is_object()) {
          const boost::json::object& co = c.as_object();
          const auto* at = co.if_contains("at_planted_line");
          item.compiles.push_back(MeasuredCompile{text(co, "config"), text(co, "outcome"), text(co, "first_error"),
                                                  text(co, "tool"), integer(co, "line"),
                                                  at != nullptr && at->is_bool() && at->as_bool()});
        }
    if (item.rule.empty()) return fail("an item has no rule");
    m.items.push_back(std::move(item));
  }
  return m;
}

Measurement measure_conformance(const MeasureRequest& request, std::ostream& err) {
  if (request.jobs == 0) throw_usage("--jobs must be at least 1");
  const std::vector<Planned> planned = plan(generator::Policy::defaults(), request.seed, request.size, request.rule);
  pipeline::CheckRequest check;
  check.mode = runners::Mode::object;
  check.configs = request.configs;
  check.compile_limits = pipeline::limits(request.compile_seconds);

  Measurement measurement;
  measurement.measured_at = unix_seconds();
  measurement.nvcc_version = request.toolchain.nvcc.version;
  measurement.clang_version = request.toolchain.clang.version;
  measurement.seed = request.seed;
  measurement.size = generator::to_string(request.size);
  for (const runners::Config& config : check.configs) measurement.configs.push_back(config.name);
  measurement.items.resize(planned.size());

  // Workers take programs in order; each builds with every config at once (check_test).
  TempDir temp("cudiff-rules");
  std::atomic<std::size_t> next{0}, done{0};
  std::mutex progress_mutex;
  const auto start = std::chrono::steady_clock::now();
  std::string failure;  // the first worker error: it stops the others and fails the command
  auto work = [&] {
    for (std::size_t i = next++; i < planned.size(); i = next++) {
      try {
        measurement.items[i] = measure_one(planned[i], check, request.toolchain, request.known,
                                           temp.path() / std::to_string(i));
      } catch (const std::exception& error) {
        std::lock_guard lock(progress_mutex);
        if (failure.empty()) failure = planned[i].rule + " (" + planned[i].variant + "): " + error.what();
        next = planned.size();
        return;
      }
      const std::size_t finished = ++done;
      std::lock_guard lock(progress_mutex);
      if (finished % 20 != 0 && finished != planned.size()) continue;
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      err << "measured " << finished << "/" << planned.size() << " programs, " << format_seconds(seconds) << ", ETA "
          << format_seconds(seconds / static_cast<double>(finished) * static_cast<double>(planned.size() - finished))
          << "\n";
    }
  };
  std::vector<std::thread> workers;
  for (std::size_t w = 0; w < std::min(request.jobs, planned.size()); ++w) workers.emplace_back(work);
  for (std::thread& worker : workers) worker.join();
  if (!failure.empty()) throw_environment("rules --measure stopped: " + failure);
  return measurement;
}

} // namespace cudiff::campaign
