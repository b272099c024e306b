// A network that lets finished flows go (Network::KeepFinished, as a run does unless its
// scheduler reads them) gives every flow the same finish time as one that keeps them all, and
// keeps only the records of the chunks that still hold a flow in flight.
#include "network_scenario.h"

namespace slotflow::testing {
namespace {

class LettingFinishedFlowsGo : public ::testing::TestWithParam<const char*> {};

TEST_P(LettingFinishedFlowsGo, LettingThemGoChangesNoFinishTime) {
  NetworkScenario s;
  s.servers = 6;
  s.policy = GetParam();
  // 3 coflows of 3,000 flows one after the other (Varys ends a coflow's flows together), sizes
  // 1..7, starting in waves of 50 every 0.5 s, among 6 servers.
  for (int c = 0; c < 3; ++c) {
    s.coflows.push_back(Coflow{.job = JobIndex{c},
                               .stage = 1,
                               .arrival = 0.0 + c,
                               .total_bytes = 12000.0 + c,
                               .width = 3000,
                               .length = 7});
  }
  for (int i = 0; i < 9000; ++i) {
    s.flows.push_back(
        FlowAt{.start = 0.5 * (i / 50),
               .src = i % 6,
               .dst = (i / 6 + 1 + i % 5) % 6 == i % 6 ? (i % 6 + 1) % 6 : (i / 6 + 1 + i % 5) % 6,
               .size = 1.0 + i % 7,
               .coflow = i / 3000,
               .macroflow = i / 20,
               .macroflow_bytes = 80});
  }
  const std::vector<double> kept = s.Run();
  EXPECT_EQ(s.kept_at_end, 9000);
  for (FinishedFlows keep : {FinishedFlows::kIds, FinishedFlows::kNone}) {
    s.keep_finished = keep;
    const std::vector<double> let_go = s.Run();
    ASSERT_EQ(kept.size(), let_go.size());
    for (size_t i = 0; i < kept.size(); ++i) {
      ASSERT_GE(kept[i], 0) << "flow " << i << " never finished";
      ASSERT_EQ(kept[i], let_go[i]) << "flow " << i;
    }
  }
  // At least the first chunk went (flows ending at the last step are still kept).
  EXPECT_LE(s.kept_at_end, 9000 - static_cast<int>(ChunkedRecords<FlowRecord>::kChunk));
}

INSTANTIATE_TEST_SUITE_P(Policies, LettingFinishedFlowsGo,
                         ::testing::Values("fair", "las", "srpt", "aalo", "varys", "cans", "tcf"));

}  // namespace
}  // namespace slotflow::testing
