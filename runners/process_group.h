// runners (private): bounded output capture and process-group helpers behind run_subprocess.
//
// Not part of the runners contract (runners.h is); only subprocess.cpp and its tests use this.
#pragma once

#include "runners/runners.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cudiff::runners::detail {

/// Keeps what a child wrote to one stream within `cap` bytes: the first ~3/4 of the cap (the
/// head: the first diagnostics say what went wrong) and a rolling last ~1/4 (the tail: a crash
/// or a summary comes last). Everything else is counted and dropped, so a flood of output costs
/// no memory. cap == 0 means "no cap" (Limits: zero means no limit).
class BoundedCapture {
public:
  explicit BoundedCapture(std::size_t cap);
  void append(const char* data, std::size_t size);
  /// The kept text: everything, or head + "\n[cudiff: N bytes omitted]\n" + tail.
  CapturedStream finish() const;

private:
  bool unlimited_;
  std::size_t head_cap_;
  std::size_t tail_cap_;
  std::string head_;
  std::string tail_;          ///< a ring buffer once it has grown to tail_cap_
  std::size_t tail_start_ = 0;  ///< oldest byte of the ring once it is full
  std::uint64_t total_ = 0;
};

/// Sum of the resident memory of every live process whose process group is `pgid`, read from
/// /proc/<pid>/stat (one read per process: field 5 is the group, field 24 the RSS in pages).
std::uint64_t group_resident_bytes(int pgid);

/// SIGKILL to every member of the process group; an empty group is not an error.
void kill_group(int pgid);

/// After the leader has been reaped: reaps the group's members that were re-parented to this
/// process (run_subprocess makes it a child subreaper), killing again, until no member is left
/// or `deadline` passes. Returns true when the group is gone.
bool reap_group(int pgid, std::chrono::steady_clock::time_point deadline);

/// A child's environment: cudiff's own, with every name `command.env_overrides` sets replaced
/// (the last override of a name wins, as the last assignment does in a shell).
std::vector<std::string> child_environment(const Command& command);

/// strerror for `err`, thread-safe.
std::string errno_text(int err);

} // namespace cudiff::runners::detail
