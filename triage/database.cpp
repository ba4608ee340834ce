// triage: opening a database — refusing what is not one (untouched), WAL, busy timeout,
// migrations in order — and write transactions.
#include "triage/sqlite.h"

#include <chrono>
#include <fstream>
#include <sys/vfs.h>
#include <thread>

namespace cudiff::triage {
namespace {

constexpr std::string_view sqlite_magic{"SQLite format 3\0", 16};

/// Looks at the file before SQLite does: SQLite would happily turn an empty or foreign file
/// into a database on the first write, which must never happen to a file a user named by
/// mistake.
void check_file(const std::filesystem::path& path, const OpenOptions& options) {
  std::error_code ec;
  const bool exists = std::filesystem::exists(path, ec);
  if (!exists) {
    if (!options.create || options.read_only) throw_environment("no such database: " + path.string());
    return;
  }
  if (std::filesystem::is_directory(path, ec))
    throw_environment(path.string() + " is a directory, not a cudiff database");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw_environment("cannot read " + path.string());
  std::string head(16, '\0');
  in.read(head.data(), 16);
  const auto got = static_cast<std::size_t>(in.gcount());
  if (got == 0) return;  // an empty file is an empty database
  if (got < 16 || head != sqlite_magic)
    throw_environment(path.string() + " is not a cudiff database (not an SQLite file); left untouched");
}

std::string corrupt(const std::filesystem::path& path, sqlite3* db) {
  return path.string() + " is not a usable cudiff database (" + sqlite3_errmsg(db) + "); left untouched";
}

/// Reads the schema without writing anything: a corrupt file fails here, before WAL or a
/// migration could touch it.
int inspect(Database::Impl& impl) {
  sqlite3_stmt* query = nullptr;
  int tables = 0;
  int code = sqlite3_prepare_v2(impl.db, "SELECT count(*) FROM sqlite_master", -1, &query, nullptr);
  if (code == SQLITE_OK) code = sqlite3_step(query);
  if (code == SQLITE_ROW) tables = sqlite3_column_int(query, 0);
  sqlite3_finalize(query);
  if (code != SQLITE_ROW) throw_environment(corrupt(impl.path, impl.db));
  code = sqlite3_prepare_v2(impl.db, "PRAGMA user_version", -1, &query, nullptr);
  if (code == SQLITE_OK) code = sqlite3_step(query);
  const int version = code == SQLITE_ROW ? sqlite3_column_int(query, 0) : -1;
  sqlite3_finalize(query);
  if (version < 0) throw_environment(corrupt(impl.path, impl.db));
  if (version == 0 && tables > 0)
    throw_environment(impl.path.string() + " is an SQLite database but not a cudiff one; left untouched");
  if (version > schema_version)
    throw_environment(impl.path.string() + " has triage schema version " + std::to_string(version) +
                      ", newer than this cudiff understands (" + std::to_string(schema_version) +
                      "); use a newer cudiff");
  return version;
}

/// Brings the schema to `target`, in one transaction; another process may be doing the same,
/// so the version is read again under the write lock.
void migrate(Database::Impl& impl, int target) {
  impl.exec("BEGIN IMMEDIATE");
  try {
    int version = static_cast<int>(impl.scalar("PRAGMA user_version"));
    for (; version < target; ++version) impl.exec(migrations().at(static_cast<std::size_t>(version)));
    impl.exec("PRAGMA user_version = " + std::to_string(version));
    impl.exec("COMMIT");
    impl.version = version;
  } catch (...) {
    sqlite3_exec(impl.db, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

/// Switching a database's journal mode needs an exclusive lock, and SQLite answers SQLITE_BUSY
/// at once, without calling the busy handler, while another connection has the file open in
/// the other mode: two processes creating one database at the same moment. The mode is
/// persistent, so the loser retries until the winner's switch is done, within the busy timeout.
void set_journal_mode(Database::Impl& impl, const std::string& mode, double timeout_seconds) {
  const std::string pragma = "PRAGMA journal_mode = " + mode;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
  while (sqlite3_exec(impl.db, pragma.c_str(), nullptr, nullptr, nullptr) == SQLITE_BUSY &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  impl.exec(pragma);  // done by now: a no-op; else the error, reported
}

} // namespace

bool on_network_filesystem(const std::filesystem::path& path) {
  const std::filesystem::path directory = path.parent_path().empty() ? "." : path.parent_path();
  struct statfs info{};
  if (::statfs(directory.c_str(), &info) != 0) return false;
  // statfs magic numbers (linux/magic.h and the vendors' own) of filesystems one file of which
  // several hosts can open; FUSE is counted in, since sshfs and the cloud-bucket mounts are.
  switch (static_cast<std::uint32_t>(info.f_type)) {
  case 0x6969u:      // NFS
  case 0x517Bu:      // SMB
  case 0xFF534D42u:  // CIFS
  case 0xFE534D42u:  // SMB2
  case 0x0BD00BD0u:  // Lustre
  case 0x47504653u:  // IBM Spectrum Scale (GPFS)
  case 0x19830326u:  // BeeGFS
  case 0x00C36400u:  // CephFS
  case 0x5346414Fu:  // AFS
  case 0x01021997u:  // 9P
  case 0xAAD7AAEAu:  // PanFS
  case 0x65735546u:  // FUSE
    return true;
  default: return false;
  }
}

namespace {} // namespace

Database::Database(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Database::Database(Database&&) noexcept = default;
Database& Database::operator=(Database&&) noexcept = default;
Database::~Database() = default;

Database Database::open(const std::filesystem::path& path, const OpenOptions& options) {
  check_file(path, options);
  auto impl = std::make_unique<Impl>();
  impl->path = path;
  const int flags = options.read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  if (sqlite3_open_v2(path.c_str(), &impl->db, flags | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI, nullptr) != SQLITE_OK)
    throw_environment("cannot open " + path.string() + ": " + sqlite3_errmsg(impl->db));
  sqlite3_extended_result_codes(impl->db, 1);
  sqlite3_busy_timeout(impl->db, static_cast<int>(options.busy_timeout_seconds * 1000));
  impl->version = inspect(*impl);
  if (options.read_only) return Database(std::move(impl));
  // WAL: readers never block the writer, and a killed writer leaves committed transactions
  // in the log, replayed on the next open. synchronous=NORMAL keeps every commit through a
  // process kill (only a power loss may drop the last ones), at a fraction of FULL's fsyncs.
  // But WAL's index lives in shared memory, which hosts sharing a network filesystem do not
  // share: there a database keeps a rollback journal (and FULL, which that mode needs to
  // survive a power loss), slower and with writers blocking readers, but safe.
  if (on_network_filesystem(path)) {
    set_journal_mode(*impl, "DELETE", options.busy_timeout_seconds);
    impl->exec("PRAGMA synchronous = FULL");
  } else {
    set_journal_mode(*impl, "WAL", options.busy_timeout_seconds);
    impl->exec("PRAGMA synchronous = NORMAL");
  }
  // 32 MiB of page cache (the default is 2 MiB): a campaign's inserts touch the findings
  // index all over, and re-reading pages from the WAL dominated the insert time.
  impl->exec("PRAGMA cache_size = -32768");
  if (impl->version < options.upgrade_to) migrate(*impl, options.upgrade_to);
  bring_keys_up_to_date(*impl);
  return Database(std::move(impl));
}

const std::filesystem::path& Database::path() const { return impl_->path; }
std::string Database::journal_mode() const {
  sql::Statement query(impl_->db, "PRAGMA journal_mode");
  return query.step() ? query.text(0) : "";
}
int Database::version() const { return impl_->version; }

void Database::transaction(const std::function<void()>& body) {
  // Nested calls join the outer transaction: a merge or a check records in one commit.
  if (impl_->transaction_depth > 0) {
    body();
    return;
  }
  impl_->exec("BEGIN IMMEDIATE");
  impl_->transaction_depth = 1;
  try {
    body();
    impl_->exec("COMMIT");
    impl_->transaction_depth = 0;
  } catch (...) {
    impl_->transaction_depth = 0;
    sqlite3_exec(impl_->db, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

std::string Database::integrity_check() const {
  sql::Statement& query = impl_->statement("PRAGMA integrity_check");
  std::vector<std::string> problems;
  while (query.step()) problems.push_back(query.text(0));
  return join(problems, "; ");
}

Totals Database::totals() const {
  Totals totals;
  totals.campaigns = impl_->scalar("SELECT count(*) FROM campaigns");
  totals.tests = impl_->scalar("SELECT coalesce(sum(tests), 0) FROM campaigns");
  totals.findings = impl_->scalar("SELECT count(*) FROM findings");
  totals.buckets = impl_->scalar("SELECT count(*) FROM buckets");
  return totals;
}

} // namespace cudiff::triage
