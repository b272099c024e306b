// TieBreak: which of several candidates that tie on every criterion a placement rule picks.
// Papers name the criterion and not the tie-break; taking the first (lowest id, as candidates
// come in id order) sends every tie to the same few servers, and on a two-tier cluster to the
// same rack, a bias no paper describes. So by default a tie is broken uniformly at random from
// a seeded Rng, in one pass (reservoir sampling); the same seed gives the same choices.
#pragma once

#include <cstdint>

#include "common/random.h"
#include "common/settings.h"

namespace slotflow {

// The `ties` setting: random (the default) or first.
SettingSpec TieSetting();

class TieBreak {
 public:
  // `settings` declares TieSetting; `seed` is the run's, salted per scheduler by `salt`.
  TieBreak(const Settings& settings, uint64_t seed, uint64_t salt);

  // A new choice starts: the next candidate is the first.
  void Start() { equal_ = 0; }
  // The candidate is strictly better than the best so far, so it becomes the best.
  void Better() { equal_ = 1; }
  // The candidate ties with the best so far: whether it takes the best's place (each of n tied
  // candidates ends up chosen with probability 1/n; never, with ties = first).
  bool Equal() {
    ++equal_;
    return random_ && rng_.UniformInt(equal_) == 0;
  }

 private:
  bool random_;
  Rng rng_;
  int64_t equal_ = 0;
};

}  // namespace slotflow
