// File helpers: whole-file reads and writes with clear errors, private temp dirs, PATH lookup.
#include "common/common.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace cudiff {

std::string read_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw_environment("cannot read " + path.string() + ": it is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw_environment("cannot read " + path.string() + ": " + std::strerror(errno));
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) throw_environment("cannot read " + path.string() + ": read error");
  return std::move(content).str();
}

void write_file(const std::filesystem::path& path, std::string_view content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw_environment("cannot write " + path.string() + ": " + std::strerror(errno));
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  out.flush();
  // A full disk shows up here, not at open: report it rather than leave a short file behind.
  if (!out) throw_environment("cannot write " + path.string() + ": " + std::strerror(errno));
}

TempDir::TempDir(std::string_view prefix) {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/" + std::string(prefix) +
                        "-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr)
    throw_environment("cannot create a temporary directory " + pattern + ": " + std::strerror(errno));
  path_ = pattern;
}

TempDir::~TempDir() {
  if (keep_) return;
  std::error_code ignored;  // a destructor must not throw; a leftover temp dir is harmless
  std::filesystem::remove_all(path_, ignored);
}

std::optional<std::filesystem::path> find_on_path(std::string_view name) {
  const char* path_env = std::getenv("PATH");
  if (path_env == nullptr) return std::nullopt;
  for (const std::string& dir : split(path_env, ':')) {
    if (dir.empty()) continue;
    std::filesystem::path candidate = std::filesystem::path(dir) / name;
    if (::access(candidate.c_str(), X_OK) == 0 && !std::filesystem::is_directory(candidate)) return candidate;
  }
  return std::nullopt;
}

} // namespace cudiff
