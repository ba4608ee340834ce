// triage: the SQLite statement wrapper and the connection's statement cache.
#include "triage/sqlite.h"

namespace cudiff::triage::sql {

void check(sqlite3* db, int code, std::string_view what) {
  if (code == SQLITE_OK || code == SQLITE_ROW || code == SQLITE_DONE) return;
  std::string message = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(code);
  throw_environment(std::string(what) + ": " + message);
}

Statement::Statement(sqlite3* db, std::string_view text) : db_(db) {
  check(db,
        sqlite3_prepare_v3(db, text.data(), static_cast<int>(text.size()), SQLITE_PREPARE_PERSISTENT, &statement_,
                           nullptr),
        "database query failed");
}

Statement::~Statement() { sqlite3_finalize(statement_); }

Statement& Statement::reset() {
  sqlite3_reset(statement_);
  sqlite3_clear_bindings(statement_);
  return *this;
}

Statement& Statement::bind(int index, std::string_view text) {
  check(db_, sqlite3_bind_text(statement_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT),
        "database bind failed");
  return *this;
}

Statement& Statement::bind(int index, std::int64_t value) {
  check(db_, sqlite3_bind_int64(statement_, index, value), "database bind failed");
  return *this;
}

Statement& Statement::bind(int index, double value) {
  check(db_, sqlite3_bind_double(statement_, index, value), "database bind failed");
  return *this;
}

Statement& Statement::bind_null(int index) {
  check(db_, sqlite3_bind_null(statement_, index), "database bind failed");
  return *this;
}

bool Statement::step() {
  const int code = sqlite3_step(statement_);
  if (code == SQLITE_ROW) return true;
  if (code == SQLITE_DONE) return false;
  // Reset so that the statement (cached) does not keep a read transaction open.
  std::string message = sqlite3_errmsg(db_);
  sqlite3_reset(statement_);
  throw_environment("database write or read failed: " + message);
}

void Statement::run() {
  while (step()) {
  }
}

std::string Statement::text(int column) const {
  const auto* bytes = sqlite3_column_text(statement_, column);
  if (bytes == nullptr) return {};
  return {reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(sqlite3_column_bytes(statement_, column))};
}

std::int64_t Statement::integer(int column) const { return sqlite3_column_int64(statement_, column); }
double Statement::real(int column) const { return sqlite3_column_double(statement_, column); }
bool Statement::is_null(int column) const { return sqlite3_column_type(statement_, column) == SQLITE_NULL; }

} // namespace cudiff::triage::sql

namespace cudiff::triage {

Database::Impl::~Impl() {
  cache.clear();  // statements must be finalized before the connection closes
  if (db != nullptr) sqlite3_close_v2(db);
}

sql::Statement& Database::Impl::statement(std::string_view text) {
  auto found = cache.find(text);
  if (found == cache.end()) found = cache.emplace(std::string(text), std::make_unique<sql::Statement>(db, text)).first;
  return found->second->reset();
}

void Database::Impl::exec(std::string_view text) {
  char* error = nullptr;
  const int code = sqlite3_exec(db, std::string(text).c_str(), nullptr, nullptr, &error);
  if (code != SQLITE_OK) {
    std::string message = error != nullptr ? error : sqlite3_errstr(code);
    sqlite3_free(error);
    throw_environment(path.string() + ": " + message);
  }
}

std::int64_t Database::Impl::scalar(std::string_view text) {
  sql::Statement& query = statement(text);
  std::int64_t value = query.step() ? query.integer(0) : 0;
  query.reset();
  return value;
}

Database::Impl& impl_of(const Database& database) { return *database.impl_; }

} // namespace cudiff::triage
