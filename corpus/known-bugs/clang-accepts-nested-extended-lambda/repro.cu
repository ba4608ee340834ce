// The guide (section I.6.2, restriction 1) forbids an extended lambda inside another extended
// lambda; nvcc rejects it, clang-22 (which has no extended-lambda mode) accepts it. A
// documented dialect difference (triage/known_differences.json, R-EXTLAM-*).
void outer() {
  auto l1 = [] __host__ __device__ {
    auto l2 = [] __host__ __device__ { return 1; }; // expected-error: R-EXTLAM-01-NESTED
    return l2();
  };
  (void)l1;
}
