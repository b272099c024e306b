// The Alibaba batch_task.csv reader (workload/alibaba_trace.h) on lines written from the
// trace's published schema (cluster-trace-v2018/schema.md §1.5: task_name, instance_num,
// job_name, task_type, status, start_time, end_time, plan_cpu, plan_mem) and its DAG example
// (trace_2018.md §2.3: M1, M2_1, M3_1, R4_2, M5_3_4).
#include "workload/alibaba_trace.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "api/error.h"

namespace slotflow {
namespace {

AlibabaTrace Read(const std::string& text, const AlibabaOptions& o = {.dag_bytes = 60}) {
  std::istringstream in(text);
  return ReadAlibabaTrace(in, "batch_task.csv", o);
}

const StageSpec& Stage(const JobSpec& j, const std::string& name) {
  for (const StageSpec& s : j.stages) {
    if (s.name == name) return s;
  }
  throw std::logic_error("no stage " + name);
}

std::vector<std::string> ParentNames(const JobSpec& j, const StageSpec& s) {
  std::vector<std::string> out;
  for (int p : s.parents) out.push_back(j.stages[p].name);
  return out;
}

// The schema's example job, its lines out of order: stages after their parents, instances as
// tasks, plan_cpu in cores rounded up, plan_mem a share of the largest machine's memory, the
// task's span as each instance's compute, and the modelled bytes (dag_bytes 60 per instance).
TEST(AlibabaTrace, TheSchemasDagExample) {
  const AlibabaTrace t = Read(
      "R4_2,2,j_1,1,Terminated,130,150,100,0.5\n"
      "M1,3,j_1,1,Terminated,100,110,50,1\n"
      "M2_1,4,j_1,1,Terminated,110,130,250,2\n"
      "M3_1,1,j_1,1,Terminated,110,112,,\n"
      "M5_3_4,6,j_1,1,Terminated,150,151,100,0.25\n",
      {.dag_bytes = 60, .machine_memory = 400});
  EXPECT_EQ(t.jobs_left_out, 0);
  EXPECT_EQ(t.parents_dropped, 0);
  ASSERT_EQ(t.workload.jobs.size(), 1u);
  const JobSpec& j = t.workload.jobs[0];
  EXPECT_EQ(j.name, "j_1");
  EXPECT_EQ(j.submit, 100);  // its first task's start
  std::vector<std::string> order;
  for (const StageSpec& s : j.stages) order.push_back(s.name);
  // Parents first; among tasks free to go, the earlier line: once M2_1 is placed, R4_2 (line 1)
  // goes before M3_1 (line 4).
  EXPECT_EQ(order, (std::vector<std::string>{"M1", "M2_1", "R4_2", "M3_1", "M5_3_4"}));
  EXPECT_EQ(ParentNames(j, Stage(j, "M1")), std::vector<std::string>{});
  EXPECT_EQ(ParentNames(j, Stage(j, "R4_2")), std::vector<std::string>{"M2_1"});
  EXPECT_EQ(ParentNames(j, Stage(j, "M5_3_4")), (std::vector<std::string>{"R4_2", "M3_1"}));
  const StageSpec& m1 = Stage(j, "M1");
  ASSERT_EQ(m1.tasks.size(), 3u);
  EXPECT_EQ(m1.tasks[0].cpus, 1);      // 50: half a core holds one slot
  EXPECT_EQ(m1.tasks[0].memory, 4);    // 1 % of 400
  EXPECT_EQ(m1.tasks[0].compute, 10);  // 110 - 100
  EXPECT_EQ(m1.tasks[0].input, 60);    // a root reads a block of dag_bytes
  const StageSpec& m2 = Stage(j, "M2_1");
  ASSERT_EQ(m2.tasks.size(), 4u);
  EXPECT_EQ(m2.tasks[0].cpus, 3);              // 250: 2.5 cores
  EXPECT_EQ(m2.tasks[0].input, 3 * 60 / 4.0);  // M1's 3 instances send 60 each, over 4
  const StageSpec& m3 = Stage(j, "M3_1");
  EXPECT_EQ(m3.tasks[0].cpus, 1);    // plan_cpu empty: one core
  EXPECT_EQ(m3.tasks[0].memory, 0);  // plan_mem empty: none
  EXPECT_EQ(m3.tasks[0].input, 3 * 60.0);
  const StageSpec& m5 = Stage(j, "M5_3_4");
  ASSERT_EQ(m5.tasks.size(), 6u);
  EXPECT_EQ(m5.tasks[0].input, (1 + 2) * 60 / 6.0);  // M3_1's 1 and R4_2's 2 instances
  EXPECT_EQ(m5.tasks[0].compute, 1);
  // Without memory in the cluster, plan_mem means nothing.
  EXPECT_EQ(Stage(Read("M1,1,j,1,Terminated,1,2,100,50\n").workload.jobs[0], "M1").tasks[0].memory,
            0);
}

// Names that are not DAG names are tasks without parents; jobs sort by submit time; the window
// keeps the jobs whose first task starts in it.
TEST(AlibabaTrace, IndependentTasksAndTheWindow) {
  const std::string text =
      "task_Nzg3ODAwNDgzMTAwNTc2NTQ2Mw==,2,j_2,12,Terminated,500,520,100,1\n"
      "MergeTask,1,j_2,12,Terminated,505,530,100,1\n"
      "M1,1,j_3,1,Terminated,200,210,100,1\n";
  const AlibabaTrace t = Read(text);
  ASSERT_EQ(t.workload.jobs.size(), 2u);
  EXPECT_EQ(t.workload.jobs[0].name, "j_3");
  const JobSpec& j2 = t.workload.jobs[1];
  EXPECT_EQ(j2.submit, 500);
  ASSERT_EQ(j2.stages.size(), 2u);
  EXPECT_TRUE(j2.stages[0].parents.empty());
  EXPECT_TRUE(j2.stages[1].parents.empty());
  EXPECT_EQ(j2.stages[1].tasks[0].compute, 25);
  const AlibabaTrace w = Read(text, {.dag_bytes = 60, .window_start = 300, .window_end = 600});
  ASSERT_EQ(w.workload.jobs.size(), 1u);
  EXPECT_EQ(w.workload.jobs[0].name, "j_2");
}

// A job with a task that did not finish cleanly is left out and counted (Failed, Running, a
// time of 0, an end before the start, no instances); a parent the job does not list is dropped
// and counted.
TEST(AlibabaTrace, UnfinishedJobsAreLeftOutAndMissingParentsDropped) {
  const AlibabaTrace t = Read(
      "M1,1,ok,1,Terminated,10,20,100,1\n"
      "R2_1_9,1,ok,1,Terminated,20,30,100,1\n"
      "M1,1,failed,1,Failed,10,20,100,1\n"
      "M1,1,running,1,Running,10,0,100,1\n"
      "M1,1,before,1,Terminated,0,20,100,1\n"
      "M1,1,backwards,1,Terminated,30,20,100,1\n"
      "M1,1,ok2,1,Terminated,10,20,100,1\n"
      "R2_1,0,ok2,1,Terminated,20,30,100,1\n");
  EXPECT_EQ(t.jobs_left_out, 5);
  EXPECT_EQ(t.parents_dropped, 1);
  ASSERT_EQ(t.workload.jobs.size(), 1u);
  const JobSpec& j = t.workload.jobs[0];
  EXPECT_EQ(j.name, "ok");
  EXPECT_EQ(ParentNames(j, Stage(j, "R2_1_9")), std::vector<std::string>{"M1"});
}

TEST(AlibabaTrace, MalformedLinesNameTheLineAndField) {
  struct Bad {
    std::string text;
    int line;
    std::string field, message;
  };
  const std::vector<Bad> cases = {
      {"M1,1,j,1,Terminated,1,2,100\n", 1, "plan_mem", "9 comma-separated"},
      {"M1,1,j,1,Terminated,1,2,100,1,x\n", 1, "line", "got 10"},
      {"\nM1,x,j,1,Terminated,1,2,100,1\n", 2, "instance_num", "expected a number"},
      {"M1,1.5,j,1,Terminated,1,2,100,1\n", 1, "instance_num", "whole"},
      {"M1,1,j,1,Terminated,-1,2,100,1\n", 1, "start_time", "non-negative"},
      {"M1,1,j,1,Terminated,1,2,nan,1\n", 1, "plan_cpu", "finite"},
      {"M1,1,j,1,Terminated,1,2,1000100,1\n", 1, "plan_cpu", "more than the 10000 cores"},
      {"M1,1,j,1,Terminated,1,2,100,-3\n", 1, "plan_mem", "non-negative"},
      {"M1,1,j,1,Terminated,1,2,100,101\n", 1, "plan_mem", "0 to 100"},
      {",1,j,1,Terminated,1,2,100,1\n", 1, "task_name", "empty"},
      {"M1,1,,1,Terminated,1,2,100,1\n", 1, "job_name", "empty"},
      {"M1,1,j,1,Terminated,1,2,100,1\nM1,1,j,1,Terminated,1,2,100,1\n", 2, "task_name",
       "twice (first at line 1)"},
      {"M1,1,j,1,Terminated,1,2,100,1\nR1,1,j,1,Terminated,1,2,100,1\n", 2, "task_name",
       "two tasks numbered 1"},
      {"M1_2,1,j,1,Terminated,1,2,100,1\nM2_1,1,j,1,Terminated,1,2,100,1\n", 1, "task_name",
       "cycle"},
      {"M1_1,1,j,1,Terminated,1,2,100,1\n", 1, "task_name", "cycle"},
      {"M1,60000000,j,1,Terminated,1,2,100,1\n", 1, "instance_num", "more than"},
      {"M1,10000001,j,1,Terminated,1,2,100,1\n", 1, "instance_num", "more than the 10000000"},
      {"M1,1,j,1,Terminated,600000000000,600000000001,100,1\n", 1, "start_time", "2^39 s"},
      {"M1,1,j,1,Terminated,1,1e15,100,1\n", 1, "end_time", "2^39 s"},
      // Nothing to run: no task at all, or every job left out.
      {"", 1, "task_name", "no task"},
      {"M1,1,j,1,Failed,1,2,100,1\nM1,1,k,1,Terminated,0,2,100,1\n", 1, "status",
       "none of the trace's 2 jobs can run"},
  };
  for (const Bad& c : cases) {
    try {
      Read(c.text);
      ADD_FAILURE() << c.text;
    } catch (const InputError& e) {
      EXPECT_EQ(e.file(), "batch_task.csv") << c.text;
      EXPECT_EQ(e.line(), c.line) << c.text;
      EXPECT_EQ(e.field(), c.field) << c.text;
      EXPECT_NE(e.message().find(c.message), std::string::npos) << c.text << e.message();
    }
  }
}

TEST(AlibabaTrace, IsToldApartByItsNineFields) {
  EXPECT_TRUE(LooksLikeAlibaba("\nM1,1,j_1,1,Terminated,1,2,100,0.5\n"));
  EXPECT_FALSE(LooksLikeAlibaba("job1\t0\t0\t1\t2\t3\n"));  // SWIM
  EXPECT_FALSE(LooksLikeAlibaba("150 2\n"));                // the coflow trace's header
  EXPECT_FALSE(LooksLikeAlibaba(""));
}

}  // namespace
}  // namespace slotflow
