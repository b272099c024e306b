// Heartbeat-driven scheduling (api/task_scheduler.h): with per-server heartbeats a free slot is
// offered only at its server's heartbeat, as Hadoop's JobTracker assigns tasks; server s beats
// at origin + (s / servers + k) · interval.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "api/task_scheduler.h"
#include "scenario.h"

namespace slotflow::testing {
namespace {

// Offers go to the first ready task of the first active job; Next() is never used.
class FirstOffer : public TaskScheduler {
 public:
  explicit FirstOffer(const PolicyArgs& args) : beat_(args.settings.Number("heartbeat")) {}
  Decision Next(const SimState&) override {
    ADD_FAILURE() << "Next() called on a heartbeat scheduler";
    return {};
  }
  Seconds server_heartbeat() const override { return beat_; }
  Decision Offer(const SimState& state, ServerId) override {
    for (JobIndex j : state.active_jobs()) {
      if (!state.job(j).ready.empty()) return {state.job(j).ready.front()};
    }
    return {};
  }

 private:
  Seconds beat_;
};

SLOTFLOW_REGISTER_TASK_SCHEDULER("test-first-offer", "test: heartbeat offers, first ready task",
                                 (std::vector<SettingSpec>{{.name = "heartbeat",
                                                            .kind = SettingKind::kSeconds,
                                                            .default_value = "1s",
                                                            .meaning = "heartbeat interval",
                                                            .min = 0,
                                                            .min_exclusive = true}}),
                                 FirstOffer);

// Two servers of one slot, heartbeat 1 s, a job at 0.3 s with three 0.6 s tasks. Server 0 beats
// at 0.3, 1.3, ...; server 1 at 0.8, 1.8, .... Task 0 runs 0.3–0.9 on server 0, task 1
// 0.8–1.4 on server 1; server 0 is free from 0.9 but is offered only at 1.3: task 2 runs
// 1.3–1.9. (Placing at once, as greedy does, would end the job at 1.5.)
TEST(ServerHeartbeat, AFreeSlotWaitsForItsServersHeartbeat) {
  Scenario s;
  s.cluster = UnitCluster(2, 1);
  s.workload.source = "heartbeat";
  s.workload.jobs = {
      Job("A", 0.3, {StageSpec{"map", {}, {Task(0, 0.6), Task(0, 0.6), Task(0, 0.6)}}})};
  s.scheduler = "test-first-offer";
  EXPECT_DOUBLE_EQ(s.Finishes().at("A"), 1.9);
  s.scheduler = "greedy";
  EXPECT_DOUBLE_EQ(s.Finishes().at("A"), 1.5);
}

// The decision log shows the heartbeats that placed something, and nothing of the others.
TEST(ServerHeartbeat, TheLogShowsHeartbeatsThatPlacedATask) {
  Scenario s;
  s.cluster = UnitCluster(2, 1);
  s.workload.source = "heartbeat";
  s.workload.jobs = {
      Job("A", 0.3, {StageSpec{"map", {}, {Task(0, 0.6), Task(0, 0.6), Task(0, 0.6)}}})};
  s.scheduler = "test-first-offer";
  std::ostringstream text;
  EventLog log(text);
  s.simulation.log = &log;
  s.Run();
  log.Flush();
  std::vector<std::string> beats;
  for (const std::string& line : Lines(text.str())) {
    if (line.find("\"heartbeat\"") != std::string::npos) beats.push_back(line);
  }
  EXPECT_EQ(beats,
            (std::vector<std::string>{R"({"t":0.3,"event":"heartbeat","server":0,"placed":1})",
                                      R"({"t":0.8,"event":"heartbeat","server":1,"placed":1})",
                                      R"({"t":1.3,"event":"heartbeat","server":0,"placed":1})"}));
}

TEST(ServerHeartbeat, TheIntervalIsASetting) {
  Scenario s;
  s.cluster = UnitCluster(1, 1);
  s.workload.source = "heartbeat";
  s.workload.jobs = {Job("A", 0, {StageSpec{"map", {}, {Task(0, 0.5), Task(0, 0.5)}}})};
  s.scheduler = "test-first-offer";
  s.scheduler_settings["heartbeat"] = "2s";
  EXPECT_DOUBLE_EQ(s.Finishes().at("A"), 2.5);  // task 1 waits for the beat at 2
}

}  // namespace
}  // namespace slotflow::testing
