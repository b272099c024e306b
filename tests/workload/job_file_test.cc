#include "workload/job_file.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "api/error.h"
#include "api/units.h"

namespace slotflow {
namespace {

std::string Example(const std::string& name) {
  return std::string(SLOTFLOW_SOURCE_DIR) + "/examples/" + name;
}

TEST(JobFile, DuopolyFig2Example) {
  const JobFile f = ReadJobFile(Example("duopoly-fig2.toml"));
  ASSERT_TRUE(f.cluster.has_value());
  EXPECT_EQ(f.cluster->ServerCount(), 2);
  ASSERT_EQ(f.cluster->classes.size(), 1u);
  EXPECT_EQ(f.cluster->classes[0].slots, 2);
  EXPECT_DOUBLE_EQ(f.cluster->classes[0].nic, 1);
  EXPECT_DOUBLE_EQ(f.cluster->slot_rate, 1);
  EXPECT_NO_THROW(f.cluster->Validate());

  ASSERT_EQ(f.workload.jobs.size(), 2u);
  const JobSpec& a = f.workload.jobs[0];
  EXPECT_EQ(a.name, "A");
  EXPECT_DOUBLE_EQ(a.submit, 0);
  ASSERT_EQ(a.stages.size(), 2u);
  ASSERT_EQ(a.stages[0].tasks.size(), 4u);
  ASSERT_EQ(a.stages[1].tasks.size(), 4u);
  EXPECT_TRUE(a.stages[0].parents.empty());
  EXPECT_EQ(a.stages[1].parents, std::vector<int>{0});
  for (const TaskSpec& m : a.stages[0].tasks) {
    EXPECT_DOUBLE_EQ(m.input, 0);
    EXPECT_DOUBLE_EQ(m.compute, 1);
    EXPECT_EQ(m.pinned, kNoServer);
  }
  for (const TaskSpec& r : a.stages[1].tasks) {
    EXPECT_DOUBLE_EQ(r.input, 4);
    EXPECT_DOUBLE_EQ(r.compute, 0);
    EXPECT_TRUE(r.from.empty());
  }
  const JobSpec& b = f.workload.jobs[1];
  EXPECT_EQ(b.name, "B");
  EXPECT_DOUBLE_EQ(b.submit, 2);
  ASSERT_EQ(b.stages.size(), 1u);
  ASSERT_EQ(b.stages[0].tasks.size(), 1u);
  EXPECT_DOUBLE_EQ(b.stages[0].tasks[0].compute, 1);
}

TEST(JobFile, DuopolyFig1Example) {
  const JobFile f = ReadJobFile(Example("duopoly-fig1.toml"));
  ASSERT_TRUE(f.cluster.has_value());
  ASSERT_EQ(f.cluster->classes.size(), 2u);
  EXPECT_EQ(f.cluster->ServerCount(), 4);
  EXPECT_EQ(f.cluster->classes[0].slots, 0);
  EXPECT_EQ(f.cluster->classes[1].slots, 1);
  for (const ServerClass& c : f.cluster->classes) EXPECT_DOUBLE_EQ(c.nic, 1);
  EXPECT_NO_THROW(f.cluster->Validate());

  ASSERT_EQ(f.workload.jobs.size(), 2u);
  const JobSpec& a = f.workload.jobs[0];
  const JobSpec& b = f.workload.jobs[1];
  EXPECT_EQ(a.name, "A");  // same submit time: file order
  EXPECT_EQ(b.name, "B");
  ASSERT_EQ(a.stages[0].tasks.size(), 2u);
  for (const TaskSpec& m : a.stages[0].tasks) {
    EXPECT_EQ(m.pinned, 0);
    EXPECT_DOUBLE_EQ(m.compute, 0);
  }
  ASSERT_EQ(a.stages[1].tasks.size(), 2u);
  for (const TaskSpec& r : a.stages[1].tasks) {
    EXPECT_DOUBLE_EQ(r.input, 1);
    EXPECT_EQ(r.pinned, kNoServer);
  }
  EXPECT_EQ(b.stages[0].tasks[0].pinned, 1);
  EXPECT_DOUBLE_EQ(b.stages[1].tasks[0].input, 2);
}

TEST(JobFile, SmallExampleUsesEveryFeature) {
  const JobFile f = ReadJobFile(Example("jobs-small.toml"));
  ASSERT_TRUE(f.cluster.has_value());
  EXPECT_EQ(f.cluster->topology, TopologyKind::kTwoTier);
  EXPECT_EQ(f.cluster->ServerCount(), 8);
  EXPECT_NO_THROW(f.cluster->Validate());
  ASSERT_EQ(f.workload.jobs.size(), 3u);

  const JobSpec& wc = f.workload.jobs[0];
  EXPECT_EQ(wc.name, "wordcount");
  EXPECT_EQ(wc.queue, "default");
  EXPECT_DOUBLE_EQ(wc.InputBytes(), 8 * 64 * kMiB);
  EXPECT_DOUBLE_EQ(wc.ShuffleBytes(), 2 * 256 * kMiB);

  const JobSpec& etl = f.workload.jobs[1];
  EXPECT_EQ(etl.name, "etl");
  EXPECT_DOUBLE_EQ(etl.submit, 5);
  EXPECT_EQ(etl.priority, 4);  // "H"
  EXPECT_DOUBLE_EQ(etl.size_estimate, 1024 * kMiB);
  ASSERT_EQ(etl.stages.size(), 3u);
  EXPECT_DOUBLE_EQ(etl.stages[0].tasks[0].work, 256 * kMiB);
  const TaskSpec& clean0 = etl.stages[1].tasks[0];
  EXPECT_EQ(clean0.from, (std::vector<Bytes>{40 * kMiB, 40 * kMiB, 0, 0}));
  EXPECT_DOUBLE_EQ(clean0.input, 80 * kMiB);
  EXPECT_DOUBLE_EQ(clean0.compute, 3);
  EXPECT_EQ(etl.stages[2].parents, (std::vector<int>{0, 1}));
  ASSERT_EQ(etl.stages[2].tasks.size(), 2u);
  EXPECT_DOUBLE_EQ(etl.stages[2].tasks[0].input, 44 * kMiB);
  EXPECT_DOUBLE_EQ(etl.stages[2].tasks[0].compute, 2);
  EXPECT_DOUBLE_EQ(etl.stages[2].tasks[1].input, 12 * kMiB);
  EXPECT_DOUBLE_EQ(etl.stages[2].tasks[1].work, 24 * kMiB);
  EXPECT_LT(etl.stages[2].tasks[1].compute, 0);

  const JobSpec& sort = f.workload.jobs[2];
  EXPECT_DOUBLE_EQ(sort.submit, 60);
  EXPECT_EQ(sort.stages[0].tasks[0].pinned, 0);
  EXPECT_EQ(sort.stages[0].tasks[1].pinned, 5);
  ASSERT_EQ(sort.stages[1].tasks.size(), 2u);
  EXPECT_EQ(sort.stages[1].tasks[0].pinned, 1);
  EXPECT_DOUBLE_EQ(sort.stages[1].tasks[0].compute, 0.5);
  EXPECT_EQ(sort.stages[1].tasks[1].pinned, kNoServer);
  EXPECT_DOUBLE_EQ(sort.stages[1].tasks[1].input, 16 * kMiB);
}

TEST(JobFile, DefaultsAndOrdering) {
  const JobFile f = ParseJobFile(R"(
[[job]]
submit = "3s"
  [[job.stage]]
  tasks = 2

[[job]]
submit = 1
  [[job.stage]]
  tasks = 1
  input = "1KB"
  [[job.stage]]
  parents = ["stage0"]
  [[job.stage.task]]
  [[job.stage.task]]
  input = 7
)",
                                 "mem.toml");
  EXPECT_FALSE(f.cluster.has_value());
  EXPECT_EQ(f.workload.source, "mem.toml");
  ASSERT_EQ(f.workload.jobs.size(), 2u);
  EXPECT_EQ(f.workload.jobs[0].name, "job1");  // sorted by submit
  EXPECT_EQ(f.workload.jobs[1].name, "job0");
  const JobSpec& j = f.workload.jobs[0];
  EXPECT_EQ(j.priority, 3);
  EXPECT_LT(j.size_estimate, 0);
  EXPECT_DOUBLE_EQ(j.stages[0].tasks[0].input, 1000);
  EXPECT_LT(j.stages[0].tasks[0].compute, 0);
  EXPECT_LT(j.stages[0].tasks[0].work, 0);
  ASSERT_EQ(j.stages[1].tasks.size(), 2u);
  EXPECT_DOUBLE_EQ(j.stages[1].tasks[0].input, 0);
  EXPECT_DOUBLE_EQ(j.stages[1].tasks[1].input, 7);
}

TEST(JobFile, OutputMemoryAndReplicas) {
  const JobFile f = ParseJobFile(R"(
[cluster]
servers = 4
[[job]]
  [[job.stage]]
  tasks = 2
  input = "64MiB"
  output = "10MB"
  memory = "1GiB"
  [[job.stage.task]]
  replicas = [0, 3]
  [[job.stage.task]]
  output = 0
  memory = "2GiB"
)",
                                 "res.toml");
  const StageSpec& st = f.workload.jobs[0].stages[0];
  ASSERT_EQ(st.replicas.size(), 2u);
  EXPECT_EQ(st.replicas[0], (std::vector<ServerId>{ServerId{0}, ServerId{3}}));
  EXPECT_DOUBLE_EQ(st.tasks[0].output, 10e6);  // the stage's
  EXPECT_DOUBLE_EQ(st.tasks[0].memory, 1024.0 * kMiB);
  EXPECT_TRUE(st.replicas[1].empty());
  EXPECT_DOUBLE_EQ(st.tasks[1].output, 0);  // its own
  EXPECT_DOUBLE_EQ(st.tasks[1].memory, 2048.0 * kMiB);
}

// cpus: the stage's default, a task's own, and the bounds (a whole number from 1).
TEST(JobFile, CpusPerStageAndTask) {
  const JobFile f = ParseJobFile(R"(
[[job]]
  [[job.stage]]
  tasks = 2
  cpus = 4
  [[job.stage.task]]
  [[job.stage.task]]
  cpus = 2
  [[job.stage]]
  tasks = 1
)",
                                 "cpus.toml");
  const JobSpec& j = f.workload.jobs[0];
  EXPECT_EQ(j.stages[0].tasks[0].cpus, 4);
  EXPECT_EQ(j.stages[0].tasks[1].cpus, 2);
  EXPECT_EQ(j.stages[1].tasks[0].cpus, 1);
  for (const char* bad : {"0", "-1", "1.5", "\"2\"", "10001"}) {
    const std::string text = fmt::format("[[job]]\n[[job.stage]]\ntasks = 1\ncpus = {}\n", bad);
    try {
      ParseJobFile(text, "cpus.toml");
      ADD_FAILURE() << bad;
    } catch (const InputError& e) {
      EXPECT_EQ(e.field(), "job[0].stage[0].cpus") << bad;
      EXPECT_EQ(e.line(), 4) << bad;
    }
  }
  // The same in a JSON Lines file.
  const JobFile lines = ParseJobLines(R"({"stage": [{"tasks": 1, "cpus": 3}]})"
                                      "\n",
                                      "cpus.jsonl");
  EXPECT_EQ(lines.workload.jobs[0].stages[0].tasks[0].cpus, 3);
}

// A profile job: 1 GB of Terasort in 128 MiB blocks is 8 maps (7 full blocks and 60,475,904
// bytes), each computing 10 s per GB and writing what it read (ρ = 1), and one reducer that
// receives all of it; every task holds 1 GiB. Grep over 1 GB in 100 MB blocks with 2 reducers:
// 10 maps of 10 s each, ρ = 0.001, so each reducer receives 0.5 MB.
TEST(JobFile, ProfileJobs) {
  const JobFile f = ParseJobFile(R"(
[[job]]
name = "T"
profile = "terasort"
input = "1GB"
priority = "VH"
[[job]]
name = "G"
profile = "grep"
input = "1GB"
block_size = "100MB"
reduces = 2
queue = "q"
)",
                                 "profiles.toml");
  const JobSpec& t = f.workload.jobs[0];
  EXPECT_EQ(t.priority, 5);
  ASSERT_EQ(t.stages.size(), 2u);
  ASSERT_EQ(t.stages[0].tasks.size(), 8u);
  EXPECT_DOUBLE_EQ(t.stages[0].tasks[0].input, 128 * kMiB);
  EXPECT_DOUBLE_EQ(t.stages[0].tasks[7].input, 60475904);
  EXPECT_DOUBLE_EQ(t.stages[0].tasks[0].compute, 128 * kMiB / 1e9 * 10);
  EXPECT_DOUBLE_EQ(t.stages[0].tasks[7].output, 60475904);
  EXPECT_DOUBLE_EQ(t.stages[0].tasks[0].memory, 1024 * kMiB);
  ASSERT_EQ(t.stages[1].tasks.size(), 1u);
  EXPECT_DOUBLE_EQ(t.stages[1].tasks[0].input, 1e9);
  EXPECT_DOUBLE_EQ(t.stages[1].tasks[0].compute, 10);
  const JobSpec& g = f.workload.jobs[1];
  EXPECT_EQ(g.queue, "q");
  ASSERT_EQ(g.stages[0].tasks.size(), 10u);
  EXPECT_DOUBLE_EQ(g.stages[0].tasks[3].compute, 10);
  ASSERT_EQ(g.stages[1].tasks.size(), 2u);
  EXPECT_DOUBLE_EQ(g.stages[1].tasks[1].input, 0.5e6);
}

// Pinned servers are range-checked only when the file has a cluster.
TEST(JobFile, PinnedServersWithoutClusterAreLeftToTheCaller) {
  const JobFile f = ParseJobFile("[[job]]\n[[job.stage]]\ntasks = 1\nservers = [99]\n", "m.toml");
  EXPECT_EQ(f.workload.jobs[0].stages[0].tasks[0].pinned, 99);
  EXPECT_THROW(f.workload.Validate(10), InputError);
}

struct BadJobFile {
  const char* name;
  const char* text;
  int line;
  const char* field;  // empty for TOML syntax errors
};

// Readable parameter names in test listings.
void PrintTo(const BadJobFile& c, std::ostream* os) { *os << c.name; }

class JobFileErrors : public ::testing::TestWithParam<BadJobFile> {};

TEST_P(JobFileErrors, NameTheLineAndField) {
  const BadJobFile& bad = GetParam();
  const std::string path = ::testing::TempDir() + "/job_file_error_" + bad.name + ".toml";
  std::ofstream(path) << bad.text;
  try {
    ReadJobFile(path);
    ADD_FAILURE() << "accepted:\n" << bad.text;
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.file(), path);
    EXPECT_EQ(e.line(), bad.line) << what;
    EXPECT_EQ(e.field(), bad.field) << what;
    EXPECT_NE(what.find(path + ":" + std::to_string(bad.line) + ":"), std::string::npos) << what;
    if (*bad.field != '\0') {
      EXPECT_NE(what.find(std::string("field '") + bad.field + "'"), std::string::npos) << what;
    }
  }
}

// Line 1 is `[[job]]` and line 2 `[[job.stage]]` in most cases below.
INSTANTIATE_TEST_SUITE_P(
    Malformed, JobFileErrors,
    ::testing::Values(
        BadJobFile{"syntax", "[[job]]\nname = \n", 2, ""},
        BadJobFile{"top_key", "jobs = 1\n", 1, "jobs"},
        BadJobFile{"no_job", "[cluster]\nservers = 2\n", 1, "job"},
        BadJobFile{"job_table", "[job]\nname = \"A\"\n", 1, "job"},
        BadJobFile{"job_key", "[[job]]\nnmae = \"A\"\n[[job.stage]]\ntasks = 1\n", 2,
                   "job[0].nmae"},
        BadJobFile{"unknown_profile", "[[job]]\nprofile = \"sort\"\ninput = 1\n", 2,
                   "job[0].profile"},
        BadJobFile{"profile_and_stage", "[[job]]\nprofile = \"grep\"\ninput = 1\n[[job.stage]]\n",
                   4, "job[0].stage"},
        BadJobFile{"profile_without_input", "[[job]]\nprofile = \"grep\"\n", 1, "job[0].input"},
        BadJobFile{"input_without_profile", "[[job]]\ninput = 5\n[[job.stage]]\ntasks = 1\n", 2,
                   "job[0].input"},
        BadJobFile{"profile_zero_block", "[[job]]\nprofile = \"grep\"\ninput = 1\nblock_size = 0\n",
                   4, "job[0].block_size"},
        BadJobFile{"stage_key", "[[job]]\n[[job.stage]]\ntasks = 1\ninptu = 4\n", 4,
                   "job[0].stage[0].inptu"},
        BadJobFile{"task_key", "[[job]]\n[[job.stage]]\n[[job.stage.task]]\nservre = 1\n", 4,
                   "job[0].stage[0].task[0].servre"},
        BadJobFile{"replica_twice",
                   "[cluster]\nservers = 4\n[[job]]\n[[job.stage]]\n[[job.stage.task]]\n"
                   "replicas = [1, 1]\n",
                   6, "job[0].stage[0].task[0].replicas"},
        BadJobFile{"replicas_of_a_reduce",
                   "[[job]]\n[[job.stage]]\ntasks = 1\n[[job.stage]]\nparents = [\"stage0\"]\n"
                   "[[job.stage.task]]\nreplicas = [1]\n",
                   7, "job[0].stage[1].task[0].replicas"},
        BadJobFile{"negative_memory", "[[job]]\n[[job.stage]]\nmemory = \"-1GB\"\n", 3,
                   "job[0].stage[0].memory"},
        BadJobFile{"cluster_key", "[cluster]\nslot = 2\n[[job]]\n[[job.stage]]\ntasks = 1\n", 2,
                   "cluster.slot"},
        BadJobFile{"no_stage", "[[job]]\nname = \"A\"\n", 1, "job[0].stage"},
        BadJobFile{"no_tasks", "[[job]]\n[[job.stage]]\ninput = 1\n", 2, "job[0].stage[0].tasks"},
        BadJobFile{"zero_tasks", "[[job]]\n[[job.stage]]\ntasks = 0\n", 3, "job[0].stage[0].tasks"},
        BadJobFile{"tasks_type", "[[job]]\n[[job.stage]]\ntasks = \"4\"\n", 3,
                   "job[0].stage[0].tasks"},
        BadJobFile{"negative_size", "[[job]]\n[[job.stage]]\ntasks = 1\ninput = -5\n", 4,
                   "job[0].stage[0].input"},
        BadJobFile{"negative_unit_size", "[[job]]\n[[job.stage]]\ntasks = 1\ninput = \"-5MiB\"\n",
                   4, "job[0].stage[0].input"},
        BadJobFile{"bad_unit", "[[job]]\n[[job.stage]]\ntasks = 1\ninput = \"5 parsecs\"\n", 4,
                   "job[0].stage[0].input"},
        BadJobFile{"size_type", "[[job]]\n[[job.stage]]\ntasks = 1\ninput = true\n", 4,
                   "job[0].stage[0].input"},
        BadJobFile{"negative_submit", "[[job]]\nsubmit = -1\n[[job.stage]]\ntasks = 1\n", 2,
                   "job[0].submit"},
        BadJobFile{"bad_parent",
                   "[[job]]\n[[job.stage]]\nname = \"map\"\ntasks = 1\n[[job.stage]]\n"
                   "parents = [\"mpa\"]\ntasks = 1\n",
                   6, "job[0].stage[1].parents"},
        BadJobFile{"later_parent",
                   "[[job]]\n[[job.stage]]\nname = \"map\"\nparents = [\"reduce\"]\ntasks = 1\n"
                   "[[job.stage]]\nname = \"reduce\"\ntasks = 1\n",
                   4, "job[0].stage[0].parents"},
        BadJobFile{"self_parent",
                   "[[job]]\n[[job.stage]]\nname = \"m\"\nparents = [\"m\"]\ntasks = 1\n", 4,
                   "job[0].stage[0].parents"},
        BadJobFile{"duplicate_stage",
                   "[[job]]\n[[job.stage]]\nname = \"m\"\ntasks = 1\n[[job.stage]]\nname = \"m\"\n"
                   "tasks = 1\n",
                   6, "job[0].stage[1].name"},
        BadJobFile{"duplicate_job",
                   "[[job]]\nname = \"A\"\n[[job.stage]]\ntasks = 1\n[[job]]\nname = \"A\"\n"
                   "[[job.stage]]\ntasks = 1\n",
                   5, "job[1].name"},
        BadJobFile{"servers_length", "[[job]]\n[[job.stage]]\ntasks = 3\nservers = [0, 1]\n", 4,
                   "job[0].stage[0].servers"},
        BadJobFile{"server_outside_cluster",
                   "[cluster]\nservers = 2\n[[job]]\n[[job.stage]]\ntasks = 2\nservers = [0, 2]\n",
                   6, "job[0].stage[0].servers[1]"},
        BadJobFile{"negative_server", "[[job]]\n[[job.stage]]\n[[job.stage.task]]\nserver = -1\n",
                   4, "job[0].stage[0].task[0].server"},
        BadJobFile{"server_twice",
                   "[[job]]\n[[job.stage]]\nservers = [0]\n[[job.stage.task]]\nserver = 1\n", 5,
                   "job[0].stage[0].task[0].server"},
        BadJobFile{"count_mismatch", "[[job]]\n[[job.stage]]\ntasks = 2\n[[job.stage.task]]\n", 3,
                   "job[0].stage[0].tasks"},
        BadJobFile{"compute_and_work", "[[job]]\n[[job.stage]]\ntasks = 1\ncompute = 1\nwork = 5\n",
                   5, "job[0].stage[0].work"},
        BadJobFile{"from_on_root", "[[job]]\n[[job.stage]]\ntasks = 1\nfrom = [[1]]\n", 4,
                   "job[0].stage[0].from"},
        BadJobFile{"from_length",
                   "[[job]]\n[[job.stage]]\nname = \"m\"\ntasks = 2\n[[job.stage]]\n"
                   "parents = [\"m\"]\n[[job.stage.task]]\nfrom = [1, 2, 3]\n",
                   8, "job[0].stage[1].task[0].from"},
        BadJobFile{"from_negative",
                   "[[job]]\n[[job.stage]]\nname = \"m\"\ntasks = 2\n[[job.stage]]\n"
                   "parents = [\"m\"]\ntasks = 1\nfrom = [[1, -2]]\n",
                   8, "job[0].stage[1].from[0][1]"},
        BadJobFile{"from_sum",
                   "[[job]]\n[[job.stage]]\nname = \"m\"\ntasks = 2\n[[job.stage]]\n"
                   "parents = [\"m\"]\n[[job.stage.task]]\ninput = 5\nfrom = [1, 2]\n",
                   9, "job[0].stage[1].task[0].from"},
        BadJobFile{"priority_range", "[[job]]\npriority = 7\n[[job.stage]]\ntasks = 1\n", 2,
                   "job[0].priority"},
        BadJobFile{"priority_name", "[[job]]\npriority = \"urgent\"\n[[job.stage]]\ntasks = 1\n", 2,
                   "job[0].priority"},
        BadJobFile{"size_overflow", "[[job]]\n[[job.stage]]\ntasks = 1\ninput = \"1e300TiB\"\n", 4,
                   "job[0].stage[0].input"},
        BadJobFile{"number_above_exabyte",
                   "[[job]]\nsize_estimate = 2e18\n[[job.stage]]\ntasks = 1\n", 2,
                   "job[0].size_estimate"},
        BadJobFile{"profile_input_overflow",
                   "[[job]]\nprofile = \"terasort\"\ninput = \"1e300TiB\"\n", 3, "job[0].input"},
        BadJobFile{"profile_too_many_maps", "[[job]]\nprofile = \"terasort\"\ninput = \"1PB\"\n", 3,
                   "job[0].input"},
        BadJobFile{"profile_maps_times_reduces",
                   "[[job]]\nprofile = \"terasort\"\ninput = \"100TB\"\nreduces = 1000000\n", 4,
                   "job[0].reduces"},
        BadJobFile{"shuffle_pairs",
                   "[[job]]\n[[job.stage]]\nname = \"m\"\ntasks = 1000000\n[[job.stage]]\n"
                   "parents = [\"m\"]\ntasks = 1001\n",
                   7, "job[0].stage[1].tasks"}));

// Stages each within the per-stage bound but together above the workload's: refused at the
// stage that crosses it, before any task is made.
TEST(JobFile, TotalTasksAreBoundedBeforeAnyIsMade) {
  std::string text;
  const int64_t stages = kMaxWorkloadTasks / 1'000'000 + 1;
  for (int64_t k = 0; k < stages; ++k) text += "[[job]]\n[[job.stage]]\ntasks = 1000000\n";
  try {
    ParseJobFile(text, "many.toml");
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "many.toml");
    EXPECT_EQ(e.line(), static_cast<int>(3 * stages));
    EXPECT_EQ(e.field(), fmt::format("job[{}].stage[0].tasks", stages - 1));
  }
}

TEST(JobFile, MissingFileSaysCannotOpen) {
  const std::string path = ::testing::TempDir() + "/no-such-jobs.toml";
  try {
    ReadJobFile(path);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos) << e.what();
    EXPECT_EQ(e.file(), path);
  }
}

}  // namespace
}  // namespace slotflow
