// replay: a recorded run's servers, per-server order and slot modes, on hand-made recordings
// (tasks.csv with the columns replay reads, modes.csv, setup.toml), and its errors on bad input.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "scenario.h"

namespace slotflow::testing {
namespace {

namespace fs = std::filesystem;

// A recording in a fresh directory: tasks.csv, modes.csv, setup.toml and placements.csv as
// given (a file given as "-" is left out).
std::string Recording(const std::string& name, const std::string& tasks,
                      const std::string& modes = "t_s,mode\n0,sufficient\n",
                      const std::string& setup = "[scheduler]\npolicy = \"greedy\"\n",
                      const std::string& placements = "task\n") {
  const fs::path dir =
      fs::path(::testing::TempDir()) / ("replay_" + std::to_string(getpid()) + "_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  if (tasks != "-") std::ofstream(dir / "tasks.csv") << tasks;
  if (modes != "-") std::ofstream(dir / "modes.csv") << modes;
  if (setup != "-") std::ofstream(dir / "setup.toml") << setup;
  if (placements != "-") std::ofstream(dir / "placements.csv") << placements;
  return dir.string();
}

constexpr const char* kHeader = "job,stage,task,server,pinned,placed_s\n";

// One job `name` of `tasks` map tasks of `compute` seconds each, reading nothing.
JobSpec MapJob(const std::string& name, Seconds submit, int tasks, Seconds compute = 1) {
  return Job(name, submit, {StageSpec{"map", {}, std::vector<TaskSpec>(tasks, Task(0, compute))}});
}

Scenario Replay(const std::string& dir, int servers, int slots, std::vector<JobSpec> jobs,
                const std::string& timing = "order") {
  Scenario s;
  s.cluster = UnitCluster(servers, slots);
  s.workload.source = "replay-test";
  s.workload.jobs = std::move(jobs);
  s.scheduler = "replay";
  s.scheduler_settings = {{"from", dir}, {"timing", timing}};
  s.simulation.collect_tasks = true;
  return s;
}

std::vector<double> Placed(const RunResult& r) {
  std::vector<double> out;
  for (const TaskResult& t : r.tasks) out.push_back(t.placed);
  return out;
}

// One server of one slot, three ready tasks: replay runs them in the recorded order (by
// placed_s), not in task order, each as the one before it ends.
TEST(Replay, RunsEachServersTasksInTheRecordedOrder) {
  const std::string dir =
      Recording("order", std::string(kHeader) + "J,map,0,0,0,7\nJ,map,1,0,0,5\nJ,map,2,0,0,6\n");
  const RunResult r = Replay(dir, 1, 1, {MapJob("J", 0, 3)}).Run();
  EXPECT_EQ(Placed(r), (std::vector<double>{2, 0, 1}));
}

// Ties in placed_s go by the file's rows; each task goes to its recorded server even where
// another is free.
TEST(Replay, BreaksTiesByRowAndKeepsTheRecordedServers) {
  const std::string dir =
      Recording("ties", std::string(kHeader) + "J,map,0,1,0,3\nJ,map,1,1,0,3\nJ,map,2,1,0,3\n");
  const RunResult r = Replay(dir, 3, 1, {MapJob("J", 0, 3)}).Run();
  EXPECT_EQ(Placed(r), (std::vector<double>{0, 1, 2}));
  for (const TaskResult& t : r.tasks) EXPECT_EQ(t.server, 1);
}

// Within one instant, the order of placements.csv goes before the rows.
TEST(Replay, BreaksTiesInTheRecordedOrderOfPlacements) {
  const std::string dir =
      Recording("ranks", std::string(kHeader) + "J,map,0,1,0,3\nJ,map,1,1,0,3\nJ,map,2,1,0,3\n",
                "t_s,mode\n", "-", "task\n2\n0\n1\n");
  EXPECT_EQ(Placed(Replay(dir, 3, 1, {MapJob("J", 0, 3)}).Run()), (std::vector<double>{1, 2, 0}));
}

// Server 0 has two slots. A's task is ready at 0, but B's (arriving at 3) was placed before it
// on server 0: A waits for B although a slot is free. With timing = order it starts with B at
// 3; with timing = recorded only at its recorded 4, when B's task ends.
TEST(Replay, WaitsForTheRecordedPredecessorOnItsServer) {
  const std::string dir =
      Recording("wait", std::string(kHeader) + "A,map,0,0,0,4\nB,map,0,0,0,3\n");
  const std::vector<JobSpec> jobs = {MapJob("A", 0, 1), MapJob("B", 3, 1)};
  EXPECT_EQ(Placed(Replay(dir, 1, 2, jobs).Run()), (std::vector<double>{3, 3}));
  EXPECT_EQ(Placed(Replay(dir, 1, 2, jobs, "recorded").Run()), (std::vector<double>{4, 3}));
}

// timing = recorded: a task is not placed before its recorded time (a slot left empty on
// purpose stays empty), but it is at that time when the run is asked then; the recording's
// scheduler (greedy: no tick, no heartbeats) gives replay no other triggers.
TEST(Replay, RecordedTimingKeepsDeliberatelyEmptySlotsEmpty) {
  const std::string dir =
      Recording("recorded", std::string(kHeader) + "J,map,0,0,0,0\nJ,map,1,1,0,1\n");
  const RunResult r = Replay(dir, 2, 1, {MapJob("J", 0, 2)}, "recorded").Run();
  EXPECT_EQ(Placed(r), (std::vector<double>{0, 1}));  // server 1 idle until task 0 ends at 1
  EXPECT_EQ(OwnStats(r.summary),
            (std::vector<std::pair<std::string, double>>{{"placed_later_than_recorded", 0}}));
}

// The recorded slot modes are the run's, whatever its state: the mode in force at each step is
// the recording's last switch at or before it (steps at 0, 1, 2 and 3).
TEST(Replay, FollowsTheRecordedSlotModes) {
  const std::string dir =
      Recording("modes", std::string(kHeader) + "J,map,0,0,0,0\nJ,map,1,0,0,1\nJ,map,2,0,0,2\n",
                "t_s,mode\n0,sufficient\n1.5,insufficient\n2.5,sufficient\n");
  const RunResult r = Replay(dir, 1, 1, {MapJob("J", 0, 3)}).Run();
  ASSERT_EQ(r.modes.size(), 3u);
  EXPECT_EQ(r.modes[0].t, 0);
  EXPECT_EQ(r.modes[0].mode, SlotMode::kSufficient);
  EXPECT_EQ(r.modes[1].t, 2);
  EXPECT_EQ(r.modes[1].mode, SlotMode::kInsufficient);
  EXPECT_EQ(r.modes[2].t, 3);
  EXPECT_EQ(r.modes[2].mode, SlotMode::kSufficient);
}

// The error a replay of `dir` on `jobs` (2 servers of 1 slot) stops with.
InputError ErrorOf(const std::string& dir, std::vector<JobSpec> jobs,
                   const std::string& timing = "order") {
  try {
    Replay(dir, 2, 1, std::move(jobs), timing).Run();
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "no error";
  return InputError("none");
}

void ExpectError(const InputError& e, const std::string& file, int line, const std::string& field,
                 const std::string& message) {
  EXPECT_EQ(fs::path(e.file()).filename().string(), file) << e.what();
  EXPECT_EQ(e.line(), line) << e.what();
  EXPECT_EQ(e.field(), field) << e.what();
  EXPECT_NE(e.message().find(message), std::string::npos) << e.what();
}

TEST(Replay, WithoutARecordingIsAnError) {
  try {
    TaskSchedulerRegistry::Get().Make("replay");
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "from");  // "scheduler.from" where a run names it
    EXPECT_NE(e.message().find("--set scheduler.from=DIR"), std::string::npos) << e.what();
  }
  const std::string none = (fs::path(::testing::TempDir()) / "no-such-recording").string();
  ExpectError(ErrorOf(none, {MapJob("J", 0, 1)}), "tasks.csv", 0, "scheduler.from", "cannot open");
  const std::string no_modes = Recording("no_modes", std::string(kHeader) + "J,map,0,0,0,0\n", "-");
  ExpectError(ErrorOf(no_modes, {MapJob("J", 0, 1)}), "modes.csv", 0, "scheduler.from",
              "cannot open");
  const std::string no_setup =
      Recording("no_setup", std::string(kHeader) + "J,map,0,0,0,0\n", "t_s,mode\n", "-");
  ExpectError(ErrorOf(no_setup, {MapJob("J", 0, 1)}, "recorded"), "setup.toml", 0, "scheduler.from",
              "cannot open");
}

TEST(Replay, MalformedLinesAreErrorsAtTheirLineAndColumn) {
  const std::vector<JobSpec> one = {MapJob("J", 0, 1)};
  ExpectError(ErrorOf(Recording("bad_int", std::string(kHeader) + "J,map,x,0,0,0\n"), one),
              "tasks.csv", 2, "task", "expected an integer");
  ExpectError(ErrorOf(Recording("bad_time", std::string(kHeader) + "J,map,0,0,0,soon\n"), one),
              "tasks.csv", 2, "placed_s", "expected a time");
  ExpectError(ErrorOf(Recording("short", std::string(kHeader) + "J,map,0,0\n"), one), "tasks.csv",
              2, "scheduler.from", "4 fields, the header has 6");
  ExpectError(ErrorOf(Recording("no_column", "job,stage,task,server,pinned\nJ,map,0,0,0\n"), one),
              "tasks.csv", 1, "placed_s", "no such column");
  ExpectError(ErrorOf(Recording("quote", std::string(kHeader) + "\"J,map,0,0,0,0\n"), one),
              "tasks.csv", 2, "scheduler.from", "not closed");
  ExpectError(ErrorOf(Recording("bad_mode", std::string(kHeader) + "J,map,0,0,0,0\n",
                                "t_s,mode\n0,sufficient\n2,plenty\n"),
                      one),
              "modes.csv", 3, "mode", "expected sufficient or insufficient");
  ExpectError(ErrorOf(Recording("backwards", std::string(kHeader) + "J,map,0,0,0,0\n",
                                "t_s,mode\n2,sufficient\n1,insufficient\n"),
                      one),
              "modes.csv", 3, "t_s", "earlier than the row before");
  ExpectError(ErrorOf(Recording("bad_rank", std::string(kHeader) + "J,map,0,0,0,0\n", "t_s,mode\n",
                                "-", "task\n0\n1\n"),
                      one),
              "placements.csv", 3, "task", "task 1 is not a row of tasks.csv (1 tasks)");
  ExpectError(ErrorOf(Recording("bad_setup", std::string(kHeader) + "J,map,0,0,0,0\n", "t_s,mode\n",
                                "[scheduler]\npolicy = \"nope\"\n"),
                      one, "recorded"),
              "setup.toml", 2, "scheduler.policy", "unknown name 'nope'");
}

TEST(Replay, TheRecordingMustMatchTheWorkloadTaskForTask) {
  const std::string two = std::string(kHeader) + "J,map,0,0,0,0\nJ,map,1,1,0,0\n";
  // The recording has a task the workload lacks.
  ExpectError(ErrorOf(Recording("extra", two), {MapJob("J", 0, 1)}), "tasks.csv", 3, "job",
              "the recording's task J/map/1 is not in the workload");
  // The workload has a task the recording lacks: named at the line where it would be.
  ExpectError(ErrorOf(Recording("missing", two), {MapJob("J", 0, 3)}), "tasks.csv", 4, "job",
              "the workload's task J/map/2 is not in the recording");
  // Another job, stage or index where the workload has this task.
  ExpectError(ErrorOf(Recording("renamed", two), {MapJob("K", 0, 2)}), "tasks.csv", 2, "job",
              "records J/map/0 where the workload's task 0 is K/map/0");
  ExpectError(
      ErrorOf(Recording("stage", std::string(kHeader) + "J,reduce,0,0,0,0\n"), {MapJob("J", 0, 1)}),
      "tasks.csv", 2, "stage", "records J/reduce/0");
  ExpectError(ErrorOf(Recording("index", std::string(kHeader) + "J,map,0,0,0,0\nJ,map,0,1,0,0\n"),
                      {MapJob("J", 0, 2)}),
              "tasks.csv", 3, "task", "records J/map/0 where the workload's task 1 is J/map/1");
  ExpectError(
      ErrorOf(Recording("pinned", std::string(kHeader) + "J,map,0,0,1,-1\n"), {MapJob("J", 0, 1)}),
      "tasks.csv", 2, "pinned", "recorded as pinned");
}

TEST(Replay, ServersBeyondTheClusterAndUnplacedTasksAreErrors) {
  ExpectError(
      ErrorOf(Recording("beyond", std::string(kHeader) + "J,map,0,2,0,0\n"), {MapJob("J", 0, 1)}),
      "tasks.csv", 2, "server", "server 2 is beyond the cluster's 2 servers");
  ExpectError(ErrorOf(Recording("unplaced", std::string(kHeader) + "J,map,0,-1,0,-1\n"),
                      {MapJob("J", 0, 1)}),
              "tasks.csv", 2, "server", "never placed this task");
}

}  // namespace
}  // namespace slotflow::testing
