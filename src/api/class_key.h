// FlowClass numbers for policies that rank a flow by a level and then, inside the level, by a
// tie key: Aalo's queue then its coflow's arrival, a size then a first-come index (cans), or
// one level keyed by an arrival time or a size (coflow-order policies with unlimited queues).
// Every class of a lower level comes before every class of a higher one; inside a level a
// smaller key comes first. Policies build their classes here rather than packing bits by hand.
//
// Key kinds and the bits they take:
//  - kTime: seconds, as whole microseconds over the engine's whole range, 0 to
//    kMaxSimulatedTime = 2^40 s (under 2^60 µs): 60 bits.
//  - kSize: a non-negative number (bytes, a flow count), exactly: every distinct value, whole or
//    not, its own key (the bit pattern of a non-negative double orders like the value): 63 bits.
//  - kCount: a whole number in [0, counts): the bits of counts − 1.
//
// Layout: the level takes the fewest bits b that count `levels` levels, the key K bits as
// above. When b + K <= 63 the class is level · 2^K + key, never negative (with one level, the
// key itself). When b + K = 64, the whole signed range: (level − 2^(b−1)) · 2^K + key, so 16
// levels of times keep every microsecond up to 2^40 s. Beyond that a time key gets the 64 − b
// bits left, k: times keep 1 µs below 2^(k−1) µs (2^57 µs, about 4,500 years, for the 64 queues
// of unlimited Aalo; 2^47 µs, about 4.4 years, for the 2^16 queues the `queues` setting allows)
// and 2^(b−3) µs above it (8 µs and about 8 ms), so that 2^40 s still fits: two times never
// compare the wrong way round, but late ones that close may share a class. A size or count key
// that does not fit beside the levels is refused when the ClassKeys is made.
//
// A level outside [0, levels), a key of another kind, a negative or NaN size, or a count outside
// [0, counts) is a policy bug: std::logic_error.
// Policy API (src/api/): stable, see docs/plugins.md#the-policy-api.
#pragma once

#include <cstdint>

#include "api/ids.h"
#include "api/units.h"

namespace slotflow {

class ClassKeys {
 public:
  enum class Key { kTime, kSize, kCount };

  // Levels 0 .. levels − 1 (1 <= levels <= 2^62) with keys of kind `key`; `counts` for kCount.
  ClassKeys(int64_t levels, Key key, int64_t counts = 0);

  FlowClass Time(int64_t level, Seconds t) const;
  FlowClass Size(int64_t level, double size) const;
  FlowClass Count(int64_t level, int64_t count) const;

  int level_bits() const { return level_bits_; }
  int key_bits() const { return key_bits_; }

 private:
  FlowClass Pack(int64_t level, uint64_t key) const;
  void Expect(Key kind) const;

  int64_t levels_;
  Key key_;
  int64_t counts_;
  int level_bits_;
  int key_bits_;  // what the layout gives the key
  bool centred_;  // b + K = 64 or more: the signed range
};

}  // namespace slotflow
