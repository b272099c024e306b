#include "api/units.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "api/error.h"

namespace slotflow {
namespace {

// The message of the InputError `parse` throws, or "" when it throws none.
template <class F>
std::string ErrorOf(F parse) {
  try {
    parse();
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "f");
    return e.message();
  }
  return "";
}

TEST(Units, ParsesEveryUnit) {
  EXPECT_DOUBLE_EQ(ParseBytes("2PB", "f"), 2e15);
  EXPECT_DOUBLE_EQ(ParseBytes("1PiB", "f"), 1125899906842624.0);
  EXPECT_DOUBLE_EQ(ParseRate("8Gbps", "f"), 1e9);
  EXPECT_DOUBLE_EQ(ParseSeconds("2 min", "f"), 120);
}

TEST(Units, OverflowIsAnError) {
  EXPECT_NE(ErrorOf([] { ParseBytes("1e300TiB", "f"); }).find("overflows"), std::string::npos);
  EXPECT_NE(ErrorOf([] { ParseRate("1e308GB/s", "f"); }).find("overflows"), std::string::npos);
  EXPECT_NE(ErrorOf([] { ParseSeconds("1e308h", "f"); }).find("overflows"), std::string::npos);
  EXPECT_NE(ErrorOf([] { ParseBytes("1e400", "f"); }), "");
}

TEST(Units, SizesAndRatesAreBoundedAtOneExabyte) {
  EXPECT_DOUBLE_EQ(ParseBytes("1e18", "f"), kMaxBytes);
  EXPECT_NE(ErrorOf([] { ParseBytes("1e300TiB", "f"); }), "");
  EXPECT_NE(ErrorOf([] { ParseBytes("1001PB", "f"); }).find("1 EB"), std::string::npos);
  EXPECT_NE(ErrorOf([] { ParseRate("2e18", "f"); }).find("1 EB/s"), std::string::npos);
}

// Half the simulator's range, so that no one time or duration takes a run past it alone.
TEST(Units, TimesAreBoundedAtHalfTheSimulatorsRange) {
  EXPECT_DOUBLE_EQ(ParseSeconds("549755813888", "f"), kMaxInputTime);
  EXPECT_DOUBLE_EQ(kMaxInputTime * 2, kMaxSimulatedTime);
  EXPECT_NE(ErrorOf([] { ParseSeconds("549755813889", "f"); }).find("2^39 s"), std::string::npos);
  EXPECT_NE(ErrorOf([] { ParseSeconds("1e308", "f"); }).find("2^39 s"), std::string::npos);
  EXPECT_NE(ErrorOf([] { ParseSeconds("200000000h", "f"); }).find("2^39 s"), std::string::npos);
}

TEST(Units, WaitsAreBoundedAtThirtyDays) {
  EXPECT_DOUBLE_EQ(ParseWaitSeconds("720h", "f"), 30 * 86400.0);
  EXPECT_NE(ErrorOf([] { ParseWaitSeconds("721h", "f"); }).find("30 days"), std::string::npos);
  EXPECT_NE(ErrorOf([] { ParseWaitSeconds("1e10", "f"); }).find("30 days"), std::string::npos);
  EXPECT_NE(ErrorOf([] { ParseWaitSeconds("-1s", "f"); }), "");
}

// Numbers read without a unit (trace columns) meet the parsers' bounds, at their line.
TEST(Units, UnitlessValuesMeetTheSameBounds) {
  EXPECT_DOUBLE_EQ(CheckBytes(1e18, "t", 3, "f"), 1e18);
  EXPECT_DOUBLE_EQ(CheckSeconds(0, "t", 3, "f"), 0);
  auto at = [](auto check) {
    try {
      check();
    } catch (const InputError& e) {
      return fmt::format("{}:{} {}: {}", e.file(), e.line(), e.field(), e.message());
    }
    return std::string();
  };
  EXPECT_EQ(at([] { CheckBytes(1e300, "t", 3, "f"); }),
            "t:3 f: size 1e+300 is larger than 1 EB (1e18 bytes), the most slotflow accepts");
  EXPECT_EQ(at([] { CheckSeconds(1e15, "t", 4, "g"); }),
            "t:4 g: time 1e+15 is larger than 2^39 s (about 17,000 years, half the simulator's "
            "range), the most slotflow accepts");
  EXPECT_NE(at([] { CheckBytes(-1, "t", 1, "f"); }).find("non-negative"), std::string::npos);
  EXPECT_NE(at([] { CheckSeconds(std::nan(""), "t", 1, "f"); }).find("finite"), std::string::npos);
}

}  // namespace
}  // namespace slotflow
