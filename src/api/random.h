// Rng: a seeded random source whose outputs are identical on every platform (the standard
// distributions are implementation-defined, so results would differ across libraries).
// Policy API (src/api/): stable, see docs/plugins.md#the-policy-api.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "api/ids.h"

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

// n distinct servers of 0..servers-1 drawn uniformly, in the order drawn (n <= servers): where
// a block's replicas are, or a stage's senders.
inline std::vector<ServerId> DistinctServers(int n, int servers, Rng& rng) {
  std::vector<ServerId> out;
  while (static_cast<int>(out.size()) < n) {
    const auto s = static_cast<ServerId>(rng.UniformInt(servers));
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  }
  return out;
}

}  // namespace slotflow
