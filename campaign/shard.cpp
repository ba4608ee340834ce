// campaign: shards — one campaign split over several databases (Slurm array tasks, or any hosts).
// Every shard derives the same campaign id and first seed from the campaign's name and takes
// every count-th batch of the seed sequence, so shards never test the same seed and their
// databases merge into the one campaign (`cudiff triage merge`).
#include "campaign/params.h"
#include "triage/triage.h"

#include <cstdlib>

namespace cudiff::campaign {
namespace {

/// A decimal number, all of `text`; nothing otherwise.
std::optional<std::uint64_t> number(const std::string& text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  std::uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return value;
}

} // namespace

Shard parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  const auto index = slash == std::string::npos ? std::nullopt : number(text.substr(0, slash));
  const auto count = slash == std::string::npos ? std::nullopt : number(text.substr(slash + 1));
  if (!index || !count || *count == 0)
    throw_usage("--shard needs I/N (this shard's index, from 0, and how many shards), got '" + text + "'");
  if (*index >= *count) throw_usage("--shard " + text + ": the index runs from 0 to " + std::to_string(*count - 1));
  return Shard{*index, *count};
}

std::optional<SlurmArrayTask> slurm_array_task(const Environment& environment) {
  const auto id_text = environment("SLURM_ARRAY_TASK_ID");
  const auto job_text = environment("SLURM_ARRAY_JOB_ID");
  if (!id_text || !job_text) return std::nullopt;
  auto read = [&](const char* name, std::optional<std::uint64_t> fallback) {
    const auto text = environment(name);
    if (!text) {
      if (fallback) return *fallback;
      throw_usage(std::string("a Slurm array task without ") + name +
                  " (Slurm 17.11 or newer sets it); use --shard I/N");
    }
    const auto value = number(*text);
    if (!value) throw_usage(std::string(name) + " is '" + *text + "', not a number; use --shard I/N");
    return *value;
  };
  const std::uint64_t id = read("SLURM_ARRAY_TASK_ID", std::nullopt);
  const std::uint64_t count = read("SLURM_ARRAY_TASK_COUNT", std::nullopt);
  const std::uint64_t min = read("SLURM_ARRAY_TASK_MIN", std::nullopt);
  const std::uint64_t step = read("SLURM_ARRAY_TASK_STEP", 1);
  const std::uint64_t max = read("SLURM_ARRAY_TASK_MAX", min + (count - 1) * step);
  // A list like --array=1,4,9 has no step that fits: its task's position is not in the
  // environment, and guessing would give two tasks the same seeds.
  if (count == 0 || step == 0 || id < min || (id - min) % step != 0 || (id - min) / step >= count ||
      max != min + (count - 1) * step)
    throw_usage("Slurm array indices must be a range with one step (e.g. --array=0-7); task " + *id_text + " of " +
                std::to_string(count) + " from " + std::to_string(min) + " to " + std::to_string(max) +
                " is not: use --shard I/N");
  const auto cluster = environment("SLURM_CLUSTER_NAME");
  return SlurmArrayTask{Shard{(id - min) / step, count},
                        "slurm-" + (cluster && !cluster->empty() ? *cluster + "-" : std::string()) + *job_text};
}

Environment process_environment() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (value == nullptr || *value == '\0') return std::nullopt;
    return std::string(value);
  };
}

std::string named_campaign_id(const std::string& name) { return triage::content_key("cudiff named campaign\n" + name); }

std::uint64_t named_campaign_seed(const std::string& name) {
  // 40 bits, like the fresh seed of an unnamed campaign: seeds stay short to type.
  return fnv1a64("cudiff campaign seed\n" + name) >> 24;
}

std::uint64_t shard_batch_start(const FuzzParams& params, std::uint64_t k) {
  return params.first_seed + (params.shard.index + k * params.shard.count) * params.batch;
}

std::optional<std::uint64_t> shard_test_count(const FuzzParams& params) {
  if (!params.tests) return std::nullopt;
  const std::uint64_t batches = (*params.tests + params.batch - 1) / params.batch;
  std::uint64_t seeds = 0;
  for (std::uint64_t b = params.shard.index; b < batches; b += params.shard.count)
    seeds += std::min(params.batch, *params.tests - b * params.batch);
  return seeds;
}

} // namespace cudiff::campaign
