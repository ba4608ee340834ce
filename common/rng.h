// Rng: the one source of random choices. An interface, so that a seeded generator and one
// driven by libFuzzer's input bytes stand behind the same calls (Csmith keeps its random
// source an interface for the same reason).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

class FuzzedDataProvider;  // libFuzzer's, <fuzzer/FuzzedDataProvider.h>

namespace cudiff {

class Rng {
public:
  virtual ~Rng() = default;
  /// 64 random bits.
  virtual std::uint64_t next_u64() = 0;

  /// Uniform in [0, n); n == 0 gives 0. Rejection sampling: no modulo bias, and the same
  /// stream of next_u64() values gives the same answers on every platform.
  virtual std::uint64_t below(std::uint64_t n);
  /// Uniform in [lo, hi], inclusive.
  std::int64_t range(std::int64_t lo, std::int64_t hi);
  /// True with probability p (clamped to [0, 1]).
  virtual bool chance(double p);
  /// An index chosen with the given non-negative weights (all zero: uniform).
  virtual std::size_t weighted(const std::vector<double>& weights);

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

/// Decisions read from bytes (libFuzzer's input, through its FuzzedDataProvider), so that every
/// byte string is a valid decision stream and a mutation of a byte changes a decision, not the
/// whole program. Each decision takes only the bytes it needs: below(n) one byte for n <= 256,
/// chance() and weighted() two (a 1/65536 resolution). When the bytes run out, decisions come
/// from a SeededRng over a hash of all the bytes: a short input still names one full program
/// (libFuzzer starts from tiny inputs), and a longer one steers more of it.
class ByteRng final : public Rng {
public:
  /// `data` must outlive the ByteRng.
  ByteRng(const std::uint8_t* data, std::size_t size);
  ~ByteRng() override;
  std::uint64_t next_u64() override;
  std::uint64_t below(std::uint64_t n) override;
  bool chance(double p) override;
  std::size_t weighted(const std::vector<double>& weights) override;

  /// Decisions taken from the bytes, and from the seeded tail once they ran out.
  std::uint64_t byte_decisions() const { return byte_decisions_; }
  std::uint64_t tail_decisions() const { return tail_decisions_; }
  /// fnv1a-64 of the bytes: seeds the tail, and names the input.
  std::uint64_t input_hash() const { return hash_; }

private:
  /// A fraction in [0, 1) from two bytes, or from the tail.
  double fraction();
  bool exhausted() const;
  std::unique_ptr<FuzzedDataProvider> bytes_;
  std::uint64_t hash_;
  SeededRng tail_;
  std::uint64_t byte_decisions_ = 0, tail_decisions_ = 0;
};

} // namespace cudiff
