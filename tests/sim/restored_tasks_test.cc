// TaskLifecycle::RestoreTask on small hand-built states: a task an earlier run completed (live
// mode's journal) is done before its job arrives; on arrival only the others run, as the stage
// barrier allows, and a reducer reads the restored maps' outputs where they ran.
#include <gtest/gtest.h>

#include <stdexcept>
#include <utility>
#include <vector>

#include "bed.h"

namespace slotflow::testing {
namespace {

// Two maps, each with a 1-byte block on servers 0 and 1, and two reducers reading 2 bytes.
JobSpec MapReduce() {
  StageSpec maps{"map", {}, std::vector<TaskSpec>(2, Task(1, 0))};
  maps.replicas = Replicas({{0, 1}, {0, 1}});
  return Job("mr", 0, {maps, StageSpec{"reduce", {0}, std::vector<TaskSpec>(2, Task(2, 0))}});
}

FinishedTask DoneOn(int server, Locality locality = Locality::kNode) {
  FinishedTask done;
  done.server = ServerId{server};
  done.locality = locality;
  done.placed_at = 1;
  done.compute_at = 1.5;
  done.computed_at = done.finish_at = 2;
  return done;
}

TEST(RestoredTasks, ReducersOfRestoredMapsAreReadyAtArrivalAndReadWhereTheMapsRan) {
  Bed bed(3, 2);
  const JobIndex j = bed.Add(MapReduce(), 1);
  const TaskId m0 = bed.TaskOf(j, 0, 0), m1 = bed.TaskOf(j, 0, 1);
  const TaskId r0 = bed.TaskOf(j, 1, 0), r1 = bed.TaskOf(j, 1, 1);
  bed.life().RestoreTask(m0, DoneOn(0));
  bed.life().RestoreTask(m1, DoneOn(2, Locality::kRack));
  bed.life().Arrive(j);
  const SimState& s = bed.state();
  EXPECT_EQ(s.task(m0).state, TaskState::kDone);
  EXPECT_EQ(s.task(m1).state, TaskState::kDone);
  EXPECT_EQ(s.task(m1).server, ServerId{2});
  EXPECT_EQ(s.task(m1).finish_at, 2);
  EXPECT_EQ(s.task(r0).state, TaskState::kReady);
  EXPECT_EQ(s.task(r1).state, TaskState::kReady);
  EXPECT_EQ(s.job(j).ready, (ReadyTasks{r0, r1}));
  EXPECT_EQ(s.ready_tasks(), 2);
  EXPECT_EQ(s.job(j).unfinished_tasks, 2);
  EXPECT_EQ(s.job(j).local_reads, 1);
  EXPECT_EQ(s.job(j).remote_reads, 1);
  // Each reducer reads 1 byte from each map's server: server 0 and server 2.
  EXPECT_EQ(s.InputSources(r0),
            (std::vector<std::pair<ServerId, Bytes>>{{ServerId{0}, 1}, {ServerId{2}, 1}}));
  // Restored tasks hold no slot.
  EXPECT_EQ(s.free_slots(), 6);
  bed.life().Place(r0, ServerId{0});
  EXPECT_EQ(s.task(r0).pending_flows, 1);  // the byte on server 0 is local
}

TEST(RestoredTasks, WithOneMapRestoredTheOtherRunsAndTheReducersWait) {
  Bed bed(2, 2);
  const JobIndex j = bed.Add(MapReduce(), 1);
  const TaskId m0 = bed.TaskOf(j, 0, 0), m1 = bed.TaskOf(j, 0, 1);
  bed.life().RestoreTask(m1, DoneOn(1));
  bed.life().Arrive(j);
  const SimState& s = bed.state();
  EXPECT_EQ(s.job(j).ready, ReadyTasks{m0});
  EXPECT_EQ(s.task(bed.TaskOf(j, 1, 0)).state, TaskState::kWaiting);
  bed.life().Place(m0, ServerId{0});
  bed.Finish(m0);
  EXPECT_EQ(s.task(bed.TaskOf(j, 1, 0)).state, TaskState::kReady);
  EXPECT_EQ(s.task(bed.TaskOf(j, 1, 1)).state, TaskState::kReady);
  EXPECT_FALSE(s.job(j).finished);
}

TEST(RestoredTasks, AJobWhoseEveryTaskIsRestoredCompletesAtArrival) {
  Bed bed(2, 2);
  const JobIndex j = bed.Add(MapReduce(), 1);
  for (int stage = 0; stage < 2; ++stage) {
    for (int k = 0; k < 2; ++k) bed.life().RestoreTask(bed.TaskOf(j, stage, k), DoneOn(k));
  }
  EXPECT_EQ(bed.life().unfinished_jobs(), 1);
  bed.life().Arrive(j);
  EXPECT_TRUE(bed.state().job(j).finished);
  EXPECT_EQ(bed.state().job(j).finish, 0);
  EXPECT_EQ(bed.state().job(j).first_start, 0);
  EXPECT_TRUE(bed.state().active_jobs().empty());
  EXPECT_EQ(bed.life().unfinished_jobs(), 0);
}

TEST(RestoredTasks, RestoringAfterArrivalIsRefused) {
  Bed bed(2, 2);
  const JobIndex j = bed.Submit(MapReduce(), 1);
  EXPECT_THROW(bed.life().RestoreTask(bed.TaskOf(j, 0, 0), DoneOn(0)), std::logic_error);
}

// A restored map whose server is then lost runs again, as a map that ran in this run would.
TEST(RestoredTasks, ARestoredOutputOnALostServerRunsAgain) {
  Bed bed(2, 2);
  const JobIndex j = bed.Add(MapReduce(), 1);
  const TaskId m0 = bed.TaskOf(j, 0, 0), m1 = bed.TaskOf(j, 0, 1);
  bed.life().RestoreTask(m0, DoneOn(0));
  bed.life().RestoreTask(m1, DoneOn(1));
  bed.life().Arrive(j);
  const auto loss = bed.life().LoseServer(ServerId{0});
  EXPECT_EQ(loss.unrecoverable, "");
  EXPECT_EQ(loss.reset, (std::vector<std::pair<TaskId, ServerId>>{{m0, ServerId{0}}}));
  EXPECT_EQ(bed.state().task(m0).state, TaskState::kReady);
  EXPECT_EQ(bed.state().task(bed.TaskOf(j, 1, 0)).state, TaskState::kWaiting);
}

}  // namespace
}  // namespace slotflow::testing
