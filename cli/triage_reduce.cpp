// `cudiff triage reduce ID`: reduce a bucket's best reproducer with the built-in test (its
// own key) and store the result as the bucket's best reproducer when it is smaller.
#include "cli/commands.h"
#include "cli/reduce.h"

#include <chrono>
#include <ostream>
#include <unistd.h>

namespace cudiff::cli {
namespace {


/// The final check's outputs as `cudiff check --db` stores them (so `triage export` reads a
/// reduced reproducer like any other), marked as a reduction.
boost::json::object reduced_outputs(const CheckRun& run) {
  boost::json::object outputs = outputs_json(run);
  outputs["reduced"] = true;
  return outputs;
}

} // namespace

int triage_reduce(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
  if (args.positionals.size() != 2) throw_usage("usage: cudiff triage reduce ID [--jobs N] [--time-limit S] [--db FILE]");
  triage::Database db =
      triage::Database::open(args.value("--db").value_or("cudiff.db"), triage::OpenOptions{.create = false});
  const triage::Bucket bucket = db.bucket(args.positionals[1]);
  const auto finding = db.finding(bucket.best_finding);
  if (!finding || finding->source.empty())
    throw_environment("bucket " + std::to_string(bucket.id) + " has no stored reproducer to reduce");
  const auto campaign = db.campaign(finding->campaign_id);

  ReduceRequest request = reduce_request(args);
  TempDir dir("cudiff-triage-reduce");
  const std::string name = finding->source_name.empty() ? "reproducer.cu" : finding->source_name;
  request.file = dir.path() / name;
  request.source = finding->source;
  request.key = bucket.key;
  request.format = !args.has("--no-format");
  if (campaign) request.check.mode = runners::parse_mode(campaign->mode);
  // The stored reproducer has no sidecar: a false rejection was judged against a generated
  // program's "must accept", so its candidates are too. (A missed diagnostic's reproducer
  // carries its `// expected-error: ID` line, which the reduction keeps.)
  if (bucket.kind == oracle::to_string(oracle::FindingKind::false_rejection)) request.check.expected = oracle::Expectation{};
  request.check.configs = campaign && !campaign->configs.empty() ? runners::parse_configs(join(campaign->configs, ","))
                                                                 : runners::default_configs();
  request.check.compile_limits.wall_seconds = 300;
  request.check.compile_limits.memory_bytes = 16ull << 30;
  request.check.run_limits.wall_seconds = 60;
  request.check.run_limits.memory_bytes = 16ull << 30;

  const runners::Toolchain toolchain = runners::Toolchain::from(runners::discover_toolchain(toolchain_search(args)));
  const runners::GpuDiscovery gpus = runners::discover_gpus();
  if (bucket.kind == oracle::to_string(oracle::FindingKind::run_mismatch) && gpus.gpus.empty())
    throw_environment("bucket " + std::to_string(bucket.id) + " is a run mismatch: reducing it needs a GPU (" +
                      gpus.note + ")");
  const double started = unix_seconds();
  ReduceOutcome outcome = reduce_source(request, toolchain, gpus, err);
  if (::isatty(2) == 1) err << "\n";
  const std::string& reduced = outcome.result.text;
  if (reduced.size() >= finding->source.size()) {
    out << "bucket " << bucket.id << " (" << bucket.key.substr(0, 12) << "): no smaller reproducer than "
        << format_bytes(finding->source.size()) << "; nothing stored\n";
    return 0;
  }

  // The final check in the full mode gives the finding, its outputs, and one more proof.
  CheckRequest full = request.check;
  if (!full.mode) full.mode = gpus.gpus.empty() ? runners::Mode::binary : runners::Mode::run;
  TempDir check_dir("cudiff-triage-reduce");
  const CheckRun run = SignatureTest(*outcome.target, full, toolchain, gpus, request).check(reduced, check_dir.path());
  const std::vector<triage::Signature> signatures = signatures_of(run);
  std::size_t index = signatures.size();
  for (std::size_t i = 0; i < signatures.size(); ++i)
    if (signatures[i].key == bucket.key) index = i;
  if (index == signatures.size())
    throw_environment("the reduced reproducer did not show bucket " + std::to_string(bucket.id) + "'s signature again");

  triage::Campaign reduction;
  reduction.id = triage::unique_key();
  reduction.kind = "reduce";
  reduction.host = host_name();
  reduction.started = started;
  reduction.ended = unix_seconds();
  reduction.cudiff_version = CUDIFF_VERSION;
  reduction.nvcc_version = toolchain.nvcc.version;
  reduction.clang_version = toolchain.clang.version;
  for (const auto& config : request.check.configs) reduction.configs.push_back(config.name);
  reduction.mode = runners::to_string(run.mode);
  reduction.tests = 1;
  reduction.findings = 1;
  const triage::Test test{triage::content_key(reduction.id + "/" + name), reduction.id, name, "", "",
                          reduction.configs, "discrepancy", reduction.ended, reduction.ended - started};
  const triage::NewFinding stored{triage::content_key(reduction.id + "/0"), reduction.id, test.id, reduction.ended,
                                  run.verdict.findings[index], signatures[index], name, reduced,
                                  reduced_outputs(run)};
  triage::Bucket after;
  db.transaction([&] {
    db.put_campaign(reduction);
    db.add_test(test);
    after = db.add_reproducer(stored);
  });
  report_reduction(request, outcome, false, out);
  out << "bucket " << bucket.id << " (" << bucket.key.substr(0, 12) << "): reproducer reduced from "
      << format_bytes(finding->source.size()) << " to " << format_bytes(reduced.size()) << "; stored as finding "
      << stored.id.substr(0, 12) << (after.best_finding == stored.id ? ", now the best reproducer" : "") << "\n";
  return 0;
}

} // namespace cudiff::cli
