// The guide (section I.4.5.1): __constant__ variables are assigned only from host code through
// the runtime, never from device code. nvcc rejects the assignment ("expression must be a
// modifiable lvalue"); clang-22 accepts it. Rules catalog R-CONSTANT-NO-DEV-ASSIGN.
__constant__ int limit;

__global__ void set_limit(int v) {
  limit = v; // expected-error: R-CONSTANT-NO-DEV-ASSIGN
}
