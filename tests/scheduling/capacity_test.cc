// Hadoop's capacity scheduler (JTPW §1): a free slot goes to the queue furthest
// below its share, a queue borrows idle slots only up to its maximum, and a queue's jobs go by
// priority, then submission. Every case is one server of unit rates with tasks of 1 s compute,
// so finish times can be counted by hand.
#include <gtest/gtest.h>

#include <string>

#include "api/error.h"
#include "scenario.h"

namespace slotflow::testing {
namespace {

JobSpec Tasks(std::string name, Seconds submit, int n, std::string queue = "", int priority = 3,
              Seconds compute = 1) {
  JobSpec j = Job(std::move(name), submit,
                  {StageSpec{"map", {}, std::vector<TaskSpec>(n, Task(0, compute))}});
  j.queue = std::move(queue);
  j.priority = priority;
  return j;
}

Scenario OneServer(int slots, std::vector<JobSpec> jobs, std::string queues) {
  Scenario s;
  s.cluster = UnitCluster(1, slots);
  s.workload.source = "capacity";
  s.workload.jobs = std::move(jobs);
  s.scheduler = "capacity";
  if (!queues.empty()) s.scheduler_settings["queues"] = std::move(queues);
  return s;
}

// Queues a (3/4) and b (1/4), 4 slots, 8 one-second tasks each. At 0 and at 1: a, b, a, a
// (each slot to the queue with the lowest running / (share × 4)): a runs 3, b 1. At 2 A has 2
// tasks left and b takes the other two slots; A ends at 3, B's last 4 run 3 → 4.
TEST(Capacity, AFreeSlotGoesToTheQueueFurthestBelowItsShare) {
  const Scenario s = OneServer(4, {Tasks("A", 0, 8, "a"), Tasks("B", 0, 8, "b")}, "a:0.75,b:0.25");
  const auto f = s.Finishes();
  EXPECT_DOUBLE_EQ(f.at("A"), 3);
  EXPECT_DOUBLE_EQ(f.at("B"), 4);
}

// The same with b's maximum at its share: b never runs more than one task, even when a leaves
// slots idle, so B's 8 tasks take 8 s.
TEST(Capacity, AQueueBorrowsOnlyUpToItsMaximum) {
  const Scenario s =
      OneServer(4, {Tasks("A", 0, 8, "a"), Tasks("B", 0, 8, "b")}, "a:0.75,b:0.25:0.25");
  const auto f = s.Finishes();
  EXPECT_DOUBLE_EQ(f.at("A"), 3);
  EXPECT_DOUBLE_EQ(f.at("B"), 8);
}

// One slot held by X until 1. Y (priority 1) was submitted before Z (priority 5): Z goes first.
// Between jobs of equal priority the earlier submission goes first (greedy's FIFO shows what
// submission order alone does).
TEST(Capacity, InsideAQueueJobsGoByPriorityThenSubmission) {
  Scenario s = OneServer(1,
                         {Tasks("X", 0, 1, "", 3), Tasks("Y", 0.5, 1, "", 1),
                          Tasks("Z", 0.6, 1, "", 5), Tasks("W", 0.7, 1, "", 1)},
                         "");
  auto f = s.Finishes();
  EXPECT_DOUBLE_EQ(f.at("Z"), 2);
  EXPECT_DOUBLE_EQ(f.at("Y"), 3);
  EXPECT_DOUBLE_EQ(f.at("W"), 4);
  s.scheduler = "greedy";
  s.scheduler_settings.clear();
  f = s.Finishes();
  EXPECT_DOUBLE_EQ(f.at("Y"), 2);
  EXPECT_DOUBLE_EQ(f.at("Z"), 3);
}

// per_queue = one (JTPW §1): a queue starts its next job only when its running one has
// ended. Two slots; A (one 2 s task) and B (one 1 s task) at 0: B ends at 1 beside A, or at 3
// after it. Under jtpw both are CPU-bound (no disks), in one queue, the same.
TEST(Capacity, OneJobPerQueueWaitsForTheRunningJob) {
  for (const char* scheduler : {"capacity", "jtpw"}) {
    Scenario s = OneServer(2, {Tasks("A", 0, 1, "", 3, 2), Tasks("B", 0, 1, "", 3, 1)}, "");
    s.scheduler = scheduler;
    EXPECT_DOUBLE_EQ(s.Finishes().at("B"), 1) << scheduler;
    s.scheduler_settings["per_queue"] = "one";
    EXPECT_DOUBLE_EQ(s.Finishes().at("B"), 3) << scheduler;
    EXPECT_DOUBLE_EQ(s.Finishes().at("A"), 2) << scheduler;
  }
}

// A job without a queue goes to the first one; a queue no one configured is an input error.
TEST(Capacity, JobsWithoutAQueueGoToTheFirstAndUnknownQueuesAreErrors) {
  Scenario s = OneServer(4, {Tasks("A", 0, 8, ""), Tasks("B", 0, 8, "b")}, "a:0.75,b:0.25:0.25");
  EXPECT_DOUBLE_EQ(s.Finishes().at("B"), 8);
  s.workload.jobs[1].queue = "c";
  try {
    s.Run();
    FAIL() << "no error for an unknown queue";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("queue 'c'"), std::string::npos) << e.what();
  }
}

TEST(Capacity, QueueSharesAreChecked) {
  for (const char* bad :
       {"a:0.5", "a:0.5,b:0.6", "a:0.5,a:0.5", "a:0.6:0.5,b:0.4", "a", ":1", "a:0", "a:x"}) {
    EXPECT_THROW(OneServer(1, {Tasks("A", 0, 1)}, bad).Run(), InputError) << bad;
  }
  EXPECT_DOUBLE_EQ(OneServer(1, {Tasks("A", 0, 1, "b")}, " a:0.5 , b:0.5:1 ").Finishes().at("A"),
                   1);
}

}  // namespace
}  // namespace slotflow::testing
