// campaign: shards and named campaigns — one campaign split over many databases (Slurm array
// tasks, or any set of hosts) whose parts merge into one.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace cudiff::campaign {

/// This database's part of a campaign split over `count` databases (Slurm array tasks, or
/// any set of hosts): batch b of the campaign's seed sequence belongs to shard b mod count.
/// Interleaving whole batches (not ranges) keeps every shard busy under a --time budget, and
/// the shards together test exactly the programs, batched exactly as, one unsharded campaign
/// with the same seed would.
struct Shard {
  std::uint64_t index = 0, count = 1;  ///< index < count
  std::string text() const { return std::to_string(index) + "/" + std::to_string(count); }
  bool operator==(const Shard&) const = default;
};
/// "I/N" with 0 <= I < N; throws Error(usage) naming --shard for anything else.
Shard parse_shard(const std::string& text);

/// What a Slurm array task's environment says: the task's shard (array indices must form a
/// range with one step, e.g. 0-7 or 1-15:2) and a campaign name every task of the array
/// shares ("slurm-<cluster>-<array job id>"). Nothing outside an array job; Error(usage)
/// when the variables do not fit together.
struct SlurmArrayTask {
  Shard shard;
  std::string campaign_name;
};
using Environment = std::function<std::optional<std::string>(const std::string& name)>;
/// The array task this process is, read from `environment`.
std::optional<SlurmArrayTask> slurm_array_task(const Environment& environment);
/// The process environment, for slurm_array_task.
Environment process_environment();

/// A named campaign's id, the same on every host: shards of one campaign merge into one.
std::string named_campaign_id(const std::string& name);
/// A named campaign's default first seed, the same on every host.
std::uint64_t named_campaign_seed(const std::string& name);

} // namespace cudiff::campaign
