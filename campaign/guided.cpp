// campaign: guided generation — one process's share of a guided campaign: generate the
// program an input names, check it like a campaign's test, file its findings (one transaction
// per program: libFuzzer's -fork and -jobs children all write the same database), and hand
// back the features the compilers showed.
#include "campaign/guided.h"
#include "pipeline/record.h"

#include <fstream>
#include <ostream>

namespace cudiff::campaign {
namespace {

double seconds_between(std::chrono::steady_clock::time_point from, std::chrono::steady_clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

std::string hex_of(std::string_view bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    hex += digits[c >> 4];
    hex += digits[c & 15];
  }
  return hex;
}

} // namespace

bool guided_runs(const GuidedOptions& options, const runners::GpuDiscovery& gpus) {
  return !options.no_gpu && !gpus.gpus.empty() && (!options.mode || *options.mode == runners::Mode::run);
}

triage::Campaign new_guided_campaign(const std::string& kind, const GuidedOptions& options,
                                     const runners::Toolchain& toolchain, const runners::GpuDiscovery& gpus) {
  const bool runs = guided_runs(options, gpus);
  triage::Campaign campaign;
  campaign.id = triage::unique_key();
  campaign.kind = kind;
  campaign.host = pipeline::host_name();
  campaign.started = unix_seconds();
  campaign.cudiff_version = CUDIFF_VERSION;
  campaign.nvcc_version = toolchain.nvcc.version;
  campaign.clang_version = toolchain.clang.version;
  for (const runners::Config& config : options.configs) campaign.configs.push_back(config.name);
  campaign.gpus = runs ? "0: " + gpus.gpus.front().name + " (" + gpus.gpus.front().arch() + ")" : "";
  campaign.mode = runners::to_string(options.mode.value_or(runs ? runners::Mode::run : runners::Mode::binary));
  return campaign;
}

GuidedSession::GuidedSession(GuidedOptions options, std::ostream& log)
    : options_(std::move(options)), log_(log), db_(triage::Database::open(options_.db_path)), workdir_("cudiff-guided"),
      started_(std::chrono::steady_clock::now()), last_line_(started_) {
  toolchain_ = runners::Toolchain::from(runners::discover_toolchain(options_.search));
  if (options_.no_gpu) gpus_.note = "--gpus none";
  else gpus_ = runners::discover_gpus();
  if (gpus_.gpus.size() > 1) gpus_.gpus.resize(1);  // one process, one GPU: -fork children share it
  request_.mode = options_.mode;
  request_.configs = options_.configs;
  request_.compile_limits = pipeline::limits(pipeline::kProgramCompileSeconds);
  request_.run_limits = pipeline::limits(pipeline::kRunSeconds);

  const bool runs = guided_runs(options_, gpus_);
  if (options_.campaign) {
    std::optional<triage::Campaign> existing = db_.campaign(*options_.campaign);
    if (!existing) throw_usage("no campaign " + *options_.campaign + " in " + options_.db_path.string());
    campaign_ = *existing;
  } else {
    campaign_ = new_guided_campaign(options_.baseline_first_seed ? "baseline" : "guided", options_, toolchain_, gpus_);
    db_.transaction([&] { db_.put_campaign(campaign_); });
  }
  if (!options_.quiet)
    log_ << "cudiff: " << campaign_.kind << " campaign " << campaign_.id.substr(0, 12) << " in "
         << options_.db_path.string() << ", "
         << (runs ? "runs on " + gpus_.gpus.front().name
                  : "compile-only (" + (gpus_.note.empty() ? "mode " + campaign_.mode : gpus_.note) + ")")
         << ", configs " << join(campaign_.configs, ",") << "\n";
}

GuidedResult GuidedSession::test_bytes(std::string_view bytes) {
  generator::TestCase program;
  try {
    program = generator::generate_from_bytes(options_.policy, bytes, options_.size);
  } catch (const Error& error) {
    GuidedResult result;
    result.name = "cudiff_" + generator::input_label(bytes);
    result.generator_error = error.what();
    ++totals_.generator_errors;
    log_ << "cudiff: generator error on input " << hex_of(bytes.substr(0, 64)) << (bytes.size() > 64 ? "..." : "")
         << ": " << error.what() << "\n";
    return result;
  }
  return test(program, generator::input_label(bytes), bytes);
}

GuidedResult GuidedSession::test_seed(std::uint64_t seed) {
  return test(generator::generate_program(options_.policy, seed, options_.size), std::to_string(seed), {});
}

std::map<std::string, oracle::PtxFeatures> GuidedSession::emitted_ptx(const pipeline::TestCheck& run,
                                                                      const std::filesystem::path& dir) {
  // The layout check already compiled PTX for generated programs with layout probes; the
  // others get a PTX compile of their own (about a quarter of the time of the build).
  std::map<std::string, oracle::PtxFeatures> emitted;
  for (const pipeline::ConfigCheck& check : run.configs) {
    if (check.observation.outcome != oracle::CompileOutcome::accepted) continue;
    const runners::Config& config = check.compile.config;
    std::filesystem::path ptx = dir / config.name / (run.file.stem().string() + ".ptx");
    std::error_code ec;
    if (run.mode == runners::Mode::ptx) ptx = check.compile.artifact;
    if (ptx.empty() || !std::filesystem::is_regular_file(ptx, ec)) {
      const runners::CompileResult compiled = runners::compile(toolchain_, config, runners::Mode::ptx, run.file, dir,
                                                               request_.compile_limits);
      if (compiled.artifact.empty()) continue;
      ptx = compiled.artifact;
    }
    emitted[config.name] = oracle::read_ptx_features(read_file(ptx));
  }
  return emitted;
}

GuidedResult GuidedSession::test(const generator::TestCase& program, const std::string& seed_text,
                                 std::string_view input) {
  const auto start = std::chrono::steady_clock::now();
  const std::filesystem::path dir = workdir_.path() / program.name;
  std::filesystem::create_directories(dir);
  pipeline::CheckRequest request = request_;
  request.input = pipeline::TestInput{program.name + ".cu", program.source, std::nullopt, program.sidecar, {}, {}};
  const pipeline::TestCheck run = pipeline::check_test(request, toolchain_, gpus_, dir);
  const std::vector<triage::Signature> signatures = pipeline::signatures_of(run);

  GuidedResult result;
  result.name = program.name;
  result.headline = run.verdict.headline();
  result.features = check_features(run, emitted_ptx(run, dir), signatures);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);  // what a report needs is in `run`
  result.seconds = seconds_between(start, std::chrono::steady_clock::now());
  file_program(program, seed_text, input, run, signatures, result);

  ++totals_.programs;
  totals_.findings += result.findings;
  totals_.new_buckets += result.new_buckets.size();
  totals_.add(result.features);
  log_features(result);
  note_progress();
  return result;
}

void GuidedSession::file_program(const generator::TestCase& program, const std::string& seed_text,
                                 std::string_view input, const pipeline::TestCheck& run,
                                 const std::vector<triage::Signature>& signatures, GuidedResult& result) {
  const double now = unix_seconds();
  std::vector<std::string> configs;
  for (const runners::Config& config : options_.configs) configs.push_back(config.name);
  boost::json::object outputs;
  if (!run.verdict.agree()) {
    outputs = pipeline::outputs_json(run);
    if (!input.empty()) outputs["input"] = boost::json::object{{"bytes", input.size()}, {"hex", hex_of(input)}};
  }
  db_.transaction([&] {
    triage::Test test{triage::content_key(campaign_.id + "/" + program.name),
                      campaign_.id,
                      program.name,
                      seed_text,
                      options_.policy.hash(),
                      configs,
                      run.verdict.agree() ? "agree" : "discrepancy",
                      now,
                      result.seconds};
    db_.add_test(test);
    for (std::size_t i = 0; i < run.verdict.findings.size(); ++i) {
      triage::NewFinding finding{triage::content_key(campaign_.id + "/" + program.name + "/" + std::to_string(i)),
                                 campaign_.id,
                                 test.id,
                                 now,
                                 run.verdict.findings[i],
                                 signatures[i],
                                 program.name + ".cu",
                                 program.source,
                                 outputs};
      const triage::Recorded recorded = db_.add_finding(finding, options_.known.match(signatures[i]));
      if (recorded.duplicate) continue;  // libFuzzer ran this input before (a merge, a restart)
      ++result.findings;
      if (recorded.new_bucket) result.new_buckets.push_back(recorded.bucket.key);
    }
    // Several processes file into one campaign: its counts are read back, never added up here.
    campaign_.tests = db_.campaign_test_count(campaign_.id);
    campaign_.findings = db_.campaign_finding_count(campaign_.id);
    campaign_.ended = now;
    db_.put_campaign(campaign_);
  });
  if (options_.quiet) return;
  for (std::size_t i = 0; i < run.verdict.findings.size() && result.findings; ++i)
    log_ << "cudiff: " << program.name << ": " << signatures[i].title << "\n";
  for (const std::string& key : result.new_buckets) log_ << "cudiff: new bucket " << key.substr(0, 12) << "\n";
}

void GuidedSession::log_features(const GuidedResult& result) {
  if (!options_.features_log) return;
  boost::json::array names;
  for (const auto& [name, count] : result.features) names.push_back(boost::json::string(name));
  boost::json::array buckets;
  for (const auto& key : result.new_buckets) buckets.push_back(boost::json::string(key));
  const std::string line = boost::json::serialize(boost::json::object{{"time", unix_seconds()},
                                                                      {"program", result.name},
                                                                      {"seconds", result.seconds},
                                                                      {"findings", result.findings},
                                                                      {"new_buckets", std::move(buckets)},
                                                                      {"features", std::move(names)}}) +
                           "\n";
  // One write per line in append mode: the lines of -fork children never interleave.
  std::ofstream out(*options_.features_log, std::ios::app | std::ios::binary);
  out.write(line.data(), static_cast<std::streamsize>(line.size()));
  out.flush();
  if (!out) throw_environment("cannot append to " + options_.features_log->string());
}

std::string GuidedSession::progress_line() const {
  const double elapsed = seconds_between(started_, std::chrono::steady_clock::now());
  char rate[32];
  std::snprintf(rate, sizeof rate, "%.2f", elapsed > 0 ? static_cast<double>(totals_.programs) / elapsed : 0.0);
  return campaign_.kind + " " + campaign_.id.substr(0, 12) + ": " + std::to_string(totals_.programs) + " programs, " +
         std::to_string(totals_.findings) + " findings (" + std::to_string(totals_.new_buckets) + " new buckets), " +
         rate + " programs/s, " + std::to_string(totals_.diagnostic_ids.size()) + " diagnostic ids, " +
         std::to_string(totals_.ptx_kinds.size()) + " PTX kinds, " + format_seconds(elapsed) + " elapsed";
}

void GuidedSession::note_progress() {
  const auto now = std::chrono::steady_clock::now();
  if (options_.quiet || seconds_between(last_line_, now) < 30) return;
  last_line_ = now;
  log_ << "cudiff: " << progress_line() << "\n";
}

int GuidedSession::run_baseline() {
  const std::uint64_t first = options_.baseline_first_seed.value_or(0);
  for (std::uint64_t seed = first;; ++seed) {
    if (options_.baseline_tests && seed - first >= *options_.baseline_tests) break;
    if (options_.baseline_seconds > 0 &&
        seconds_between(started_, std::chrono::steady_clock::now()) >= options_.baseline_seconds)
      break;
    test_seed(seed);
  }
  if (!options_.quiet) log_ << "cudiff: done: " << progress_line() << "\n";
  return 0;
}

} // namespace cudiff::campaign
