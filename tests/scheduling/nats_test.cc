// nats (Duopoly Alg. 1–4, §5): one decision at a time on hand-built states. Each test
// builds the smallest state that separates the rule under test from its plausible misreadings
// (another unit, another tie-break, another job), so a wrong rule gives a different Placement.
// Clusters are unit-rate (every NIC 1 byte/s) and sizes are bytes, as in the papers' examples.
#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/engine.h"
#include "network/network.h"
#include "bed.h"
#include "scenario.h"
#include "sim/lifecycle.h"

namespace slotflow::testing {
namespace {

using Choice = std::optional<std::pair<TaskId, ServerId>>;

std::unique_ptr<TaskScheduler> MakeNats(const std::string& mode_signal = "l0", uint64_t seed = 1) {
  return TaskSchedulerRegistry::Get().Make("nats", {{"order", "sjf"}, {"mode_signal", mode_signal}},
                                           seed);
}

Choice Decide(TaskScheduler& nats, const SimState& state) {
  const Decision d = nats.Next(state);
  if (!d) return std::nullopt;
  return std::make_pair(d.task, d.server);
}

Choice At(TaskId t, ServerId s) { return std::make_pair(t, s); }

// nats refreshes its mode with the congestion flag at every monitoring tick (Duopoly §5.1):
// the mode as a tick now would set it.
SlotMode ModeNow(TaskScheduler& nats, const SimState& state) {
  nats.OnTick(state);
  return *nats.mode(state);
}


// --- SelectTaskServerPair (map tasks) ---

TEST(NatsMap, LocalTaskWithFewestCandidateServersWins) {
  Bed bed(4, 1);
  bed.Occupy(2, 1);
  bed.Occupy(3, 1);
  // T0's replicas are all full (0 candidates, so not "fewest"), T1 can run locally on 0 or 1,
  // T2 only on 1. Task-id order would pick T0 or T1.
  const JobIndex j = bed.MapJob({{2, 3}, {0, 1}, {1, 2}}, 1);
  auto nats = MakeNats();
  EXPECT_EQ(Decide(*nats, bed.state()), At(bed.TaskOf(j, 0, 2), ServerId{1}));
}

// The tie-break tests run several seeds so that a rule that fell through to the random pick
// could not pass by luck.
TEST(NatsMap, CandidateTieGoesToServerWithFewestLocalPendingTasks) {
  Bed bed(3, 2);
  bed.Occupy(2, 1);
  // T and U both have two candidates. Server 0 holds both blocks (2 local pending), servers 1
  // and 2 one each: server 1 (T's) or 2 (U's), and 2 runs a task, so T on 1. (Server 0 runs
  // nothing: a rule by running tasks first would pick it.)
  const JobIndex j = bed.MapJob({{0, 1}, {0, 2}}, 1);
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    auto nats = MakeNats("l0", seed);
    EXPECT_EQ(Decide(*nats, bed.state()), At(bed.TaskOf(j, 0, 0), ServerId{1})) << "seed " << seed;
  }
}

// Alg. 2 l. 4–7 break ties among the (task, server) pairs of every task with fewest candidates:
// U's server 2 (1 pending, nothing running) beats T's servers 0 (2 pending) and 1 (1 pending,
// one running), so U is placed although T comes first; pair_ties first-task takes T, on 1.
TEST(NatsMap, TiesAreBrokenOverTheServersOfEveryTiedTask) {
  Bed bed(3, 2);
  bed.Occupy(1, 1);
  const JobIndex j = bed.MapJob({{0, 1}, {0, 2}}, 1);
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    auto nats = MakeNats("l0", seed);
    EXPECT_EQ(Decide(*nats, bed.state()), At(bed.TaskOf(j, 0, 1), ServerId{2})) << "seed " << seed;
    auto first = TaskSchedulerRegistry::Get().Make(
        "nats", {{"order", "sjf"}, {"pair_ties", "first-task"}}, seed);
    EXPECT_EQ(Decide(*first, bed.state()), At(bed.TaskOf(j, 0, 0), ServerId{1})) << "seed " << seed;
  }
}

// Alg. 2 l. 7: among pairs tied on both counts, tasks as well as servers are drawn at random.
TEST(NatsMap, TiedTasksAreDrawnAtRandom) {
  Bed bed(4, 2);
  const JobIndex j = bed.MapJob({{0, 1}, {2, 3}}, 1);
  std::set<TaskId> tasks;
  for (uint64_t seed = 1; seed <= 32; ++seed) {
    auto nats = MakeNats("l0", seed);
    const Choice d = Decide(*nats, bed.state());
    ASSERT_TRUE(d.has_value());
    tasks.insert(d->first);
  }
  EXPECT_EQ(tasks, (std::set<TaskId>{bed.TaskOf(j, 0, 0), bed.TaskOf(j, 0, 1)}));
}

TEST(NatsMap, EqualLocalPendingGoesToServerWithFewestRunningTasks) {
  Bed bed(3, 2);
  bed.Occupy(0, 1);
  // Both blocks on servers 0 and 1 (2 local pending each); server 0 runs a task. Either task
  // may go (they tie on server 1 too).
  bed.MapJob({{0, 1}, {0, 1}}, 1);
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    auto nats = MakeNats("l0", seed);
    const Choice d = Decide(*nats, bed.state());
    ASSERT_TRUE(d.has_value());
    EXPECT_EQ(d->second, ServerId{1}) << "seed " << seed;
  }
}

TEST(NatsMap, FullTieIsBrokenAtRandom) {
  Bed bed(2, 2);
  const JobIndex j = bed.MapJob({{0, 1}}, 1);
  std::set<ServerId> servers;
  for (uint64_t seed = 1; seed <= 32; ++seed) {
    auto nats = MakeNats("l0", seed);
    const Choice d = Decide(*nats, bed.state());
    ASSERT_TRUE(d.has_value());
    EXPECT_EQ(d->first, bed.TaskOf(j, 0, 0));
    servers.insert(d->second);
  }
  EXPECT_EQ(servers, (std::set<ServerId>{ServerId{0}, ServerId{1}}));
}

TEST(NatsMap, NoFreeLocalReplicaPicksServerWithFewestRunningTasks) {
  Bed bed(3, 2);
  bed.Occupy(0, 2);  // the only replica holder is full
  bed.Occupy(1, 1);  // server 1 is free but busier than server 2
  const JobIndex j = bed.MapJob({{0}, {0}}, 1);
  std::set<TaskId> tasks;
  for (uint64_t seed = 1; seed <= 32; ++seed) {
    auto nats = MakeNats("l0", seed);
    const Choice d = Decide(*nats, bed.state());
    ASSERT_TRUE(d.has_value());
    EXPECT_EQ(d->second, 2);
    tasks.insert(d->first);
  }
  // "A random ready task": both get picked for some seed.
  EXPECT_EQ(tasks, (std::set<TaskId>{bed.TaskOf(j, 0, 0), bed.TaskOf(j, 0, 1)}));
}

// --- SelectServerForTask (reduce tasks) ---

TEST(NatsReduce, GoesToAFreeServerWhereNoTaskIsReceiving) {
  Bed bed(3, 2);
  const JobIndex j = bed.ReduceJob(2, {4}, 1);
  // Server 0 is receiving a unit (100) larger than the task's, so the second rule would accept
  // it, and it has the lowest id; server 1 runs as many tasks but receives nothing.
  bed.Receiving(2, {{0, 100}});
  bed.Occupy(1, 1);
  bed.Occupy(2, 2);
  auto nats = MakeNats();
  EXPECT_EQ(ModeNow(*nats, bed.state()), SlotMode::kSufficient);
  EXPECT_EQ(Decide(*nats, bed.state()), At(bed.TaskOf(j, 1, 0), ServerId{1}));
}

// Alg. 2 l. 22: any one of the idle servers, at random; idle_server fewest-running keeps the
// earlier reading (the least busy idle server).
TEST(NatsReduce, PicksAnIdleServerAtRandom) {
  std::set<ServerId> chosen, fewest;
  for (uint64_t seed = 1; seed <= 16; ++seed) {
    Bed bed(3, 3);
    const JobIndex j = bed.ReduceJob(2, {4}, 1);
    bed.Occupy(0, 2);  // server 0 runs two tasks, server 1 one: both idle (nothing receiving)
    bed.Occupy(1, 1);
    bed.Occupy(2, 3);
    auto nats = MakeNats("l0", seed);
    auto least = TaskSchedulerRegistry::Get().Make(
        "nats", {{"order", "sjf"}, {"idle_server", "fewest-running"}}, seed);
    const Choice d = Decide(*nats, bed.state());
    ASSERT_TRUE(d.has_value());
    EXPECT_EQ(d->first, bed.TaskOf(j, 1, 0));
    chosen.insert(d->second);
    fewest.insert(Decide(*least, bed.state())->second);
  }
  EXPECT_EQ(chosen, (std::set<ServerId>{ServerId{0}, ServerId{1}}));
  EXPECT_EQ(fewest, (std::set<ServerId>{ServerId{1}}));
}

// Every free-slot server is receiving (server 3, the source, is full); each has one free slot
// and three running tasks.
TEST(NatsReduce, SlotInsufficientComparesMacroflowsAndPrefersFewestReceiving) {
  Bed bed(4, 4);
  bed.Receiving(3, {{0, 1}, {3, 100}});  // server 0: macroflow 1, coflow 101
  bed.Receiving(3, {{1, 10}, {1, 12}});  // server 1: two receiving, macroflows 10 and 12
  bed.Receiving(3, {{2, 20}});           // server 2: one receiving, macroflow = coflow = 20
  // Four ready reduce tasks for three free slots: slot-insufficient. Smallest: 5 (coflow 26).
  const JobIndex j = bed.ReduceJob(3, {7, 5, 6, 8}, 1);
  bed.Occupy(0, 2);
  bed.Occupy(1, 1);
  bed.Occupy(2, 2);
  bed.Occupy(3, 3);
  auto nats = MakeNats();
  ASSERT_EQ(bed.state().free_slots(), 3);
  EXPECT_EQ(ModeNow(*nats, bed.state()), SlotMode::kInsufficient);
  // Macroflows larger than 5: servers 1 (two receiving) and 2 (one) → 2. Comparing coflows
  // would give server 0 (101 > 26, the only one).
  EXPECT_EQ(Decide(*nats, bed.state()), At(bed.TaskOf(j, 1, 1), ServerId{2}));
}

// The receivers' summary is kept between decisions of one instant only while no flow starts:
// a task placed in between that starts receiving on server 2 a macroflow smaller than the
// task's takes server 2 out for the next decision (with two receiving against server 1's
// three, it would still win on a stale summary).
TEST(NatsReduce, ASummaryOfReceiversFollowsFlowsStartedAtTheSameInstant) {
  Bed bed(4, 5);
  bed.Receiving(3, {{0, 1}, {3, 100}});
  bed.Receiving(3, {{1, 10}, {1, 12}, {1, 14}});
  bed.Receiving(3, {{2, 20}});
  const JobIndex j = bed.ReduceJob(3, {7, 5, 6, 8, 9}, 1);
  bed.Occupy(0, 3);
  bed.Occupy(1, 1);
  bed.Occupy(2, 2);
  bed.Occupy(3, 4);
  auto nats = MakeNats();
  ASSERT_EQ(bed.state().free_slots(), 4);
  EXPECT_EQ(ModeNow(*nats, bed.state()), SlotMode::kInsufficient);
  EXPECT_EQ(Decide(*nats, bed.state()), At(bed.TaskOf(j, 1, 1), ServerId{2}));
  bed.Receiving(0, {{2, 2}});  // same instant: macroflow 2 now arrives at server 2
  EXPECT_EQ(Decide(*nats, bed.state()), At(bed.TaskOf(j, 1, 1), ServerId{1}));
}

TEST(NatsReduce, SlotSufficientComparesCoflows) {
  Bed bed(4, 4);
  bed.Receiving(3, {{0, 60}});           // server 0: macroflow = coflow = 60
  bed.Receiving(3, {{1, 10}, {1, 12}});  // server 1: coflow 22
  bed.Receiving(3, {{2, 1}, {3, 100}});  // server 2: macroflow 1, coflow 101
  // Two ready reduce tasks for three free slots: slot-sufficient. Largest: 45; coflow 85.
  const JobIndex j = bed.ReduceJob(3, {40, 45}, 1);
  bed.Occupy(0, 2);
  bed.Occupy(1, 1);
  bed.Occupy(2, 2);
  bed.Occupy(3, 3);
  auto nats = MakeNats();
  EXPECT_EQ(ModeNow(*nats, bed.state()), SlotMode::kSufficient);
  // Only server 2's smallest coflow (101) exceeds 85. Macroflows (45 against 60) would give
  // server 0, and so would the task's macroflow against the servers' coflows.
  EXPECT_EQ(Decide(*nats, bed.state()), At(bed.TaskOf(j, 1, 1), ServerId{2}));
}

// --- Slot reservation ---

// Slot-insufficient; server 0 receives a macroflow of `server0_unit` bytes, server 1 one of 3;
// L0's smallest reduce task is 5 bytes; another job has a map task local to both servers. The
// network runs `policy` (fair by default) in the mode nats reports; `unit_compare` is nats'
// reading of Alg. 2 l. 16.
Choice InsufficientWithReceivers(
    Bytes server0_unit,
    std::unique_ptr<NetworkPolicy> policy = NetworkPolicyRegistry::Get().Make("fair"),
    const std::string& unit_compare = "by-class") {
  Bed bed(3, 2, std::move(policy));
  bed.Receiving(2, {{0, server0_unit}});
  bed.Receiving(2, {{1, 3}});
  const JobIndex l0 = bed.ReduceJob(2, {5, 9, 9}, 1);
  bed.MapJob({{0, 1}}, 2);
  bed.Occupy(2, 2);
  bed.net().SetSlotMode(SlotMode::kInsufficient);
  bed.net().Resolve();
  auto nats = TaskSchedulerRegistry::Get().Make(
      "nats", {{"order", "sjf"}, {"unit_compare", unit_compare}}, 1);
  EXPECT_EQ(ModeNow(*nats, bed.state()), SlotMode::kInsufficient);
  const Choice d = Decide(*nats, bed.state());
  if (d) {
    EXPECT_EQ(*d, At(bed.TaskOf(l0, 1, 0), ServerId{0}));
  }
  return d;
}

TEST(NatsReserve, SlotInsufficientReservesWhenNoServerHasALargerUnit) {
  // Server 0's unit equals the task's: not larger. The other job's local map task must wait.
  EXPECT_EQ(InsufficientWithReceivers(5), std::nullopt);
  // One byte more and L0's task goes there.
  EXPECT_NE(InsufficientWithReceivers(6), std::nullopt);
}

TEST(NatsReserve, SlotSufficientReservesWhenNoJobHasAPlaceableTask) {
  Bed bed(3, 2);
  bed.Receiving(2, {{0, 3}});
  bed.Receiving(2, {{1, 3}});
  bed.ReduceJob(2, {5}, 1);  // L0: coflow 5
  bed.ReduceJob(2, {4}, 2);  // coflow 4: not below 3 either
  bed.Occupy(2, 2);
  auto nats = MakeNats();
  EXPECT_EQ(ModeNow(*nats, bed.state()), SlotMode::kSufficient);
  EXPECT_EQ(Decide(*nats, bed.state()), std::nullopt);
}

// Alg. 2 l. 16 under cans with macroflow classes [0, 4), [4, 16), [16, 64), … bytes: server 1's
// 3 bytes are class 0, L0's smallest reduce task (5 bytes) class 1.
Choice InsufficientUnderCans(Bytes server0_unit, const std::string& unit_compare) {
  return InsufficientWithReceivers(
      server0_unit,
      NetworkPolicyRegistry::Get().Make(
          "cans", {{"macroflow_first_threshold", "4B"}, {"macroflow_multiplier", "4"}}),
      unit_compare);
}

TEST(NatsReduce, ByClassGoesOnlyWhereTheTaskWouldTakeAHigherClass) {
  // 6 and 15 bytes are larger than the task's 5 but share its class 1: cans would not rank it
  // first there, so by-class reserves; 16 bytes are class 2 (Duopoly §5.3: "the highest
  // network priority").
  EXPECT_EQ(InsufficientUnderCans(6, "by-class"), std::nullopt);
  EXPECT_EQ(InsufficientUnderCans(15, "by-class"), std::nullopt);
  EXPECT_NE(InsufficientUnderCans(16, "by-class"), std::nullopt);
  // Read literally (by-size), l. 16 wants a unit larger than 5 bytes.
  EXPECT_EQ(InsufficientUnderCans(5, "by-size"), std::nullopt);
  EXPECT_NE(InsufficientUnderCans(6, "by-size"), std::nullopt);
  // Under fair no class is stated, so by-class compares sizes: 6 bytes will do.
  EXPECT_NE(InsufficientWithReceivers(6), std::nullopt);
  EXPECT_EQ(InsufficientWithReceivers(5), std::nullopt);
}

// Cans states the class a task's flows would get: its macroflow's when slots are scarce, its
// coflow's when they suffice; unlimited queues rank a new unit after every equal one.
TEST(CansExpectedClass, FollowsTheModeAndTheTies) {
  Bed bed(3, 2,
          NetworkPolicyRegistry::Get().Make("cans", {{"queues", "unlimited"}}));
  const JobIndex j = bed.Receiving(2, {{0, 7}, {1, 7}});  // one coflow of 14, two macroflows of 7
  bed.net().Resolve();
  const Network& net = bed.net();
  ASSERT_EQ(net.active_flows().size(), 2u);
  const FlowSpec a = net.flow(net.active_flows()[0]).spec;
  const FlowSpec b = net.flow(net.active_flows()[1]).spec;
  // Slot-sufficient: one coflow, one class, the one its flows have.
  EXPECT_EQ(net.ExpectedClass(a), net.Class(net.active_flows()[0]));
  EXPECT_EQ(net.ExpectedClass(a), net.ExpectedClass(b));
  // A new coflow of the same size ranks after it.
  FlowSpec other = a;
  other.coflow = bed.net().AddCoflow(Coflow{.job = j, .stage = 1, .total_bytes = 14});
  EXPECT_GT(*net.ExpectedClass(other), *net.ExpectedClass(a));
  // Slot-insufficient: two macroflows of 7, tie-broken, each the class its flow has.
  bed.net().SetSlotMode(SlotMode::kInsufficient);
  bed.net().Resolve();
  EXPECT_EQ(net.ExpectedClass(a), net.Class(net.active_flows()[0]));
  EXPECT_EQ(net.ExpectedClass(b), net.Class(net.active_flows()[1]));
  EXPECT_NE(net.ExpectedClass(a), net.ExpectedClass(b));
  // A policy that states no class: nullopt.
  Bed fair(2, 1);
  EXPECT_EQ(fair.net().ExpectedClass(a), std::nullopt);
}

// --- Alg. 3 vs Alg. 4: which reduce task of L0 ---

TEST(NatsReduce, InsufficientPicksSmallestReadyReduceSufficientTheLargest) {
  Bed bed(3, 2);
  const JobIndex j = bed.ReduceJob(2, {7, 3, 9, 5}, 1);
  bed.Occupy(2, 2);
  auto nats = MakeNats();
  // Four free slots for four ready tasks: Alg. 4, largest (9) first, on an idle server.
  ASSERT_EQ(bed.state().free_slots(), 4);
  EXPECT_EQ(ModeNow(*nats, bed.state()), SlotMode::kSufficient);
  Choice d = Decide(*nats, bed.state());
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->first, bed.TaskOf(j, 1, 2));
  EXPECT_TRUE(d->second == 0 || d->second == 1) << d->second;
  // Three free slots: Alg. 3, smallest (3) first.
  bed.Occupy(1, 1);
  EXPECT_EQ(ModeNow(*nats, bed.state()), SlotMode::kInsufficient);
  d = Decide(*nats, bed.state());
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->first, bed.TaskOf(j, 1, 1));
  EXPECT_TRUE(d->second == 0 || d->second == 1) << d->second;
}

// Among equal reduce tasks the first in id order goes, largest or smallest.
TEST(NatsReduce, EqualReduceTasksGoInIdOrder) {
  Bed bed(3, 2);
  const JobIndex j = bed.ReduceJob(2, {3, 9, 3, 9}, 1);
  bed.Occupy(2, 2);
  auto nats = MakeNats();
  ASSERT_EQ(ModeNow(*nats, bed.state()), SlotMode::kSufficient);
  Choice d = Decide(*nats, bed.state());
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->first, bed.TaskOf(j, 1, 1));
  bed.Occupy(1, 1);
  ASSERT_EQ(ModeNow(*nats, bed.state()), SlotMode::kInsufficient);
  d = Decide(*nats, bed.state());
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->first, bed.TaskOf(j, 1, 0));
}

// --- Mode signal ---

TEST(NatsMode, SwitchesWhenL0sReadyTasksExceedTheFreeSlotsAndBack) {
  Bed bed(2, 2);
  bed.MapJob({{}, {}, {}}, 1);  // three ready tasks
  auto nats = MakeNats();
  EXPECT_EQ(ModeNow(*nats, bed.state()), SlotMode::kSufficient);  // 3 <= 4
  bed.Occupy(0, 1);
  EXPECT_EQ(ModeNow(*nats, bed.state()), SlotMode::kSufficient);  // 3 <= 3: not exceeded
  const std::vector<TaskId> busy = bed.Occupy(0, 1);
  EXPECT_EQ(ModeNow(*nats, bed.state()), SlotMode::kInsufficient);  // 3 > 2
  bed.Finish(busy[0]);
  EXPECT_EQ(ModeNow(*nats, bed.state()), SlotMode::kSufficient);  // 3 <= 3 again
}

// Duopoly §3.3's example. J1, the highest-priority job, has all its ready tasks placed: slot-
// sufficient. A lower-priority J2 arrives whose ready tasks the free slots cannot all take: still
// slot-sufficient (else J2 would get a higher priority than J1). Then J3, the highest-priority
// job, arrives and the free slots cannot take its ready tasks: slot-insufficient.
TEST(NatsMode, OnlyTheHighestPriorityJobSwitchesTheMode) {
  Bed bed(2, 2);
  bed.Occupy(0, 2, /*estimate=*/2);  // J1: two tasks running, nothing ready
  auto nats = MakeNats();
  auto first_ready = MakeNats("first-ready");
  EXPECT_EQ(ModeNow(*nats, bed.state()), SlotMode::kSufficient);
  const JobIndex j2 = bed.MapJob({{}, {}, {}}, 5);  // three ready tasks, two free slots
  EXPECT_EQ(ModeNow(*nats, bed.state()), SlotMode::kSufficient);
  // The earlier reading (L0 = the first job with ready tasks) switches on J2.
  EXPECT_EQ(ModeNow(*first_ready, bed.state()), SlotMode::kInsufficient);
  // Slot-sufficient, J1 has nothing ready and the network is idle: Alg. 4 looks only for
  // reduce tasks and returns nothing (l. 30); with uncongested_maps any it goes on to J2's maps.
  EXPECT_EQ(Decide(*nats, bed.state()), std::nullopt);
  auto any = TaskSchedulerRegistry::Get().Make(
      "nats", {{"order", "sjf"}, {"uncongested_maps", "any"}}, 1);
  const Choice d = Decide(*any, bed.state());
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(bed.state().task(d->first).job, j2);
  bed.MapJob({{}, {}, {}}, 1);  // J3: three ready tasks for two free slots
  EXPECT_EQ(ModeNow(*nats, bed.state()), SlotMode::kInsufficient);
}

TEST(NatsMode, AJ3ThatFitsKeepsTheModeSufficient) {
  Bed bed(2, 2);
  bed.Occupy(0, 2, /*estimate=*/2);
  bed.MapJob({{}, {}, {}}, 5);
  bed.MapJob({{}, {}}, 1);  // J3: two ready tasks, two free slots
  auto nats = MakeNats();
  EXPECT_EQ(ModeNow(*nats, bed.state()), SlotMode::kSufficient);
}

// The mode is what the last monitoring tick saw (§5.1), unless mode_refresh is every-round.
TEST(NatsMode, IsRefreshedAtTheMonitoringTick) {
  Bed bed(2, 1);
  auto nats = MakeNats();
  auto every_round = TaskSchedulerRegistry::Get().Make(
      "nats", {{"order", "sjf"}, {"mode_refresh", "every-round"}}, 1);
  EXPECT_EQ(ModeNow(*nats, bed.state()), SlotMode::kSufficient);
  bed.MapJob({{}, {}, {}}, 1);  // three ready tasks, two slots
  EXPECT_EQ(*nats->mode(bed.state()), SlotMode::kSufficient);  // no tick since
  EXPECT_EQ(*every_round->mode(bed.state()), SlotMode::kInsufficient);
  nats->OnTick(bed.state());
  EXPECT_EQ(*nats->mode(bed.state()), SlotMode::kInsufficient);
}

TEST(NatsMode, AllReadyVariantCountsEveryJobsReadyTasks) {
  Bed bed(5, 1);
  bed.MapJob({{}, {}}, 1);      // L0: two ready
  bed.MapJob({{}, {}, {}}, 2);  // three more
  auto nats = MakeNats();
  auto all = MakeNats("all-ready");
  EXPECT_EQ(ModeNow(*nats, bed.state()), SlotMode::kSufficient);  // 2 <= 5
  EXPECT_EQ(ModeNow(*all, bed.state()), SlotMode::kSufficient);   // 5 <= 5
  bed.Occupy(0, 1);
  EXPECT_EQ(ModeNow(*nats, bed.state()), SlotMode::kSufficient);   // 2 <= 4
  EXPECT_EQ(ModeNow(*all, bed.state()), SlotMode::kInsufficient);  // 5 > 4
  bed.Occupy(1, 1);
  bed.Occupy(2, 1);
  bed.Occupy(3, 1);
  EXPECT_EQ(ModeNow(*nats, bed.state()), SlotMode::kInsufficient);  // 2 > 1
  EXPECT_EQ(ModeNow(*all, bed.state()), SlotMode::kInsufficient);
}

TEST(NatsMode, AllReadyVariantReservesWhereNatsFallsBackToOtherJobs) {
  Bed bed(3, 2);
  bed.Receiving(2, {{0, 3}});
  bed.Receiving(2, {{1, 3}});
  bed.ReduceJob(2, {5}, 1);                           // L0: one ready task, not placeable
  const JobIndex b = bed.MapJob({{0}, {0}, {1}}, 2);  // three ready map tasks
  bed.Occupy(2, 2);
  auto nats = TaskSchedulerRegistry::Get().Make(
      "nats", {{"order", "sjf"}, {"uncongested_maps", "any"}}, 1);
  auto all = MakeNats("all-ready");
  // nats: 1 ready in L0 <= 2 free → Alg. 4 → no placeable reduce anywhere → with
  // uncongested_maps any, B's map tasks (one candidate each; server 1 holds one pending block,
  // server 0 two, so the third task on server 1).
  EXPECT_EQ(ModeNow(*nats, bed.state()), SlotMode::kSufficient);
  EXPECT_EQ(Decide(*nats, bed.state()), At(bed.TaskOf(b, 0, 2), ServerId{1}));
  // (A): 4 ready > 2 free → Alg. 3 on L0 only → reserve.
  EXPECT_EQ(ModeNow(*all, bed.state()), SlotMode::kInsufficient);
  EXPECT_EQ(Decide(*all, bed.state()), std::nullopt);
}

// --- Congestion (Alg. 4 when L0 yields nothing) ---

// Servers 0–2 have 1 byte/s NICs, server 3 (the source of every shuffle) `source_nic`. Server 0
// is the only one with free slots and receives one flow from server 3 at rate source_nic, so
// its downlink runs at that utilisation; the other downlinks are idle. L0's reduce tasks
// (coflow 100) cannot go there (smallest coflow 20); job M (second) has a ready map task local
// to server 0; job N (third) has a reduce task with coflow 5 that can.
struct CongestionCase {
  std::unique_ptr<Bed> bed;
  TaskId m_map, n_reduce;
};

CongestionCase CongestionBed(BytesPerSecond source_nic) {
  ClusterSpec spec = UnitCluster(3, 4);
  spec.classes.push_back(ServerClass{.name = "source", .count = 1, .slots = 4, .nic = source_nic});
  CongestionCase c{std::make_unique<Bed>(spec), TaskId{0}, TaskId{0}};
  Bed& bed = *c.bed;
  bed.Receiving(3, {{0, 20}});
  bed.ReduceJob(3, {50, 50}, 1);
  const JobIndex m = bed.MapJob({{0, 1}}, 2);
  const JobIndex n = bed.ReduceJob(3, {5}, 3);
  bed.Occupy(1, 4);
  bed.Occupy(2, 4);
  bed.Occupy(3, 4);
  bed.net().Resolve();  // rates, hence link loads, exist only once the network is solved
  c.m_map = bed.TaskOf(m, 0, 0);
  c.n_reduce = bed.TaskOf(n, 1, 0);
  return c;
}

TEST(NatsCongestion, CongestedNetworkPlacesTheFirstJobsMapTask) {
  // Utilisation 1 and 0.875 (>= 0.8) of the one busy downlink; averaged over all four
  // downlinks it would be below 0.8.
  for (BytesPerSecond nic : {1.0, 0.875}) {
    CongestionCase c = CongestionBed(nic);
    auto nats = MakeNats();
    ASSERT_EQ(nats->mode(c.bed->state()), SlotMode::kSufficient);
    ASSERT_DOUBLE_EQ(c.bed->net().solver().LinkLoad(c.bed->state().cluster().Downlink(ServerId{0})),
                     nic);
    nats->OnTick(c.bed->state());
    EXPECT_EQ(Decide(*nats, c.bed->state()), At(c.m_map, ServerId{0})) << "source nic " << nic;
  }
}

// §5.4: when congested, nats places only map tasks that read locally. Job M's block is on the
// full servers 1 and 2 only, so under congestion nothing is placed (local-only, the default);
// with congested_maps any, Alg. 2's remote fallback places it on server 0.
TEST(NatsCongestion, CongestedNetworkPlacesOnlyLocalMaps) {
  ClusterSpec spec = UnitCluster(3, 4);
  spec.classes.push_back(ServerClass{.name = "source", .count = 1, .slots = 4, .nic = 1.0});
  Bed bed(spec);
  bed.Receiving(3, {{0, 20}});
  bed.ReduceJob(3, {50, 50}, 1);  // L0: its reduce tasks fit nowhere (smallest coflow 20)
  const JobIndex m = bed.MapJob({{1, 2}}, 2);
  bed.Occupy(1, 4);
  bed.Occupy(2, 4);
  bed.Occupy(3, 4);
  bed.net().Resolve();
  auto nats = MakeNats();
  auto any = TaskSchedulerRegistry::Get().Make("nats", {{"order", "sjf"}, {"congested_maps", "any"}},
                                               1);
  nats->OnTick(bed.state());
  any->OnTick(bed.state());
  EXPECT_EQ(Decide(*nats, bed.state()), std::nullopt);
  EXPECT_EQ(Decide(*any, bed.state()), At(bed.TaskOf(m, 0, 0), ServerId{0}));
}

// Alg. 4 l. 20–30 when not congested: a placeable reduce task of any job, else nothing (l. 30),
// though job M has a ready map task local to the free server; uncongested_maps any (ours)
// places it.
TEST(NatsCongestion, IdleNetworkPlacesReduceTasksOrNothing) {
  ClusterSpec spec = UnitCluster(3, 4);
  spec.classes.push_back(ServerClass{.name = "source", .count = 1, .slots = 4, .nic = 1.0});
  Bed bed(spec);
  bed.ReduceJob(3, {50, 50}, 1);  // L0: its reduce tasks are ready
  bed.Occupy(0, 4);               // ... but only server 1 has free slots, and it receives
  bed.Receiving(3, {{1, 20}});    // a smaller coflow, so they fit nowhere
  const JobIndex m = bed.MapJob({{1}}, 2);
  bed.Occupy(2, 4);
  bed.Occupy(3, 4);
  auto nats = MakeNats();
  auto any = TaskSchedulerRegistry::Get().Make(
      "nats", {{"order", "sjf"}, {"uncongested_maps", "any"}}, 1);
  EXPECT_EQ(Decide(*nats, bed.state()), std::nullopt);
  EXPECT_EQ(Decide(*any, bed.state()), At(bed.TaskOf(m, 0, 0), ServerId{1}));
}

TEST(NatsCongestion, IdleNetworkPrefersAPlaceableReduceTask) {
  // Server 0's downlink at 0.75 < 0.8 (the source's uplink, at 1, counts under busy-links).
  CongestionCase c = CongestionBed(0.75);
  auto nats = TaskSchedulerRegistry::Get().Make(
      "nats", {{"order", "sjf"}, {"congestion_measure", "busy-downlinks"}}, 1);
  nats->OnTick(c.bed->state());
  EXPECT_EQ(Decide(*nats, c.bed->state()), At(c.n_reduce, ServerId{0}));
  // Before any heartbeat the network counts as not congested either.
  CongestionCase busy = CongestionBed(1.0);
  auto fresh = MakeNats();
  EXPECT_EQ(Decide(*fresh, busy.bed->state()), At(busy.n_reduce, ServerId{0}));
}

// busy-links (the default) reads every network link that carries traffic, rack links too. On
// two racks of two servers with rack links of 0.7, one flow from server 0 to server 2 runs at
// 0.7: server 0's uplink and server 2's downlink at 0.7, both rack links at 1, mean 0.85 >= 0.8,
// congested; busy-downlinks sees only server 2's 0.7 and is not.
TEST(NatsCongestion, BusyLinksCountRackLinks) {
  ClusterSpec spec = UnitCluster(4, 2);
  spec.topology = TopologyKind::kTwoTier;
  spec.servers_per_rack = 2;
  spec.rack_link = 0.7;
  Bed bed(spec);
  bed.Receiving(0, {{2, 10}});
  bed.net().Resolve();
  const Cluster& cluster = bed.state().cluster();
  ASSERT_DOUBLE_EQ(bed.net().solver().LinkLoad(cluster.Downlink(ServerId{2})), 0.7);
  auto links = MakeNats();
  auto downlinks = TaskSchedulerRegistry::Get().Make(
      "nats", {{"order", "sjf"}, {"congestion_measure", "busy-downlinks"}}, 1);
  EXPECT_FALSE(links->OnTick(bed.state()).empty());      // switched on
  EXPECT_TRUE(downlinks->OnTick(bed.state()).empty());   // stays off
}

TEST(NatsCongestion, MonitorsEveryHundredMilliseconds) {
  EXPECT_DOUBLE_EQ(MakeNats()->tick_interval(), 0.1);
}

// --- End to end ---

// Duopoly Fig. 2 (§2.3) under nats + fair + SJF: nats starts only R1 and R2 at 1 and reserves
// two slots, so B's map runs 2 -> 3 (A 5, B 3); greedy never reserves (A 5, B 6).
TEST(NatsEndToEnd, DuopolyFig2ReservesSlotsForTheSmallJob) {
  Scenario s = Scenario::DuopolyFig2("nats");
  s.network = "fair";
  s.scheduler_settings["order"] = "sjf";
  const RunResult r = s.Run();
  std::map<std::string, double> finish;
  for (const JobResult& j : r.jobs) finish[j.name] = j.finish;
  EXPECT_DOUBLE_EQ(finish.at("A"), 5);
  EXPECT_DOUBLE_EQ(finish.at("B"), 3);
  EXPECT_GT(r.summary.reservations, 0);

  s.scheduler = "greedy";
  const RunResult g = s.Run();
  EXPECT_EQ(g.summary.reservations, 0);
}

}  // namespace
}  // namespace slotflow::testing
