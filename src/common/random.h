// Rng: a seeded random source whose outputs are identical on every platform (the standard
// distributions are implementation-defined, so results would differ across libraries).
#pragma once

#include <cmath>
#include <cstdint>
#include <random>

namespace slotflow {

class Rng {
 public:
  explicit Rng(uint64_t seed) : engine_(seed) {}

  uint64_t Next() { return engine_(); }
  // Uniform in [0, 1).
  double Uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  double Uniform(double lo, double hi) { return lo + (hi - lo) * Uniform(); }
  // Uniform integer in [0, n), n > 0 (multiply-shift; bias below 2^-32 for realistic n).
  int64_t UniformInt(int64_t n) {
    return static_cast<int64_t>(
        (static_cast<unsigned __int128>(engine_()) * static_cast<uint64_t>(n)) >> 64);
  }
  double Exponential(double mean) { return -mean * std::log1p(-Uniform()); }

 private:
  std::mt19937_64 engine_;
};

}  // namespace slotflow
