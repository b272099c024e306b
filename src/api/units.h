// Units used everywhere inside slotflow: bytes, seconds, bytes per second,
// and the parsers that read them from config files and the command line.
// Policy API (src/api/): stable, see docs/plugins.md#the-policy-api.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

namespace slotflow {

using Bytes = double;
using Seconds = double;
// The engine stops before an event later than this: past 2^40 s (35,000 years) a double no
// longer resolves a tenth of a millisecond, so later times would be silently inexact.
inline constexpr Seconds kMaxSimulatedTime = 1099511627776.0;
using BytesPerSecond = double;

inline constexpr Seconds kForever = std::numeric_limits<double>::infinity();
inline constexpr Bytes kMiB = 1024.0 * 1024.0;
inline constexpr Bytes kMB = 1e6;

// The largest size and rate the parsers accept: 1 EB (10^18 bytes) and 1 EB/s. A whole data
// centre stores a few exabytes, and no disk, NIC or slot moves a millionth of that per second,
// so a larger value is a typo (a unit too many, an exponent off); bounding it also keeps sums
// over millions of tasks far from overflow.
inline constexpr Bytes kMaxBytes = 1e18;
inline constexpr BytesPerSecond kMaxRate = 1e18;

// The largest time or duration the parsers accept: half the simulator's range, 2^39 s (about
// 17,000 years), so that no one value can take a run past kMaxSimulatedTime on its own.
inline constexpr Seconds kMaxInputTime = kMaxSimulatedTime / 2;
// The longest wall-clock wait a flag accepts (live mode's deadlines and timeouts): 30 days.
inline constexpr Seconds kMaxWaitTime = 30 * 86400.0;

// Each parser accepts a plain number (already in the base unit) or a number with a unit
// suffix, and throws InputError naming `field` on anything else: negatives, values that overflow
// a double once the unit is applied ("1e300TiB"), and sizes or rates above kMaxBytes / kMaxRate.
//   bytes: B, KB, MB, GB, TB, PB (10^3 steps), KiB, MiB, GiB, TiB, PiB (2^10 steps)
//   rates: bps, Kbps, Mbps, Gbps (bits/s), B/s, KB/s, MB/s, GB/s, MiB/s, GiB/s
//   times: s, ms, us, min, h
Bytes ParseBytes(std::string_view text, std::string_view field);
BytesPerSecond ParseRate(std::string_view text, std::string_view field);
Seconds ParseSeconds(std::string_view text, std::string_view field);
// A wall-clock wait (a timeout, a deadline): a duration of at most kMaxWaitTime.
Seconds ParseWaitSeconds(std::string_view text, std::string_view field);

// The same bounds for a number read without a unit (a trace's column, already in bytes or
// seconds): InputError(file, line, field) when it is negative, not finite, or a size above
// kMaxBytes or a time above kMaxInputTime.
Bytes CheckBytes(double value, const std::string& file, int line, std::string_view field);
Seconds CheckSeconds(double value, const std::string& file, int line, std::string_view field);

// Human-readable forms for tables ("1.5 GiB", "120 ms").
std::string FormatBytes(Bytes b);
std::string FormatSeconds(Seconds s);
// A time in seconds without its unit, with digits enough for its scale: three decimals from
// 1 s up (12.345), three significant digits below (0.0234, 0.000234), so a sub-millisecond
// flow does not print as 0.000.
std::string FormatTime(Seconds s);

}  // namespace slotflow
