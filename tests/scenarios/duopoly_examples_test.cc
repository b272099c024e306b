// Duopoly Fig. 1 and Fig. 2 (§2.2, §2.3), run from the shipped example job files under named
// systems, as a user would with `slotflow run --jobs FILE --system NAME`.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "run/execute.h"
#include "run/run_spec.h"
#include "systems/systems.h"

namespace slotflow {
namespace {

std::map<std::string, double> FinishTimes(
    const std::string& example, const std::string& system,
    const std::vector<std::pair<std::string, std::string>>& overrides = {}) {
  RunSpec spec;
  spec.jobs_file = std::string(SLOTFLOW_SOURCE_DIR) + "/examples/" + example;
  ApplySystem(spec, system, "--system");
  for (const auto& [key, value] : overrides) SetPolicySetting(spec, key, value, "", 0, "--set");
  const PreparedRun run = Prepare(spec);
  std::map<std::string, double> finish;
  for (const JobResult& j : Execute(spec, run).jobs) finish[j.name] = j.finish;
  return finish;
}

// Fig. 1 is about the network policy: the two receiving slots are filled whenever a reducer is
// ready (greedy placement), and cans decides who goes first. P1 holds A's map outputs, P2 B's.
// Coflow-fair sharing (cans with coflow priorities) lets Ra1 and Ra2 split P1's uplink: both
// end at 2, Rb only then gets a slot and ends at 4. Macroflow priority finishes Ra1 at 1, so Rb
// runs 1 -> 3.
TEST(DuopolyFig1, CoflowFairSharingFinishesAAt2AndBAt4) {
  const auto finish =
      FinishTimes("duopoly-fig1.toml", "duopoly-IC", {{"scheduler.policy", "greedy"}});
  EXPECT_DOUBLE_EQ(finish.at("A"), 2);
  EXPECT_DOUBLE_EQ(finish.at("B"), 4);
}

TEST(DuopolyFig1, MacroflowPriorityFinishesAAt2AndBAt3) {
  const auto finish =
      FinishTimes("duopoly-fig1.toml", "duopoly-IM", {{"scheduler.policy", "greedy"}});
  EXPECT_DOUBLE_EQ(finish.at("A"), 2);
  EXPECT_DOUBLE_EQ(finish.at("B"), 3);
}

// Under nats, Alg. 4's congestion branch decides Fig. 1: when Ra1 ends at 1, L0 (A) has nothing
// ready and the one busy downlink is full, so the network counts as congested and nats places
// only local map tasks: Rb waits for A's end at 2 (B 4). Measured over all four downlinks the
// utilisation is 1/4, not congested, and Rb starts at 1 (B 3).
TEST(DuopolyFig1, NatsHoldsRbBackWhileTheNetworkIsCongested) {
  EXPECT_DOUBLE_EQ(FinishTimes("duopoly-fig1.toml", "duopoly-IM").at("B"), 4);
  EXPECT_DOUBLE_EQ(FinishTimes("duopoly-fig1.toml", "duopoly-IM",
                               {{"scheduler.congestion_measure", "all-downlinks"}})
                       .at("B"),
                   3);
}

// Fig. 2: without reservation A's four reducers fill every slot at 1 and share each link fairly
// (Fig. 2(c): A 5, B 6); nats starts only R1 and R2, keeps two slots for B's map (2 -> 3), then
// R3/R4 run 3 -> 5 (A 5, B 3).
TEST(DuopolyFig2, GreedyPlacementFinishesAAt5AndBAt6) {
  const auto finish =
      FinishTimes("duopoly-fig2.toml", "duopoly-IF", {{"network.policy", "fair"}});
  EXPECT_DOUBLE_EQ(finish.at("A"), 5);
  EXPECT_DOUBLE_EQ(finish.at("B"), 6);
}

// Ablation (F) keeps cans' mode switch: the mode belongs to the slots and the job order, not to
// nats. At 2, B (the smallest job) has a ready task and no free slot, so the slots are
// insufficient and cans serves one macroflow per downlink: R1 and R3 (1.5 units left each) end
// at 3.5, B's map runs 3.5 -> 4.5, R2 and R4 end at 5 (A 5, B 4.5).
TEST(DuopolyFig2, GreedyUnderCansSwitchesToMacroflowsWhenBWaits) {
  const auto finish = FinishTimes("duopoly-fig2.toml", "duopoly-IF");
  EXPECT_DOUBLE_EQ(finish.at("A"), 5);
  EXPECT_DOUBLE_EQ(finish.at("B"), 4.5);
}

TEST(DuopolyFig2, NatsReservesSlotsAndFinishesAAt5AndBAt3) {
  for (const char* system : {"duopoly", "duopoly-I"}) {
    const auto finish = FinishTimes("duopoly-fig2.toml", system);
    EXPECT_DOUBLE_EQ(finish.at("A"), 5) << system;
    EXPECT_DOUBLE_EQ(finish.at("B"), 3) << system;
  }
}

}  // namespace
}  // namespace slotflow
