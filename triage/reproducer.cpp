// triage: storing a reduced reproducer of a known bucket (`cudiff triage reduce`).
#include "triage/sqlite.h"

namespace cudiff::triage {

Bucket Database::add_reproducer(const NewFinding& f) {
  Bucket result;
  transaction([&] {
    const Bucket before = bucket(f.signature.key);  // throws for a bucket that is not there
    boost::json::array configs;
    for (const auto& config : f.finding.configs) configs.emplace_back(config);
    const std::string outputs = boost::json::serialize(f.outputs);
    const std::string source_hash = content_key(f.source);
    const std::string outputs_hash = content_key(outputs);
    auto& blob = impl_->statement("INSERT OR IGNORE INTO blobs(hash, data) VALUES(?1, ?2)");
    blob.bind(1, source_hash).bind(2, f.source).run();
    blob.reset().bind(1, outputs_hash).bind(2, outputs).run();
    impl_
        ->statement(
            "INSERT OR IGNORE INTO findings(id, bucket_key, campaign_id, test_id, time, kind, summary, configs, "
            "details, source_name, source_hash, source_size, outputs_hash) "
            "VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13)")
        .bind(1, f.id)
        .bind(2, f.signature.key)
        .bind(3, f.campaign_id)
        .bind(4, f.test_id)
        .bind(5, f.time)
        .bind(6, f.signature.kind)
        .bind(7, f.finding.summary)
        .bind(8, boost::json::serialize(configs))
        .bind(9, boost::json::serialize(f.finding.details))
        .bind(10, f.source_name)
        .bind(11, source_hash)
        .bind(12, static_cast<std::int64_t>(f.source.size()))
        .bind(13, outputs_hash)
        .run();
    // The count stays: a reduction is not another sighting of the bug.
    if (static_cast<std::int64_t>(f.source.size()) < before.best_size)
      impl_->statement("UPDATE buckets SET best_finding = ?1, best_size = ?2 WHERE key = ?3")
          .bind(1, f.id)
          .bind(2, static_cast<std::int64_t>(f.source.size()))
          .bind(3, f.signature.key)
          .run();
    result = bucket(f.signature.key);
  });
  return result;
}

} // namespace cudiff::triage
