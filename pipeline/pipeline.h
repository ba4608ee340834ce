// pipeline: one test case through every config — build, run, observe, layout views, judge,
// record — and the reducer's test that a candidate still shows the same finding. This header is
// the folder's index: it includes every public concern header below.
//
// Contract: a check takes the test case in memory (source, name, sidecar); the only files it
// writes are the ones the compilers read and what they produce, under a work directory the
// caller owns. A check records nothing and prints nothing unless asked (record_check), and is
// safe to run from several threads at once with different work directories. Every limit a
// compile or a run gets is declared in pipeline/limits.h, nowhere else.
#pragma once

#include "pipeline/attribution.h"       // a finding's guilty stage: attribute_stage, record_stage
#include "pipeline/bucket_reduction.h"  // reduce_bucket: a bucket's reproducer reduced and stored
#include "pipeline/cause.h"             // cause keys: cause_of a reduced finding, causes_of_file, ptx_cause
#include "pipeline/check.h"             // one test: TestInput, CheckRequest, check_test -> TestCheck
#include "pipeline/ir_reduce.h"         // the IR stage: a generated program's origin, reduce_ir
#include "pipeline/limits.h"            // every limit: compile, run, script, executor, Slurm
#include "pipeline/ptx_check.h"         // a PTX module across ptxas levels: check_ptx, launched with no host program
#include "pipeline/recheck.h"           // stage attachments, recheck_bucket, bisect_bucket
#include "pipeline/record.h"            // signatures, outputs, a check recorded in a database
#include "pipeline/reduce.h"            // reduce_source: the target, request and outcome
#include "pipeline/reduce_generated.h"  // a generated program reduced at the IR level
#include "pipeline/sanitizer.h"         // the sanitizer gate on run-time findings
