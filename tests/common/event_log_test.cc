#include "common/event_log.h"

#include <gtest/gtest.h>

#include <limits>
#include <sstream>

namespace slotflow {
namespace {

TEST(EventLog, WritesOneJsonObjectPerLineInTheOrderGiven) {
  std::ostringstream out;
  {
    EventLog log(out);
    log.Line(1.5, "place").Int("task", 3).Num("rate", 0.1).Text("name", "A");
    log.Line(2, "reserve").Reasons(Why().Add("mode", "insufficient").Add("rank", 0));
    EXPECT_EQ(log.lines(), 2);
  }
  EXPECT_EQ(out.str(),
            "{\"t\":1.5,\"event\":\"place\",\"task\":3,\"rate\":0.1,\"name\":\"A\"}\n"
            "{\"t\":2,\"event\":\"reserve\",\"why\":{\"mode\":\"insufficient\",\"rank\":0}}\n");
}

TEST(EventLog, EscapesTextAndWritesNonFiniteNumbersAsNull) {
  std::ostringstream out;
  {
    EventLog log(out);
    log.Line(0, "arrive")
        .Text("name", "a \"quoted\"\nname")
        .Num("x", std::numeric_limits<double>::infinity())
        .Num("y", std::numeric_limits<double>::quiet_NaN());
  }
  EXPECT_EQ(out.str(),
            "{\"t\":0,\"event\":\"arrive\",\"name\":\"a \\\"quoted\\\"\\nname\",\"x\":null,"
            "\"y\":null}\n");
}

TEST(EventLog, AnEmptyWhyAddsNothing) {
  std::ostringstream out;
  {
    EventLog log(out);
    log.Line(0, "tick").Reasons(Why());
  }
  EXPECT_EQ(out.str(), "{\"t\":0,\"event\":\"tick\"}\n");
}

TEST(Why, KeepsAtMostItsCapacityInOrder) {
  Why why;
  for (int i = 0; i < Why::kCapacity + 3; ++i) why.Add("k", i);
  ASSERT_EQ(why.size(), Why::kCapacity);
  EXPECT_EQ(why[Why::kCapacity - 1].number, Why::kCapacity - 1);
  Why front;
  front.Add("mode", "sufficient").Append(Why().Add("rule", "idle"));
  ASSERT_EQ(front.size(), 2);
  EXPECT_STREQ(front[1].text, "idle");
}

}  // namespace
}  // namespace slotflow
