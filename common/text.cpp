// Text helpers: lines, splitting, trimming, short forms, stable hashing, human units.
#include "common/common.h"

#include <chrono>

#include <cstdio>
#include <ctime>

namespace cudiff {

void throw_usage(const std::string& message) { throw Error(ErrorKind::usage, message); }
void throw_environment(const std::string& message) { throw Error(ErrorKind::environment, message); }

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.emplace_back(line);
    start = end + 1;
  }
  return lines;
}

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    std::size_t end = text.find(separator, start);
    parts.emplace_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return parts;
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i != 0) out += separator;
    out += parts[i];
  }
  return out;
}

std::string_view trim(std::string_view text) {
  const char* spaces = " \t\r\n";
  std::size_t begin = text.find_first_not_of(spaces);
  if (begin == std::string_view::npos) return {};
  std::size_t end = text.find_last_not_of(spaces);
  return text.substr(begin, end - begin + 1);
}

std::string shorten(std::string_view text, std::size_t max_chars) {
  if (text.size() <= max_chars) return std::string(text);
  if (max_chars <= 3) return std::string(text.substr(0, max_chars));
  return std::string(text.substr(0, max_chars - 3)) + "...";
}

std::string shorten_utf8(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  if (max_bytes <= 3) return std::string(text.substr(0, max_bytes));
  std::size_t cut = max_bytes - 3;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // a continuation byte
  return std::string(text.substr(0, cut)) + "...";
}

std::string format_utc(double unix_seconds) {
  if (unix_seconds <= 0) return "-";
  const std::time_t time = static_cast<std::time_t>(unix_seconds);
  std::tm parts{};
  gmtime_r(&time, &parts);
  char text[40];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S UTC", &parts);
  return text;
}

std::uint64_t fnv1a64(std::string_view data) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char c : data) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  return hash;
}

std::string fnv1a_hex(std::string_view data) {
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(fnv1a64(data)));
  return buffer;
}

double unix_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string format_seconds(double seconds) {
  char buffer[32];
  if (seconds < 1.0) std::snprintf(buffer, sizeof buffer, "%.0f ms", seconds * 1000.0);
  else std::snprintf(buffer, sizeof buffer, "%.2f s", seconds);
  return buffer;
}

std::string format_bytes(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024.0 && unit < 4) {
    value /= 1024.0;
    ++unit;
  }
  char buffer[32];
  if (unit == 0) std::snprintf(buffer, sizeof buffer, "%llu B", static_cast<unsigned long long>(bytes));
  else std::snprintf(buffer, sizeof buffer, "%.1f %s", value, units[unit]);
  return buffer;
}

} // namespace cudiff
