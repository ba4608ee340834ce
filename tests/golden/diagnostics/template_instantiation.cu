// An error inside a template, with the instantiation backtrace that led to it.
template <typename T>
__device__ int get(T t) {
  return t.value();
}

template <typename T>
__global__ void kernel(T t, int* out) {
  out[0] = get(t);
}

int main() {
  kernel<<<1, 1>>>(42, nullptr);
  return 0;
}
