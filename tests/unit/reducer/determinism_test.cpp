// reducer: parallel testing changes how fast, never what — jobs 1, 2 and 4 give the same
// result even when tests finish in a random order.
#include "reducer/reducer.h"

#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <random>
#include <set>
#include <thread>

using namespace cudiff::reducer;

namespace {

const std::string program = R"(#include <cstdio>
// A counter bumped by a kernel.
__managed__ int counter;
static int unused_helper(int x) { return x * 2 + 1; }
struct Pair { int first; int second; };
__device__ int twice(int v) { return v + v; }
__global__ void bump(int* out, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n) { out[i] = twice(i); }
  atomicAdd(&counter, 1);
}
int main() {
  int* out = nullptr;
  cudaMalloc(&out, 128 * sizeof(int));
  bump<<<4, 32, 0, 0>>>(out, 2 * 64);
  cudaDeviceSynchronize();
  std::printf("counter %d\n", counter);
  return 0;
}
)";

bool balanced(const std::string& text) {
  int braces = 0, parens = 0;
  for (char c : text) {
    braces += c == '{' ? 1 : c == '}' ? -1 : 0;
    parens += c == '(' ? 1 : c == ')' ? -1 : 0;
    if (braces < 0 || parens < 0) return false;
  }
  return braces == 0 && parens == 0;
}

/// A stand-in for a compiler: the managed variable, its use in a kernel and a launch stay, the
/// text stays balanced. Each answer takes a random 0-2 ms, so parallel tests finish out of order.
class SlowPredicate {
public:
  explicit SlowPredicate(unsigned seed) : random_(seed) {}
  bool operator()(const std::string& text) {
    int delay_us;
    {
      std::lock_guard lock(mutex_);
      delay_us = static_cast<int>(random_() % 2000);
      threads_.insert(std::this_thread::get_id());
    }
    std::this_thread::sleep_for(std::chrono::microseconds(delay_us));
    return text.find("__managed__ int counter;") != std::string::npos &&
           text.find("atomicAdd(&counter") != std::string::npos && text.find("<<<") != std::string::npos &&
           text.find("__global__") != std::string::npos && balanced(text);
  }
  std::size_t threads() const { return threads_.size(); }

private:
  std::mutex mutex_;
  std::mt19937 random_;
  std::set<std::thread::id> threads_;
};

Result reduce_with_jobs(std::size_t jobs, unsigned seed, std::size_t* threads = nullptr) {
  SlowPredicate predicate(seed);
  Options options;
  options.jobs = jobs;
  Result result = reduce(program, [&](const std::string& t) { return predicate(t); }, options);
  if (threads != nullptr) *threads = predicate.threads();
  return result;
}

} // namespace

TEST(ReducerDeterminism, JobsOneTwoAndFourGiveTheSameResult) {
  const Result one = reduce_with_jobs(1, 1);
  std::size_t threads = 0;
  const Result two = reduce_with_jobs(2, 2, &threads);
  const Result four = reduce_with_jobs(4, 3);
  EXPECT_EQ(one.text, two.text);
  EXPECT_EQ(one.text, four.text);
  EXPECT_EQ(one.accepted, two.accepted);  // the same path, step by step
  EXPECT_EQ(one.accepted, four.accepted);
  EXPECT_GT(threads, 1u);                 // and the tests really ran in parallel
  EXPECT_LT(one.text.size(), program.size() / 4) << one.text;
}

TEST(ReducerDeterminism, TheSameJobsTwiceGiveTheSameResult) {
  EXPECT_EQ(reduce_with_jobs(2, 5).text, reduce_with_jobs(2, 6).text);
}
