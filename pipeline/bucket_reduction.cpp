// pipeline: a bucket's best reproducer reduced with the built-in test (its own key) and
// stored as the bucket's best reproducer when it is smaller (`cudiff triage reduce`).
#include "pipeline/bucket_reduction.h"
#include "pipeline/bucket_parts.h"
#include "pipeline/cause.h"
#include "pipeline/record.h"
#include "pipeline/reduce_generated.h"
#include "pipeline/reduce_parts.h"

#include <algorithm>
#include <ostream>

namespace cudiff::pipeline {
namespace {

/// The final check's outputs as `cudiff check --db` stores them (so `triage export` reads a
/// reduced reproducer like any other), marked as a reduction.
boost::json::object reduced_outputs(const TestCheck& run) {
  boost::json::object outputs = outputs_json(run);
  outputs["reduced"] = true;
  return outputs;
}

/// A wrong-code finding's configs that print the generator's prediction.
std::vector<std::string> matching_configs(const triage::StoredFinding& finding) {
  std::vector<std::string> names;
  const auto* object = finding.details.if_object();
  const auto* matching = object == nullptr ? nullptr : object->if_contains("matching");
  if (matching != nullptr && matching->is_array())
    for (const auto& name : matching->as_array())
      if (name.is_string()) names.emplace_back(name.as_string());
  std::ranges::sort(names);
  return names;
}

/// Says on the progress stream that the IR stage does not run and why: the text passes then
/// work alone, which a person reading the progress should not have to guess.
void say_no_ir_stage(const std::string& why, std::ostream& err) {
  err << "ir-reduce: not run (" << why << "): the text passes alone\n" << std::flush;
}

/// A wrong-code finding's program reduced by the generator's IR first, when the generator
/// makes it again: the text passes then start from the result (its own prediction does not
/// survive them, so they keep the split of the configs instead).
void reduce_at_ir_level(const triage::StoredFinding& finding, GeneratedOrigin origin, ReduceRequest& request,
                        const std::filesystem::path& dir, const runners::Toolchain& toolchain,
                        const runners::GpuDiscovery& gpus, std::ostream& err, BucketReduction& reduction) {
  IrReduceRequest ir;
  ir.origin = std::move(origin);
  ir.partition = request.partition;
  ir.reference = matching_configs(finding);
  ir.check = request.check;
  ir.options.jobs = request.jobs;
  // The IR stage's share: the text passes, the final check and the cause need the rest.
  ir.options.time_limit_seconds = request.time_limit_seconds * kIrTimeShare;
  if (request.out)
    ir.options.on_improvement = [out = *request.out](const generator::TestCase& test) { write_file(out, test.source); };
  try {
    reduction.ir = reduce_generated(ir, toolchain, gpus, err);
  } catch (const Error& error) {
    if (error.kind() != ErrorKind::usage) throw;
    reduction.ir_note = error.what();
    say_no_ir_stage(reduction.ir_note, err);
    return;
  }
  request.source = reduction.ir->program.source;
  request.file = dir / (reduction.ir->program.name + ".cu");
  if (request.time_limit_seconds > 0)
    request.time_limit_seconds = std::max(1.0, request.time_limit_seconds - reduction.ir->seconds);
}

} // namespace

std::string signature_key(const triage::Database& db, const triage::Bucket& bucket) {
  const std::string base = db.split_from(bucket.key);
  return base.empty() ? bucket.key : base;
}

CheckRequest stored_check_request(const triage::Database& db, const triage::Bucket& bucket,
                                  const triage::StoredFinding& finding) {
  CheckRequest check;
  const auto campaign = db.campaign(finding.campaign_id);
  // The campaign attributed the finding's stage before it keyed it; checks of its stored
  // reproducer are not attributed, so they are keyed with the bucket's stage.
  if (!bucket.stage.empty()) check.assumed_stage = bucket.stage;
  if (campaign) check.mode = runners::parse_mode(campaign->mode);
  // The stored reproducer has no sidecar: a false rejection was judged against a generated
  // program's "must accept", so its checks are too. (A missed diagnostic's reproducer carries
  // its `// expected-error: ID` line.)
  if (bucket.kind == oracle::to_string(oracle::FindingKind::false_rejection)) check.expected = oracle::Expectation{};
  check.configs = campaign && !campaign->configs.empty() ? runners::parse_configs(join(campaign->configs, ","))
                                                         : runners::default_configs();
  // The limits the finding was recorded with (a campaign's 120 s, a person's file's 300 s), so
  // that a compile the campaign called a hang is judged by the same clock; older findings did
  // not record them: a person's file's.
  check.compile_limits = limits(kFileCompileSeconds);
  check.run_limits = limits(kRunSeconds);
  const auto* outputs = finding.outputs.if_object();
  const auto* recorded = outputs == nullptr ? nullptr : outputs->if_contains("limits");
  if (recorded != nullptr && recorded->is_object()) {
    const auto seconds = [&](std::string_view name) {
      const auto* value = recorded->as_object().if_contains(name);
      return value != nullptr && value->is_number() ? value->to_number<double>() : 0.0;
    };
    if (seconds("compile_seconds") > 0) check.compile_limits.wall_seconds = seconds("compile_seconds");
    if (seconds("run_seconds") > 0) check.run_limits.wall_seconds = seconds("run_seconds");
  }
  return check;
}

BucketReduction reduce_bucket(triage::Database& db, const std::string& id, ReduceRequest request,
                              const runners::Toolchain& toolchain, const runners::GpuDiscovery& gpus, std::ostream& err,
                              const triage::KnownDifferences& known, const std::string& finding_id) {
  BucketReduction reduction;
  const triage::Bucket bucket = db.bucket(id);
  reduction.bucket = bucket;
  const auto finding = db.finding(finding_id.empty() ? bucket.best_finding : finding_id);
  if (!finding_id.empty() && (!finding || finding->bucket_key != bucket.key))
    throw_usage("finding " + finding_id + " is not one of bucket " + std::to_string(bucket.id) + "'s");
  if (!finding || finding->source.empty())
    throw_environment("bucket " + std::to_string(bucket.id) + " has no stored reproducer to reduce");

  TempDir dir("cudiff-triage-reduce");
  const std::string name = finding->source_name.empty() ? "reproducer.cu" : finding->source_name;
  request.file = dir.path() / name;
  request.source = finding->source;
  // A bucket split by cause shows its signature's key (the cause is no part of it).
  const std::string key = signature_key(db, bucket);
  request.key = key;
  request.check = stored_check_request(db, bucket, *finding);
  // A run finding is reduced by its split of the configs, not its key: the stored reproducer
  // has no sidecar, so a wrong-code finding (against the generator's prediction) shows as the
  // run mismatch with the same split, and a reduced program has no prediction at all.
  request.partition = run_partition(finding->kind, finding->details);

  if (oracle::is_run_kind(bucket.kind) && gpus.gpus.empty())
    throw_environment("bucket " + std::to_string(bucket.id) +
                      " is found by running its binaries: reducing it needs a GPU (" + gpus.note + ")");
  const double started = unix_seconds();
  // A generated program's finding is reduced by the generator's IR first: a wrong-code one on
  // the GPU against the prediction (reduce_generated); one that is not found by running, by the
  // text passes' own test (reduce_source, with `generated`). Other run findings have no IR stage.
  const bool wrong_code = bucket.kind == oracle::to_string(oracle::FindingKind::wrong_code) &&
                          !request.partition.empty();
  if (request.ir && (wrong_code || !oracle::is_run_kind(bucket.kind))) {
    std::optional<GeneratedOrigin> origin = generated_origin(db, *finding, reduction.ir_note, request.policy);
    if (!origin) say_no_ir_stage(reduction.ir_note, err);
    else if (wrong_code)
      reduce_at_ir_level(*finding, std::move(*origin), request, dir.path(), toolchain, gpus, err, reduction);
    else request.generated = std::move(origin);
  }
  request.reserved_checks = kFinalChecksReserved;
  reduction.request = request;
  reduction.outcome = reduce_source(request, toolchain, gpus, err);
  if (reduction.outcome.ir) reduction.ir = reduction.outcome.ir;
  if (!reduction.outcome.ir_note.empty()) {
    reduction.ir_note = reduction.outcome.ir_note;
    say_no_ir_stage(reduction.ir_note, err);
  }
  reduction.original_bytes = finding->source.size();
  const std::string& reduced = reduction.outcome.result.text;
  if (reduced.size() >= finding->source.size()) return reduction;

  // The final check in the full mode gives the finding, its outputs, and one more proof.
  CheckRequest full = request.check;
  if (!full.mode) full.mode = gpus.gpus.empty() ? runners::Mode::binary : runners::Mode::run;
  TempDir check_dir("cudiff-triage-reduce");
  TestCheck run = SignatureTest(*reduction.outcome.target, full, toolchain, gpus, request)
                      .check(reduced, check_dir.path());
  // Every kept candidate passed the sanitizer; the reproducer stored says so from its own run
  // (its report's "sanitizer gate: clean" line), and one that fails now is not stored.
  TestInput final_input;
  final_input.name = name;
  final_input.source = reduced;
  const GateOutcome gate = gate_check(make_sanitizer_gate(true, toolchain, full.run_limits.wall_seconds), run,
                                      final_input);
  if (gate.result == GateResult::invalid)
    throw_environment("the reduced reproducer of bucket " + std::to_string(bucket.id) + " did not pass the " +
                      gate.note);
  const std::vector<triage::Signature> signatures = signatures_of(run);
  std::size_t index = signatures.size();
  for (std::size_t i = 0; i < signatures.size(); ++i)
    if (signatures[i].key == key) index = i;
  bool structural = false;
  if (index == signatures.size() && !request.partition.empty())
    for (std::size_t i = 0; i < signatures.size() && index == signatures.size(); ++i)
      if (run_partition(run.verdict.findings[i]) == request.partition) {
        index = i;
        structural = true;
      }
  if (index == signatures.size()) {
    std::string shown;
    for (const triage::Signature& other : signatures) shown += (shown.empty() ? "" : "; ") + other.title;
    throw_environment("the reduced reproducer did not show bucket " + std::to_string(bucket.id) +
                      "'s signature again (its final check showed " + (shown.empty() ? "no finding" : shown) + ")");
  }
  // Filed under the bucket it reproduces; its own finding (a run mismatch) says how it matched.
  oracle::Finding finding_shown = run.verdict.findings[index];
  triage::Signature signature = signatures[index];
  if (structural) {
    // The recorded sides go with it, so that its report and repro.sh name the same guilty
    // configs as the bucket (its own details only list groups).
    for (const char* side : {"matching", "differing", "differing_groups", "stage", "stage_why"})
      if (const auto* object = finding->details.if_object(); object != nullptr && object->contains(side))
        finding_shown.details[side] = object->at(side);
    finding_shown
        .details["structural_match"] = "the same split of the configs as bucket " + bucket.key.substr(0, 12) + " (" +
                                       bucket.kind + ", stage " + bucket.stage +
                                       "); a reduced program has no prediction of the generator to be wrong against";
    signature.kind = bucket.kind;
  }
  // Stored in the bucket it reduces (a part of a split one included); its cause then says which
  // part of the signature's findings it belongs to.
  signature.key = bucket.key;

  // What the reproducer's bug is, from its reduced form: filed with it and with the finding it
  // was reduced from (docs/triage.md, "Cause keys").
  {
    TempDir cause_dir("cudiff-cause");
    const std::filesystem::path file = cause_dir.path() / name;
    write_file(file, reduced);
    const auto* stage = finding_shown.details.if_contains("stage");
    reduction.cause = cause_of(finding_shown, signature,
                               !bucket.stage.empty()                    ? bucket.stage
                               : stage != nullptr && stage->is_string() ? std::string(stage->as_string())
                                                                        : std::string(),
                               file, request.check.configs, toolchain, request.check.compile_limits.wall_seconds,
                               reduction.cause_note);
  }

  triage::Campaign campaign_row;
  campaign_row.id = triage::unique_key();
  campaign_row.kind = "reduce";
  campaign_row.host = host_name();
  campaign_row.started = started;
  campaign_row.ended = unix_seconds();
  campaign_row.cudiff_version = CUDIFF_VERSION;
  campaign_row.nvcc_version = toolchain.nvcc.version;
  campaign_row.clang_version = toolchain.clang.version;
  for (const auto& config : request.check.configs) campaign_row.configs.push_back(config.name);
  campaign_row.mode = runners::to_string(run.mode);
  campaign_row.gpus = gpus_text(run.gpus, run.mode);
  campaign_row.tests = 1;
  campaign_row.findings = 1;
  const triage::Test test{triage::content_key(campaign_row.id + "/" + name),
                          campaign_row.id,
                          name,
                          "",
                          "",
                          campaign_row.configs,
                          "discrepancy",
                          campaign_row.ended,
                          campaign_row.ended - started};
  const triage::NewFinding stored{triage::content_key(campaign_row.id + "/0"),
                                  campaign_row.id,
                                  test.id,
                                  campaign_row.ended,
                                  finding_shown,
                                  signature,
                                  name,
                                  reduced,
                                  reduced_outputs(run)};
  triage::Bucket after;
  db.transaction([&] {
    db.put_campaign(campaign_row);
    db.add_test(test);
    after = db.add_reproducer(stored);
    reduction.cause_bucket = db.add_cause(stored.id, finding->id, reduction.cause);
    // A known-bug case's cause: that bug, whatever the signature that found it.
    // Else a case whose reduced form needs the same construct, of the same kind and stage.
    const triage::KnownDifference* entry = known.match_cause(reduction.cause.key);
    std::string why = " (the same cause key)";
    if (entry == nullptr && (entry = known.match_idiom(bucket.kind, bucket.stage, reduced)) != nullptr)
      why = " (the same construct: " + triage::derive_avoid(reduced).needs + ")";
    if (entry != nullptr) {
      reduction.known_reason = entry->reason + why;
      if (db.mark_known(reduction.cause_bucket, reduction.known_reason) && entry->link.starts_with("https://") &&
          db.facts(reduction.cause_bucket).link.empty())
        db.set_link(reduction.cause_bucket, entry->link);
    }
    after = db.bucket(reduction.cause_bucket);
  });
  reduction.stored = true;
  reduction.stored_finding = stored.id;
  reduction.now_best = after.best_finding == stored.id;
  return reduction;
}

} // namespace cudiff::pipeline
