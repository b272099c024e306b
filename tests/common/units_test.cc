#include "common/units.h"

#include <gtest/gtest.h>

#include <string>

#include "common/error.h"

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
  EXPECT_DOUBLE_EQ(ParseSeconds("1e300", "f"), 1e300);  // the engine's time limit reports it
}

}  // namespace
}  // namespace slotflow
