// cans (Duopoly §4): coflow-size priority when slots suffice, macroflow-size priority
// when they do not, fixed at flow start. Exact completion times on a big switch, every link
// 1 unit/s; server s has uplink "up s" and downlink "down s".
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "network_scenario.h"

namespace slotflow::testing {
namespace {

constexpr double kTol = 1e-9;

Coflow MakeCoflow(Bytes total) {
  Coflow c;
  c.total_bytes = total;
  return c;
}

using SettingsMap = std::map<std::string, std::string>;

SettingsMap Unlimited() { return {{"queues", "unlimited"}}; }

// Two flows out of server 0 (up 0 is the bottleneck):
//   a: 0→1, 1 unit, macroflow 0 of 1 unit, in coflow A of 10 units (a big job, a small task);
//   b: 0→2, 3 units, macroflow 1 of 3 units, in coflow B of 3 units (a small job, a big task).
NetworkScenario SmallTaskOfBigJob(const std::string& priority = "by-mode") {
  NetworkScenario s;
  s.servers = 3;
  s.policy = "cans";
  s.config = Unlimited();
  s.config["priority"] = priority;
  s.coflows = {MakeCoflow(10), MakeCoflow(3)};
  s.flows = {{.start = 0,
              .src = 0,
              .dst = 1,
              .size = 1,
              .coflow = 0,
              .macroflow = 0,
              .macroflow_bytes = 1},
             {.start = 0,
              .src = 0,
              .dst = 2,
              .size = 3,
              .coflow = 1,
              .macroflow = 1,
              .macroflow_bytes = 3}};
  return s;
}

// Slots sufficient → coflow priority: B (3) before A (10): b ends at 3, a at 4.
TEST(CansPolicy, SufficientModeUsesCoflowSize) {
  NetworkScenario s = SmallTaskOfBigJob();
  s.initial_mode = SlotMode::kSufficient;
  const auto finish = s.Run();
  EXPECT_NEAR(finish[1], 3, kTol);
  EXPECT_NEAR(finish[0], 4, kTol);
}

// Slots insufficient → macroflow priority: a's task (1) before b's (3): a ends at 1, b at 4.
TEST(CansPolicy, InsufficientModeUsesMacroflowSize) {
  NetworkScenario s = SmallTaskOfBigJob();
  s.initial_mode = SlotMode::kInsufficient;
  const auto finish = s.Run();
  EXPECT_NEAR(finish[0], 1, kTol);
  EXPECT_NEAR(finish[1], 4, kTol);
}

// A switch re-classes the flows already running: sufficient until 1 (b runs, 2 units left),
// then insufficient: a takes up 0 and ends at 2; b resumes and ends at 4.
TEST(CansPolicy, ModeSwitchReclassesActiveFlows) {
  NetworkScenario s = SmallTaskOfBigJob();
  s.initial_mode = SlotMode::kSufficient;
  s.mode_switches = {{1.0, SlotMode::kInsufficient}};
  const auto finish = s.Run();
  EXPECT_NEAR(finish[0], 2, kTol);
  EXPECT_NEAR(finish[1], 4, kTol);
}

// Setting priority = coflow (ablation C) or macroflow (M) ignores the mode.
TEST(CansPolicy, AblationsIgnoreTheMode) {
  NetworkScenario c = SmallTaskOfBigJob("coflow");
  c.initial_mode = SlotMode::kInsufficient;
  const auto fc = c.Run();
  EXPECT_NEAR(fc[1], 3, kTol);
  EXPECT_NEAR(fc[0], 4, kTol);

  NetworkScenario m = SmallTaskOfBigJob("macroflow");
  m.initial_mode = SlotMode::kSufficient;
  m.mode_switches = {{0.5, SlotMode::kInsufficient}, {0.75, SlotMode::kSufficient}};
  const auto fm = m.Run();
  EXPECT_NEAR(fm[0], 1, kTol);
  EXPECT_NEAR(fm[1], 4, kTol);
}

// Duopoly Fig. 1 (§2.2, network half): P1 = server 0 sends Ra1 (to server 2) and Ra2 (to
// server 3), 1 unit each, both at 0; both are macroflows of 1 unit in coflow A (2 units).
// fair: both at 1/2 → both end at 2. cans, slots insufficient, unlimited queues: each
// macroflow is its own class, Ra1 (the lower task id) first: Ra1 ends at 1, Ra2 at 2.
NetworkScenario DuopolyFig1(const std::string& policy) {
  NetworkScenario s;
  s.servers = 4;
  s.policy = policy;
  if (policy != "fair") s.config = Unlimited();  // fair has no classes
  s.coflows = {MakeCoflow(2)};
  s.flows = {{.start = 0,
              .src = 0,
              .dst = 2,
              .size = 1,
              .coflow = 0,
              .macroflow = 0,
              .macroflow_bytes = 1},
             {.start = 0,
              .src = 0,
              .dst = 3,
              .size = 1,
              .coflow = 0,
              .macroflow = 1,
              .macroflow_bytes = 1}};
  s.initial_mode = SlotMode::kInsufficient;
  return s;
}

TEST(CansPolicy, DuopolyFig1Fair) {
  const auto finish = DuopolyFig1("fair").Run();
  EXPECT_NEAR(finish[0], 2, kTol);
  EXPECT_NEAR(finish[1], 2, kTol);
}

TEST(CansPolicy, DuopolyFig1MacroflowPriority) {
  const auto finish = DuopolyFig1("cans").Run();
  EXPECT_NEAR(finish[0], 1, kTol);  // Ra1
  EXPECT_NEAR(finish[1], 2, kTol);  // Ra2
}

// The tie-break follows the task id, not the order the flows were started in.
TEST(CansPolicy, EqualMacroflowsTieBreakByTaskId) {
  NetworkScenario s = DuopolyFig1("cans");
  std::swap(s.flows[0].macroflow, s.flows[1].macroflow);
  const auto finish = s.Run();
  EXPECT_NEAR(finish[1], 1, kTol);
  EXPECT_NEAR(finish[0], 2, kTol);
}

// Limited vs unlimited queues. Macroflows of 1 and 2 units out of server 0, insufficient mode.
//   8 queues, first threshold 10 MiB: both below it → one class, fair share 1/2 each: the
//   1-unit flow ends at 2, the 2-unit one has 1 left → ends at 3.
//   Unlimited: 1 before 2: ends at 1 and 3.
//   8 queues with thresholds 1.5, ×2: class 0 (< 1.5) and class 1 ([1.5, 3)) → as unlimited.
NetworkScenario TwoMacroflows(const SettingsMap& config) {
  NetworkScenario s;
  s.servers = 3;
  s.policy = "cans";
  s.config = config;
  s.coflows = {MakeCoflow(3)};
  s.flows = {{.start = 0,
              .src = 0,
              .dst = 1,
              .size = 1,
              .coflow = 0,
              .macroflow = 0,
              .macroflow_bytes = 1},
             {.start = 0,
              .src = 0,
              .dst = 2,
              .size = 2,
              .coflow = 0,
              .macroflow = 1,
              .macroflow_bytes = 2}};
  s.initial_mode = SlotMode::kInsufficient;
  return s;
}

TEST(CansPolicy, EightQueuesShareABucket) {
  const auto finish = TwoMacroflows({}).Run();  // queues default 8
  EXPECT_NEAR(finish[0], 2, kTol);
  EXPECT_NEAR(finish[1], 3, kTol);
}

TEST(CansPolicy, UnlimitedQueuesSeparateSizes) {
  const auto finish = TwoMacroflows(Unlimited()).Run();
  EXPECT_NEAR(finish[0], 1, kTol);
  EXPECT_NEAR(finish[1], 3, kTol);
}

TEST(CansPolicy, EightQueuesWithSmallThresholdsSeparate) {
  const auto finish =
      TwoMacroflows({{"queues", "8"},
                     {"macroflow_first_threshold", "1.5"},
                     {"macroflow_multiplier", "2"},
                     {"coflow_first_threshold", "1.5"},
                     {"coflow_multiplier", "2"}})
          .Run();
  EXPECT_NEAR(finish[0], 1, kTol);
  EXPECT_NEAR(finish[1], 3, kTol);
}

// Priorities are fixed at start (Duopoly §4), not remaining sizes: a (macroflow 4) runs from
// 0; b (macroflow 3) starts at 2, when a has only 2 left. b still outranks a: b ends at 5,
// a at 7 (SRPT would finish a at 4).
TEST(CansPolicy, PrioritiesAreFixedAtStart) {
  NetworkScenario s;
  s.servers = 3;
  s.policy = "cans";
  s.config = Unlimited();
  s.coflows = {MakeCoflow(4), MakeCoflow(3)};
  s.flows = {{.start = 0,
              .src = 0,
              .dst = 1,
              .size = 4,
              .coflow = 0,
              .macroflow = 0,
              .macroflow_bytes = 4},
             {.start = 2,
              .src = 0,
              .dst = 2,
              .size = 3,
              .coflow = 1,
              .macroflow = 1,
              .macroflow_bytes = 3}};
  s.initial_mode = SlotMode::kInsufficient;
  const auto finish = s.Run();
  EXPECT_NEAR(finish[1], 5, kTol);
  EXPECT_NEAR(finish[0], 7, kTol);
}

// A flow without a coflow (a map input read) is a coflow of its own size: in sufficient mode
// the 1-unit read beats a flow of a 5-unit coflow: read ends at 1, shuffle flow (2) at 3.
TEST(CansPolicy, FlowWithoutCoflowIsACoflowOfItsOwnSize) {
  NetworkScenario s;
  s.servers = 3;
  s.policy = "cans";
  s.config = Unlimited();
  s.coflows = {MakeCoflow(5)};
  s.flows = {{.start = 0,
              .src = 0,
              .dst = 1,
              .size = 2,
              .coflow = 0,
              .macroflow = 0,
              .macroflow_bytes = 2},
             {.start = 0, .src = 0, .dst = 2, .size = 1, .macroflow = 1, .macroflow_bytes = 1}};
  const auto finish = s.Run();
  EXPECT_NEAR(finish[1], 1, kTol);
  EXPECT_NEAR(finish[0], 3, kTol);
}

}  // namespace
}  // namespace slotflow::testing
