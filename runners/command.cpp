// runners: Command and SubprocessResult as people read them (display, status) and as JSON.
#include "runners/runners.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string_view>

namespace cudiff::runners {
namespace {

/// Characters a POSIX shell takes literally in an unquoted word.
bool shell_safe(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::strchr("_@%+=:,./-", c) != nullptr;
}

/// One word, quoted only when a shell would otherwise split or expand it. Single quotes keep
/// everything literal; a single quote itself becomes '\''.
std::string shell_quote(std::string_view word) {
  if (!word.empty() && std::all_of(word.begin(), word.end(), shell_safe)) return std::string(word);
  std::string quoted = "'";
  for (char c : word) {
    if (c == '\'') quoted += "'\\''";
    else quoted += c;
  }
  quoted += '\'';
  return quoted;
}

/// Length of the valid UTF-8 sequence at the start of `text`, or 0 if it is not valid.
std::size_t utf8_sequence_length(std::string_view text) {
  auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  auto continuation = [&](std::size_t i, unsigned char low = 0x80, unsigned char high = 0xBF) {
    return i < text.size() && byte(i) >= low && byte(i) <= high;
  };
  unsigned char lead = byte(0);
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) return continuation(1) ? 2 : 0;
  if (lead >= 0xE0 && lead <= 0xEF) {
    unsigned char low = lead == 0xE0 ? 0xA0 : 0x80;   // no overlong forms
    unsigned char high = lead == 0xED ? 0x9F : 0xBF;  // no surrogates
    return continuation(1, low, high) && continuation(2) ? 3 : 0;
  }
  if (lead >= 0xF0 && lead <= 0xF4) {
    unsigned char low = lead == 0xF0 ? 0x90 : 0x80;
    unsigned char high = lead == 0xF4 ? 0x8F : 0xBF;  // nothing past U+10FFFF
    return continuation(1, low, high) && continuation(2) && continuation(3) ? 4 : 0;
  }
  return 0;
}

/// Captured output is arbitrary bytes (and truncation may cut a character in half), but JSON
/// text must be UTF-8, or Boost.JSON's own parser rejects it: invalid bytes become U+FFFD.
std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    std::size_t length = utf8_sequence_length(text);
    if (length == 0) {
      out += "\xEF\xBF\xBD";
      length = 1;
    } else {
      out.append(text.substr(0, length));
    }
    text.remove_prefix(length);
  }
  return out;
}

/// "10 s", "1.5 s": the limit a timed-out child ran into, as measured.
std::string whole_seconds(double seconds) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", seconds);
  std::string text = buffer;
  if (text.ends_with(".0")) text.resize(text.size() - 2);
  return text + " s";
}

/// "SIGSEGV" for 11; "SIG34" style for signals without an abbreviation (real-time ones).
std::string signal_name(int signal) {
  const char* abbreviation = ::sigabbrev_np(signal);
  return std::string("SIG") + (abbreviation != nullptr ? abbreviation : std::to_string(signal));
}

boost::json::object to_json(const CapturedStream& stream) {
  boost::json::object object;
  object["text"] = valid_utf8(stream.text);
  object["total_bytes"] = stream.total_bytes;
  object["truncated"] = stream.truncated;
  return object;
}

} // namespace

std::string Command::display() const {
  std::string line;
  for (const auto& [name, value] : env_overrides) line += name + "=" + shell_quote(value) + " ";
  for (std::size_t i = 0; i < argv.size(); ++i) {
    if (i > 0) line += ' ';
    line += shell_quote(argv[i]);
  }
  return line;
}

std::string SubprocessResult::status_text() const {
  if (!started) return "did not start: " + start_error;
  if (stopped) return "stopped at the deadline after " + whole_seconds(wall_seconds);
  if (timed_out) return "timed out after " + whole_seconds(wall_seconds);
  if (memory_limit_hit) return "killed at memory limit (peak " + format_bytes(peak_memory_bytes) + ")";
  if (signal != 0) return "signal " + std::to_string(signal) + " (" + signal_name(signal) + ")";
  return "exit " + std::to_string(exit_code);
}

boost::json::value to_json(const Command& command) {
  boost::json::array argv;
  for (const auto& arg : command.argv) argv.emplace_back(valid_utf8(arg));
  boost::json::object env;  // insertion order is kept; the last of a repeated name wins
  for (const auto& [name, value] : command.env_overrides) env[valid_utf8(name)] = valid_utf8(value);
  boost::json::object limits;
  limits["wall_seconds"] = command.limits.wall_seconds;
  limits["cpu_seconds"] = command.limits.cpu_seconds;
  limits["memory_bytes"] = command.limits.memory_bytes;
  limits["output_cap_bytes"] = command.limits.output_cap_bytes;
  boost::json::object object;
  object["argv"] = std::move(argv);
  object["env_overrides"] = std::move(env);
  object["cwd"] = valid_utf8(command.cwd.string());
  object["limits"] = std::move(limits);
  object["display"] = valid_utf8(command.display());
  return object;
}

boost::json::value to_json(const SubprocessResult& result) {
  boost::json::object object;
  object["status"] = valid_utf8(result.status_text());
  object["started"] = result.started;
  object["start_error"] = valid_utf8(result.start_error);
  object["exit_code"] = result.exit_code;
  object["signal"] = result.signal;
  object["signal_name"] = result.signal != 0 ? signal_name(result.signal) : "";
  object["timed_out"] = result.timed_out;
  object["memory_limit_hit"] = result.memory_limit_hit;
  object["stopped"] = result.stopped;
  object["wall_seconds"] = result.wall_seconds;
  object["cpu_seconds"] = result.cpu_seconds;
  object["peak_memory_bytes"] = result.peak_memory_bytes;
  object["process_group"] = result.process_group;
  object["out"] = to_json(result.out);
  object["err"] = to_json(result.err);
  return object;
}

} // namespace cudiff::runners
