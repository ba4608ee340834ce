// reducer: clang-format as the last step, so the result reads like code a person wrote.
#include "reducer/reducer.h"

#include "runners/runners.h"

namespace cudiff::reducer {

std::optional<std::string> clang_format(const std::string& text, std::string& note) {
  std::optional<std::filesystem::path> program = find_on_path("clang-format-22");
  if (!program) program = find_on_path("clang-format");
  if (!program) {
    note = "clang-format-22 not found on PATH (apt install clang-format-22)";
    return std::nullopt;
  }
  // The text goes through a file: run_subprocess gives children /dev/null as stdin.
  TempDir dir("cudiff-format");
  const std::filesystem::path file = dir.path() / "reduced.cu";
  write_file(file, text);
  runners::Command command;
  command.argv = {program->string(), "--style={BasedOnStyle: LLVM, ColumnLimit: 100}", file.string()};
  command.limits.wall_seconds = 60;
  const runners::SubprocessResult result = runners::run_subprocess(command);
  if (!result.exited_zero()) {
    note = program->filename().string() + " failed (" + result.status_text() + ")";
    return std::nullopt;
  }
  note = program->filename().string();
  return result.out.text;
}

} // namespace cudiff::reducer
