// `cudiff check`: what one check of one file did, and how it is shown (table or JSON).
#pragma once

#include "oracle/oracle.h"
#include "runners/runners.h"

#include <optional>
#include <string>
#include <vector>

namespace cudiff::cli {

/// Everything one config went through: build, classification, and the run if there was one.
struct ConfigCheck {
  runners::CompileResult compile;
  oracle::CompileObservation observation;
  std::optional<runners::SubprocessResult> run_process;
  std::optional<oracle::RunObservation> run;
  std::string note;  ///< e.g. why a slow compile is not a hang
};

struct CheckRun {
  std::filesystem::path file;
  runners::Mode mode = runners::Mode::binary;
  std::vector<std::string> notes;  ///< how the mode was chosen, why nothing ran...
  runners::Toolchain toolchain;
  runners::GpuDiscovery gpus;
  std::vector<ConfigCheck> configs;
  oracle::Verdict verdict;
};

std::string render_check_table(const CheckRun& run);
boost::json::value check_json(const CheckRun& run);

/// True when the source defines main(); otherwise it is checked as an object file rather
/// than reported as two failed links. A text scan with comments removed: good enough to
/// choose a mode, and a wrong guess only shows as a link error on both sides.
bool defines_main(std::string_view source);

} // namespace cudiff::cli
