// triage: signatures, the SQLite triage database (campaigns, tests, findings, buckets, notes),
// known differences, merging shards, and reports (HTML, Markdown bug reports). This header is
// the folder's index: it includes one public header per concern.
//
// Contract: a bucket key is a content hash of the normalized symptom (never raw message text,
// never versions, seeds, paths or flags beyond the smallest config set that shows it), so
// databases written on different hosts merge without clashes. Every write is a transaction
// (BEGIN IMMEDIATE, WAL, busy timeout): a process killed at any point loses nothing that was
// committed, and several processes on one host may write one database. A file that is not a
// cudiff database (not SQLite, corrupt, a newer schema) is refused with one line, untouched.
#pragma once

#include "triage/avoid.h"         // AvoidRule, derive_avoid: what the generator stops making for a confirmed cause
#include "triage/cause.h"         // Cause, normalize_ptx, cause_from_signature: what a reduced finding's bug is
#include "triage/classes.h"       // FindingClass, engine_of, BucketOrigins, group_by_class
#include "triage/database.h"      // Database, OpenOptions, schema_version
#include "triage/known.h"         // KnownDifference, KnownDifferences
#include "triage/presentation.h"  // what `cudiff triage` shows: the list, a bucket, invalid tests
#include "triage/records.h"       // Status, Campaign, Test, findings, Bucket, facts, InvalidTest, MergeStats
#include "triage/reports.h"       // the HTML report, export (report.md, repro.sh, reproducer)
#include "triage/signature.h"     // content keys, Signature, signature_of, mask_crash_text
#include "triage/synthetic.h"     // synthetic findings (tests and benchmarks)
