// JSON Lines job files (workload/job_file.h, ParseJobLines): one job per line with the keys of
// a TOML [[job]] table, read to the same jobs, checked by the same rules, errors at the line.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "api/error.h"
#include "workload/job_file.h"

namespace slotflow {
namespace {

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// examples/jobs-small.jsonl holds the jobs of examples/jobs-small.toml, one per line: every
// field of every task comes out the same.
TEST(JobLines, TheSmallExampleReadsAsItsTomlTwin) {
  const std::string dir = std::string(SLOTFLOW_SOURCE_DIR) + "/examples/";
  const std::string lines = Slurp(dir + "jobs-small.jsonl");
  ASSERT_TRUE(LooksLikeJobLines(lines));
  EXPECT_FALSE(LooksLikeJobLines(Slurp(dir + "jobs-small.toml")));
  const JobFile a = ParseJobLines(lines, "jobs-small.jsonl");
  const JobFile b = ReadJobFile(dir + "jobs-small.toml");
  EXPECT_FALSE(a.cluster.has_value());
  ASSERT_EQ(a.workload.jobs.size(), b.workload.jobs.size());
  for (size_t j = 0; j < a.workload.jobs.size(); ++j) {
    const JobSpec& x = a.workload.jobs[j];
    const JobSpec& y = b.workload.jobs[j];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.submit, y.submit);
    EXPECT_EQ(x.size_estimate, y.size_estimate);
    EXPECT_EQ(x.priority, y.priority);
    EXPECT_EQ(x.queue, y.queue);
    ASSERT_EQ(x.stages.size(), y.stages.size()) << x.name;
    for (size_t k = 0; k < x.stages.size(); ++k) {
      EXPECT_EQ(x.stages[k].name, y.stages[k].name);
      EXPECT_EQ(x.stages[k].parents, y.stages[k].parents);
      EXPECT_EQ(x.stages[k].replicas, y.stages[k].replicas);
      ASSERT_EQ(x.stages[k].tasks.size(), y.stages[k].tasks.size());
      for (size_t t = 0; t < x.stages[k].tasks.size(); ++t) {
        const TaskSpec& p = x.stages[k].tasks[t];
        const TaskSpec& q = y.stages[k].tasks[t];
        EXPECT_EQ(p.input, q.input);
        EXPECT_EQ(p.from, q.from);
        EXPECT_EQ(p.compute, q.compute);
        EXPECT_EQ(p.work, q.work);
        EXPECT_EQ(p.pinned, q.pinned);
        EXPECT_EQ(p.output, q.output);
        EXPECT_EQ(p.memory, q.memory);
      }
    }
  }
}

TEST(JobLines, BlankLinesAreSkippedAndDefaultNamesCountJobs) {
  const JobFile f = ParseJobLines(
      "\n{\"stage\": [{\"tasks\": 2, \"input\": 10}]}\n\n{\"submit\": 1, \"stage\": "
      "[{\"tasks\": 1}]}\n",
      "x.jsonl");
  ASSERT_EQ(f.workload.jobs.size(), 2u);
  EXPECT_EQ(f.workload.jobs[0].name, "job0");
  EXPECT_EQ(f.workload.jobs[1].name, "job1");
  EXPECT_EQ(f.workload.jobs[0].stages[0].tasks.size(), 2u);
}

// Errors name the file, the line of the job and the field, as a TOML file's do.
TEST(JobLines, ErrorsNameTheLineAndField) {
  auto error = [](const std::string& text) {
    try {
      ParseJobLines(text, "x.jsonl");
    } catch (const InputError& e) {
      return fmt::format("{}:{} {} | {}", e.file(), e.line(), e.field(), e.message());
    }
    return std::string("no error");
  };
  const std::string ok = "{\"name\": \"a\", \"stage\": [{\"tasks\": 1}]}\n";
  EXPECT_EQ(
      error(ok + "{\"name\": \"b\", \"stage\": [{\"tasks\": 1, \"bogus\": 1}]}\n").substr(0, 30),
      "x.jsonl:2 job[1].stage[0].bogu");
  EXPECT_NE(error(ok + "{\"name\": \"b\", \"stage\": [{\"tasks\": 1, \"input\": -1}]}\n")
                .find("x.jsonl:2 job[1].stage[0].input"),
            std::string::npos);
  EXPECT_NE(error(ok + "\n{\"name\": \"b\", \"stage\": [{\"tasks\": 1, \"input\": null}]}\n")
                .find("x.jsonl:3 job[1].stage[0].input | null"),
            std::string::npos);
  EXPECT_NE(error(ok + ok).find("x.jsonl:2 job[1].name | duplicate job name 'a'"),
            std::string::npos);
  EXPECT_NE(error(ok + "{\"name\": \"b\",\n").find("x.jsonl:2 job[1] | not valid JSON"),
            std::string::npos);
  EXPECT_NE(error(ok + "[1, 2]\n").find("x.jsonl:2 job[1] | each line"), std::string::npos);
  EXPECT_NE(error("\n\n").find("x.jsonl:1 job | the file defines no job"), std::string::npos);
  EXPECT_NE(error(ok + "{\"name\": \"b\", \"stage\": [{\"tasks\": 1, \"input\": "
                       "18446744073709551615}]}\n")
                .find("x.jsonl:2 job[1].stage[0].input | integer too large"),
            std::string::npos);
  EXPECT_NE(error(ok + "{\"name\": \"b\", \"stage\": [{\"tasks\": 1, \"input\": 5e555555}]}\n")
                .find("x.jsonl:2 job[1] | a number out of range"),
            std::string::npos);
}

// The workload's bound on tasks holds over all lines, at the line that crosses it.
TEST(JobLines, TotalTasksAreBoundedAcrossLines) {
  std::string text;
  const int64_t jobs = kMaxWorkloadTasks / 1'000'000 + 1;
  for (int64_t k = 0; k < jobs; ++k) text += "{\"stage\": [{\"tasks\": 1000000}]}\n";
  try {
    ParseJobLines(text, "many.jsonl");
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), static_cast<int>(jobs));
    EXPECT_EQ(e.field(), fmt::format("job[{}].stage[0].tasks", jobs - 1));
  }
}

}  // namespace
}  // namespace slotflow
