// pipeline: a check's findings filed in the triage database, as a campaign of its own (kind
// "check", one test), known differences labelled; and what a report keeps of a check.
#include "pipeline/record.h"

#include <chrono>
#include <unistd.h>

namespace cudiff::pipeline {
namespace {

/// Output kept per stream in the database: enough for a bug report, bounded for a campaign.
constexpr std::size_t stored_output_chars = 64 * 1024;

std::string capped(const std::string& text) {
  return text.size() <= stored_output_chars ? text : text.substr(0, stored_output_chars) + "\n... (cut)";
}

triage::Campaign campaign_of(const TestCheck& run, double now) {
  triage::Campaign campaign;
  campaign.id = triage::unique_key();
  campaign.kind = "check";
  campaign.host = host_name();
  // Compiles run in parallel, runs one after another: the check took about this long.
  double seconds = 0, run_seconds = 0;
  for (const ConfigCheck& check : run.configs) {
    seconds = std::max(seconds, check.observation.seconds);
    if (check.run) run_seconds += check.run->seconds;
  }
  campaign.started = now - seconds - run_seconds;
  campaign.ended = now;
  campaign.cudiff_version = CUDIFF_VERSION;
  campaign.nvcc_version = run.toolchain.nvcc.version;
  campaign.clang_version = run.toolchain.clang.version;
  campaign.gpus = gpus_text(run.gpus, run.mode);
  for (const ConfigCheck& check : run.configs) campaign.configs.push_back(check.compile.config.name);
  campaign.mode = runners::to_string(run.mode);
  campaign.tests = 1;
  campaign.findings = static_cast<std::int64_t>(run.verdict.findings.size());
  return campaign;
}

/// Labels a finding in what check prints: its bucket, and whether it is a known difference.
void label(oracle::Finding& finding, const triage::Signature& signature, const triage::KnownDifference* known,
           const std::optional<triage::Recorded>& recorded, std::vector<std::string>& notes) {
  boost::json::object triage_json{{"key", signature.key}, {"title", signature.title}, {"known", known != nullptr}};
  std::string note = "triage: " + signature.key.substr(0, 12) + " " + signature.title;
  if (recorded) {
    triage_json["bucket"] = recorded->bucket.id;
    triage_json["count"] = recorded->bucket.count;
    triage_json["status"] = triage::to_string(recorded->bucket.status);
    note += recorded->new_bucket ? " (new bucket " + std::to_string(recorded->bucket.id) + ")"
                                 : " (bucket " + std::to_string(recorded->bucket.id) + ", seen " +
                                       std::to_string(recorded->bucket.count) + " times, " +
                                       triage::to_string(recorded->bucket.status) + ")";
  }
  if (known != nullptr) {
    triage_json["known_reason"] = known->reason;
    finding.summary = "[known difference] " + finding.summary;
    note += "; known difference: " + known->reason;
  }
  finding.details["triage"] = std::move(triage_json);
  notes.push_back(note);
}

} // namespace

std::string gpus_text(const runners::GpuDiscovery& gpus, runners::Mode mode) {
  if (mode != runners::Mode::run) return {};
  std::vector<std::string> names;
  for (const auto& gpu : gpus.gpus) names.push_back(gpu.describe());
  return join(names, ", ");
}

std::string host_name() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  return host;
}

boost::json::object outputs_json(const TestCheck& run) {
  boost::json::array configs;
  for (const ConfigCheck& check : run.configs) {
    boost::json::object entry{{"config", check.compile.config.name},
                              {"compiler", runners::to_string(check.compile.config.compiler)},
                              {"command", check.compile.command.display()},
                              {"outcome", oracle::to_string(check.observation.outcome)},
                              {"status", check.compile.process.status_text()},
                              {"stdout", capped(check.compile.process.out.text)},
                              {"stderr", capped(check.compile.process.err.text)}};
    // The device path: "command" is the whole-program build the config stands for (what a
    // report's repro.sh runs), and the two steps that were run are kept beside it.
    if (!check.compile.front_end.argv.empty()) {
      const std::filesystem::path dir = check.compile.command.cwd;
      entry["command"] = runners::compile_command(run.toolchain, check.compile.config, run.mode, run.file,
                                                  dir / run.file.stem(), dir / "tmp")
                             .display();
      boost::json::object steps{{"front_end", check.compile.front_end.display()}};
      if (check.compile.command != check.compile.front_end) steps["ptxas"] = check.compile.command.display();
      entry["device_path"] = std::move(steps);
    }
    if (check.run_process)
      entry["run"] = boost::json::object{{"status", check.run_process->status_text()},
                                         {"stdout", capped(check.run_process->out.text)},
                                         {"stderr", capped(check.run_process->err.text)},
                                         {"path", check.ran_in_executor ? "executor" : "process"}};
    configs.push_back(std::move(entry));
  }
  boost::json::object outputs{{"file", std::filesystem::absolute(run.file).string()},
                              {"mode", runners::to_string(run.mode)},
                              {"toolchain", boost::json::object{{"nvcc", runners::to_json(run.toolchain.nvcc)},
                                                                {"clang", runners::to_json(run.toolchain.clang)},
                                                                {"cuda_home", run.toolchain.cuda_home.string()}}},
                              {"gpu_note", run.gpus.note},
                              {"configs", std::move(configs)}};
  // The limits the check ran under: a compile past compile_seconds was confirmed once with
  // hang_confirmation_factor times it before it was called a hang (repro.sh waits as long).
  if (run.compile_seconds > 0 && run.run_seconds > 0)
    outputs["limits"] = boost::json::object{{"compile_seconds", run.compile_seconds},
                                            {"run_seconds", run.run_seconds},
                                            {"hang_confirmation_factor", kHangConfirmationFactor}};
  return outputs;
}

std::vector<triage::Signature> signatures_of(const TestCheck& run) {
  std::vector<triage::Signature> signatures;
  for (const oracle::Finding& finding : run.verdict.findings) {
    if (!run.assumed_stage) {
      signatures.push_back(triage::signature_of(finding, crash_output(run, finding)));
      continue;
    }
    oracle::Finding keyed = finding;
    keyed.details["stage"] = *run.assumed_stage;
    signatures.push_back(triage::signature_of(keyed, crash_output(run, finding)));
  }
  return signatures;
}

std::string crash_output(const TestCheck& run, const oracle::Finding& finding) {
  if (finding.kind != oracle::FindingKind::crash || finding.configs.empty()) return {};
  for (const ConfigCheck& check : run.configs)
    if (check.compile.config.name == finding.configs.front()) return check.compile.process.err.text;
  return {};
}

CheckRecorder open_check_recorder(const std::optional<std::filesystem::path>& db, triage::KnownDifferences known) {
  CheckRecorder recorder;
  recorder.known = std::move(known);
  recorder.active = true;  // known differences label findings even without a database
  if (db) recorder.db = triage::Database::open(*db);
  return recorder;
}

void record_check(CheckRecorder& recorder, TestCheck& run, const GateOutcome* gate) {
  if (!recorder.active) return;
  // An invalid program's run-time findings are not compiler bugs: not filed, and not labelled.
  const bool invalid = gate != nullptr && gate->result == GateResult::invalid;
  auto withheld = [&](std::size_t i) { return invalid && oracle::is_run_kind(run.verdict.findings[i].kind); };
  const triage::KnownDifferences& known = recorder.known;
  const std::vector<triage::Signature> signatures = signatures_of(run);

  std::vector<std::optional<triage::Recorded>> recorded(signatures.size());
  if (recorder.db) {
    triage::Database& db = *recorder.db;
    const double now = unix_seconds();
    triage::Campaign campaign = campaign_of(run, now);
    if (invalid)
      campaign.findings = std::ranges::count_if(run.verdict.findings, [](const oracle::Finding& finding) {
        return !oracle::is_run_kind(finding.kind);
      });
    const std::string source = read_file(run.file);  // what the compilers compiled
    const boost::json::object outputs = outputs_json(run);
    // One transaction: a check is recorded whole or not at all.
    db.transaction([&] {
      db.put_campaign(campaign);
      triage::Test test{triage::content_key(campaign.id + "/" + run.file.string()),
                        campaign.id,
                        run.file.string(),
                        "",
                        "",
                        campaign.configs,
                        run.verdict.agree() ? "agree"
                        : invalid           ? "invalid"
                                            : "discrepancy",
                        now,
                        now - campaign.started};
      db.add_test(test);
      if (invalid) {
        triage::InvalidTest row = invalid_test_of(*gate, run, run.file.filename().string(), source);
        row.id = triage::content_key(campaign.id + "/" + run.file.string() + "/invalid");
        row.campaign_id = campaign.id;
        row.test_id = test.id;
        row.time = now;
        row.name = run.file.string();
        db.add_invalid_test(row);
        run.notes.push_back("triage: recorded as an invalid test (cudiff triage invalid), not as a finding");
      }
      for (std::size_t i = 0; i < signatures.size(); ++i) {
        if (withheld(i)) continue;
        triage::NewFinding finding{triage::content_key(campaign.id + "/" + std::to_string(i)),
                                   campaign.id,
                                   test.id,
                                   now,
                                   run.verdict.findings[i],
                                   signatures[i],
                                   run.file.filename().string(),
                                   source,
                                   outputs};
        recorded[i] = db.add_finding(finding, known.match(signatures[i]));
      }
    });
  }
  // Without a database only known differences are worth a label (what else would it say).
  for (std::size_t i = 0; i < signatures.size(); ++i) {
    if (withheld(i)) continue;
    const triage::KnownDifference* match = known.match(signatures[i]);
    if (recorder.db || match != nullptr) label(run.verdict.findings[i], signatures[i], match, recorded[i], run.notes);
  }
}

} // namespace cudiff::pipeline
