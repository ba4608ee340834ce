// The guide (section I.4.6): typeid is not supported in device code. nvcc rejects it ("The
// operator 'typeid' is not allowed in device code"); clang-22 accepts it. Rules catalog
// R-RTTI-TYPEID.
#include <typeinfo>

__device__ void uses_typeid() {
  (void)typeid(int); // expected-error: R-RTTI-TYPEID
}
