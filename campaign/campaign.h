// campaign: many tests — batches of generated programs checked on a worker pool, each
// discrepancy pinned on one test, filed by one writer, resumable; shards of one campaign over
// many databases (Slurm job arrays); the guided (libFuzzer) engine; the conformance
// measurement of the rules catalog; the known-bug recall suite. This header is the folder's
// index: it includes every public concern header below.
//
// Contract: run_campaign writes the database in one transaction per batch, so a campaign
// killed at any moment resumes without losing or repeating a test; a batch's discrepancy is
// never filed as it is: the test responsible is isolated and must show the same signature
// when checked alone (docs/architecture.md, "Speed"). Nothing here parses a command line:
// cli/ turns options into the request structs of these headers and prints what comes back.
#pragma once

#include "campaign/conformance.h"  // measure_conformance (`cudiff rules --measure`)
#include "campaign/fuzz.h"         // run_campaign: CampaignSetup in, CampaignSummary out
#include "campaign/guided.h"       // guided generation: GuidedSession, run_libfuzzer_campaign
#include "campaign/params.h"       // FuzzParams, as stored for --resume; a shard's seeds
#include "campaign/recall.h"       // the known-bug recall suite (`cudiff recall`)
#include "campaign/reductions.h"   // which new bugs are reduced, in what order, on what cores, how long
#include "campaign/shards.h"       // Shard, Slurm array tasks, named campaigns
#include "campaign/slurm.h"        // a campaign as a Slurm job array: submit, status
