// The testbed calibration's formulas (run/calibrate.h), checked on the simulator: run the
// probes on a simulated cluster with known transport costs, and the estimates give them back;
// the config file they are written to sets them again.
#include "run/calibrate.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "api/cluster.h"
#include "api/error.h"
#include "api/network_policy.h"
#include "api/task_scheduler.h"
#include "run/config_file.h"
#include "run/run_spec.h"
#include "sim/simulator.h"

namespace slotflow {
namespace {

ClusterSpec Costly(int hosts, BytesPerSecond rate) {
  ClusterSpec c;
  c.classes[0].count = hosts;
  c.classes[0].nic = rate;
  c.payload_efficiency = 0.95;
  c.task_launch_latency = 0.003;
  c.flow_start_latency = 0.002;
  return c;
}

std::vector<TaskResult> Simulate(const ClusterSpec& spec, const Workload& w) {
  const Cluster cluster(spec);
  w.Validate(cluster.size());
  SimulationConfig config;
  config.collect_tasks = true;
  Simulator sim(cluster, w, TaskSchedulerRegistry::Get().Make("greedy"),
                NetworkPolicyRegistry::Get().Make("fair"), config);
  return sim.Run().tasks;
}

TEST(Calibrate, TheProbesGiveBackTheSimulatorsCosts) {
  ProbePlan plan;
  plan.hosts = 4;
  plan.rate = 12.5e6;  // 100 Mbit/s
  const ClusterSpec spec = Costly(plan.hosts, plan.rate);
  const Calibration c = EstimateCalibration(plan, Simulate(spec, ProbeWorkload(plan)));
  EXPECT_NEAR(c.task_launch_latency, 0.003, 1e-12);
  EXPECT_NEAR(c.flow_start_latency, 0.002, 1e-9);
  EXPECT_NEAR(c.payload_efficiency, 0.95, 1e-9);
  EXPECT_NEAR(c.ring_share, 1, 1e-9);  // the fluid model keeps every link's rate
  EXPECT_EQ(c.launch_s.size(), 10U);
  EXPECT_EQ(c.bulk_s.size(), 3U);
  // The ring on links of the same rate: every host moves rate × efficiency at once.
  const BytesPerSecond forwarding =
      EstimateForwarding(plan, c, Simulate(spec, CapacityWorkload(plan)));
  EXPECT_NEAR(forwarding, 4 * 12.5e6 * 0.95, 1e-3);
}

// Probes of one kind never overlap the next: each launch probe is done before the next
// arrives, and the bulk fetches follow one another.
TEST(Calibrate, ProbesRunOneAtATime) {
  ProbePlan plan;
  plan.hosts = 3;
  const Workload w = ProbeWorkload(plan);
  const Cluster cluster(Costly(3, plan.rate));
  ASSERT_EQ(w.jobs.size(), 2U * 10 + 3 + 1);
  for (size_t j = 0; j + 1 < w.jobs.size(); ++j) {
    EXPECT_LT(w.jobs[j].submit, w.jobs[j + 1].submit) << w.jobs[j].name;
  }
  const auto tasks = Simulate(Costly(3, plan.rate), w);
  std::map<std::string, std::pair<double, double>> span;  // job → (first placed, last done)
  for (const TaskResult& t : tasks) {
    auto [it, fresh] = span.try_emplace(t.job, t.placed, t.finish);
    it->second.first = std::min(it->second.first, t.placed);
    it->second.second = std::max(it->second.second, t.finish);
  }
  for (size_t j = 0; j + 1 < w.jobs.size(); ++j) {
    EXPECT_LT(span.at(w.jobs[j].name).second, span.at(w.jobs[j + 1].name).first)
        << w.jobs[j].name << " overlaps " << w.jobs[j + 1].name;
  }
}

TEST(Calibrate, OneHostCannotBeCalibrated) {
  ProbePlan plan;
  plan.hosts = 1;
  try {
    ProbeWorkload(plan);
    FAIL() << "accepted one host";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("field 'hosts'"), std::string::npos) << e.what();
  }
}

TEST(Calibrate, TheConfigFileSetsTheMeasuredValues) {
  ProbePlan plan;
  plan.rate = 12.5e6;
  Calibration c;
  c.payload_efficiency = 1.02;  // noise above 1 is written as 1
  c.task_launch_latency = 0.0015;
  c.flow_start_latency = 0.00025;
  const std::string text = CalibrationToml(plan, c, "measured here\nsecond line");
  EXPECT_EQ(text.rfind("# measured here\n# second line\n[cluster]\n", 0), 0U) << text;
  const auto path = std::filesystem::temp_directory_path() / "slotflow_calibrate_test.toml";
  std::ofstream(path) << text;
  RunSpec spec;
  ApplyConfigFile(path.string(), spec);
  std::filesystem::remove(path);
  EXPECT_DOUBLE_EQ(spec.cluster.classes[0].nic, 12.5e6);
  EXPECT_DOUBLE_EQ(spec.cluster.payload_efficiency, 1);
  EXPECT_DOUBLE_EQ(spec.cluster.task_launch_latency, 0.0015);
  EXPECT_DOUBLE_EQ(spec.cluster.flow_start_latency, 0.00025);
}

}  // namespace
}  // namespace slotflow
