// pipeline: a reduced finding's cause key (docs/triage.md, "Cause keys") — the guilty config's
// PTX of the reduced reproducer, built here, for a bug of ptxas or device code generation;
// else what its signature names.
#pragma once

#include "pipeline/check.h"
#include "runners/runners.h"
#include "triage/triage.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cudiff::pipeline {

/// The config whose build shows a finding: the first differing config of a run finding (its
/// second group's first config when it names only groups), else the finding's first config.
std::string guilty_config_of(const oracle::Finding& finding);

/// The cause of a finding whose reproducer is `source`: for a finding keyed by PTX
/// (triage::cause_from_ptx with `stage`, the bucket's) the guilty config's PTX of `source`,
/// built with that config of `configs` under `compile_seconds`, normalised to the finding's
/// differing kernels; else, or when that PTX does not build, from `signature`, and `note` says
/// why. Never throws for a build that fails.
triage::Cause cause_of(const oracle::Finding& finding, const triage::Signature& signature, const std::string& stage,
                       const std::filesystem::path& source, const std::vector<runners::Config>& configs,
                       const runners::Toolchain& toolchain, double compile_seconds, std::string& note);

/// The PTX cause of `source` under `config` (what a reduction of a finding whose guilty config it
/// is gets), normalised to `kernels`; none, and `note` says why, when its PTX does not build or
/// holds no device function.
std::optional<triage::Cause> ptx_cause(const std::filesystem::path& source, const runners::Config& config,
                                       const std::vector<std::string>& kernels, const runners::Toolchain& toolchain,
                                       double compile_seconds, std::string& note);

/// One finding of a file and its cause (`cudiff triage cause FILE`).
struct FileCause {
  oracle::Finding finding;
  triage::Signature signature;
  triage::Cause cause;
  std::string note;  ///< why the cause is not what the kind asks for, when so
};

/// The file of `request` checked (its findings' stages attributed, as `cudiff check` does), and
/// each finding's cause as a reduction to this file would file it.
std::vector<FileCause> causes_of_file(CheckRequest request, const runners::Toolchain& toolchain,
                                      const runners::GpuDiscovery& gpus);

} // namespace cudiff::pipeline
