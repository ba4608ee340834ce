// triage: a database's snapshot as one self-contained file — how a shard leaves node-local
// scratch for a shared (network) filesystem, where SQLite's write-ahead log must never live:
// its shared-memory index does not work across hosts.
#include "triage/sqlite.h"

#include <fcntl.h>
#include <unistd.h>

namespace cudiff::triage {
namespace {

/// Flushes a file to its server or disk before it is renamed into place: a rename that lands
/// before the data would leave a short file under the final name after a crash.
void flush_file(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw_environment("cannot reopen " + path.string() + " to flush it");
  const bool flushed = ::fsync(fd) == 0;
  ::close(fd);
  if (!flushed) throw_environment("cannot flush " + path.string() + " to disk");
}

} // namespace

void Database::snapshot_to(const std::filesystem::path& destination) const {
  if (impl_->transaction_depth > 0) throw_usage("a snapshot cannot be taken inside a transaction");
  std::error_code ec;
  if (std::filesystem::equivalent(destination, impl_->path, ec))
    throw_usage("cannot snapshot " + impl_->path.string() + " onto itself");
  if (std::filesystem::is_directory(destination, ec))
    throw_usage(destination.string() + " is a directory; name the snapshot's file");

  // VACUUM INTO reads one consistent state (the write-ahead log included) and writes it
  // compacted; it must go to a new local file, and is then switched to rollback journaling.
  TempDir local("cudiff-snapshot");
  const std::filesystem::path copy = local.path() / "snapshot.db";
  impl_->statement("VACUUM INTO ?1").bind(1, copy.string()).run();
  {
    sqlite3* db = nullptr;
    const int code = sqlite3_open_v2(copy.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr);
    const bool switched = code == SQLITE_OK &&
                          sqlite3_exec(db, "PRAGMA journal_mode = DELETE", nullptr, nullptr, nullptr) == SQLITE_OK;
    const std::string message = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    if (!switched) throw_environment("cannot prepare the snapshot of " + impl_->path.string() + ": " + message);
  }

  const std::filesystem::path directory = destination.parent_path().empty() ? "." : destination.parent_path();
  const std::filesystem::path part = directory /
                                     ("." + destination.filename().string() + ".part-" + std::to_string(::getpid()));
  std::filesystem::copy_file(copy, part, std::filesystem::copy_options::overwrite_existing, ec);
  if (!ec) {
    try {
      flush_file(part);
    } catch (...) {
      std::filesystem::remove(part, ec);
      throw;
    }
    std::filesystem::rename(part, destination, ec);
  }
  if (ec) {
    std::error_code ignored;
    std::filesystem::remove(part, ignored);
    throw_environment("cannot write the snapshot " + destination.string() + ": " + ec.message());
  }
}

} // namespace cudiff::triage
