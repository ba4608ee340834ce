// Rng: the one source of random choices. An interface, so that a seeded generator and (later)
// one driven by libFuzzer's input bytes can stand behind the same calls (Csmith keeps its
// random source an interface for the same reason).
#pragma once

#include <cstdint>
#include <vector>

namespace cudiff {

class Rng {
public:
  virtual ~Rng() = default;
  /// 64 random bits.
  virtual std::uint64_t next_u64() = 0;

  /// Uniform in [0, n); n == 0 gives 0. Rejection sampling: no modulo bias, and the same
  /// stream of next_u64() values gives the same answers on every platform.
  std::uint64_t below(std::uint64_t n);
  /// Uniform in [lo, hi], inclusive.
  std::int64_t range(std::int64_t lo, std::int64_t hi);
  /// True with probability p (clamped to [0, 1]).
  bool chance(double p);
  /// An index chosen with the given non-negative weights (all zero: uniform).
  std::size_t weighted(const std::vector<double>& weights);

  template <typename T>
  const T& pick(const std::vector<T>& items) {
    return items[static_cast<std::size_t>(below(items.size()))];
  }
};

/// xoshiro256** seeded through splitmix64: fast, and fully specified, so a seed means the same
/// program on every host and compiler (std::mt19937 is, but std's distributions are not).
class SeededRng final : public Rng {
public:
  explicit SeededRng(std::uint64_t seed);
  std::uint64_t next_u64() override;

private:
  std::uint64_t state_[4];
};

} // namespace cudiff
