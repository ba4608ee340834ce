// campaign: a campaign's parameters — what it was asked to do, as stored for --resume, and
// this shard's part of its seeds.
#pragma once

#include "campaign/reductions.h"
#include "campaign/shards.h"
#include "common/common.h"
#include "generator/generator.h"
#include "pipeline/check.h"
#include "runners/runners.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cudiff::campaign {

/// What a campaign was asked to do; stored in the database (campaign_params) for --resume.
struct FuzzParams {
  std::uint64_t first_seed = 0;
  std::uint64_t batch = 8;             ///< seeds per translation unit
  std::optional<std::uint64_t> tests;  ///< stop after this many seeds
  double time_budget = 0;              ///< seconds; 0: none (then `tests` is set)
  generator::Size size = generator::Size::small;
  std::string policy;                  ///< Policy::dump() text
  std::vector<std::string> configs;    ///< config names
  std::optional<runners::Mode> mode;   ///< none: run with a GPU, else binary
  bool reduce = true;
  bool reduce_in_parallel = false;  ///< reduce alongside the tests even where the cores do not allow it
  /// The share of the campaign's time kept for reducing its new bugs (--reduce-share).
  double reduce_share = kDefaultReduceShare;
  /// The new bugs still to reduce, most important first: queued as they are filed, removed
  /// when their reduction ends; what the campaign's end leaves here, --resume reduces.
  std::vector<std::string> pending_reductions;
  /// Run-time findings pass compute-sanitizer before they are filed (--no-sanitizer-gate: off).
  bool sanitizer_gate = true;
  /// EMI / metamorphic variants of each program in its batch (generator::generate_batch; the
  /// metamorphic oracle): on by default when binaries run, 0 with --no-variants.
  std::uint64_t variants = 0;
  double elapsed = 0;               ///< seconds spent before the last resume
  std::string name;                 ///< a named campaign's name (id: named_campaign_id)
  Shard shard;                      ///< this database's part of the campaign
};
/// The JSON kept in campaign_params, as fuzz_params_from_json reads it.
boost::json::object fuzz_params_json(const FuzzParams& params);
/// Throws Error(environment) naming what is missing in a stored record.
FuzzParams fuzz_params_from_json(const boost::json::value& json);

/// The first seed of this shard's k-th batch (k = 0, 1, ...).
std::uint64_t shard_batch_start(const FuzzParams& params, std::uint64_t k);
/// How many of the campaign's `tests` seeds this shard tests; nothing for a --time campaign.
std::optional<std::uint64_t> shard_test_count(const FuzzParams& params);

/// The limits of one generated program's check in a campaign (pipeline/limits.h).
pipeline::CheckRequest campaign_check_request(const FuzzParams& params);

} // namespace cudiff::campaign
