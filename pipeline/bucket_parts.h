// pipeline: how a stored finding is checked again — shared by a bucket's reduction, a recheck
// and bisection. Internal to pipeline/.
#pragma once

#include "pipeline/check.h"
#include "triage/triage.h"

namespace cudiff::pipeline {

/// How a stored finding is checked again (a bucket's reduction, a recheck): the configs and mode
/// of the campaign that found it, the bucket's stage assumed (these checks are never
/// attributed), a false rejection judged against "must accept" (the stored reproducer has no
/// sidecar), the compile and run limits recorded with the finding (a person's file's where it
/// recorded none). The input is left to the caller.
CheckRequest stored_check_request(const triage::Database& db, const triage::Bucket& bucket,
                                  const triage::StoredFinding& finding);

/// The signature key a bucket's findings show: its own, or, for a bucket split from a
/// signature's by cause (docs/triage.md, "Cause keys"), that signature's. What a recheck, a
/// bisection and a reduction look for in a check's findings.
std::string signature_key(const triage::Database& db, const triage::Bucket& bucket);

} // namespace cudiff::pipeline
