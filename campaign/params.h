// campaign: a campaign's parameters — what it was asked to do, as stored for --resume, and
// this shard's part of its seeds.
#pragma once

#include "campaign/reductions.h"
#include "campaign/shards.h"
#include "common/common.h"
#include "generator/generator.h"
#include "pipeline/check.h"
#include "runners/runners.h"
#include "triage/triage.h"

#include <cstdint>
#include <filesystem>
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
  /// The avoid rules this campaign's policy applies (docs/campaign.md, "Avoid rules"), as they
  /// were when it started; `policy` has their knobs already. Empty with --rediscover.
  std::vector<triage::AvoidRule> avoided;
  bool rediscover = false;  ///< --rediscover: no avoid rules applied
  double elapsed = 0;               ///< seconds spent before the last resume
  std::string name;                 ///< a named campaign's name (id: named_campaign_id)
  Shard shard;                      ///< this database's part of the campaign
};
/// The JSON kept in campaign_params, as fuzz_params_from_json reads it.
boost::json::object fuzz_params_json(const FuzzParams& params);
/// Throws Error(environment) naming what is missing in a stored record.
FuzzParams fuzz_params_from_json(const boost::json::value& json);

/// The avoid rules a new campaign applies: the database's (derived anew from its confirmed
/// causes first: Database::refresh_avoid_rules), then the known-bug suite's in `known` whose
/// cause the database has no rule for.
std::vector<triage::AvoidRule> campaign_avoid_rules(triage::Database& db, const triage::KnownDifferences& known);
/// Sets every rule's knobs on `policy`, except a knob `policy` already sets away from its
/// default (a --policy file's choice wins over a rule); returns the rules as applied (such knobs
/// left out, a rule left with none dropped) and says what was left out in `notes`. Throws
/// Error(usage) naming the rule and its origin for a knob this generator does not have or a
/// value out of its range, before `policy` changes.
std::vector<triage::AvoidRule> apply_avoid_rules(generator::Policy& policy, const std::vector<triage::AvoidRule>& rules,
                                                 std::vector<std::string>& notes);
/// What a campaign says at its start about its avoid rules (lines ending in '\n'): one per
/// rule, at most `most` of them, then how many more and where to see them; with
/// --rediscover, that none are applied; nothing when there are none.
std::string avoid_lines(const FuzzParams& params, const std::filesystem::path& db_path, std::size_t most = 8);

/// The first seed of this shard's k-th batch (k = 0, 1, ...).
std::uint64_t shard_batch_start(const FuzzParams& params, std::uint64_t k);
/// How many of the campaign's `tests` seeds this shard tests; nothing for a --time campaign.
std::optional<std::uint64_t> shard_test_count(const FuzzParams& params);

/// The limits of one generated program's check in a campaign (pipeline/limits.h).
pipeline::CheckRequest campaign_check_request(const FuzzParams& params);

} // namespace cudiff::campaign
