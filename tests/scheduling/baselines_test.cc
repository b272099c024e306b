// NEAT+'s placement baselines (NEAT+ §I, §II): loadAware (fewest running tasks, or least bytes
// arriving), minDist (least bytes × hops to the input) and random, one decision at a time on
// hand-built states.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "bed.h"
#include "scenario.h"
#include "workload/flow_workload.h"

namespace slotflow::testing {
namespace {

std::unique_ptr<TaskScheduler> Make(const std::string& name, uint64_t seed = 1,
                                    std::map<std::string, std::string> settings = {}) {
  settings.emplace("order", "fifo");
  return TaskSchedulerRegistry::Get().Make(name, settings, seed);
}

// By default loadAware spreads tasks: the free server running the fewest, whatever arrives on
// its downlink and wherever the input is. Servers 0-2 run 2, 1 and 3 tasks of 4 slots; server 3
// is full; server 1 receives 10 bytes, server 0 nothing. The block is on server 2.
TEST(LoadAware, PicksTheServerRunningTheFewestTasks) {
  Bed bed(4, 4);
  bed.Occupy(0, 2);
  bed.Receiving(3, {{1, 10}});  // one task on server 1, fetching 10 bytes from server 3
  bed.Occupy(2, 3);
  bed.Occupy(3, 4);
  const JobIndex j = bed.MapJob({{2}}, 1);
  auto s = Make("loadAware");
  Decision d = s->Next(bed.state());
  ASSERT_TRUE(d);
  EXPECT_EQ(d.task, bed.TaskOf(j, 0, 0));
  EXPECT_EQ(d.server, 1);
  EXPECT_STREQ(d.why[0].text, "fewest-tasks");
  EXPECT_DOUBLE_EQ(d.why[1].number, 1);  // running_tasks
  bed.Occupy(1, 1);                      // now 0 and 1 both run 2: a tie, broken at random
  std::set<ServerId> chosen;
  for (uint64_t seed = 1; seed <= 20; ++seed)
    chosen.insert(Make("loadAware", seed)->Next(bed.state()).server);
  EXPECT_EQ(chosen, (std::set<ServerId>{ServerId{0}, ServerId{1}}));
}

// load = bytes: server 0 receives 10 bytes, server 1 3 bytes, servers 2 and 3 nothing; server 2
// runs a task. A map task whose block is on server 0: loadAware ignores the block and picks
// server 3 (no bytes arriving, fewer running than server 2); with server 3 full, server 2.
TEST(LoadAware, BytesPicksTheServerWithTheFewestBytesArriving) {
  Bed bed(4, 2);
  bed.Receiving(3, {{0, 10}});
  bed.Receiving(3, {{1, 3}});
  bed.Occupy(2, 1);
  const JobIndex j = bed.MapJob({{0}}, 1);
  auto s = Make("loadAware", 1, {{"load", "bytes"}});
  Decision d = s->Next(bed.state());
  ASSERT_TRUE(d);
  EXPECT_EQ(d.task, bed.TaskOf(j, 0, 0));
  EXPECT_EQ(d.server, 3);
  bed.Occupy(3, 2);
  d = s->Next(bed.state());
  EXPECT_EQ(d.server, 2);
  bed.Occupy(2, 1);
  d = s->Next(bed.state());  // left: servers 0 (10 B arriving) and 1 (3 B)
  EXPECT_EQ(d.server, 1);
}

// Racks {0, 1} and {2, 3}. A block on server 0, which is full: server 1 (same rack, 2 hops)
// beats servers 2 and 3 (4 hops).
TEST(MinDist, PicksTheServerNearestTheInput) {
  ClusterSpec spec = UnitCluster(4, 2);
  spec.topology = TopologyKind::kTwoTier;
  spec.servers_per_rack = 2;
  Bed bed(spec);
  bed.Occupy(0, 2);
  const JobIndex maps = bed.MapJob({{0}}, 1);
  auto s = Make("minDist");
  Decision d = s->Next(bed.state());
  ASSERT_TRUE(d);
  EXPECT_EQ(d.task, bed.TaskOf(maps, 0, 0));
  EXPECT_EQ(d.server, 1);
  EXPECT_DOUBLE_EQ(d.why[1].number, 2);  // byte_hops: 1 byte × 2 hops
}

TEST(MinDist, AReduceTaskGoesWhereMostOfItsInputIs) {
  ClusterSpec spec = UnitCluster(4, 2);
  spec.topology = TopologyKind::kTwoTier;
  spec.servers_per_rack = 2;
  Bed bed(spec);
  bed.Occupy(0, 2);
  bed.Occupy(1, 2);
  // A reduce task whose 6 input bytes all come from server 2, where its job's one map ran.
  const JobIndex j = bed.ReduceJob(2, {6}, 1);
  auto s = Make("minDist");
  const Decision d = s->Next(bed.state());
  ASSERT_TRUE(d);
  EXPECT_EQ(d.task, bed.TaskOf(j, 1, 0));
  EXPECT_EQ(d.server, 2);  // all 6 bytes local; server 3 would cost 6 × 2
  EXPECT_DOUBLE_EQ(d.why[1].number, 0);
}

// Servers 1-3 are equally near a block on server 0 (full); server 1 runs 2 tasks, servers 2 and
// 3 one each. By default how busy they are plays no part (each of 1-3 for some seed); with
// busy_ties = fewer-running, server 1 never wins.
TEST(MinDist, EquallyNearServersTieAtRandomOrByRunningTasks) {
  Bed bed(4, 4);
  bed.Occupy(0, 4);
  bed.Occupy(1, 2);
  bed.Occupy(2, 1);
  bed.Occupy(3, 1);
  bed.MapJob({{0}}, 1);
  std::set<ServerId> plain, busy;
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    plain.insert(Make("minDist", seed)->Next(bed.state()).server);
    busy.insert(Make("minDist", seed, {{"busy_ties", "fewer-running"}})->Next(bed.state()).server);
  }
  EXPECT_EQ(plain, (std::set<ServerId>{ServerId{1}, ServerId{2}, ServerId{3}}));
  EXPECT_EQ(busy, (std::set<ServerId>{ServerId{2}, ServerId{3}}));
}

// random: every free server for some seed, never a full one.
TEST(RandomPlacement, PicksAnyFreeServerAndNoFullOne) {
  std::set<ServerId> chosen;
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    Bed bed(4, 1);
    bed.Occupy(1, 1);
    bed.MapJob({{1}}, 1);
    const Decision d = Make("random", seed)->Next(bed.state());
    ASSERT_TRUE(d);
    chosen.insert(d.server);
  }
  EXPECT_EQ(chosen, (std::set<ServerId>{ServerId{0}, ServerId{2}, ServerId{3}}));
}

// None of them leaves a slot empty while a task is ready (end to end, Duopoly Fig. 2).
TEST(Baselines, NeverReserveSlots) {
  for (const char* name : {"loadAware", "minDist", "random"}) {
    const RunResult r = Scenario::DuopolyFig2(name).Run();
    EXPECT_EQ(r.summary.reservations, 0) << name;
    EXPECT_EQ(r.summary.jobs, 2) << name;
  }
}

// A flow workload's task avoids its sender (TaskSpec::avoid), where its block is: no scheduler
// places it there, though the read would be local. Two servers: each of these picks server 1
// (nats may first hold the slot back, as it does for any non-local map).
TEST(Baselines, NoSchedulerPlacesATaskOnTheServerItAvoids) {
  for (const char* name : {"minDist", "loadAware", "random", "greedy", "neat"}) {
    Bed bed(2, 1);
    StageSpec read{"read", {}, {Task(10, 0)}, Replicas({{0}})};
    read.tasks[0].avoid = ServerId{0};
    const JobIndex j = bed.Submit(Job("flow", 0, {read}), 1);
    EXPECT_FALSE(bed.state().CanHost(bed.TaskOf(j, 0, 0), ServerId{0}));
    EXPECT_TRUE(bed.state().CanHost(bed.TaskOf(j, 0, 0), ServerId{1}));
    const Decision d = Make(name)->Next(bed.state());
    ASSERT_TRUE(d) << name;
    EXPECT_EQ(d.server, 1) << name;
  }
}

// loadAware and minDist break a tie at random (ties = random, the default), the same way for a
// seed; ties = first takes the lowest id. Four idle servers all tie for loadAware; for minDist,
// servers 1-3 tie (the block is on server 0, which is full).
TEST(Baselines, TiesAreRandomPerSeedOrTheFirst) {
  for (const char* name : {"loadAware", "minDist"}) {
    std::set<ServerId> chosen;
    for (uint64_t seed = 1; seed <= 30; ++seed) {
      ServerId first = kNoServer;
      for (int again = 0; again < 2; ++again) {
        Bed bed(4, 1);
        bed.Occupy(0, 1);
        bed.MapJob({{0}}, 1);
        const Decision d =
            TaskSchedulerRegistry::Get().Make(name, {{"order", "fifo"}}, seed)->Next(bed.state());
        ASSERT_TRUE(d) << name;
        if (again == 0) first = d.server;
        EXPECT_EQ(d.server, first) << name << " seed " << seed;
      }
      chosen.insert(first);
    }
    EXPECT_EQ(chosen, (std::set<ServerId>{ServerId{1}, ServerId{2}, ServerId{3}})) << name;
    Bed bed(4, 1);
    bed.Occupy(0, 1);
    bed.MapJob({{0}}, 1);
    const Decision d = TaskSchedulerRegistry::Get()
                           .Make(name, {{"order", "fifo"}, {"ties", "first"}}, 7)
                           ->Next(bed.state());
    EXPECT_EQ(d.server, 1) << name;
  }
}

// A many-to-one stage from the flows generator (flow_senders = 4) on 5 servers of 1 slot and
// rate 1: the reader placed on one of the 4 senders reads a quarter locally and 3 quarters over
// its downlink at 1/3 each, done at 3/4 of its size; on the fifth server all 4 quarters share
// the downlink, done at its size. NEAT+ and minDist pick a sender; random, for some seed, not.
TEST(Baselines, AManyToOneReaderOnASenderReadsAShareLocally) {
  FlowWorkloadOptions o{.flows = 1, .senders = 4};
  auto jct_of = [&](const std::string& scheduler, uint64_t seed) {
    Scenario sc;
    sc.cluster = UnitCluster(5, 1);
    sc.workload = GenerateFlowWorkload(o, 5, 5.0);
    sc.scheduler = scheduler;
    sc.scheduler_settings = {{"order", "fifo"}};
    sc.simulation.seed = seed;
    const RunResult r = sc.Run();
    const Bytes size = sc.workload.jobs[0].stages[1].tasks[0].input;
    EXPECT_EQ(r.summary.unfinished_jobs, 0);
    return r.jobs.at(0).jct / size;
  };
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    EXPECT_NEAR(jct_of("neat", seed), 0.75, 1e-9) << seed;
    EXPECT_NEAR(jct_of("minDist", seed), 0.75, 1e-9) << seed;
  }
  std::set<double> random_jcts;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    random_jcts.insert(std::round(jct_of("random", seed) * 100) / 100);
  }
  EXPECT_EQ(random_jcts, (std::set<double>{0.75, 1.0}));
}

}  // namespace
}  // namespace slotflow::testing
