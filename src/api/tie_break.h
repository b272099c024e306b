// TieBreak: which of several candidates that tie on every criterion a placement rule picks.
// Papers name the criterion and not the tie-break; taking the first (lowest id, as candidates
// come in id order) sends every tie to the same few servers, and on a two-tier cluster to the
// same rack, a bias no paper describes. So by default a tie is broken uniformly at random from
// a seeded Rng, in one pass (reservoir sampling); the same seed gives the same choices.
// Policy API (src/api/): stable, see docs/plugins.md#the-policy-api.
#pragma once

#include <cstdint>
#include <vector>

#include "api/ids.h"
#include "api/random.h"
#include "api/settings.h"

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

  // The server of `servers` whose key_of(s) is smallest (any key ordered by <), ties broken as
  // set; kNoServer if there is none. `chosen` gets the winner's key.
  template <class Key, class KeyOf>
  ServerId Smallest(const std::vector<ServerId>& servers, KeyOf key_of, Key& chosen) {
    ServerId best = kNoServer;
    Start();
    for (ServerId s : servers) {
      const Key key = key_of(s);
      if (best == kNoServer || key < chosen) {
        Better();
      } else if (chosen < key || !Equal()) {
        continue;
      }
      best = s;
      chosen = key;
    }
    return best;
  }

 private:
  bool random_;
  Rng rng_;
  int64_t equal_ = 0;
};

}  // namespace slotflow
