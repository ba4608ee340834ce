// runners (private): bounded output capture, group memory sampling, killing and reaping a group.
#include "runners/process_group.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

namespace cudiff::runners::detail {

// ---- BoundedCapture ---------------------------------------------------------------------

BoundedCapture::BoundedCapture(std::size_t cap) : unlimited_(cap == 0), head_cap_(cap - cap / 4), tail_cap_(cap / 4) {}

void BoundedCapture::append(const char* data, std::size_t size) {
  total_ += size;
  if (unlimited_) {
    head_.append(data, size);
    return;
  }
  std::size_t to_head = std::min(size, head_cap_ - head_.size());
  head_.append(data, to_head);
  data += to_head;
  size -= to_head;
  if (size == 0 || tail_cap_ == 0) return;
  // Only the last tail_cap_ bytes of this chunk can survive in the tail.
  if (size > tail_cap_) {
    data += size - tail_cap_;
    size = tail_cap_;
  }
  // The ring grows on demand (most output is small) until it holds tail_cap_ bytes...
  if (tail_.size() < tail_cap_) {
    std::size_t grow = std::min(size, tail_cap_ - tail_.size());
    tail_.append(data, grow);
    data += grow;
    size -= grow;
  }
  // ...and from then on overwrites its oldest bytes.
  while (size > 0) {
    std::size_t n = std::min(size, tail_cap_ - tail_start_);
    std::memcpy(tail_.data() + tail_start_, data, n);
    tail_start_ = (tail_start_ + n) % tail_cap_;
    data += n;
    size -= n;
  }
}

CapturedStream BoundedCapture::finish() const {
  CapturedStream stream;
  stream.total_bytes = total_;
  std::uint64_t kept = head_.size() + tail_.size();
  if (kept == total_) {  // nothing dropped, so the ring never wrapped (tail_start_ == 0)
    stream.text = head_ + tail_;
    return stream;
  }
  stream.truncated = true;
  stream.text.reserve(head_.size() + tail_.size() + 64);
  stream.text += head_;
  stream.text += "\n[cudiff: " + std::to_string(total_ - kept) + " bytes omitted]\n";
  stream.text.append(tail_, tail_start_);
  stream.text.append(tail_, 0, tail_start_);
  return stream;
}

// ---- the process group ------------------------------------------------------------------

namespace {

/// Reads /proc/<pid>/stat into `line`; false when the process is gone (or unreadable).
bool read_stat(const char* pid, char (&line)[1024], std::size_t& size) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%s/stat", pid);
  int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  ssize_t n = ::read(fd, line, sizeof line - 1);
  ::close(fd);
  if (n <= 0) return false;
  size = static_cast<std::size_t>(n);
  line[size] = '\0';
  return true;
}

/// From a stat line, the process group (field 5) and RSS in pages (field 24). The command name
/// (field 2) may hold spaces and parentheses, so fields are counted after its last ')'.
bool parse_stat(const char* line, std::size_t size, long& pgrp, long& rss_pages) {
  const char* close = static_cast<const char*>(::memrchr(line, ')', size));
  if (close == nullptr) return false;
  const char* p = close + 1;
  for (int field = 3; field <= 24; ++field) {
    while (*p == ' ') ++p;
    if (*p == '\0') return false;
    if (field == 5) pgrp = std::strtol(p, nullptr, 10);
    if (field == 24) rss_pages = std::strtol(p, nullptr, 10);
    while (*p != ' ' && *p != '\0') ++p;
  }
  return true;
}

bool all_digits(const char* name) {
  if (*name == '\0') return false;
  for (; *name != '\0'; ++name)
    if (*name < '0' || *name > '9') return false;
  return true;
}

} // namespace

std::uint64_t group_resident_bytes(int pgid) {
  std::unique_ptr<DIR, int (*)(DIR*)> proc(::opendir("/proc"), &::closedir);
  if (!proc) return 0;
  const std::uint64_t page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  std::uint64_t total = 0;
  // readdir on a DIR stream of our own is thread-safe in glibc.
  while (const dirent* entry = ::readdir(proc.get())) {
    if (!all_digits(entry->d_name)) continue;
    char line[1024];
    std::size_t size = 0;
    long pgrp = 0, rss_pages = 0;
    if (!read_stat(entry->d_name, line, size) || !parse_stat(line, size, pgrp, rss_pages)) continue;
    if (pgrp == pgid && rss_pages > 0) total += static_cast<std::uint64_t>(rss_pages) * page;
  }
  return total;
}

void kill_group(int pgid) {
  // pgid 0 would mean our own group and -1 every process we may signal: never send those.
  if (pgid > 1) ::kill(-pgid, SIGKILL);
}

bool reap_group(int pgid, std::chrono::steady_clock::time_point deadline) {
  if (pgid <= 1) return true;
  while (true) {
    // Members whose parent died were re-parented to us (subreaper); zombies still count as
    // group members for kill(), so they must be reaped before the group is really gone.
    int status = 0;
    while (::waitpid(-pgid, &status, WNOHANG | __WALL) > 0) {
    }
    if (::kill(-pgid, 0) == -1 && errno == ESRCH) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    kill_group(pgid);  // again: a member may have forked while the first SIGKILL was delivered
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

namespace {
// strerror_r is the GNU variant (returns char*) under _GNU_SOURCE, the XSI one (returns int)
// otherwise; these pick the text from either.
[[maybe_unused]] const char* strerror_result(const char* result, const char*) { return result; }
[[maybe_unused]] const char* strerror_result(int result, const char* buffer) {
  return result == 0 ? buffer : "unknown error";
}
} // namespace

std::string errno_text(int err) {
  char buffer[256] = {};
  return strerror_result(::strerror_r(err, buffer, sizeof buffer), buffer);
}

} // namespace cudiff::runners::detail
