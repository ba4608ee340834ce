// triage: synthetic findings — a deterministic stream of real-looking findings for tests and
// benchmarks.
#pragma once

#include "triage/database.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace cudiff::triage {

// ---- synthetic findings (tests and benchmarks) ------------------------------------------

/// The index-th of a deterministic stream of findings spread over `buckets` buckets, with
/// real signatures (each bucket a distinct compile-status symptom), about 300 bytes of source.
NewFinding synthetic_finding(const std::string& campaign_id, std::int64_t index, std::int64_t buckets, double time);
/// A campaign of kind "synthetic" with `count` synthetic findings over `buckets` buckets,
/// `batch` to a transaction; `committed` is called with each transaction's finding ids once it
/// is committed (a test that kills the writer knows which findings must be there).
void write_synthetic_campaign(Database& db, std::int64_t count, std::int64_t buckets, std::int64_t batch,
                              const std::function<void(const std::vector<std::string>& ids)>& committed);

} // namespace cudiff::triage
