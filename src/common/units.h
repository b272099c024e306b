// Units used everywhere inside slotflow: bytes, seconds, bytes per second (SPEC §1),
// and the parsers that read them from config files and the command line.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

namespace slotflow {

using Bytes = double;
using Seconds = double;
using BytesPerSecond = double;

inline constexpr Seconds kForever = std::numeric_limits<double>::infinity();
inline constexpr Bytes kMiB = 1024.0 * 1024.0;
inline constexpr Bytes kMB = 1e6;

// Each parser accepts a plain number (already in the base unit) or a number with a unit
// suffix, and throws InputError naming `field` on anything else (including negatives).
//   bytes: B, KB, MB, GB, TB (10^3 steps), KiB, MiB, GiB, TiB (2^10 steps)
//   rates: bps, Kbps, Mbps, Gbps (bits/s), B/s, KB/s, MB/s, GB/s, MiB/s, GiB/s
//   times: s, ms, us, min, h
Bytes ParseBytes(std::string_view text, std::string_view field);
BytesPerSecond ParseRate(std::string_view text, std::string_view field);
Seconds ParseSeconds(std::string_view text, std::string_view field);

// Human-readable forms for tables ("1.5 GiB", "120 ms").
std::string FormatBytes(Bytes b);
std::string FormatSeconds(Seconds s);
// A time in seconds without its unit, with digits enough for its scale: three decimals from
// 1 s up (12.345), three significant digits below (0.0234, 0.000234), so a sub-millisecond
// flow does not print as 0.000.
std::string FormatTime(Seconds s);

}  // namespace slotflow
