// triage (internal): a thin RAII layer over the SQLite C API — connection, cached prepared
// statements, one-line errors — and Database::Impl, which the triage files share.
#pragma once

#include "triage/triage.h"

#include <sqlite3.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>

namespace cudiff::triage::sql {

/// A prepared statement, reset and rebound for each use.
class Statement {
public:
  Statement(sqlite3* db, std::string_view text);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  /// Resets and clears bindings; returns *this for chaining binds.
  Statement& reset();
  Statement& bind(int index, std::string_view text);
  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
  Statement& bind(int index, double value);
  Statement& bind_null(int index);
  /// True while there is a row; throws Error(environment) on failure.
  bool step();
  /// Steps to the end (for statements without rows).
  void run();

  std::string text(int column) const;
  std::int64_t integer(int column) const;
  double real(int column) const;
  bool is_null(int column) const;

private:
  sqlite3* db_;
  sqlite3_stmt* statement_ = nullptr;
};

/// Throws Error(environment) "<what>: <sqlite message>" when `code` is not OK/ROW/DONE.
void check(sqlite3* db, int code, std::string_view what);

} // namespace cudiff::triage::sql

namespace cudiff::triage {

struct Database::Impl {
  std::filesystem::path path;
  sqlite3* db = nullptr;
  int version = 0;
  int transaction_depth = 0;
  std::map<std::string, std::unique_ptr<sql::Statement>, std::less<>> cache;

  ~Impl();
  /// A cached prepared statement, reset: statements are prepared once per connection.
  sql::Statement& statement(std::string_view text);
  /// Runs statements without parameters or rows (DDL, PRAGMA, BEGIN).
  void exec(std::string_view text);
  /// A single integer from a query without parameters.
  std::int64_t scalar(std::string_view text);
};

/// The connection behind a Database, for the triage files that query it directly.
Database::Impl& impl_of(const Database& database);

/// Schema migrations, in order: migrations()[i] takes user_version i to i + 1.
const std::vector<std::string_view>& migrations();

/// The signature version the database's bucket keys were made with (rekey.cpp): its
/// `signature_keys` table, else 1 for a database with buckets (written before the table
/// existed), else the current one. Reads only.
int recorded_signature_version(Database::Impl& impl);
/// Splits (or joins again) every signature's bucket by the causes of its findings
/// (causes.cpp): after a merge or a re-key brought findings or causes together. Call inside a
/// write transaction.
void apply_cause_splits(Database::Impl& impl);
/// Re-keys every finding and merges buckets when the keys are older than signature_version,
/// and records the version, in one transaction (rolled back, and rethrown, on any failure).
/// Throws Error(environment) for keys newer than this cudiff makes.
void bring_keys_up_to_date(Database::Impl& impl);

} // namespace cudiff::triage
