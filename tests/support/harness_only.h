// bench/policies/harness_only.json as a policy: programs whose host side is only the generator's
// harness (no aggregate types, no planted probes, no extended lambdas, no managed memory), the
// tests the device path builds. One file for the benchmarks and the tests alike.
#pragma once

#include "generator/generator.h"
#include "support/test_support.h"

namespace cudiff::test {

inline generator::Policy harness_only_policy() {
  return generator::Policy::load(read_file(source_dir() / "bench" / "policies" / "harness_only.json"));
}

} // namespace cudiff::test
