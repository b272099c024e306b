// `slotflow live` end to end on a real 3-host testbed with one agent killed (SIGKILL, by its
// pid) while the largest job runs: the run still ends with every job done, names the lost host
// in summary.json and removes its testbed. Root only where `ip netns` works (skipped
// otherwise); a testbed prefix of its own; bounded by the run's deadline and `timeout`.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>

#include "root_testbed.h"
#include "scenario.h"

namespace slotflow {
namespace {

namespace fs = std::filesystem;

const TestbedNames kNames{"sfk"};

// The pid of host h's agent (the testbed's set-up also runs commands in that namespace), or 0
// if none within `wait`.
pid_t AgentPid(int h, std::chrono::seconds wait) {
  const auto until = std::chrono::steady_clock::now() + wait;
  while (std::chrono::steady_clock::now() < until) {
    const CommandResult r = RunProgram({"ip", "netns", "pids", kNames.Host(h)});
    std::istringstream pids(r.exit_code == 0 ? r.out : "");
    for (pid_t pid; pids >> pid;) {
      std::string args = testing::Slurp(fs::path("/proc") / std::to_string(pid) / "cmdline");
      std::replace(args.begin(), args.end(), '\0', ' ');
      if (args.find(" agent --host ") != std::string::npos) return pid;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return 0;
}

TEST(LiveRun, AnAgentKilledMidRunHasItsTasksRunElsewhere) {
  if (const std::string why = testing::TestbedUnavailable(kNames); !why.empty()) {
    GTEST_SKIP() << why;
  }
  const fs::path out =
      fs::path(::testing::TempDir()) / ("slotflow_live_loss_" + std::to_string(getpid()));
  fs::remove_all(out);
  // Five jobs, the last about 20 s long; three replicas per block, so every block outlives
  // one host.
  const std::string cmd = "timeout --kill-after=10 150 " + std::string(SLOTFLOW_BINARY) +
                          " live --hosts 3 --rate 100mbit --synthetic-jobs 5 --traffic-scale 0.1"
                          " --slot-rate 10MB/s --replicas 3 --system duopoly --deadline 90s"
                          " --testbed-prefix sfk --quiet --out " +
                          out.string() + " 2>" + (out.string() + ".err");
  int status = -1;
  std::thread run([&] { status = std::system(cmd.c_str()); });
  // Agents start once the testbed is up; the largest job runs from about 1.5 s to 20 s.
  const pid_t victim = AgentPid(2, std::chrono::seconds(60));
  if (victim > 0) {
    std::this_thread::sleep_for(std::chrono::seconds(4));
    kill(victim, SIGKILL);
  }
  run.join();
  const std::string err = testing::Slurp(out.string() + ".err");
  fs::remove(out.string() + ".err");
  EXPECT_FALSE(testing::AnyNamespaceOf(kNames)) << "the run left its testbed up";
  if (testing::AnyNamespaceOf(kNames)) TestbedDown(kNames);
  ASSERT_GT(victim, 0) << "host 2's agent never started: " << err;
  ASSERT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0) << err;

  const auto summary = nlohmann::json::parse(testing::Slurp(out / "summary.json"));
  EXPECT_EQ(summary["jobs"], 5);
  EXPECT_EQ(summary["unfinished_jobs"], 0);
  EXPECT_EQ(summary["lost_hosts"], nlohmann::json::array({2}));
  EXPECT_GE(summary["tasks_rerun"].get<int>(), 0);
  const auto lines = testing::Lines(testing::Slurp(out / "jobs.csv"));
  ASSERT_EQ(lines.size(), 6u);
  for (size_t k = 1; k < lines.size(); ++k) {
    EXPECT_EQ(lines[k].rfind("job-" + std::to_string(k) + ",", 0), 0u) << lines[k];
  }
  fs::remove_all(out);
}

}  // namespace
}  // namespace slotflow
