// pipeline: a stored bucket's reproducer again — what an exported report carries beside it, a
// recheck with the compilers installed now, and bisection over the clang releases installed.
#pragma once

#include "runners/runners.h"
#include "triage/triage.h"

#include <filesystem>
#include <string>
#include <vector>

namespace cudiff::pipeline {

/// Beside an exported report (the reproducer at `reproducer`): for a ptxas or device-codegen
/// bucket the guilty config's PTX (`STEM.CONFIG.ptx`: what ptxas is given), or for clang's
/// device code generator its device-side LLVM IR (`STEM.CONFIG.ll`), built with that config's
/// flags. Other stages get nothing; a build that fails gets a line in `notes` and no file.
std::vector<std::filesystem::path> stage_attachments(const triage::Bucket& bucket, const triage::StoredFinding& finding,
                                                     const std::filesystem::path& reproducer,
                                                     const runners::Toolchain& toolchain,
                                                     std::vector<std::string>& notes);

/// What `recheck_bucket` found.
struct Recheck {
  triage::Bucket bucket;
  std::string verdict;  ///< "present", "fixed", "fixed (the reproducer now shows N other findings)", "cannot tell: WHY"
  std::string compilers;  ///< "nvcc 13.0.88, clang 22.1.8"
  bool marked_fixed = false;  ///< the bucket's status went from new or reported to fixed
};

/// The bucket's best reproducer checked again as the campaign that found it checked it, with
/// `toolchain` (the compilers installed now): the verdict and versions are stored with the
/// bucket (`BucketFacts`), and a new or reported bucket whose key is gone is marked fixed.
/// A run finding without a GPU cannot tell.
Recheck recheck_bucket(triage::Database& db, const triage::Bucket& bucket, const runners::Toolchain& toolchain,
                       const runners::GpuDiscovery& gpus);

/// A clang release installed side by side (Debian's /usr/lib/llvm-N).
struct ClangRelease {
  int major = 0;
  std::filesystem::path path;
  bool builds_cuda = false;  ///< builds a small CUDA program against the toolchain's CUDA
  std::string problem;  ///< else its first error
};

/// The clang releases under `llvm_root` (llvm-N/bin/clang++), oldest first, each tried on a
/// small CUDA program with the toolchain's toolkit and the clang-O3 config's flags.
std::vector<ClangRelease> probe_clang_releases(const runners::Toolchain& toolchain,
                                               const std::filesystem::path& llvm_root = "/usr/lib");

/// Since when a clang bug exists: the bucket's reproducer checked with each release of
/// `releases` that builds CUDA (oldest first); "first bad clang N, last good clang M (...)".
/// For an nvcc or ptxas finding, or when no other release builds CUDA against this toolkit,
/// "not bisectable: WHY". Stored with the bucket (`BucketFacts::versions`), never in its key.
std::string bisect_bucket(triage::Database& db, const triage::Bucket& bucket, const runners::Toolchain& toolchain,
                          const runners::GpuDiscovery& gpus, const std::vector<ClangRelease>& releases);

}  // namespace cudiff::pipeline
