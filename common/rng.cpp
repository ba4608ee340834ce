// Rng helpers and the seeded xoshiro256** implementation.
#include "common/rng.h"

#include "common/common.h"

#include <algorithm>
#include <fuzzer/FuzzedDataProvider.h>  // header-only, shipped with clang: no libFuzzer link

namespace cudiff {
namespace {

std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

} // namespace

std::uint64_t Rng::below(std::uint64_t n) {
  if (n <= 1) return 0;
  const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % n);
  std::uint64_t value;
  do value = next_u64();
  while (value >= limit);
  return value % n;
}

std::int64_t Rng::range(std::int64_t lo, std::int64_t hi) {
  if (hi <= lo) return lo;
  const std::uint64_t span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
  const std::uint64_t offset = span == ~std::uint64_t{0} ? next_u64() : below(span + 1);
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + offset);
}

bool Rng::chance(double p) {
  if (p <= 0) return false;
  if (p >= 1) return true;
  // 53 random bits as a double in [0, 1): exact and platform independent.
  return static_cast<double>(next_u64() >> 11) * 0x1.0p-53 < p;
}

std::size_t Rng::weighted(const std::vector<double>& weights) {
  double total = 0;
  for (double w : weights) total += std::max(w, 0.0);
  if (weights.empty()) return 0;
  if (total <= 0) return static_cast<std::size_t>(below(weights.size()));
  double point = static_cast<double>(next_u64() >> 11) * 0x1.0p-53 * total;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    point -= std::max(weights[i], 0.0);
    if (point < 0) return i;
  }
  return weights.size() - 1;
}

SeededRng::SeededRng(std::uint64_t seed) {
  for (auto& word : state_) word = splitmix64(seed);
}

std::uint64_t SeededRng::next_u64() {
  const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
  const std::uint64_t t = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= t;
  state_[3] = rotl(state_[3], 45);
  return result;
}

ByteRng::ByteRng(const std::uint8_t* data, std::size_t size)
    : bytes_(std::make_unique<FuzzedDataProvider>(data, size)),
      hash_(fnv1a64(std::string_view(reinterpret_cast<const char*>(data), size))), tail_(hash_) {}

ByteRng::~ByteRng() = default;

bool ByteRng::exhausted() const { return bytes_->remaining_bytes() == 0; }

std::uint64_t ByteRng::next_u64() {
  if (exhausted()) {
    ++tail_decisions_;
    return tail_.next_u64();
  }
  ++byte_decisions_;
  return bytes_->ConsumeIntegral<std::uint64_t>();
}

std::uint64_t ByteRng::below(std::uint64_t n) {
  if (n <= 1) return 0;
  if (exhausted()) {
    ++tail_decisions_;
    return tail_.below(n);
  }
  ++byte_decisions_;
  return bytes_->ConsumeIntegralInRange<std::uint64_t>(0, n - 1);
}

double ByteRng::fraction() {
  if (exhausted()) {
    ++tail_decisions_;
    return static_cast<double>(tail_.next_u64() >> 11) * 0x1.0p-53;
  }
  ++byte_decisions_;
  return static_cast<double>(bytes_->ConsumeIntegral<std::uint16_t>()) / 65536.0;
}

bool ByteRng::chance(double p) {
  if (p <= 0) return false;
  if (p >= 1) return true;
  return fraction() < p;
}

std::size_t ByteRng::weighted(const std::vector<double>& weights) {
  double total = 0;
  for (double w : weights) total += std::max(w, 0.0);
  if (weights.empty()) return 0;
  if (total <= 0) return static_cast<std::size_t>(below(weights.size()));
  double point = fraction() * total;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    point -= std::max(weights[i], 0.0);
    if (point < 0) return i;
  }
  return weights.size() - 1;
}

} // namespace cudiff
