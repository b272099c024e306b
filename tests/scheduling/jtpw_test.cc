// JTPW (JTPW §2): the job-type test of §2.1, the node load of §2.2 and the
// priority weight of §2.3 on hand-computed numbers, then small runs where each rule decides
// where or when a task runs, disk contention included.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "common/error.h"
#include "scenario.h"
#include "scheduling/jtpw_rules.h"

namespace slotflow::testing {
namespace {

constexpr double kMB = 1e6;

// Eqs. (2)-(4). IO-bound: 2 maps of 128 MB, ρ = 1, 2 s of compute each: V = 2·2·128 MB / 2 s =
// 256 MB/s, above a 100 MB/s disk. CPU-bound: ρ = 0.01 and 8 s: V = 2·1.01·128/8 = 32.32 MB/s.
// At the boundary: 1 map of 50 MB, ρ = 1, 1 s: V = 100 MB/s, IO-bound (V >= disk rate) against
// 100 MB/s and CPU-bound against a disk a hair faster.
TEST(JtpwRules, ClassifiesByTheMapDataRateAgainstTheDisk) {
  const double io = MapDataRate(2, 1, 128 * kMB, 2);
  EXPECT_DOUBLE_EQ(io, 256 * kMB);
  EXPECT_EQ(ClassifyByRate(io, 100 * kMB), JobClass::kIo);
  const double cpu = MapDataRate(2, 0.01, 128 * kMB, 8);
  EXPECT_DOUBLE_EQ(cpu, 32.32 * kMB);
  EXPECT_EQ(ClassifyByRate(cpu, 100 * kMB), JobClass::kCpu);
  const double edge = MapDataRate(1, 1, 50 * kMB, 1);
  EXPECT_DOUBLE_EQ(edge, 100 * kMB);
  EXPECT_EQ(ClassifyByRate(edge, 100 * kMB), JobClass::kIo);
  EXPECT_EQ(ClassifyByRate(edge, 100.001 * kMB), JobClass::kCpu);
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
// waited 60 s holding half the slots and a quarter of the memory:
// 0.2·2 + 0.3·0.5 + 0.3·0.25 + 0.2·1 = 0.825; read as P plus that sum, 1.825.
TEST(JtpwRules, PriorityWeightIsPBeforeTAndTheWeightedSumAfter) {
  PriorityWeights w;
  EXPECT_DOUBLE_EQ(PriorityWeight(w, 4, 29.9, 0.5, 0.5), 4);
  EXPECT_DOUBLE_EQ(PriorityWeight(w, 1, 60, 0.5, 0.25), 0.825);
  EXPECT_DOUBLE_EQ(PriorityWeight(w, 5, 30, 0, 0), 0.2 + 1.0);
  w.plus_p = true;
  EXPECT_DOUBLE_EQ(PriorityWeight(w, 1, 60, 0.5, 0.25), 1.825);
  EXPECT_DOUBLE_EQ(PriorityWeight(w, 1, 10, 0.5, 0.25), 1);
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
// held by both servers, computing 1 s and writing 1 byte: V = 2·(1+1)·1/1 = 4 >= 1, IO-bound.
//  - capacity takes the first replica holder with room: both maps on server 0. Their reads
//    share disk 0 (1/2 each) → 2, compute → 3, their writes share disk 0 again → 5.
//  - jtpw: the first map goes to server 0 (both loads 0, the lower id); server 0's load is then
//    0.25·1/2, so the second goes to idle server 1. Each reads and writes its own disk: read
//    → 1, compute → 2, write → 3.
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

TEST(Jtpw, LeastLoadedNodesSpreadDiskHeavyMapsAndFinishSooner) {
  EXPECT_DOUBLE_EQ(DiskBed("capacity").Finishes().at("A"), 5);
  EXPECT_DOUBLE_EQ(DiskBed("jtpw").Finishes().at("A"), 3);
  for (const char* scheduler : {"capacity", "jtpw"}) {
    Scenario s = DiskBed(scheduler);
    s.cluster.classes[0].disk = 0;
    EXPECT_DOUBLE_EQ(s.Finishes().at("A"), 1) << scheduler;
  }
}

// Locality first (the default): a node holding the block beats a less loaded one. Blocks on
// server 0 only: jtpw puts both maps there, as capacity does (5); with locality only breaking
// ties, the second map goes to idle server 1 and reads remotely: the reads share disk 0 → 2,
// compute → 3, each writes its own disk → 4.
TEST(Jtpw, LocalityComesBeforeLoadUnlessSetOtherwise) {
  Scenario s = DiskBed("jtpw");
  s.workload.jobs[0].stages[0].replicas = Replicas({{0}, {0}});
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
  EXPECT_NE(placed[1].find(R"("server":1,"free_slots_left":1,"why":{"load":0,"local":1,)"),
            std::string::npos)
      << placed[1];
}

// Refresh (§2.2): server 0 (4 slots) reads a 10-byte block on its unit disk from 0 to 10 for
// job A; server 1 (2 slots) computes job C's 100 s task. B's compute-only task comes at 2.5.
// Refreshed every second, server 0 reports its disk busy: L = 0.25·1/4 + 0.25·1 = 0.3125
// against server 1's 0.25·1/2 = 0.125, so B goes to server 1. Refreshed every 100 s, the last
// report (at 0, before any read started) says the disk is idle: L = 0.0625 < 0.125, server 0.
TEST(Jtpw, DiskAndNetworkLoadsAreThoseOfTheLastRefresh) {
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
  s.simulation.collect_tasks = true;
  auto server_of_b = [&] {
    for (const TaskResult& t : s.Run().tasks) {
      if (t.job == "B") return t.server;
    }
    return -1;
  };
  EXPECT_EQ(server_of_b(), 1);
  s.scheduler_settings["refresh"] = "100s";
  EXPECT_EQ(server_of_b(), 0);
}

// Re-evaluation (§2.1): servers of 1 slot with CPU speeds 1 and 4, disks of 10 B/s. Three maps
// of 10 bytes (blocks on both servers), 4 s of compute at speed 1, writing nothing (ρ = 0).
// Predicted at submission with the mean speed 2.5: V = 1·10/1.6 = 6.25 < 10, CPU-bound. The
// map on server 1 reads 1 s and computes 1 s: V = 1·10/1 = 10 >= 10, IO-bound from 2 on, when
// the third map is placed (it ends at 4: IO-bound still). The map on server 0 computes 4 s
// (V = 2.5) and ends the job at 5; no decision comes after it, so the job stays IO-bound.
TEST(Jtpw, EachFinishedMapReclassifiesItsJob) {
  Scenario s;
  s.cluster = UnitCluster(2, 1);
  s.cluster.classes = {
      ServerClass{.name = "slow", .count = 1, .slots = 1, .nic = 1e9, .disk = 10},
      ServerClass{.name = "fast", .count = 1, .slots = 1, .cpu_speed = 4, .nic = 1e9, .disk = 10}};
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
  EXPECT_NE(placed[2].find(R"({"t":2,)"), std::string::npos) << placed[2];
  EXPECT_NE(placed[2].find(R"("server":1,)"), std::string::npos) << placed[2];
  EXPECT_NE(placed[2].find(R"("queue":"io","class":"io")"), std::string::npos) << placed[2];
  const RunResult r = s.Run();
  EXPECT_DOUBLE_EQ(r.jobs[0].finish, 5);
  const auto& stats = r.summary.scheduler_stats;
  EXPECT_EQ(stats, (std::vector<std::pair<std::string, double>>{
                       {"jobs_io", 1}, {"jobs_cpu", 0}, {"class_changes", 1}}));
}

// P_w (§2.3): one slot, held by X until 40. Y (priority 5) came at 1, Z (priority 4) at 39.5.
// At 40 Y has waited 39 s >= T = 30: P_w = 0.2·39/30 + 0.2·5 = 1.26, while Z (0.5 s) keeps
// P_w = 4, so Z runs 40 → 41 and Y 41 → 42. With T = 60 s both still have P_w = P and Y goes
// first; so it does with P_w read as P plus the sum (6.26).
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
  EXPECT_DOUBLE_EQ(f.at("Z"), 41);
  EXPECT_DOUBLE_EQ(f.at("Y"), 42);
  s.scheduler_settings["wait_threshold"] = "60s";
  f = s.Finishes();
  EXPECT_DOUBLE_EQ(f.at("Y"), 41);
  EXPECT_DOUBLE_EQ(f.at("Z"), 42);
  s.scheduler_settings = {{"weight_form", "p-plus"}};
  EXPECT_DOUBLE_EQ(s.Finishes().at("Y"), 41);
}

// Eqs. (4) and (7): weights that do not sum to 1 are input errors naming the settings.
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
