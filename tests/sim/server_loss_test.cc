// TaskLifecycle::LoseServer on small hand-built states: what a lost server takes with it runs
// again, the lost server is offered to no scheduler, and the stage barrier holds.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "bed.h"

namespace slotflow::testing {
namespace {

// Two maps, each with a block on servers 0 and 1, and `reduces` reducers reading 1 byte of each.
JobSpec MapReduce(int reduces) {
  StageSpec maps{"map", {}, std::vector<TaskSpec>(2, Task(1, 0))};
  maps.replicas = Replicas({{0, 1}, {0, 1}});
  return Job("mr", 0, {maps, StageSpec{"reduce", {0}, std::vector<TaskSpec>(reduces, Task(2, 0))}});
}

TEST(ServerLoss, ARunningTaskIsReadyAgainAndTheServerOffersNoSlot) {
  Bed bed(2, 2);
  const JobIndex j = bed.Submit(MapReduce(1), 1);
  const TaskId m0 = bed.TaskOf(j, 0, 0), m1 = bed.TaskOf(j, 0, 1);
  bed.life().Place(m0, ServerId{0});
  bed.life().Place(m1, ServerId{1});
  const auto loss = bed.life().LoseServer(ServerId{0});
  EXPECT_EQ(loss.unrecoverable, "");
  EXPECT_EQ(loss.reset, (std::vector<std::pair<TaskId, ServerId>>{{m0, ServerId{0}}}));
  const SimState& s = bed.state();
  EXPECT_EQ(s.task(m0).state, TaskState::kReady);
  EXPECT_EQ(s.task(m0).server, kNoServer);
  EXPECT_EQ(s.task(m0).replicas, std::vector<ServerId>{ServerId{1}});
  EXPECT_EQ(s.task(m1).state, TaskState::kComputing);
  EXPECT_EQ(s.ready_tasks(), 1);
  EXPECT_EQ(s.server(ServerId{0}).free_slots, 0);
  EXPECT_EQ(s.server(ServerId{0}).running, 0);
  EXPECT_EQ(s.servers_with_free_slots(), std::vector<ServerId>{ServerId{1}});
  EXPECT_EQ(s.free_slots(), 1);
  EXPECT_FALSE(s.CanHost(m0, ServerId{0}));
  EXPECT_TRUE(s.CanHost(m0, ServerId{1}));
  EXPECT_EQ(s.job(j).running, 1);
  EXPECT_EQ(bed.life().tasks_rerun(), 1);
  EXPECT_THROW(bed.life().Place(m0, ServerId{0}), std::logic_error);
}

// A lost server that rejoins comes back empty: its slots free, idle, hosting again; the block
// replicas dropped at its loss stay dropped.
TEST(ServerLoss, ARejoinedServerTakesTasksAgain) {
  Bed bed(2, 2);
  const JobIndex j = bed.Submit(MapReduce(1), 1);
  const TaskId m0 = bed.TaskOf(j, 0, 0), m1 = bed.TaskOf(j, 0, 1);
  bed.life().Place(m0, ServerId{0});
  bed.life().LoseServer(ServerId{0});
  ASSERT_TRUE(bed.life().server_lost(ServerId{0}));
  bed.life().schedule_needed = false;
  bed.life().RejoinServer(ServerId{0});
  const SimState& s = bed.state();
  EXPECT_FALSE(bed.life().server_lost(ServerId{0}));
  EXPECT_TRUE(bed.life().schedule_needed);
  EXPECT_EQ(s.server(ServerId{0}).free_slots, 2);
  EXPECT_EQ(s.free_slots(), 4);
  EXPECT_EQ(s.servers_with_free_slots(), (std::vector<ServerId>{ServerId{0}, ServerId{1}}));
  EXPECT_EQ(s.idle_servers_with_free_slots(), (std::vector<ServerId>{ServerId{0}, ServerId{1}}));
  EXPECT_EQ(s.task(m0).replicas, std::vector<ServerId>{ServerId{1}});
  EXPECT_TRUE(s.CanHost(m0, ServerId{0}));
  bed.life().Place(m0, ServerId{0});  // a remote read from server 1 now
  bed.life().Place(m1, ServerId{0});
  EXPECT_EQ(s.server(ServerId{0}).free_slots, 0);
  bed.life().RejoinServer(ServerId{1});  // not lost: nothing changes
  EXPECT_EQ(s.free_slots(), 2);
}

// A finished map on the lost server whose output a reducer still needs runs again; a reducer
// fetching from it starts over; a ready reducer waits for the map stage again. The job then
// completes on the server left.
TEST(ServerLoss, FinishedMapsStillNeededRunAgainBehindTheBarrier) {
  Bed bed(2, 2);
  const JobIndex j = bed.Submit(MapReduce(2), 1);
  const TaskId m0 = bed.TaskOf(j, 0, 0), m1 = bed.TaskOf(j, 0, 1);
  const TaskId r0 = bed.TaskOf(j, 1, 0), r1 = bed.TaskOf(j, 1, 1);
  bed.life().Place(m0, ServerId{0});
  bed.life().Place(m1, ServerId{1});
  bed.Finish(m0);
  bed.Finish(m1);
  EXPECT_EQ(bed.state().idle_servers_with_free_slots(),
            (std::vector<ServerId>{ServerId{0}, ServerId{1}}));
  bed.life().Place(r0, ServerId{1});  // fetching its byte from server 0
  ASSERT_EQ(bed.state().task(r0).state, TaskState::kReading);
  // Server 1 has a free slot but a task receiving: no longer idle.
  EXPECT_EQ(bed.state().idle_servers_with_free_slots(), std::vector<ServerId>{ServerId{0}});
  const auto loss = bed.life().LoseServer(ServerId{0});
  EXPECT_EQ(loss.reset,
            (std::vector<std::pair<TaskId, ServerId>>{{m0, ServerId{0}}, {r0, ServerId{1}}}));
  EXPECT_EQ(loss.cancelled.size(), 1u);
  const SimState& s = bed.state();
  EXPECT_EQ(s.task(m0).state, TaskState::kReady);
  EXPECT_EQ(s.task(m1).state, TaskState::kDone);
  EXPECT_EQ(s.task(r0).state, TaskState::kWaiting);
  EXPECT_EQ(s.task(r1).state, TaskState::kWaiting);
  EXPECT_EQ(s.ready_tasks(), 1);
  EXPECT_EQ(s.server(ServerId{1}).receiving, 0);
  EXPECT_EQ(s.free_slots(), 2);
  EXPECT_EQ(s.idle_servers_with_free_slots(), std::vector<ServerId>{ServerId{1}});  // 0 is lost
  EXPECT_EQ(s.job(j).stages[1].unfinished_parents, 1);
  bed.life().OnFlowDone(loss.cancelled[0]);  // a late report of a cancelled flow: no effect
  EXPECT_EQ(s.task(r0).state, TaskState::kWaiting);

  bed.life().Place(m0, ServerId{1});
  bed.Finish(m0);
  EXPECT_EQ(s.task(r0).state, TaskState::kReady);
  EXPECT_EQ(s.task(r1).state, TaskState::kReady);
  bed.life().Place(r0, ServerId{1});  // every input is on server 1 now: no flow, computing at once
  bed.life().Place(r1, ServerId{1});
  EXPECT_EQ(s.task(r0).state, TaskState::kComputing);
  bed.Finish(r0);
  bed.Finish(r1);
  EXPECT_TRUE(s.job(j).finished);
  EXPECT_EQ(bed.life().unfinished_jobs(), 0);
  EXPECT_EQ(bed.life().tasks_rerun(), 2);
}

// A finished map whose output every reducer already has is not run again.
TEST(ServerLoss, OutputsNoLongerNeededAreNotRerun) {
  Bed bed(2, 2);
  const JobIndex j = bed.Submit(MapReduce(1), 1);
  const TaskId m0 = bed.TaskOf(j, 0, 0), m1 = bed.TaskOf(j, 0, 1), r0 = bed.TaskOf(j, 1, 0);
  bed.life().Place(m0, ServerId{0});
  bed.life().Place(m1, ServerId{1});
  bed.Finish(m0);
  bed.Finish(m1);
  const FlowId from0{bed.net().FlowCount()};
  bed.life().Place(r0, ServerId{1});
  bed.life().OnFlowDone(from0);
  ASSERT_EQ(bed.state().task(r0).state, TaskState::kComputing);
  const auto loss = bed.life().LoseServer(ServerId{0});
  EXPECT_TRUE(loss.reset.empty());
  EXPECT_EQ(bed.state().task(m0).state, TaskState::kDone);
  EXPECT_EQ(bed.life().tasks_rerun(), 0);
}

TEST(ServerLoss, ABlockWithEveryReplicaLostIsUnrecoverable) {
  Bed bed(2, 2);
  bed.MapJob({{0}}, 1);
  const auto loss = bed.life().LoseServer(ServerId{0});
  EXPECT_NE(loss.unrecoverable.find("every replica was on lost servers"), std::string::npos)
      << loss.unrecoverable;
}

}  // namespace
}  // namespace slotflow::testing
