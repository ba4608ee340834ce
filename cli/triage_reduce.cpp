// `cudiff triage reduce ID`: reduce a bucket's best reproducer with the built-in test (its
// own key) and store the result as the bucket's best reproducer when it is smaller.
#include "cli/commands.h"
#include "cli/reduce.h"

#include <chrono>
#include <ostream>
#include <unistd.h>

namespace cudiff::cli {
namespace {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

/// What a bug report needs of the final check, in the shape `cudiff check --db` stores
/// (cli/check_record.cpp), so `triage export` reads a reduced reproducer like any other.
boost::json::object outputs_of(const CheckRun& run) {
  constexpr std::size_t cap = 64 * 1024;
  auto capped = [](const std::string& text) { return text.size() <= cap ? text : text.substr(0, cap) + "\n... (cut)"; };
  boost::json::array configs;
  for (const ConfigCheck& check : run.configs)
    configs.push_back(boost::json::object{{"config", check.compile.config.name},
                                          {"compiler", runners::to_string(check.compile.config.compiler)},
                                          {"command", check.compile.command.display()},
                                          {"outcome", oracle::to_string(check.observation.outcome)},
                                          {"status", check.compile.process.status_text()},
                                          {"stdout", capped(check.compile.process.out.text)},
                                          {"stderr", capped(check.compile.process.err.text)}});
  // "file" is the path the commands name: export replaces it with the reproducer's name.
  return boost::json::object{{"file", std::filesystem::absolute(run.file).string()},
                             {"mode", runners::to_string(run.mode)},
                             {"toolchain", boost::json::object{{"nvcc", runners::to_json(run.toolchain.nvcc)},
                                                               {"clang", runners::to_json(run.toolchain.clang)},
                                                               {"cuda_home", run.toolchain.cuda_home.string()}}},
                             {"gpu_note", run.gpus.note},
                             {"configs", std::move(configs)},
                             {"reduced", true}};
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
  const double started = now_seconds();
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
  reduction.ended = now_seconds();
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
                                  outputs_of(run)};
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
