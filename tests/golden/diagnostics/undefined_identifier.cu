// Plain errors: an undefined identifier and a type mismatch, in device and host code.
__global__ void kernel(int* out) {
  out[0] = foo;
  int* p = 1.5f;
  out[1] = *p;
}

int main() {
  const char* s = 42;
  return bar(s);
}
