// triage: a deterministic stream of synthetic findings, for the benchmark and the tests that
// kill or race writers. They go through the real signature code.
#include "triage/triage.h"

namespace cudiff::triage {
namespace {

using boost::json::array;
using boost::json::object;

/// Letters, not digits: signatures mask numbers, and each bucket needs its own symptom.
std::string word(std::int64_t n) {
  std::string text;
  do {
    text.push_back(static_cast<char>('a' + n % 26));
    n /= 26;
  } while (n > 0);
  return text;
}

oracle::Finding finding_for(std::int64_t bucket) {
  const std::string name = word(bucket);
  oracle::Finding finding;
  finding.configs = {"nvcc-O3", "clang-O3"};
  switch (bucket % 5) {
  case 0:
    finding.kind = oracle::FindingKind::crash;
    finding.configs = {"clang-O3"};
    finding.summary = "clang-O3: clang crashed (assertion): synthetic " + name;
    finding.details = object{{"compiler", "clang"},
                             {"stage", "clang"},
                             {"reason", "assertion"},
                             {"excerpt",
                              "clang++-22: SemaSynthetic.cpp:12: Assertion `synthetic_" + name + "' failed."}};
    break;
  case 1:
    // Runs are keyed by structure, not output text: each bucket has a CUDA error of its own.
    finding.kind = oracle::FindingKind::run_mismatch;
    finding.summary = "CUDA error only in nvcc-O3: CUDA error: synthetic " + name;
    finding.details = object{{"first_difference", "cuda_errors"},
                             {"groups",
                              array{object{{"configs", array{"nvcc-O3"}},
                                           {"status", "exit 1"},
                                           {"exit_code", 1},
                                           {"cuda_errors", array{"CUDA error: synthetic " + name}}},
                                    object{{"configs", array{"clang-O3"}}, {"status", "exit 0"}, {"exit_code", 0}}}}};
    break;
  default:
    finding.kind = oracle::FindingKind::compile_status_mismatch;
    finding.summary = "accepted by nvcc-O3, rejected by clang-O3: error: synthetic " + name;
    finding.details = object{{"accepted", array{object{{"config", "nvcc-O3"}, {"compiler", "nvcc"}}}},
                             {"rejected", array{object{{"config", "clang-O3"}, {"compiler", "clang"}}}},
                             {"rejected_error_ids", array{"synthetic error " + name}}};
  }
  return finding;
}

} // namespace

NewFinding synthetic_finding(const std::string& campaign_id, std::int64_t index, std::int64_t buckets, double time) {
  const std::int64_t bucket = index % (buckets > 0 ? buckets : 1);
  NewFinding f;
  f.campaign_id = campaign_id;
  f.id = content_key(campaign_id + "/finding/" + std::to_string(index));
  f.test_id = content_key(campaign_id + "/test/" + std::to_string(index));
  f.time = time;
  f.finding = finding_for(bucket);
  // What clang printed, as the outputs keep it: a crash's signature reads it (as the pipeline's
  // does), so that re-keying from the stored outputs gives the same key.
  const bool crash = f.finding.kind == oracle::FindingKind::crash;
  const std::string clang_stderr = crash ? std::string(f.finding.details.at("excerpt").as_string()) : f.finding.summary;
  f.signature = signature_of(f.finding, crash ? clang_stderr : std::string());
  f.source_name = "synthetic_" + std::to_string(index) + ".cu";
  f.source = "// synthetic test " + std::to_string(index) + " of campaign " + campaign_id + "\n" +
             "__global__ void kernel_" + word(bucket) + "(int* out) {\n  out[threadIdx.x] = " + std::to_string(index) +
             ";\n}\n" + std::string(static_cast<std::size_t>(150 + index * 7 % 100), '/') + "\n";
  f.outputs = object{{"file", f.source_name},
                     {"configs", array{object{{"config", "nvcc-O3"},
                                              {"outcome", "accepted"},
                                              {"status", "exit 0"},
                                              {"command", "nvcc -O3 -c " + f.source_name},
                                              {"stderr", ""}},
                                       object{{"config", "clang-O3"},
                                              {"outcome", crash ? "crashed" : "rejected"},
                                              {"status", "exit 1"},
                                              {"command", "clang++-22 -x cuda -O3 -c " + f.source_name},
                                              {"stderr", clang_stderr}}}}};
  return f;
}

void write_synthetic_campaign(Database& db, std::int64_t count, std::int64_t buckets, std::int64_t batch,
                              const std::function<void(const std::vector<std::string>& ids)>& committed) {
  Campaign campaign;
  campaign.id = unique_key();
  campaign.kind = "synthetic";
  campaign.host = "synthetic";
  campaign.started = unix_seconds();
  db.put_campaign(campaign);
  for (std::int64_t i = 0; i < count; i += batch) {
    std::vector<std::string> ids;
    db.transaction([&] {
      for (std::int64_t j = i; j < std::min(count, i + batch); ++j) {
        const NewFinding finding = synthetic_finding(campaign.id, j, buckets, unix_seconds());
        db.add_finding(finding);
        ids.push_back(finding.id);
      }
    });
    committed(ids);
  }
  campaign.ended = unix_seconds();
  campaign.tests = count;
  campaign.findings = count;
  db.put_campaign(campaign);
}

} // namespace cudiff::triage
