// campaign: which new buckets a campaign reduces, in what order, on how many cores and for how
// long (campaign/reductions.h).
#include "campaign/reductions.h"
#include "pipeline/limits.h"

#include <algorithm>
#include <cmath>

namespace cudiff::campaign {

std::optional<int> reduction_rank(const triage::Bucket& bucket) {
  if (bucket.status != triage::Status::fresh) return std::nullopt;
  const std::optional<triage::FindingClass> finding_class = triage::class_of_kind(bucket.kind);
  if (!finding_class) return 5;
  switch (*finding_class) {
  case triage::FindingClass::wrong_code: return 0;
  case triage::FindingClass::crash: return 1;
  case triage::FindingClass::rejects_valid: return 2;
  case triage::FindingClass::missed_diagnostic: return 3;
  case triage::FindingClass::layout_abi: return 4;
  case triage::FindingClass::dialect_difference:
  case triage::FindingClass::invalid_tests: return std::nullopt;
  }
  return std::nullopt;
}

bool already_small(const triage::Bucket& bucket) {
  return bucket.best_size > 0 && bucket.best_size < kSmallReproducerBytes;
}

std::optional<ReductionItem> reduction_item(const triage::Bucket& bucket) {
  const std::optional<int> rank = reduction_rank(bucket);
  if (!rank || already_small(bucket)) return std::nullopt;
  return ReductionItem{bucket.key, *rank, bucket.best_size, triage::class_name(triage::class_of_kind(bucket.kind)), {}};
}

bool samples_causes(const triage::Bucket& bucket) {
  const std::optional<int> rank = reduction_rank(bucket);
  return rank && *rank <= 1;
}

std::optional<ReductionItem> cause_sample(const triage::Bucket& bucket, const triage::CauseSampling& sampling,
                                          const std::set<std::string>& queued) {
  if (!samples_causes(bucket) || sampling.reduced == 0 || sampling.reduced >= kCauseSamples) return std::nullopt;
  const int rank = *reduction_rank(bucket);
  for (const std::string& finding : sampling.open)
    if (!queued.contains(finding))
      return ReductionItem{sampling.base, rank + kCauseSampleRank, bucket.best_size,
                           triage::class_name(triage::class_of_kind(bucket.kind)) + ", another sighting", finding};
  return std::nullopt;
}

bool reduced_before(const ReductionItem& a, const ReductionItem& b) {
  if (a.rank != b.rank) return a.rank < b.rank;
  return a.size < b.size;
}

std::vector<ReductionItem> reduction_order(const std::vector<triage::Bucket>& buckets) {
  std::vector<std::pair<ReductionItem, std::size_t>> found;  // with the order given, for ties
  for (const triage::Bucket& bucket : buckets)
    if (auto item = reduction_item(bucket)) found.emplace_back(std::move(*item), found.size());
  std::ranges::sort(found, [](const auto& a, const auto& b) {
    if (reduced_before(a.first, b.first)) return true;
    if (reduced_before(b.first, a.first)) return false;
    return a.second < b.second;
  });
  std::vector<ReductionItem> items;
  for (auto& [item, position] : found) items.push_back(std::move(item));
  return items;
}

CorePlan plan_cores(std::size_t cores, std::size_t jobs, double share, bool reduce, bool force_alongside) {
  cores = std::max<std::size_t>(1, cores);
  CorePlan plan;
  plan.after_jobs = std::max<std::size_t>(2, cores);
  const std::size_t half = std::max<std::size_t>(1, cores / 2);
  if (!reduce || share <= 0) {
    plan.workers = jobs > 0 ? jobs : half;
    return plan;
  }
  const auto reduce_cores = std::max<std::size_t>(2, static_cast<std::size_t>(
                                                         std::llround(share * static_cast<double>(cores))));
  if (jobs > 0) {
    plan.workers = jobs;
    const std::size_t used = std::min(cores, 2 * jobs);
    const std::size_t free = cores - used;
    if (free >= 2) plan.alongside_jobs = free;
    else if (force_alongside) plan.alongside_jobs = 2;
    return plan;
  }
  if (cores >= reduce_cores + 4) {
    plan.workers = (cores - reduce_cores) / 2;
    plan.alongside_jobs = cores - 2 * plan.workers;
    return plan;
  }
  plan.workers = half;
  if (force_alongside) plan.alongside_jobs = 2;
  return plan;
}

double reductions_window(double share, double tests_seconds) {
  if (share <= 0) return 0;
  share = std::min(share, kMaxReduceShare);
  return std::max(kLeastReductionSeconds, share / (1 - share) * std::max(0.0, tests_seconds));
}

double tests_time_limit(double time_budget, double elapsed_at_start, double share, bool waiting) {
  if (!waiting || share <= 0) return time_budget;
  const double this_start = std::max(0.0, time_budget - elapsed_at_start);
  return time_budget - std::min(share, kMaxReduceShare) * this_start;
}

double reduction_time_limit(double left) {
  if (left < 0) return pipeline::kBucketReductionSeconds;
  const double margin = std::min(kReductionFinalCheckSeconds, left / 3);
  return std::clamp(left - margin, 1.0, pipeline::kBucketReductionSeconds);
}

std::string reduction_order_text() {
  return "wrong code and crashes first, then rejects valid, then missed diagnostics";
}

}  // namespace cudiff::campaign
