// Delay scheduling (DS; TCDS Alg. 1), its FIFO baseline and TCDS (TCDS Alg. 2) on a
// tiny rack cluster with heartbeats: each test pins the exact launch time, server and locality
// level of one branch of the walk (scheduling/delay_walk.h).
//
// The bed: 4 servers of 1 slot, two racks {0, 1} and {2, 3} (two-tier), unit rates, heartbeat
// 1 s, so server s beats at s/4 + k: server 0 at 0, 1, 2, ...; 1 at 0.25, 1.25, ...; 2 at 0.5,
// 1.5, ...; 3 at 0.75, 1.75, .... Job "busy", listed first, holds servers with 100 s tasks whose
// blocks are there; job "A" is the one under test. Every task reads a 1-byte block (block size
// 100 for TCDS) whose replica the test names.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "scenario.h"
#include "scheduling/tcds_waits.h"

namespace slotflow::testing {
namespace {

struct Placed {
  double at;
  int server;
  std::string locality;
  bool operator==(const Placed&) const = default;
};

void PrintTo(const Placed& p, std::ostream* os) {
  *os << "{" << p.at << ", server " << p.server << ", " << p.locality << "}";
}

// A map-only job whose i-th task reads a 1-byte block on server replicas[i] and computes
// compute[i] s.
JobSpec MapJob(std::string name, std::vector<int> replicas, std::vector<Seconds> compute,
               Bytes input = 1, Seconds submit = 0) {
  StageSpec map{"map", {}, {}};
  for (size_t i = 0; i < replicas.size(); ++i) {
    map.tasks.push_back(Task(input, compute[i]));
    map.replicas.push_back({ServerId{replicas[i]}});
  }
  return Job(std::move(name), submit, {map});
}

Scenario RackBed(std::string scheduler, std::vector<JobSpec> jobs) {
  Scenario s;
  s.cluster = UnitCluster(4, 1);
  s.cluster.topology = TopologyKind::kTwoTier;
  s.cluster.servers_per_rack = 2;
  s.workload.source = "delay bed";
  s.workload.jobs = std::move(jobs);
  s.scheduler = std::move(scheduler);
  s.scheduler_settings["heartbeat"] = "1s";
  if (s.scheduler == "delay") {
    s.scheduler_settings["node_wait"] = "2s";
    s.scheduler_settings["rack_wait"] = "2s";
  }
  if (s.scheduler == "tcds") s.scheduler_settings["block_size"] = "100";
  s.simulation.collect_tasks = true;
  return s;
}

// Where and when each task of job `job` was placed, in task order.
std::vector<Placed> PlacementsOf(const Scenario& s, const std::string& job) {
  std::vector<Placed> out;
  for (const TaskResult& t : s.Run().tasks) {
    if (t.job == job) out.push_back({t.placed, t.server, t.locality});
  }
  return out;
}

// busy holds server 0 (and server 1 for `s1_busy_s` seconds from 0.25); A's one task has its
// block on server 0 and computes 10 s.
std::vector<JobSpec> OneWaitingTask(Seconds s1_busy_s, Bytes a_input = 1) {
  return {MapJob("busy", {0, 1}, {100, s1_busy_s}), MapJob("A", {0}, {10}, a_input)};
}

// Alg. 1 lines 9-14, the skip: at 0.25 A (no running task, so first in the fair order) is
// offered server 1, rack-local, and skipped (its wait starts); busy takes server 1 till 3.15.
// Server 2 (off-rack) at 2.5 is refused though A has waited 2.25 s: off-rack needs the node
// and the rack wait (4 s). At 3.25 server 1 is free and A has waited 3 s: rack-local there.
TEST(DelayScheduling, SkipsThenLaunchesRackLocalBeforeOffRack) {
  EXPECT_EQ(PlacementsOf(RackBed("delay", OneWaitingTask(2.9)), "A"),
            (std::vector<Placed>{{3.25, 1, "rack"}}));
}

// The decision log says why: A's launch gives its level, its wait and the threshold it met; the
// skip at 0.5 leaves server 2's slot empty (at 0.25 busy took server 1 after A's skip). TCDS
// adds the class and β.
TEST(DelayScheduling, TheLogGivesLevelWaitAndThreshold) {
  Scenario s = RackBed("delay", OneWaitingTask(2.9));
  std::ostringstream text;
  EventLog log(text);
  s.simulation.log = &log;
  s.Run();
  log.Flush();
  const std::string out = text.str();
  EXPECT_NE(out.find(R"({"t":0.5,"event":"reserve","server":2,"free_slots":1,"ready_tasks":1,)"
                     R"("why":{"rule":"wait","skipped_jobs":1}})"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find(R"({"t":3.25,"event":"place","task":2,"job":1,"stage":0,"index":0,)"
                     R"("server":1,"free_slots_left":0,)"
                     R"("why":{"locality":"rack","waited_s":3,"needed_s":2}})"),
            std::string::npos)
      << out;
}

// Alg. 1 lines 11-12: with server 1 held for 100 s no rack-local slot comes, and A launches
// off-rack at the first beat after 0.25 + 2 + 2: server 2 at 4.5 (server 3 at 3.75 is early).
TEST(DelayScheduling, LaunchesOffRackAfterTheNodeAndRackWaits) {
  EXPECT_EQ(PlacementsOf(RackBed("delay", OneWaitingTask(100)), "A"),
            (std::vector<Placed>{{4.5, 2, "off-rack"}}));
}

// Alg. 1 lines 5-7: A's task 0 has its block on server 3 and launches there at 0.75, which
// resets A's wait. A's task 1 (block on busy server 0) is skipped again from 1.25 and launches
// rack-locally on server 1 at 3.25, not at 2.25 as a wait counted from the first skip at 0.25
// would allow.
TEST(DelayScheduling, ALocalLaunchResetsTheWait) {
  const std::vector<JobSpec> jobs = {MapJob("busy", {0}, {100}), MapJob("A", {3, 0}, {100, 10})};
  EXPECT_EQ(PlacementsOf(RackBed("delay", jobs), "A"),
            (std::vector<Placed>{{0.75, 3, "node"}, {3.25, 1, "rack"}}));
}

// FIFO never waits: busy (the older job) takes server 1 at 0.25, and A launches off-rack on the
// next free server that beats, 2 at 0.5.
TEST(Fifo, LaunchesTheOldestJobsTaskOnTheNextFreeSlot) {
  EXPECT_EQ(PlacementsOf(RackBed("fifo", OneWaitingTask(100)), "A"),
            (std::vector<Placed>{{0.5, 2, "off-rack"}}));
}

// The read of a rack-local launch comes from the replica in the rack (HDFS's nearest replica)
// on a two-tier topology, though the other holder is listed first and as idle; on a big switch
// racks shape no path and the first least-loaded holder serves it (sim/lifecycle.cc).
TEST(Fifo, ARackLocalLaunchReadsFromTheRackOnTwoTier) {
  JobSpec a = MapJob("A", {2}, {10});
  a.stages[0].replicas[0] = {ServerId{2}, ServerId{0}};
  Scenario s = RackBed("fifo", {MapJob("busy", {0}, {100}), a});
  EXPECT_EQ(PlacementsOf(s, "A"), (std::vector<Placed>{{0.25, 1, "rack"}}));
  s.cluster.topology = TopologyKind::kBigSwitch;
  EXPECT_EQ(PlacementsOf(s, "A"), (std::vector<Placed>{{0.25, 1, "off-rack"}}));
}

// FIFO still prefers the job's task that is local to the offered server: at 0 server 0 takes
// A's task 1 (block there), not task 0, which goes (off-rack) to the next server that beats.
TEST(Fifo, PrefersANodeLocalTaskOfTheHeadJob) {
  EXPECT_EQ(PlacementsOf(RackBed("fifo", {MapJob("A", {2, 0}, {10, 10})}), "A"),
            (std::vector<Placed>{{0.25, 1, "off-rack"}, {0, 0, "node"}}));
}

// The paper's worked waits (§2.1, after eq. (3)): a very short task with β = 0.01 and l = 5
// waits 0.99 s at the rack level (and 0 at the node level); a long one with β = 0.8 waits
// 5 × (1 − 0.8) = 1 s at each level.
TEST(TcdsWaits, ThePapersWorkedExamples) {
  TcdsParams p;  // TW1 = TW2 = 5 s, l = 5
  const LevelWaits very_short = WaitsOf(TaskClass::kVeryShort, 0.01, p);
  EXPECT_DOUBLE_EQ(very_short.node, 0);
  EXPECT_DOUBLE_EQ(very_short.rack, 0.99);
  const LevelWaits long_task = WaitsOf(TaskClass::kLong, 0.8, p);
  EXPECT_DOUBLE_EQ(long_task.node, 1);
  EXPECT_DOUBLE_EQ(long_task.rack, 1);
}

// Eq. (1): β = input / 64 MiB; very short below k1, long from k2 on.
TEST(TcdsWaits, ClassesByLengthCoefficient) {
  TcdsParams p;  // k1 = 0.01, k2 = 0.5
  EXPECT_DOUBLE_EQ(LengthCoefficient(16 * kMiB, p), 0.25);
  EXPECT_DOUBLE_EQ(LengthCoefficient(128 * kMiB, p), 1);
  EXPECT_EQ(ClassOf(0.009, p), TaskClass::kVeryShort);
  EXPECT_EQ(ClassOf(0.01, p), TaskClass::kShort);
  EXPECT_EQ(ClassOf(0.49, p), TaskClass::kShort);
  EXPECT_EQ(ClassOf(0.5, p), TaskClass::kLong);
}

// Alg. 2 lines 11-12 with eq. (2): a very short task (β = 0.005) is not made to wait for
// node locality: offered server 1 (rack-local) at 0.25 it launches at once, where DS waits
// till 3.25 (the first test).
TEST(Tcds, AVeryShortTaskLaunchesRackLocallyAtOnce) {
  EXPECT_EQ(PlacementsOf(RackBed("tcds", OneWaitingTask(2.9, 0.5)), "A"),
            (std::vector<Placed>{{0.25, 1, "rack"}}));
  EXPECT_EQ(PlacementsOf(RackBed("delay", OneWaitingTask(2.9, 0.5)), "A"),
            (std::vector<Placed>{{3.25, 1, "rack"}}));
}

// Eq. (2)'s rack-level wait, the paper's example: β = 0.01 is very short once k1 = 0.02, and it
// waits 5 × 0.99 / 5 = 0.99 s before going off-rack. A arrives at 0.3, when busy holds servers
// 0 and 1; skipped first at 0.5, it launches at server 2's beat at 1.5 (server 3 at 0.75 is
// early). With very_short = at-once (Alg. 2 read literally) it launches off-rack at 0.5.
TEST(Tcds, AVeryShortTaskGoesOffRackAfterEquationTwosWait) {
  Scenario s =
      RackBed("tcds", {MapJob("busy", {0, 1}, {100, 100}), MapJob("A", {0}, {10}, 1, 0.3)});
  s.scheduler_settings["k1"] = "0.02";
  EXPECT_EQ(PlacementsOf(s, "A"), (std::vector<Placed>{{1.5, 2, "off-rack"}}));
  s.scheduler_settings["very_short"] = "at-once";
  EXPECT_EQ(PlacementsOf(s, "A"), (std::vector<Placed>{{0.5, 2, "off-rack"}}));
}

// Eq. (3): a long task (β = 0.8) waits 1 s per level, so, arriving at 0.3 as above, it goes
// off-rack 2 s after its first skip (0.5), at 2.5, where DS waits 4 s (4.5).
TEST(Tcds, ALongTaskWaitsLessThanUnderDs) {
  const std::vector<JobSpec> jobs = {MapJob("busy", {0, 1}, {100, 100}),
                                     MapJob("A", {0}, {10}, 80, 0.3)};
  EXPECT_EQ(PlacementsOf(RackBed("tcds", jobs), "A"), (std::vector<Placed>{{2.5, 2, "off-rack"}}));
  EXPECT_EQ(PlacementsOf(RackBed("delay", jobs), "A"), (std::vector<Placed>{{4.5, 2, "off-rack"}}));
}

}  // namespace
}  // namespace slotflow::testing
