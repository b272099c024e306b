#include "api/class_key.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>

#include "api/units.h"

namespace slotflow {
namespace {

// Whole microseconds of the engine's longest time: 2^40 · 10^6 < 2^60.
constexpr int kTimeBits = 60;
static_assert(kMaxSimulatedTime * 1e6 < static_cast<double>(uint64_t{1} << kTimeBits));
constexpr int kSizeBits = 63;

int BitsFor(int64_t n) { return std::bit_width(static_cast<uint64_t>(n - 1)); }

}  // namespace

ClassKeys::ClassKeys(int64_t levels, Key key, int64_t counts)
    : levels_(levels), key_(key), counts_(counts) {
  if (levels < 1 || levels > (int64_t{1} << 62)) {
    throw std::logic_error(fmt::format("ClassKeys: {} levels (1 .. 2^62)", levels));
  }
  if (key == Key::kCount && counts < 1) {
    throw std::logic_error(fmt::format("ClassKeys: {} counts", counts));
  }
  level_bits_ = BitsFor(levels);
  const int wanted = key == Key::kTime   ? kTimeBits
                     : key == Key::kSize ? kSizeBits
                                         : BitsFor(counts);
  centred_ = level_bits_ + wanted > 63;
  key_bits_ = centred_ ? 64 - level_bits_ : wanted;
  if (key != Key::kTime && key_bits_ < wanted) {
    throw std::logic_error(fmt::format("ClassKeys: {} levels leave {} bits, a key needs {}", levels,
                                       key_bits_, wanted));
  }
}

void ClassKeys::Expect(Key kind) const {
  if (kind != key_) throw std::logic_error("ClassKeys: a key of another kind");
}

FlowClass ClassKeys::Pack(int64_t level, uint64_t key) const {
  if (level < 0 || level >= levels_) {
    throw std::logic_error(fmt::format("ClassKeys: level {} of {}", level, levels_));
  }
  const uint64_t u = (static_cast<uint64_t>(level) << key_bits_) + key;  // < 2^64
  // Centred: (level − 2^(b−1)) · 2^K + key is u less 2^63, u with its top bit flipped.
  return std::bit_cast<FlowClass>(centred_ ? u ^ (uint64_t{1} << 63) : u);
}

FlowClass ClassKeys::Time(int64_t level, Seconds t) const {
  Expect(Key::kTime);
  const uint64_t us =
      static_cast<uint64_t>(std::floor(std::clamp(t, 0.0, kMaxSimulatedTime) * 1e6));
  if (key_bits_ >= kTimeBits) return Pack(level, us);
  // 1 µs below 2^(k−1); above, the (2^60 − 2^(k−1)) µs left squeezed into 2^(k−1) keys.
  const uint64_t exact = uint64_t{1} << (key_bits_ - 1);
  return Pack(level, us < exact ? us : exact + ((us - exact) >> (kTimeBits + 1 - key_bits_)));
}

FlowClass ClassKeys::Size(int64_t level, double size) const {
  Expect(Key::kSize);
  if (!(size >= 0)) throw std::logic_error(fmt::format("ClassKeys: size key {}", size));
  return Pack(level, std::bit_cast<uint64_t>(size + 0.0));  // + 0.0: -0.0 is 0
}

FlowClass ClassKeys::Count(int64_t level, int64_t count) const {
  Expect(Key::kCount);
  if (count < 0 || count >= counts_) {
    throw std::logic_error(fmt::format("ClassKeys: count key {} of {}", count, counts_));
  }
  return Pack(level, static_cast<uint64_t>(count));
}

}  // namespace slotflow
