// JTPW (JTPW §2): the job-type test of §2.1, the node load of §2.2 and the
// priority weight of §2.3 on hand-computed numbers, then small runs where each rule decides
// where or when a task runs, disk contention included.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "api/error.h"
#include "scenario.h"
#include "scheduling/jtpw_rules.h"

namespace slotflow::testing {
namespace {

constexpr double kMB = 1e6;

// Eqs. (2)-(4). IO-bound: 2 maps of 128 MB, ρ = 1, 2 s of compute each: V = 2·2·128 MB / 2 s =
// 256 MB/s, above a 100 MB/s disk. CPU-bound: ρ = 0.01 and 8 s: V = 2·1.01·128/8 = 32.32 MB/s.
// At the boundary: 1 map of 50 MB, ρ = 1, 1 s: V = 100 MB/s, CPU-bound against a 100 MB/s disk
// (IO-bound needs V greater than the disk rate, "大于", eq. (3)), IO-bound against a disk a hair
// slower.
TEST(JtpwRules, ClassifiesByTheMapDataRateAgainstTheDisk) {
  const double io = MapDataRate(2, 1, 128 * kMB, 2);
  EXPECT_DOUBLE_EQ(io, 256 * kMB);
  EXPECT_EQ(ClassifyByRate(io, 100 * kMB), JobClass::kIo);
  const double cpu = MapDataRate(2, 0.01, 128 * kMB, 8);
  EXPECT_DOUBLE_EQ(cpu, 32.32 * kMB);
  EXPECT_EQ(ClassifyByRate(cpu, 100 * kMB), JobClass::kCpu);
  const double edge = MapDataRate(1, 1, 50 * kMB, 1);
  EXPECT_DOUBLE_EQ(edge, 100 * kMB);
  EXPECT_EQ(ClassifyByRate(edge, 100 * kMB), JobClass::kCpu);
  EXPECT_EQ(ClassifyByRate(edge, 99.999 * kMB), JobClass::kIo);
  EXPECT_EQ(ClassifyByRate(std::nextafter(edge, 1e300), 100 * kMB), JobClass::kIo);
  // No modelled disk never limits; no data moved is never IO-bound.
  EXPECT_EQ(ClassifyByRate(io, 0), JobClass::kCpu);
  EXPECT_EQ(ClassifyByRate(MapDataRate(4, 1, 0, 0), 1), JobClass::kCpu);
}

// ρ (eq. (1)): two maps of 100 bytes whose outputs feed one reducer of 100 bytes: ρ = 0.5;
// an explicit output of 300 per map: ρ = 3.
TEST(JtpwRules, RhoIsMapOutputOverMapInput) {
  JobSpec j = MakeMapReduceJob("J", 0, 2, 100, {100});
  EXPECT_DOUBLE_EQ(MapOutputRatio(j), 0.5);
  for (TaskSpec& t : j.stages[0].tasks) t.output = 300;
  EXPECT_DOUBLE_EQ(MapOutputRatio(j), 3);
}

// Eq. (6): 0.1·0.5 + 0.2·0.25 + 0.3·1 + 0.4·0 = 0.4.
TEST(JtpwRules, NodeLoadIsTheWeightedSumOfUtilisations) {
  EXPECT_DOUBLE_EQ(NodeLoad({0.1, 0.2, 0.3, 0.4}, 0.5, 0.25, 1, 0), 0.4);
  EXPECT_DOUBLE_EQ(NodeLoad({}, 1, 1, 1, 1), 1);
}

// Eq. (7) with §3.2's weights and T = 30 s. Before T: P. After: a job of priority 1 that has
// waited 60 s holding half the slots and a quarter of the memory: P + 0.2·2 + 0.3·0.5 +
// 0.3·0.25 + 0.2·1 = 1 + 0.825 = 1.825 (eq. (7) as printed, the default); the sum alone 0.825.
TEST(JtpwRules, PriorityWeightIsPBeforeTAndPPlusTheWeightedSumAfter) {
  PriorityWeights w;
  EXPECT_DOUBLE_EQ(PriorityWeight(w, 4, 29.9, 0.5, 0.5), 4);
  EXPECT_DOUBLE_EQ(PriorityWeight(w, 1, 60, 0.5, 0.25), 1.825);
  // "Exceeds T" (超过, l. 683): at T itself still P; just past it, the weighted form.
  EXPECT_DOUBLE_EQ(PriorityWeight(w, 5, 30, 0, 0), 5);
  EXPECT_DOUBLE_EQ(PriorityWeight(w, 5, 30.3, 0, 0), 5 + 0.2 * 30.3 / 30 + 1.0);
  EXPECT_DOUBLE_EQ(PriorityWeight(w, 1, 10, 0.5, 0.25), 1);
  // Waiting past T never lowers a job (§2.3): P_w >= P for every wait.
  for (Seconds waited : {0.0, 29.0, 30.0, 31.0, 300.0}) {
    for (int p = 1; p <= 5; ++p) EXPECT_GE(PriorityWeight(w, p, waited, 0, 0), p);
  }
  w.plus_p = false;
  EXPECT_DOUBLE_EQ(PriorityWeight(w, 1, 60, 0.5, 0.25), 0.825);
  EXPECT_DOUBLE_EQ(PriorityWeight(w, 5, 30.3, 0, 0), 0.2 * 30.3 / 30 + 1.0);
  EXPECT_DOUBLE_EQ(PriorityWeight(w, 4, 29.9, 0.5, 0.5), 4);
}

// The place lines of a run's decision log.
std::vector<std::string> Placements(const Scenario& s) {
  std::ostringstream text;
  EventLog log(text);
  Scenario run = s;
  run.simulation.log = &log;
  run.Run();
  log.Flush();
  std::vector<std::string> out;
  std::istringstream lines(text.str());
  for (std::string line; std::getline(lines, line);) {
    if (line.find("\"event\":\"place\"") != std::string::npos) out.push_back(line);
  }
  return out;
}

// Two servers of 2 slots, unit disk and NIC. One job, two maps, each reading a 1-byte block
// held by both servers, computing 1 s and writing 1 byte: V = 2·(1+1)·1/1 = 4 > 1, IO-bound.
//  - capacity takes the first replica holder with room: both maps on server 0. Their reads
//    share disk 0 (1/2 each) → 2, compute → 3, their writes share disk 0 again → 5.
//  - jtpw, node_load slots: the first map goes to server 0 (both loads 0, the lower id);
//    server 0's load is then 0.25·1/2 (a slot in use), so the second goes to idle server 1.
//    Each reads and writes its own disk: read → 1, compute → 2, write → 3.
//  - jtpw, node_load measured (the default): at 0 no node has been busy yet, and the ranking
//    holds until the next refresh (1 s), so both maps go to server 0, as under capacity → 5.
// Without modelled disks nothing but the compute takes time: both end at 1.
Scenario DiskBed(std::string scheduler) {
  Scenario s;
  s.cluster = UnitCluster(2, 2);
  s.cluster.classes[0].disk = 1;
  s.workload.source = "disk bed";
  TaskSpec map = Task(1, 1);
  map.output = 1;
  StageSpec stage{"map", {}, {map, map}};
  stage.replicas = Replicas({{0, 1}, {0, 1}});
  s.workload.jobs = {Job("A", 0, {stage})};
  s.scheduler = std::move(scheduler);
  return s;
}

TEST(Jtpw, SlotsInUseSpreadMapsAtOnceMeasuredUseOnlyFromTheNextRefresh) {
  EXPECT_DOUBLE_EQ(DiskBed("capacity").Finishes().at("A"), 5);
  EXPECT_DOUBLE_EQ(DiskBed("jtpw").Finishes().at("A"), 5);
  Scenario slots = DiskBed("jtpw");
  slots.scheduler_settings["node_load"] = "slots";
  EXPECT_DOUBLE_EQ(slots.Finishes().at("A"), 3);
  for (const char* scheduler : {"capacity", "jtpw"}) {
    Scenario s = DiskBed(scheduler);
    s.cluster.classes[0].disk = 0;
    EXPECT_DOUBLE_EQ(s.Finishes().at("A"), 1) << scheduler;
  }
}

// Locality first (the default): a node holding the block beats a less loaded one. Blocks on
// server 0 only, node_load slots (so that server 1 is less loaded at once): jtpw puts both maps
// on server 0, as capacity does (5); with locality only breaking ties, the second map goes to
// idle server 1 and reads remotely: the reads share disk 0 → 2, compute → 3, each writes its
// own disk → 4.
TEST(Jtpw, LocalityComesBeforeLoadUnlessSetOtherwise) {
  Scenario s = DiskBed("jtpw");
  s.workload.jobs[0].stages[0].replicas = Replicas({{0}, {0}});
  s.scheduler_settings["node_load"] = "slots";
  EXPECT_DOUBLE_EQ(s.Finishes().at("A"), 5);
  s.scheduler_settings["locality"] = "tie-break";
  EXPECT_DOUBLE_EQ(s.Finishes().at("A"), 4);
}

TEST(Jtpw, TheDecisionLogShowsQueueClassWeightAndLoad) {
  const std::vector<std::string> placed = Placements(DiskBed("jtpw"));
  ASSERT_EQ(placed.size(), 2u);
  EXPECT_NE(placed[0].find(R"("server":0,"free_slots_left":1,"why":{"load":0,"local":1,)"
                           R"("queue":"io","class":"io","p_w":3,"waited_s":0})"),
            std::string::npos)
      << placed[0];
  EXPECT_NE(placed[1].find(R"("server":0,"free_slots_left":0,"why":{"load":0,"local":1,)"),
            std::string::npos)
      << placed[1];
  Scenario slots = DiskBed("jtpw");
  slots.scheduler_settings["node_load"] = "slots";
  const std::vector<std::string> spread = Placements(slots);
  ASSERT_EQ(spread.size(), 2u);
  EXPECT_NE(spread[1].find(R"("server":1,"free_slots_left":1,"why":{"load":0,"local":1,)"),
            std::string::npos)
      << spread[1];
}

// Refresh (§2.2): server 0 (4 slots) reads a 10-byte block on its unit disk from 0 to 10 for
// job A; server 1 (2 slots) computes job C's 100 s task. B's compute-only task comes at 2.5.
// Refreshed every second, server 0's disk is busy: with node_load slots, L = 0.25·1/4 (a slot
// in use) + 0.25·1 (the disk at the refresh at 2) = 0.3125 against server 1's 0.25·1/2 =
// 0.125; measured over [1, 2], L = 0.25·1 (the disk; A's task reads, it does not compute)
// against server 1's 0.25·1/2 (one slot of 2 computing) = 0.125. Either way B goes to server 1.
// Refreshed every 100 s, the last refresh (at 0, before any read started) saw the disk idle:
// slots, L = 0.0625 < 0.125; measured, nothing used yet, both 0, the lower id: server 0.
TEST(Jtpw, DiskAndNetworkLoadsAreThoseOfTheLastRefresh) {
  for (const char* node_load : {"measured", "slots"}) {
    Scenario s;
    s.cluster = UnitCluster(2, 1);
    s.cluster.classes = {ServerClass{.name = "big", .count = 1, .slots = 4, .nic = 1, .disk = 1},
                         ServerClass{.name = "small", .count = 1, .slots = 2, .nic = 1, .disk = 1}};
    s.workload.source = "refresh";
    TaskSpec read = Task(10, 0);
    read.output = 0;
    StageSpec a{"map", {}, {read}};
    a.replicas = Replicas({{0}});
    s.workload.jobs = {Job("A", 0, {a}), Job("C", 0, {StageSpec{"map", {}, {Task(0, 100)}}}),
                       Job("B", 2.5, {StageSpec{"map", {}, {Task(0, 1)}}})};
    s.scheduler = "jtpw";
    s.scheduler_settings["node_load"] = node_load;
    s.simulation.collect_tasks = true;
    auto server_of_b = [&] {
      for (const TaskResult& t : s.Run().tasks) {
        if (t.job == "B") return t.server;
      }
      return -1;
    };
    EXPECT_EQ(server_of_b(), 1) << node_load;
    s.scheduler_settings["refresh"] = "100s";
    EXPECT_EQ(server_of_b(), 0) << node_load;
  }
}

// Measured CPU use is the share of slots computing, not of slots held (§2.2: "使用率"). Two
// servers of 2 slots, disks of 1 B/s, L from the CPU alone (w_cpu 1). Job A's compute-only
// task goes to server 0 (no use yet anywhere, the lower id) and computes from 0 to 100; job
// R's task (block on server 1 only, 100 bytes) reads its block from disk 1 from 0 to 100,
// holding a slot but not computing. Job B's compute-only task comes at 2.5. Each server has
// one of its two slots in use: with node_load slots both loads are 0.5 and the lower id,
// server 0, takes B. Measured over [1, 2], server 0 computed on one slot of two, 0.5, server 1
// on none, 0: B goes to server 1.
TEST(Jtpw, MeasuredCpuUseCountsComputingNotSlotsHeld) {
  Scenario s;
  s.cluster = UnitCluster(2, 2);
  s.cluster.classes[0].disk = 1;
  s.workload.source = "cpu use";
  StageSpec a{"map", {}, {Task(0, 100)}};
  TaskSpec read = Task(100, 1);
  read.output = 0;
  StageSpec r{"map", {}, {read}};
  r.replicas = Replicas({{1}});
  s.workload.jobs = {Job("A", 0, {a}), Job("R", 0, {r}),
                     Job("B", 2.5, {StageSpec{"map", {}, {Task(0, 1)}}})};
  s.scheduler = "jtpw";
  s.scheduler_settings = {{"w_cpu", "1"}, {"w_mem", "0"}, {"w_disk", "0"}, {"w_net", "0"}};
  s.simulation.collect_tasks = true;
  auto server_of = [&](const std::string& job) {
    for (const TaskResult& t : s.Run().tasks) {
      if (t.job == job) return t.server;
    }
    return -1;
  };
  EXPECT_EQ(server_of("A"), 0);
  EXPECT_EQ(server_of("R"), 1);
  EXPECT_EQ(server_of("B"), 1);
  s.scheduler_settings["node_load"] = "slots";
  EXPECT_EQ(server_of("B"), 0);
}

// Measured disk use is the mean over the refresh interval, not the load at its end. Server 1's
// disk (1 B/s) reads A's 1.5-byte block (held there only) from 0 to 1.5, then A is done; C's
// compute-only task goes to server 0 (4 slots; no use yet anywhere, the lower id) and computes
// from 0 to 100. B's compute-only task comes at 2.5. Measured over [1, 2]: server 1's disk
// carried 0.5 bytes of 1, L = 0.25·0.5 = 0.125, against server 0's 0.25·1/4 (one slot of 4
// computing) = 0.0625: server 0. With node_load slots server 1's disk was idle at the refresh
// at 2 and nothing runs there, L = 0 < 0.0625: server 1.
TEST(Jtpw, MeasuredDiskUseIsTheMeanOverTheRefreshInterval) {
  Scenario s;
  s.cluster = UnitCluster(2, 1);
  s.cluster.classes = {ServerClass{.name = "big", .count = 1, .slots = 4, .nic = 1, .disk = 1},
                       ServerClass{.name = "small", .count = 1, .slots = 2, .nic = 1, .disk = 1}};
  s.workload.source = "disk use";
  TaskSpec read = Task(1.5, 0);
  read.output = 0;
  StageSpec a{"map", {}, {read}};
  a.replicas = Replicas({{1}});
  s.workload.jobs = {Job("A", 0, {a}), Job("C", 0, {StageSpec{"map", {}, {Task(0, 100)}}}),
                     Job("B", 2.5, {StageSpec{"map", {}, {Task(0, 1)}}})};
  s.scheduler = "jtpw";
  s.simulation.collect_tasks = true;
  auto server_of = [&](const std::string& job) {
    for (const TaskResult& t : s.Run().tasks) {
      if (t.job == job) return t.server;
    }
    return -1;
  };
  EXPECT_EQ(server_of("A"), 1);
  EXPECT_EQ(server_of("C"), 0);
  EXPECT_EQ(server_of("B"), 0);
  s.scheduler_settings["node_load"] = "slots";
  EXPECT_EQ(server_of("B"), 1);
}

// Re-evaluation (§2.1): servers of 1 slot with CPU speeds 1 and 5, disks of 10 B/s. Three maps
// of 10 bytes (blocks on both servers), 4 s of compute at speed 1, writing nothing (ρ = 0).
// Predicted at submission with the mean speed 3: V = 1·10/(4/3) = 7.5 < 10, CPU-bound. The map
// on server 1 reads 1 s and computes 0.8 s: V = 1·10/0.8 = 12.5 > 10, IO-bound from 1.8 on,
// when the third map is placed (it ends at 3.6: IO-bound still). The map on server 0 computes
// 4 s (V = 2.5) and ends the job at 5; no decision comes after it, so the job stays IO-bound.
// With speed 4 instead of 5 the fast map's V is exactly 10, not greater: the job stays
// CPU-bound.
TEST(Jtpw, EachFinishedMapReclassifiesItsJob) {
  Scenario s;
  s.cluster = UnitCluster(2, 1);
  s.cluster.classes = {
      ServerClass{.name = "slow", .count = 1, .slots = 1, .nic = 1e9, .disk = 10},
      ServerClass{.name = "fast", .count = 1, .slots = 1, .cpu_speed = 5, .nic = 1e9, .disk = 10}};
  s.workload.source = "reclassify";
  TaskSpec map = Task(10, 4);
  map.output = 0;
  StageSpec stage{"map", {}, {map, map, map}};
  stage.replicas = Replicas({{0, 1}, {0, 1}, {0, 1}});
  s.workload.jobs = {Job("A", 0, {stage})};
  s.scheduler = "jtpw";
  const std::vector<std::string> placed = Placements(s);
  ASSERT_EQ(placed.size(), 3u);
  EXPECT_NE(placed[0].find(R"("t":0,)"), std::string::npos) << placed[0];
  EXPECT_NE(placed[0].find(R"("class":"cpu")"), std::string::npos) << placed[0];
  EXPECT_NE(placed[1].find(R"("class":"cpu")"), std::string::npos) << placed[1];
  EXPECT_NE(placed[2].find(R"({"t":1.8,)"), std::string::npos) << placed[2];
  EXPECT_NE(placed[2].find(R"("server":1,)"), std::string::npos) << placed[2];
  EXPECT_NE(placed[2].find(R"("queue":"io","class":"io")"), std::string::npos) << placed[2];
  const RunResult r = s.Run();
  EXPECT_DOUBLE_EQ(r.jobs[0].finish, 5);
  const auto stats = OwnStats(r.summary);
  EXPECT_EQ(stats, (std::vector<std::pair<std::string, double>>{
                       {"jobs_io", 1}, {"jobs_cpu", 0}, {"class_changes", 1}}));
  s.cluster.classes[1].cpu_speed = 4;
  const RunResult boundary = s.Run();
  EXPECT_EQ(OwnStats(boundary.summary),
            (std::vector<std::pair<std::string, double>>{
                {"jobs_io", 0}, {"jobs_cpu", 1}, {"class_changes", 0}}));
}

// P_w (§2.3): one slot, held by X until 40. Y (priority 5) came at 1, Z (priority 4) at 39.5.
// At 40 Y has waited 39 s >= T = 30: P_w = 5 + 0.2·39/30 + 0.2·5 = 6.26 (the default, eq. (7)
// as printed), above Z's P_w = 4 (0.5 s waited), so Y runs 40 → 41 and Z 41 → 42. With the
// weighted sum alone Y's P_w drops to 1.26 and Z goes first. With T = 60 s both still have
// P_w = P and Y goes first.
TEST(Jtpw, JobsInAQueueGoByPriorityWeight) {
  Scenario s;
  s.cluster = UnitCluster(1, 1);
  s.workload.source = "weights";
  auto one = [](std::string name, Seconds submit, int priority, Seconds compute) {
    JobSpec j = Job(std::move(name), submit, {StageSpec{"map", {}, {Task(0, compute)}}});
    j.priority = priority;
    return j;
  };
  s.workload.jobs = {one("X", 0, 3, 40), one("Y", 1, 5, 1), one("Z", 39.5, 4, 1)};
  s.scheduler = "jtpw";
  auto f = s.Finishes();
  EXPECT_DOUBLE_EQ(f.at("Y"), 41);
  EXPECT_DOUBLE_EQ(f.at("Z"), 42);
  s.scheduler_settings["weight_form"] = "sum";
  f = s.Finishes();
  EXPECT_DOUBLE_EQ(f.at("Z"), 41);
  EXPECT_DOUBLE_EQ(f.at("Y"), 42);
  s.scheduler_settings = {{"wait_threshold", "60s"}};
  f = s.Finishes();
  EXPECT_DOUBLE_EQ(f.at("Y"), 41);
  EXPECT_DOUBLE_EQ(f.at("Z"), 42);
}

// Waiting raises a job past a higher initial priority (§2.3, eq. (7) as printed): X holds the
// one slot until 91. Y (priority 3) came at 1, Z (priority 4) at 90.5. At 91 Y has waited
// 90 s = 3T: P_w = 3 + 0.2·3 + 0.2·3 = 4.2 > Z's 4, so Y runs first (91 → 92, Z → 93). With
// the weighted sum alone Y's P_w is 1.2 and Z goes first.
TEST(Jtpw, WaitingPastTRaisesAJobAboveAHigherPriority) {
  Scenario s;
  s.cluster = UnitCluster(1, 1);
  s.workload.source = "raised";
  auto one = [](std::string name, Seconds submit, int priority, Seconds compute) {
    JobSpec j = Job(std::move(name), submit, {StageSpec{"map", {}, {Task(0, compute)}}});
    j.priority = priority;
    return j;
  };
  s.workload.jobs = {one("X", 0, 3, 91), one("Y", 1, 3, 1), one("Z", 90.5, 4, 1)};
  s.scheduler = "jtpw";
  auto f = s.Finishes();
  EXPECT_DOUBLE_EQ(f.at("Y"), 92);
  EXPECT_DOUBLE_EQ(f.at("Z"), 93);
  s.scheduler_settings["weight_form"] = "sum";
  f = s.Finishes();
  EXPECT_DOUBLE_EQ(f.at("Z"), 92);
  EXPECT_DOUBLE_EQ(f.at("Y"), 93);
}

// Heterogeneous nodes (rank, JTPW §2.2 l. 466-468): server 0 of speed 1 and 2 slots, server 1
// of speed 2 and 4 slots, no disks, L from the CPU alone (w_cpu 1). Job A (one task of 100 s
// at speed 1 reading a 1-byte block on server 0) and job C (three such tasks, blocks on
// server 1) start at 0 where their blocks are (locality first; with no disk a local read
// takes no time). Job B's compute-only task of 4 s comes at 2.5.
// Measured over [1, 2]: server 0 computed on 1 of 2 slots, L = 0.5; server 1 on 3 of 4,
// L = 0.75.
//  - rank load (the default): 0.5 < 0.75, B goes to server 0 and computes 4 s: done at 6.5.
//  - rank speed-aware: 0.5 / 1 = 0.5 against 0.75 / 2 = 0.375, B goes to server 1 and
//    computes 4 / 2 = 2 s: done at 4.5.
Scenario SpeedBed() {
  Scenario s;
  s.cluster = UnitCluster(2, 1);
  s.cluster.classes = {
      ServerClass{.name = "slow", .count = 1, .slots = 2, .nic = 1},
      ServerClass{.name = "fast", .count = 1, .slots = 4, .cpu_speed = 2, .nic = 1}};
  s.workload.source = "speed";
  StageSpec a{"map", {}, {Task(1, 100)}};
  a.replicas = Replicas({{0}});
  StageSpec c{"map", {}, {Task(1, 100), Task(1, 100), Task(1, 100)}};
  c.replicas = Replicas({{1}, {1}, {1}});
  s.workload.jobs = {Job("A", 0, {a}), Job("C", 0, {c}),
                     Job("B", 2.5, {StageSpec{"map", {}, {Task(0, 4)}}})};
  s.scheduler = "jtpw";
  s.scheduler_settings = {{"w_cpu", "1"}, {"w_mem", "0"}, {"w_disk", "0"}, {"w_net", "0"}};
  s.simulation.collect_tasks = true;
  return s;
}

int ServerOf(const RunResult& r, const std::string& job) {
  for (const TaskResult& t : r.tasks) {
    if (t.job == job) return t.server;
  }
  return -1;
}

TEST(Jtpw, SpeedAwareRankDividesTheLoadByTheNodesSpeed) {
  Scenario s = SpeedBed();
  RunResult r = s.Run();
  EXPECT_EQ(ServerOf(r, "A"), 0);
  EXPECT_EQ(ServerOf(r, "C"), 1);
  EXPECT_EQ(ServerOf(r, "B"), 0);
  EXPECT_DOUBLE_EQ(s.Finishes().at("B"), 6.5);
  s.scheduler_settings["rank"] = "speed-aware";
  r = s.Run();
  EXPECT_EQ(ServerOf(r, "B"), 1);
  EXPECT_DOUBLE_EQ(s.Finishes().at("B"), 4.5);
  const std::vector<std::string> placed = Placements(s);
  ASSERT_EQ(placed.size(), 5u);
  EXPECT_NE(placed[4].find(R"("server":1,"free_slots_left":0,"why":{"load":0.75,)"
                           R"("load_per_speed":0.375,"local":0,)"),
            std::string::npos)
      << placed[4];
}

// Ties in L / cpu_speed go to the faster node. At 0 no node has been used: every L is 0.
// DiskBed with server 1 twice as fast and no disks: under rank load both maps go to server 0
// (the lower id) and compute 1 s; under speed-aware both go to server 1 and compute 0.5 s.
// With the blocks on server 0 only, locality first still puts both maps there; with locality
// only breaking ties, the faster node comes before the node holding the block.
TEST(Jtpw, SpeedAwareRankBreaksTiesInLoadByTheFasterNode) {
  Scenario s = DiskBed("jtpw");
  s.cluster.classes[0].disk = 0;
  s.cluster.classes = {
      ServerClass{.name = "slow", .count = 1, .slots = 2, .nic = 1},
      ServerClass{.name = "fast", .count = 1, .slots = 2, .cpu_speed = 2, .nic = 1}};
  EXPECT_DOUBLE_EQ(s.Finishes().at("A"), 1);
  s.scheduler_settings["rank"] = "speed-aware";
  EXPECT_DOUBLE_EQ(s.Finishes().at("A"), 0.5);
  const std::vector<std::string> placed = Placements(s);
  ASSERT_EQ(placed.size(), 2u);
  EXPECT_NE(placed[0].find(R"("server":1,"free_slots_left":1,"why":{"load":0,)"
                           R"("load_per_speed":0,"local":1,)"),
            std::string::npos)
      << placed[0];
  s.workload.jobs[0].stages[0].replicas = Replicas({{0}, {0}});
  s.simulation.collect_tasks = true;
  for (const TaskResult& t : s.Run().tasks) EXPECT_EQ(t.server, 0);
  s.scheduler_settings["locality"] = "tie-break";
  for (const TaskResult& t : s.Run().tasks) EXPECT_EQ(t.server, 1);
}

// rank load is the default: naming it changes no decision, and the decision log is the same
// line for line (no load_per_speed field), on the beds above.
TEST(Jtpw, RankLoadIsTheDefault) {
  for (Scenario s : {SpeedBed(), DiskBed("jtpw")}) {
    const std::vector<std::string> plain = Placements(s);
    s.scheduler_settings["rank"] = "load";
    EXPECT_EQ(Placements(s), plain);
    for (const std::string& line : plain) {
      EXPECT_EQ(line.find("load_per_speed"), std::string::npos) << line;
    }
  }
  Scenario bad = SpeedBed();
  bad.scheduler_settings["rank"] = "speed";
  EXPECT_THROW(bad.Run(), InputError);
}

// Eqs. (5) and (8): weights that do not sum to 1 are input errors naming the settings.
TEST(Jtpw, WeightsMustSumToOne) {
  Scenario s;
  s.cluster = UnitCluster(1, 1);
  s.workload.source = "weights";
  s.workload.jobs = {Job("A", 0, {StageSpec{"map", {}, {Task(0, 1)}}})};
  s.scheduler = "jtpw";
  for (const auto& [key, value] : {std::pair{"w_cpu", "0.5"}, std::pair{"w_time", "0.3"}}) {
    s.scheduler_settings = {{key, value}};
    EXPECT_THROW(s.Run(), InputError) << key;
  }
  s.scheduler_settings = {{"w_cpu", "0.4"}, {"w_net", "0.1"}};
  EXPECT_DOUBLE_EQ(s.Finishes().at("A"), 1);
}

}  // namespace
}  // namespace slotflow::testing
