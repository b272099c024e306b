#include "network_scenario.h"

namespace slotflow::testing {
namespace {

TEST(FairPolicy, FlowsIntoOneReceiverShareItsDownlink) {
  NetworkScenario s;
  s.flows = {{.start = 0, .src = 0, .dst = 2, .size = 1},
             {.start = 0, .src = 1, .dst = 2, .size = 3}};
  const auto finish = s.Run();
  EXPECT_DOUBLE_EQ(finish[0], 2);  // 1 at rate 1/2
  EXPECT_DOUBLE_EQ(finish[1], 4);  // 1 sent by t=2, 2 more at rate 1
}

TEST(FairPolicy, ALateFlowSlowsTheEarlyOne) {
  NetworkScenario s;
  s.flows = {{.start = 0, .src = 0, .dst = 1, .size = 4},
             {.start = 1, .src = 2, .dst = 1, .size = 1}};
  const auto finish = s.Run();
  EXPECT_DOUBLE_EQ(finish[1], 3);  // shares from t=1 at 1/2
  EXPECT_DOUBLE_EQ(finish[0], 5);  // 1 by t=1, 1 more by t=3, 2 alone
}

}  // namespace
}  // namespace slotflow::testing
