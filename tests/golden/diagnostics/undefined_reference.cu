// Declared, never defined, used from host code: rejected by the host linker.
void host_missing();

__global__ void kernel(int* out) { out[0] = 1; }

int main() {
  host_missing();
  return 0;
}
