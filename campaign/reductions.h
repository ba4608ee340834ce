// campaign: a campaign's reductions — which new buckets are reduced and in what order, on how
// many cores, and for how long (docs/campaign.md, "Reductions"). Pure functions: the loop
// applies them, the unit tests check them.
#pragma once

#include "triage/triage.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cudiff::campaign {

/// The share of a campaign's time kept for reducing its new bugs when none is given
/// (--reduce-share): measured on the 2-core machine, bench/RESULTS.md ("The main job's cost").
inline constexpr double kDefaultReduceShare = 0.25;
/// --reduce-share's largest value: the tests always keep a tenth of the time.
inline constexpr double kMaxReduceShare = 0.9;
/// The least time a --tests campaign's reductions get after its tests (a short campaign's share
/// would not finish one reduction), unless its share is 0.
inline constexpr double kLeastReductionSeconds = 60;
/// A reduction is not started with less time than this left in the window: it is listed.
inline constexpr double kLeastReductionStartSeconds = 20;
/// A reduction is told to stop (`triage reduce --time-limit`) this long before its window ends
/// at most, so that its final check and its store fit in the window: what it reduced so far is
/// stored, and --resume goes on from there.
inline constexpr double kReductionFinalCheckSeconds = 30;

/// A reproducer smaller than this is a few lines already (an edge program's violation alone is
/// 200 to 500 bytes; a generated program's is 5 to 25 KiB): not worth a reduction's minutes
/// (measured: 20 to 160 s each on two cores under load, 1 of 8 coming out smaller).
inline constexpr std::int64_t kSmallReproducerBytes = 1024;

/// A new bucket's place in the reduction queue, lower first: wrong code 0, crash 1, rejects
/// valid 2, missed diagnostic 3, layout and ABI 4 (a kind this cudiff does not know: 5). None
/// for a bucket that is not reduced by default: one that is not `new` (known, reported, fixed,
/// invalid: the project's knowledge or a person says what it is) and a dialect difference.
std::optional<int> reduction_rank(const triage::Bucket& bucket);

/// What a reduction queue holds for one bucket.
struct ReductionItem {
  std::string key;
  int rank = 0;
  std::int64_t size = 0;  ///< its best reproducer's bytes: the smaller first within a rank
  std::string what;       ///< its class, for the progress line ("crash")
  /// Empty: the bucket's best reproducer. Else another sighting of it, reduced for its cause
  /// (cause_sample).
  std::string finding;
};

/// Sightings of one wrong-code or crash signature reduced for their causes, the first included:
/// one structural signature can hold several bugs (a bucket whose sightings reduce to two causes
/// splits in two), and the first reduction alone never shows it. Three: each further one costs
/// a reduction's minutes, and the campaigns measured (bench/RESULTS.md) held at most three
/// sightings in most such buckets.
inline constexpr std::int64_t kCauseSamples = 3;
/// Added to a sighting's rank: every bucket's first reduction comes before any further sighting.
inline constexpr int kCauseSampleRank = 10;
/// Whether `bucket`'s sightings are reduced for their causes at all: a new wrong-code or crash
/// bucket (the campaign asks the database about no other).
bool samples_causes(const triage::Bucket& bucket);
/// The next sighting of `bucket` to reduce for its cause, given how its signature's sightings
/// stand (Database::cause_sampling) and the findings already queued (`queued`); none when the
/// bucket is not a new wrong-code or crash bucket, its first reduction has given no cause yet,
/// kCauseSamples are reduced, or every sighting left is queued.
std::optional<ReductionItem> cause_sample(const triage::Bucket& bucket, const triage::CauseSampling& sampling,
                                          const std::set<std::string>& queued);
/// Whether the bucket's best reproducer is small already (under kSmallReproducerBytes).
bool already_small(const triage::Bucket& bucket);
/// The item of a bucket to reduce; none when reduction_rank says it is not reduced, or its
/// reproducer is already_small.
std::optional<ReductionItem> reduction_item(const triage::Bucket& bucket);
/// Whether `a` is reduced before `b`: the lower rank, then the smaller reproducer; equal items
/// keep the order they were added in (the caller's tie-break).
bool reduced_before(const ReductionItem& a, const ReductionItem& b);
/// The buckets to reduce (reduction_item), most important first (reduced_before, then the order
/// given).
std::vector<ReductionItem> reduction_order(const std::vector<triage::Bucket>& buckets);

/// How a campaign splits its cores between its workers and its reductions.
struct CorePlan {
  std::size_t workers = 1;
  /// Jobs of the reduction running alongside the tests (`triage reduce --jobs`); 0: reductions
  /// wait for the tests to end.
  std::size_t alongside_jobs = 0;
  std::size_t after_jobs = 2;  ///< jobs of a reduction after the tests (every core)
};
/// `cores` usable, `jobs` given (0: the default), the reduction share, whether the campaign
/// reduces at all and whether --reduce-in-parallel forces reductions alongside. Reductions run
/// alongside the tests where the cores allow: their share of the cores (at least 2) leaves at
/// least 4 to the workers (2 workers, each building with two compilers), or `jobs` given leaves
/// 2 cores free; the default workers are then half of the cores left. Else the workers get half
/// of every core and the reductions come after the tests. A share of 0 reduces nothing.
CorePlan plan_cores(std::size_t cores, std::size_t jobs, double share, bool reduce, bool force_alongside);

/// Seconds a --tests campaign's reductions may go on after `tests_seconds` of tests, so that
/// they take at most `share` of the whole: share / (1 - share) of the tests' time, at least
/// kLeastReductionSeconds; 0 for a share of 0.
double reductions_window(double share, double tests_seconds);
/// The seconds of a --time campaign (budget `time_budget`, `elapsed_at_start` spent before this
/// start) after which no batch starts: the budget, less the reduction share of this start's
/// time while reductions wait (`waiting`), so that what waits gets that share before the end.
double tests_time_limit(double time_budget, double elapsed_at_start, double share, bool waiting);
/// The --time-limit of a reduction started with `left` seconds of its window (negative: no
/// window): at most pipeline::kBucketReductionSeconds, and ending kReductionFinalCheckSeconds
/// (a third of what is left, at most) before the window does.
double reduction_time_limit(double left);

/// "wrong code and crashes first, then rejects valid, then missed diagnostics": the order, for
/// what the campaign prints.
std::string reduction_order_text();

}  // namespace cudiff::campaign
