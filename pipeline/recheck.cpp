// pipeline: a bucket's reproducer checked again with the compilers installed now (`cudiff
// triage recheck`: after a compiler upgrade, which bugs are fixed), and with the other clang
// releases installed side by side (`cudiff triage bisect`: since when a clang bug exists).
#include "pipeline/recheck.h"
#include "pipeline/bucket_parts.h"
#include "pipeline/record.h"

#include <algorithm>
#include <regex>

namespace cudiff::pipeline {
namespace {

/// The bucket's best reproducer checked as the campaign that found it checked it (its configs
/// and mode, the bucket's stage assumed), with `toolchain`; the keys it shows.
std::vector<std::string> keys_shown(const triage::Database& db, const triage::Bucket& bucket,
                                    const triage::StoredFinding& finding, const runners::Toolchain& toolchain,
                                    const runners::GpuDiscovery& gpus) {
  CheckRequest request = stored_check_request(db, bucket, finding);
  request.input = TestInput{finding.source_name.empty() ? "reproducer.cu" : finding.source_name,
                            finding.source,
                            std::nullopt,
                            std::nullopt,
                            {},
                            {}};
  if (!request.mode || (*request.mode == runners::Mode::run && gpus.gpus.empty()))
    request.mode = gpus.gpus.empty() ? runners::Mode::binary : runners::Mode::run;
  TempDir dir("cudiff-recheck");
  const TestCheck run = check_test(request, toolchain, gpus, dir.path());
  std::vector<std::string> keys;
  for (const triage::Signature& signature : signatures_of(run)) keys.push_back(signature.key);
  return keys;
}

std::string versions_of(const runners::Toolchain& toolchain) {
  return "nvcc " + toolchain.nvcc.version + ", clang " + toolchain.clang.version;
}

} // namespace

Recheck recheck_bucket(triage::Database& db, const triage::Bucket& bucket, const runners::Toolchain& toolchain,
                       const runners::GpuDiscovery& gpus) {
  Recheck recheck;
  recheck.bucket = bucket;
  recheck.compilers = versions_of(toolchain);
  const auto finding = db.finding(bucket.best_finding);
  if (!finding || finding->source.empty()) {
    recheck.verdict = "cannot tell: no reproducer stored";
  } else if (oracle::is_run_kind(bucket.kind) && gpus.gpus.empty()) {
    recheck.verdict = "cannot tell: found by running its binaries, and there is no GPU here (" + gpus.note + ")";
  } else {
    const std::vector<std::string> keys = keys_shown(db, bucket, *finding, toolchain, gpus);
    recheck.verdict = std::ranges::find(keys, signature_key(db, bucket)) != keys.end() ? "present"
                      : keys.empty() ? "fixed"
                                     : "fixed (the reproducer now shows " + std::to_string(keys.size()) +
                                           " other finding" + (keys.size() == 1 ? "" : "s") + ")";
  }
  const double now = unix_seconds();
  db.transaction([&] {
    db.set_recheck(bucket.key, recheck.verdict, recheck.compilers, now);
    // Fixed by the compilers installed now: what a team does after an upgrade. A person's
    // "known" or "invalid" stays.
    if (recheck.verdict.starts_with("fixed") &&
        (bucket.status == triage::Status::fresh || bucket.status == triage::Status::reported)) {
      db.set_status(bucket.key, triage::Status::fixed);
      recheck.marked_fixed = true;
    }
  });
  return recheck;
}

std::vector<ClangRelease> probe_clang_releases(const runners::Toolchain& toolchain,
                                               const std::filesystem::path& llvm_root) {
  std::vector<ClangRelease> releases;
  std::error_code ec;
  const std::regex versioned(R"(llvm-(\d+))");
  for (const auto& entry : std::filesystem::directory_iterator(llvm_root, ec)) {
    std::smatch match;
    const std::string name = entry.path().filename().string();
    if (!std::regex_match(name, match, versioned)) continue;
    const auto clang = entry.path() / "bin" / "clang++";
    if (!std::filesystem::exists(clang, ec)) continue;
    ClangRelease release;
    release.major = std::stoi(match[1]);
    release.path = clang;
    releases.push_back(std::move(release));
  }
  std::ranges::sort(releases, {}, &ClangRelease::major);
  // Whether each builds a small CUDA program against this toolkit, as the configs do.
  TempDir dir("cudiff-clang-releases");
  const auto source = dir.path() / "probe.cu";
  write_file(source, "__global__ void k(int* p) { p[threadIdx.x] = threadIdx.x; }\n"
                     "int main() { int* d; cudaMalloc(&d, 64); k<<<1, 16>>>(d); return cudaDeviceSynchronize(); }\n");
  const runners::Config config = runners::parse_configs("clang-O3").front();
  for (ClangRelease& release : releases) {
    runners::Toolchain with = toolchain;
    with.clang.path = release.path;
    runners::Command command = runners::compile_command(with, config, runners::Mode::binary, source,
                                                        dir.path() / ("probe" + std::to_string(release.major)),
                                                        dir.path());
    command.limits.wall_seconds = kClangProbeCompileSeconds;
    const runners::SubprocessResult built = runners::run_subprocess(command);
    release.builds_cuda = built.exited_zero();
    if (!release.builds_cuda) {
      for (const std::string& line : split_lines(built.err.text))
        if (line.find("error") != std::string::npos) {
          release.problem = std::string(trim(line));
          break;
        }
      if (release.problem.empty()) release.problem = built.status_text();
    }
  }
  return releases;
}

std::string bisect_bucket(triage::Database& db, const triage::Bucket& bucket, const runners::Toolchain& toolchain,
                          const runners::GpuDiscovery& gpus, const std::vector<ClangRelease>& releases) {
  std::string text;
  if (bucket.side.find("clang") == std::string::npos) {
    text = "not bisectable: a " + (bucket.stage == "ptxas" ? std::string("ptxas") : std::string("nvcc")) +
           " finding, and one CUDA toolkit (nvcc " + toolchain.nvcc.version +
           ") is installed; its releases do not install side by side from Debian";
  } else {
    std::vector<const ClangRelease*> usable;
    std::vector<std::string> refused;
    // The release under test itself (clang++-22 is /usr/lib/llvm-22's) is not an older one.
    const int current = std::atoi(toolchain.clang.version.c_str());
    for (const ClangRelease& release : releases) {
      if (release.major >= current) continue;
      if (release.builds_cuda) usable.push_back(&release);
      else refused.push_back("clang " + std::to_string(release.major) + " (" + release.problem + ")");
    }
    const auto finding = db.finding(bucket.best_finding);
    if (usable.empty() || !finding) {
      text = "not bisectable: no other clang release here builds CUDA against " + toolchain.cuda_home.string() +
             (refused.empty() ? std::string(" (none is installed)") : ": " + join(refused, "; "));
    } else if (oracle::is_run_kind(bucket.kind) && gpus.gpus.empty()) {
      text = "not bisected: found by running its binaries, and there is no GPU here";
    } else {
      // Each release that builds CUDA, oldest first: does the reproducer show the key?
      std::vector<std::string> shows;
      std::optional<int> first_bad, last_good;
      for (const ClangRelease* release : usable) {
        runners::Toolchain with = toolchain;
        with.clang.path = release->path;
        with.clang.version = std::to_string(release->major);
        const auto keys = keys_shown(db, bucket, *finding, with, gpus);
        const bool bad = std::ranges::find(keys, signature_key(db, bucket)) != keys.end();
        shows.push_back("clang " + std::to_string(release->major) + (bad ? " shows it" : " does not"));
        if (bad && !first_bad) first_bad = release->major;
        if (!bad) last_good = release->major;
      }
      text = (first_bad ? "first bad clang " + std::to_string(*first_bad) : std::string("no older release shows it")) +
             (last_good ? ", last good clang " + std::to_string(*last_good) : std::string()) + " (" +
             join(shows, ", ") + ", clang " + toolchain.clang.version + " as found)";
    }
  }
  db.set_versions(bucket.key, text);
  return text;
}

} // namespace cudiff::pipeline
