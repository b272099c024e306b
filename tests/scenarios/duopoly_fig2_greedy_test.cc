// Duopoly Fig. 2 (§2.3) without reservation: 2 servers × 2 slots, all rates 1. Job A at 0:
// maps M1–M4 (1 s compute), reducers R1–R4 each needing 1 unit from every map; job B at 2: one
// map (1 s). A greedy scheduler fills all four slots with A's reducers at t=1; each server's
// uplink then carries 4 units → A ends at 5 and B's map waits for a slot until 5 → B ends at 6.
#include "scenario.h"

namespace slotflow::testing {
namespace {

Workload Fig2() {
  StageSpec maps{"map", {}, std::vector<TaskSpec>(4, Task(0, 1))};
  StageSpec reduces{"reduce", {0}, std::vector<TaskSpec>(4, Task(4, 0))};
  StageSpec b_map{"map", {}, {Task(0, 1)}};
  Workload w;
  w.source = "fig2";
  w.jobs = {Job("A", 0, {maps, reduces}), Job("B", 2, {b_map})};
  return w;
}

TEST(DuopolyFig2, GreedyWithoutReservationFinishesAAt5AndBAt6) {
  Scenario s;
  s.cluster = UnitCluster(2, 2);
  s.workload = Fig2();
  const auto finish = s.Finishes();
  EXPECT_DOUBLE_EQ(finish.at("A"), 5);
  EXPECT_DOUBLE_EQ(finish.at("B"), 6);
}

TEST(DuopolyFig2, ReducerTrafficIsAggregatedPerSourceServer) {
  Scenario s;
  s.cluster = UnitCluster(2, 2);
  s.workload = Fig2();
  const RunResult r = s.Run();
  // Each reducer receives one 2-unit flow from the other server; its 2 local units are free.
  EXPECT_EQ(r.summary.flows, 4);
  EXPECT_DOUBLE_EQ(r.summary.network_bytes, 8);
}

}  // namespace
}  // namespace slotflow::testing
