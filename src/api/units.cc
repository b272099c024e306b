#include "api/units.h"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <utility>

#include "api/error.h"

namespace slotflow {
namespace {

struct Suffix {
  std::string_view name;
  double factor;
};

// Splits "12.5Gbps" into 12.5 and "Gbps"; whitespace between them is allowed. The result in
// the base unit must be finite and at most `max`, whose text `max_text` the message shows.
double ParseWithSuffixes(std::string_view text, std::string_view field, std::string_view kind,
                         const Suffix* suffixes, size_t n, double max, std::string_view max_text) {
  std::string_view t = text;
  while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
  while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
  double value = 0;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
  if (ec != std::errc() || end == t.data()) {
    throw InputError(
        "", 0, std::string(field),
        fmt::format("expected a {} such as {}, got '{}'", kind,
                    suffixes[1].name.empty() ? "" : fmt::format("'10{}'", suffixes[1].name), text));
  }
  std::string_view unit(end, t.data() + t.size() - end);
  while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
  if (!std::isfinite(value) || value < 0) {
    // What a bare number is read in, for a reader who meant another unit.
    const std::string_view base = kind == "rate" ? "bytes/s" : kind == "size" ? "bytes" : "seconds";
    throw InputError("", 0, std::string(field),
                     fmt::format("{} must be a finite non-negative number, got '{}' (a number "
                                 "without a unit is in {})",
                                 kind, text, base));
  }
  for (size_t i = 0; i < n; ++i) {
    if (unit != suffixes[i].name) continue;
    const double result = value * suffixes[i].factor;
    if (!std::isfinite(result)) {
      throw InputError("", 0, std::string(field),
                       fmt::format("{} '{}' overflows: it is not a finite number", kind, text));
    }
    if (result > max) {
      throw InputError("", 0, std::string(field),
                       fmt::format("{} '{}' is larger than {}, the most slotflow accepts", kind,
                                   text, max_text));
    }
    return result;
  }
  std::string known;
  for (size_t i = 0; i < n; ++i) {
    if (suffixes[i].name.empty()) continue;
    if (!known.empty()) known += ", ";
    known += suffixes[i].name;
  }
  throw InputError(
      "", 0, std::string(field),
      fmt::format("unknown {} unit '{}' in '{}' (known: {})", kind, unit, text, known));
}

constexpr std::array kByteSuffixes{
    Suffix{"", 1},
    Suffix{"B", 1},
    Suffix{"KB", 1e3},
    Suffix{"MB", 1e6},
    Suffix{"GB", 1e9},
    Suffix{"TB", 1e12},
    Suffix{"PB", 1e15},
    Suffix{"KiB", 1024.0},
    Suffix{"MiB", 1024.0 * 1024},
    Suffix{"GiB", 1024.0 * 1024 * 1024},
    Suffix{"TiB", 1024.0 * 1024 * 1024 * 1024},
    Suffix{"PiB", 1024.0 * 1024 * 1024 * 1024 * 1024},
};
constexpr std::array kRateSuffixes{
    Suffix{"", 1},
    Suffix{"Gbps", 1e9 / 8},
    Suffix{"bps", 1.0 / 8},
    Suffix{"Kbps", 1e3 / 8},
    Suffix{"Mbps", 1e6 / 8},
    Suffix{"Tbps", 1e12 / 8},
    Suffix{"B/s", 1},
    Suffix{"KB/s", 1e3},
    Suffix{"MB/s", 1e6},
    Suffix{"GB/s", 1e9},
    Suffix{"KiB/s", 1024.0},
    Suffix{"MiB/s", 1024.0 * 1024},
    Suffix{"GiB/s", 1024.0 * 1024 * 1024},
};
constexpr std::array kTimeSuffixes{
    Suffix{"", 1},      Suffix{"s", 1},    Suffix{"ms", 1e-3},
    Suffix{"us", 1e-6}, Suffix{"min", 60}, Suffix{"h", 3600},
};

constexpr std::string_view kMaxTimeText = "2^39 s (about 17,000 years, half the simulator's range)";

double CheckBound(double value, const std::string& file, int line, std::string_view field,
                  std::string_view kind, double max, std::string_view max_text) {
  if (!std::isfinite(value) || value < 0) {
    throw InputError(file, line, std::string(field),
                     fmt::format("{} must be a finite non-negative number, got {:g}", kind, value));
  }
  if (value > max) {
    throw InputError(
        file, line, std::string(field),
        fmt::format("{} {:g} is larger than {}, the most slotflow accepts", kind, value, max_text));
  }
  return value;
}

}  // namespace

Bytes ParseBytes(std::string_view text, std::string_view field) {
  return ParseWithSuffixes(text, field, "size", kByteSuffixes.data(), kByteSuffixes.size(),
                           kMaxBytes, "1 EB (1e18 bytes)");
}
BytesPerSecond ParseRate(std::string_view text, std::string_view field) {
  return ParseWithSuffixes(text, field, "rate", kRateSuffixes.data(), kRateSuffixes.size(),
                           kMaxRate, "1 EB/s (1e18 bytes/s)");
}
Seconds ParseSeconds(std::string_view text, std::string_view field) {
  return ParseWithSuffixes(text, field, "duration", kTimeSuffixes.data(), kTimeSuffixes.size(),
                           kMaxInputTime, kMaxTimeText);
}
Seconds ParseWaitSeconds(std::string_view text, std::string_view field) {
  return ParseWithSuffixes(text, field, "duration", kTimeSuffixes.data(), kTimeSuffixes.size(),
                           kMaxWaitTime, "30 days");
}

Bytes CheckBytes(double value, const std::string& file, int line, std::string_view field) {
  return CheckBound(value, file, line, field, "size", kMaxBytes, "1 EB (1e18 bytes)");
}
Seconds CheckSeconds(double value, const std::string& file, int line, std::string_view field) {
  return CheckBound(value, file, line, field, "time", kMaxInputTime, kMaxTimeText);
}

std::string FormatBytes(Bytes b) {
  constexpr std::array<std::pair<double, const char*>, 4> kSteps{
      {{1024.0 * 1024 * 1024 * 1024, "TiB"},
       {1024.0 * 1024 * 1024, "GiB"},
       {1024.0 * 1024, "MiB"},
       {1024.0, "KiB"}}};
  for (auto [f, name] : kSteps) {
    if (b >= f) return fmt::format("{:.2f} {}", b / f, name);
  }
  return fmt::format("{:.0f} B", b);
}

std::string FormatSeconds(Seconds s) {
  if (s < 1) return fmt::format("{:.1f} ms", s * 1e3);
  return fmt::format("{:.2f} s", s);
}

std::string FormatTime(Seconds s) {
  if (!(std::abs(s) < 1) || s == 0) return fmt::format("{:.3f}", s);
  return fmt::format("{:.3g}", s);
}

}  // namespace slotflow
