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

// task_order = local-first: loadAware and minDist take the task NEAT+ takes (NeatTaskChoice),
// then place it by their own rule. Four servers of one slot; server 0 is full. Map 0's block
// is on server 0, map 1's on server 2 (free). In id order (the default) map 0 goes first, to
// server 1, 2 or 3 (all 2 hops from its block: a tie, here ties = first, so server 1); with
// local-first map 1 goes first, and minDist puts it on its block's server (0 byte-hops), as
// neat does.
TEST(MinDist, LocalFirstTakesTheTaskWithAFreeReplicaHolder) {
  Bed bed(4, 1);
  bed.Occupy(0, 1);
  const JobIndex j = bed.MapJob({{0}, {2}}, 1);
  Decision d = Make("minDist", 1, {{"ties", "first"}})->Next(bed.state());
  EXPECT_EQ(d.task, bed.TaskOf(j, 0, 0));
  EXPECT_EQ(d.server, 1);
  EXPECT_DOUBLE_EQ(d.why[1].number, 2);  // byte_hops: 1 byte × 2 hops
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    d = Make("minDist", seed, {{"task_order", "local-first"}})->Next(bed.state());
    EXPECT_EQ(d.task, bed.TaskOf(j, 0, 1)) << seed;
    EXPECT_EQ(d.server, 2) << seed;
    ASSERT_EQ(d.why.size(), 3);
    EXPECT_STREQ(d.why[1].name, "task_choice");
    EXPECT_STREQ(d.why[1].text, "local-read");
    EXPECT_DOUBLE_EQ(d.why[2].number, 0);  // byte_hops
  }
  const Decision neat = Make("neat")->Next(bed.state());
  EXPECT_EQ(neat.task, bed.TaskOf(j, 0, 1));
  EXPECT_EQ(neat.server, 2);
}

// With every replica holder full, local-first takes the largest ready task; maps of equal
// input tie, and the lower id wins: map 0, as in id order.
TEST(MinDist, LocalFirstWithNoFreeHolderTakesTheLargestLowerIdOnTies) {
  Bed bed(4, 1);
  bed.Occupy(0, 1);
  bed.Occupy(2, 1);
  const JobIndex j = bed.MapJob({{0}, {2}}, 1);
  const Decision d = Make("minDist", 1, {{"task_order", "local-first"}})->Next(bed.state());
  EXPECT_EQ(d.task, bed.TaskOf(j, 0, 0));
  EXPECT_STREQ(d.why[1].text, "largest");
  EXPECT_TRUE(d.server == 1 || d.server == 3);
}

// loadAware with local-first takes map 1 (its block's server 2 has a free slot) but places it
// by load, not on its block: servers of 2 slots, server 0 full, server 2 running one task,
// servers 1 and 3 idle. Both orders pick server 1 or 3 (a tie, at random); only the task
// differs. With load = bytes the same.
TEST(LoadAware, LocalFirstTakesTheTaskWithAFreeHolderButPlacesItByLoad) {
  for (const char* load : {"tasks", "bytes"}) {
    std::set<ServerId> by_id, local_first;
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      Bed bed(4, 2);
      bed.Occupy(0, 2);
      bed.Occupy(2, 1);
      const JobIndex j = bed.MapJob({{0}, {2}}, 1);
      Decision d = Make("loadAware", seed, {{"load", load}})->Next(bed.state());
      EXPECT_EQ(d.task, bed.TaskOf(j, 0, 0)) << load;
      by_id.insert(d.server);
      d = Make("loadAware", seed, {{"load", load}, {"task_order", "local-first"}})
              ->Next(bed.state());
      EXPECT_EQ(d.task, bed.TaskOf(j, 0, 1)) << load;
      EXPECT_STREQ(d.why[1].text, "local-read");
      local_first.insert(d.server);
    }
    EXPECT_EQ(by_id, (std::set<ServerId>{ServerId{1}, ServerId{3}})) << load;
    EXPECT_EQ(local_first, by_id) << load;
  }
}

// A reduce task reads no block, so local-first takes the largest ready one (NEAT+ §V-A2): of
// reduce tasks of 2 and 8 bytes (the 2 has the lower id), the 8; in id order the 2.
TEST(Baselines, LocalFirstTakesTheLargestReduceTask) {
  for (const char* name : {"loadAware", "minDist"}) {
    Bed bed(4, 1);
    const JobIndex j = bed.ReduceJob(0, {2, 8}, 1);
    bed.Occupy(0, 1);
    EXPECT_EQ(Make(name)->Next(bed.state()).task, bed.TaskOf(j, 1, 0)) << name;
    const Decision d = Make(name, 1, {{"task_order", "local-first"}})->Next(bed.state());
    EXPECT_EQ(d.task, bed.TaskOf(j, 1, 1)) << name;
    EXPECT_STREQ(d.why[1].text, "largest") << name;
    EXPECT_EQ(Make("neat")->Next(bed.state()).task, bed.TaskOf(j, 1, 1));
  }
}

// The default is unchanged: task_order is declared with default id, and with no setting each
// decision takes the first job's lowest-id ready task whatever its locality, as task_order = id
// does, decision after decision (each applied before the next), on a state where local-first
// would take other tasks. Six servers of one slot; server 0 full; one job of five maps with
// blocks on servers 0, 0, 3, 0, 5; a second job of two maps.
TEST(Baselines, TheDefaultTaskOrderIsIdOrder) {
  for (const char* name : {"loadAware", "minDist"}) {
    int declared = 0;
    for (const SettingSpec& spec : TaskSchedulerRegistry::Get().Find(name, "policy").settings) {
      if (spec.name != "task_order") continue;
      ++declared;
      EXPECT_EQ(spec.default_value, "id") << name;
    }
    EXPECT_EQ(declared, 1) << name;
    for (uint64_t seed = 1; seed <= 5; ++seed) {
      Bed bed(6, 1);
      bed.Occupy(0, 1);
      const JobIndex a = bed.MapJob({{0}, {0}, {3}, {0}, {5}}, 1);
      const JobIndex b = bed.MapJob({{4}, {1}}, 2);
      auto plain = Make(name, seed);
      auto by_id = Make(name, seed, {{"task_order", "id"}});
      const std::vector<TaskId> expected = {bed.TaskOf(a, 0, 0), bed.TaskOf(a, 0, 1),
                                            bed.TaskOf(a, 0, 2), bed.TaskOf(a, 0, 3),
                                            bed.TaskOf(a, 0, 4)};
      for (TaskId want : expected) {
        const Decision d = plain->Next(bed.state());
        const Decision e = by_id->Next(bed.state());
        ASSERT_TRUE(d) << name;
        EXPECT_EQ(d.task, want) << name << " seed " << seed;
        EXPECT_EQ(d.server, e.server) << name << " seed " << seed;
        EXPECT_EQ(d.why.size(), e.why.size()) << name;
        bed.life().Place(d.task, d.server);
      }
      EXPECT_FALSE(plain->Next(bed.state())) << name;  // every slot taken; b waits
      EXPECT_EQ(bed.state().job(b).ready.size(), 2u);
    }
  }
}

// A word other than id or local-first is refused, naming the setting.
TEST(Baselines, AnUnknownTaskOrderIsRefused) {
  try {
    Make("minDist", 1, {{"task_order", "nearest"}});
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("task_order"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace slotflow::testing
