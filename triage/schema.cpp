// triage: the database schema as ordered migrations; PRAGMA user_version is the version.
//
// Never edit a migration that has shipped: databases in the field are at its version. Add a
// new one at the end and bump schema_version (triage.h); docs/triage.md lists them.
#include "triage/sqlite.h"

namespace cudiff::triage {

const std::vector<std::string_view>& migrations() {
  static const std::vector<std::string_view> steps = {
      // 0 -> 1: campaigns, tests, findings (test cases and outputs in content-addressed
      // blobs, so the same program found 4,000 times is stored once), buckets, notes.
      R"sql(
CREATE TABLE campaigns(
  id TEXT PRIMARY KEY, kind TEXT NOT NULL, host TEXT NOT NULL DEFAULT '',
  started REAL NOT NULL, ended REAL NOT NULL DEFAULT 0,
  cudiff_version TEXT NOT NULL DEFAULT '', nvcc_version TEXT NOT NULL DEFAULT '',
  clang_version TEXT NOT NULL DEFAULT '', gpus TEXT NOT NULL DEFAULT '',
  configs TEXT NOT NULL DEFAULT '[]', mode TEXT NOT NULL DEFAULT '',
  tests INTEGER NOT NULL DEFAULT 0, findings INTEGER NOT NULL DEFAULT 0);
CREATE TABLE tests(
  id TEXT PRIMARY KEY, campaign_id TEXT NOT NULL, name TEXT NOT NULL,
  seed TEXT NOT NULL DEFAULT '', policy_hash TEXT NOT NULL DEFAULT '',
  configs TEXT NOT NULL DEFAULT '[]', outcome TEXT NOT NULL, time REAL NOT NULL,
  seconds REAL NOT NULL DEFAULT 0);
CREATE TABLE blobs(hash TEXT PRIMARY KEY, data BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE buckets(
  id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, title TEXT NOT NULL, kind TEXT NOT NULL,
  side TEXT NOT NULL, stage TEXT NOT NULL, symptom TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'new' CHECK(status IN ('new','known','reported','fixed','invalid')),
  count INTEGER NOT NULL, first_seen REAL NOT NULL, last_seen REAL NOT NULL,
  best_finding TEXT NOT NULL, best_size INTEGER NOT NULL);
CREATE TABLE findings(
  id TEXT PRIMARY KEY, bucket_key TEXT NOT NULL, campaign_id TEXT NOT NULL,
  test_id TEXT NOT NULL, time REAL NOT NULL, kind TEXT NOT NULL, summary TEXT NOT NULL,
  configs TEXT NOT NULL, details TEXT NOT NULL, source_name TEXT NOT NULL,
  source_hash TEXT NOT NULL, source_size INTEGER NOT NULL, outputs_hash TEXT NOT NULL);
CREATE INDEX findings_bucket ON findings(bucket_key, source_size, id);
CREATE TABLE notes(id TEXT PRIMARY KEY, bucket_key TEXT NOT NULL, time REAL NOT NULL, text TEXT NOT NULL);
CREATE INDEX notes_bucket ON notes(bucket_key, time);
)sql",
      // 1 -> 2: known differences (the reason a bucket is `known`); indexes for the report's
      // time plots and for listing the top buckets.
      R"sql(
ALTER TABLE buckets ADD COLUMN known_reason TEXT NOT NULL DEFAULT '';
CREATE INDEX findings_time ON findings(time);
CREATE INDEX buckets_count ON buckets(count DESC, key);
)sql",
      // 2 -> 3: what a fuzz campaign was asked to do (JSON), so `cudiff fuzz --resume` can go
      // on after a kill; local to this database (merge does not copy it). Tests by seed.
      R"sql(
CREATE TABLE campaign_params(campaign_id TEXT PRIMARY KEY, params TEXT NOT NULL);
CREATE INDEX tests_campaign ON tests(campaign_id, seed);
)sql",
      // 3 -> 4: tests the sanitizer gate rejected (a run that faults under compute-sanitizer:
      // the program's defect, never filed as a compiler bug), with the configs, the tool, the
      // cause and the report (in blobs, like sources); merged like findings, by id.
      R"sql(
CREATE TABLE invalid_tests(
  id TEXT PRIMARY KEY, campaign_id TEXT NOT NULL, test_id TEXT NOT NULL, time REAL NOT NULL,
  name TEXT NOT NULL, seed TEXT NOT NULL DEFAULT '', finding_kind TEXT NOT NULL DEFAULT '',
  finding_summary TEXT NOT NULL DEFAULT '', configs TEXT NOT NULL DEFAULT '[]',
  erring_configs TEXT NOT NULL DEFAULT '[]', tool TEXT NOT NULL, cause TEXT NOT NULL,
  first_error TEXT NOT NULL DEFAULT '', command TEXT NOT NULL DEFAULT '', report_hash TEXT NOT NULL,
  source_name TEXT NOT NULL, source_hash TEXT NOT NULL, source_size INTEGER NOT NULL);
CREATE INDEX invalid_tests_time ON invalid_tests(time);
CREATE INDEX invalid_tests_cause ON invalid_tests(cause);
)sql",
      // 4 -> 5: what is known of a bucket beyond its findings, none of it in the key: the
      // upstream report's link, the compiler releases that show it (bisection), the last
      // recheck with the compilers installed then. Which engines and configs found each bucket
      // (`triage list`, the report), read from a covering index alone: a pass over 100,000
      // findings' rows instead took 0.3 s (docs/triage.md, "Classes and engines").
      R"sql(
CREATE TABLE bucket_facts(
  bucket_key TEXT PRIMARY KEY, link TEXT NOT NULL DEFAULT '', versions TEXT NOT NULL DEFAULT '',
  recheck TEXT NOT NULL DEFAULT '', recheck_time REAL NOT NULL DEFAULT 0,
  recheck_compilers TEXT NOT NULL DEFAULT '');
CREATE INDEX findings_origin ON findings(bucket_key, campaign_id, kind, configs);
)sql",
      // 5 -> 6: cause keys (docs/triage.md, "Cause keys"): the cause of each reduced finding and
      // of the finding it was reduced from, under the signature's key they were filed by; and
      // the buckets a signature's bucket was split into, one per cause, with what they came from.
      R"sql(
CREATE TABLE causes(
  finding_id TEXT PRIMARY KEY, base_key TEXT NOT NULL, cause_key TEXT NOT NULL, basis TEXT NOT NULL,
  text TEXT NOT NULL, reduced_finding TEXT NOT NULL);
CREATE INDEX causes_base ON causes(base_key, cause_key);
CREATE INDEX causes_key ON causes(cause_key);
CREATE TABLE cause_buckets(
  key TEXT PRIMARY KEY, base_key TEXT NOT NULL, cause_key TEXT NOT NULL, base_title TEXT NOT NULL,
  base_symptom TEXT NOT NULL);
)sql",
      // 6 -> 7: avoid rules (docs/triage.md, "Avoid rules"): what the generator stops making once a
      // cause is confirmed, by cause key: the knob settings (a JSON object), the construct they
      // turn off, where the rule comes from and the bug in a line. Local to this database (merge
      // does not copy it: a merged database derives its own from its buckets).
      R"sql(
CREATE TABLE avoid_rules(
  cause_key TEXT PRIMARY KEY, origin TEXT NOT NULL, knobs TEXT NOT NULL, needs TEXT NOT NULL DEFAULT '',
  reason TEXT NOT NULL DEFAULT '', time REAL NOT NULL, by_hand INTEGER NOT NULL DEFAULT 0);
)sql",
  };
  return steps;
}

} // namespace cudiff::triage
