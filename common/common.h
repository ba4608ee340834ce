// common: small pieces every stage shares (errors, text, files, tables, JSON, hashing).
//
// Contract: nothing here knows about compilers or CUDA. No globals.
#pragma once

#include <boost/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace cudiff {

/// Why cudiff itself cannot go on. Every kind maps to exit status 2 and one line on stderr;
/// a compiler failing is never an Error (it is an observation).
enum class ErrorKind { usage, environment, internal };

/// The one exception type cudiff throws for its own failures.
class Error : public std::runtime_error {
public:
  Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const { return kind_; }

private:
  ErrorKind kind_;
};

[[noreturn]] void throw_usage(const std::string& message);
[[noreturn]] void throw_environment(const std::string& message);

// ---- text -------------------------------------------------------------------------------

/// Splits on '\n'; a trailing '\r' is dropped from each line; no empty last line for "a\n".
std::vector<std::string> split_lines(std::string_view text);
std::vector<std::string> split(std::string_view text, char separator);
std::string join(const std::vector<std::string>& parts, std::string_view separator);
std::string_view trim(std::string_view text);
/// At most max_chars characters; longer text ends with "...".
std::string shorten(std::string_view text, std::size_t max_chars);
/// The same for text people read in tables: cut at a UTF-8 character boundary, never inside one.
std::string shorten_utf8(std::string_view text, std::size_t max_bytes);
/// "2026-11-21 23:07:41 UTC"; "-" for a time at or before the epoch.
std::string format_utc(double unix_seconds);
/// 64-bit FNV-1a, as 16 lowercase hex digits: stable across hosts and runs.
std::string fnv1a_hex(std::string_view data);
/// The same hash as a number.
std::uint64_t fnv1a64(std::string_view data);
/// "1.23 s" / "45 ms" style durations for tables.
std::string format_seconds(double seconds);
/// Wall-clock time as unix seconds: what databases and reports record.
double unix_seconds();
std::string format_bytes(std::uint64_t bytes);

// ---- files ------------------------------------------------------------------------------

/// Whole file as bytes; throws Error(environment) with the path and reason when unreadable.
std::string read_file(const std::filesystem::path& path);
/// Writes (replacing) a file; throws Error(environment) on failure (full disk included).
void write_file(const std::filesystem::path& path, std::string_view content);

/// A fresh private directory under $TMPDIR (or /tmp), removed on destruction unless kept.
class TempDir {
public:
  explicit TempDir(std::string_view prefix = "cudiff");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  void keep() { keep_ = true; }

private:
  std::filesystem::path path_;
  bool keep_ = false;
};

/// The first executable named `name` on $PATH, if any.
std::optional<std::filesystem::path> find_on_path(std::string_view name);

// ---- presentation -----------------------------------------------------------------------

/// A plain-text table with a header row; columns are padded to their widest cell.
class TextTable {
public:
  explicit TextTable(std::vector<std::string> header) : header_(std::move(header)) {}
  void add_row(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  std::string render() const;

private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

/// Indented JSON text with a trailing newline (Boost.JSON has no pretty printer).
std::string pretty_json(const boost::json::value& value);

} // namespace cudiff
