// Duopoly Fig. 1 and Fig. 2 (§2.2, §2.3) told by tasks.csv and the decision log: every row and
// every line, worked out from the scenarios (examples/duopoly-fig1.toml, duopoly-fig2.toml).
// tasks.csv is compared as text; the log line by line as JSON, numbers within 1e-9 (the fluid
// solver finishes a flow shared at rate 1/2 at 1.9999999999999991, not 2).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "common/event_log.h"
#include "metrics/report.h"
#include "run/execute.h"
#include "run/run_spec.h"
#include "scenario.h"
#include "systems/systems.h"

namespace slotflow {
namespace {

struct Told {
  std::string tasks_csv;
  std::vector<std::string> log;
};

Told Tell(const std::string& example, const std::string& system,
          const std::vector<std::pair<std::string, std::string>>& overrides = {}) {
  RunSpec spec;
  spec.jobs_file = std::string(SLOTFLOW_SOURCE_DIR) + "/examples/" + example;
  ApplySystem(spec, system, "--system");
  for (const auto& [key, value] : overrides) SetPolicySetting(spec, key, value, "", 0, "--set");
  std::ostringstream log_text;
  EventLog log(log_text);
  spec.simulation.log = &log;
  spec.simulation.collect_tasks = true;
  const PreparedRun run = Prepare(spec);
  const RunResult result = Execute(spec, run);
  log.Flush();
  Told told;
  std::ostringstream csv;
  WriteTasksCsv(result.tasks, csv);
  told.tasks_csv = csv.str();
  told.log = testing::Lines(log_text.str());
  return told;
}

// Equal as JSON, numbers within 1e-9.
bool SameJson(const nlohmann::json& a, const nlohmann::json& b) {
  if (a.is_number() && b.is_number()) {
    return std::abs(a.get<double>() - b.get<double>()) <= 1e-9;
  }
  if (a.is_object() && b.is_object()) {
    if (a.size() != b.size()) return false;
    for (auto it = a.begin(); it != a.end(); ++it) {
      if (!b.contains(it.key()) || !SameJson(it.value(), b.at(it.key()))) return false;
    }
    return true;
  }
  return a == b;
}

void ExpectLog(const std::vector<std::string>& got, const std::string& expected_text) {
  std::vector<std::string> expected;
  for (const std::string& line : testing::Lines(expected_text)) {
    if (!line.empty()) expected.push_back(line);
  }
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_TRUE(SameJson(nlohmann::json::parse(got[i]), nlohmann::json::parse(expected[i])))
        << "line " << i + 1 << "\n  got:      " << got[i] << "\n  expected: " << expected[i];
  }
}

constexpr const char* kHeader =
    "job,stage,task,server,pinned,locality,ready_s,placed_s,read_done_s,compute_done_s,"
    "output_written_s,finish_s,input_bytes,remote_bytes\n";

// Fig. 2 under duopoly: A's maps fill the four slots at 0 (nats takes them one per least busy
// server; which map lands where is its random pick among equal tasks, seed 1). At 1 R1 and R2
// (tasks 4, 5) go to the idle servers, one each (Alg. 2 l. 22: the first at random of two, the
// second to the one left); no server is idle then and no receiver has a larger unit, so two
// slots stay empty ("reserve", branch alg4-none). The first tick (1.1) finds both downlinks
// full: congested. B arrives at 2 and is L0 (SJF): its map takes a reserved slot on server 0
// (the least busy, lower id on the tie). L0 = B then has nothing ready and the network is
// congested, so Alg. 4 places only local map tasks: none, the last slot stays empty. The mode
// stays slot-sufficient throughout: L0's ready tasks always fit. At 3 R1, R2 and B's map end;
// R3 and R4 run 3 -> 5. Each reducer gets 2 of its 4 units from its own server (free) and 2
// over the network.
TEST(DecisionLogFig2, DuopolyReservesTwoSlotsForB) {
  const Told told = Tell("duopoly-fig2.toml", "duopoly");
  EXPECT_EQ(told.tasks_csv, std::string(kHeader) +
                                "A,map,0,0,0,none,0,0,0,1,1,1,0,0\n"
                                "A,map,1,1,0,none,0,0,0,1,1,1,0,0\n"
                                "A,map,2,1,0,none,0,0,0,1,1,1,0,0\n"
                                "A,map,3,0,0,none,0,0,0,1,1,1,0,0\n"
                                "A,reduce,0,1,0,none,1,1,3,3,3,3,4,2\n"
                                "A,reduce,1,0,0,none,1,1,3,3,3,3,4,2\n"
                                "A,reduce,2,0,0,none,1,3,5,5,5,5,4,2\n"
                                "A,reduce,3,1,0,none,1,3,5,5,5,5,4,2\n"
                                "B,map,0,0,0,none,2,2,2,3,3,3,0,0\n");
  ExpectLog(told.log, R"({"t":0,"event":"arrive","job":0,"name":"A","tasks":8}
{"t":0,"event":"ready","task":0,"job":0,"stage":0,"index":0}
{"t":0,"event":"ready","task":1,"job":0,"stage":0,"index":1}
{"t":0,"event":"ready","task":2,"job":0,"stage":0,"index":2}
{"t":0,"event":"ready","task":3,"job":0,"stage":0,"index":3}
{"t":0,"event":"place","task":3,"job":0,"stage":0,"index":3,"server":0,"free_slots_left":1,"why":{"mode":"sufficient","branch":"alg4-l0-map","congested":0,"server_rule":"remote-least-running"}}
{"t":0,"event":"place","task":1,"job":0,"stage":0,"index":1,"server":1,"free_slots_left":1,"why":{"mode":"sufficient","branch":"alg4-l0-map","congested":0,"server_rule":"remote-least-running"}}
{"t":0,"event":"place","task":0,"job":0,"stage":0,"index":0,"server":0,"free_slots_left":0,"why":{"mode":"sufficient","branch":"alg4-l0-map","congested":0,"server_rule":"remote-least-running"}}
{"t":0,"event":"place","task":2,"job":0,"stage":0,"index":2,"server":1,"free_slots_left":0,"why":{"mode":"sufficient","branch":"alg4-l0-map","congested":0,"server_rule":"remote-least-running"}}
{"t":1,"event":"task_done","task":3,"job":0,"server":0}
{"t":1,"event":"task_done","task":1,"job":0,"server":1}
{"t":1,"event":"task_done","task":0,"job":0,"server":0}
{"t":1,"event":"task_done","task":2,"job":0,"server":1}
{"t":1,"event":"ready","task":4,"job":0,"stage":1,"index":0}
{"t":1,"event":"ready","task":5,"job":0,"stage":1,"index":1}
{"t":1,"event":"ready","task":6,"job":0,"stage":1,"index":2}
{"t":1,"event":"ready","task":7,"job":0,"stage":1,"index":3}
{"t":1,"event":"place","task":4,"job":0,"stage":1,"index":0,"server":1,"free_slots_left":1,"why":{"mode":"sufficient","branch":"alg4-l0-reduce","congested":0,"server_rule":"idle","idle_servers":2}}
{"t":1,"event":"place","task":5,"job":0,"stage":1,"index":1,"server":0,"free_slots_left":1,"why":{"mode":"sufficient","branch":"alg4-l0-reduce","congested":0,"server_rule":"idle","idle_servers":1}}
{"t":1,"event":"reserve","free_slots":2,"ready_tasks":2,"why":{"mode":"sufficient","branch":"alg4-none","congested":0}}
{"t":1,"event":"flow_start","flow":0,"task":4,"job":0,"coflow":0,"src":0,"dst":1,"bytes":2,"class":0,"rate":1}
{"t":1,"event":"flow_start","flow":1,"task":5,"job":0,"coflow":0,"src":1,"dst":0,"bytes":2,"class":0,"rate":1}
{"t":1.1,"event":"tick","why":{"congested":1,"mean_link_utilisation":1}}
{"t":1.1,"event":"reserve","free_slots":2,"ready_tasks":2,"why":{"mode":"sufficient","branch":"alg4-congested-none","congested":1}}
{"t":2,"event":"arrive","job":1,"name":"B","tasks":1}
{"t":2,"event":"ready","task":8,"job":1,"stage":0,"index":0}
{"t":2,"event":"place","task":8,"job":1,"stage":0,"index":0,"server":0,"free_slots_left":0,"why":{"mode":"sufficient","branch":"alg4-l0-map","congested":1,"server_rule":"remote-least-running"}}
{"t":2,"event":"reserve","free_slots":1,"ready_tasks":2,"why":{"mode":"sufficient","branch":"alg4-congested-none","congested":1}}
{"t":3,"event":"flow_end","flow":0,"task":4,"duration_s":2}
{"t":3,"event":"flow_end","flow":1,"task":5,"duration_s":2}
{"t":3,"event":"task_done","task":8,"job":1,"server":0}
{"t":3,"event":"job_done","job":1,"jct_s":1}
{"t":3,"event":"task_done","task":4,"job":0,"server":1}
{"t":3,"event":"task_done","task":5,"job":0,"server":0}
{"t":3,"event":"place","task":6,"job":0,"stage":1,"index":2,"server":0,"free_slots_left":1,"why":{"mode":"sufficient","branch":"alg4-l0-reduce","congested":1,"server_rule":"idle","idle_servers":2}}
{"t":3,"event":"place","task":7,"job":0,"stage":1,"index":3,"server":1,"free_slots_left":1,"why":{"mode":"sufficient","branch":"alg4-l0-reduce","congested":1,"server_rule":"idle","idle_servers":1}}
{"t":3,"event":"flow_start","flow":2,"task":6,"job":0,"coflow":0,"src":1,"dst":0,"bytes":2,"class":0,"rate":1}
{"t":3,"event":"flow_start","flow":3,"task":7,"job":0,"coflow":0,"src":0,"dst":1,"bytes":2,"class":0,"rate":1}
{"t":5,"event":"flow_end","flow":2,"task":6,"duration_s":2}
{"t":5,"event":"flow_end","flow":3,"task":7,"duration_s":2}
{"t":5,"event":"task_done","task":6,"job":0,"server":0}
{"t":5,"event":"task_done","task":7,"job":0,"server":1}
{"t":5,"event":"job_done","job":0,"jct_s":5}
{"t":5.1000000000000005,"event":"tick","why":{"congested":0,"mean_link_utilisation":0}}
)");
}

// Fig. 2(a) with greedy placement, each link shared fairly as the paper draws it (Fig. 2(c)):
// all four reducers start at 1, two per server; each server's downlink carries two 2-unit flows
// at 1/2 each, so they end at 5. B's map waits for a slot until 5 and runs 5 -> 6. No slot is
// ever left empty while a task is ready. B's arrival at 2 makes the slots insufficient (Duopoly
// §3.3: B, the smallest job, has a ready task and no free slot), which fair ignores.
TEST(DecisionLogFig2, GreedyFillsEverySlotAndBWaits) {
  const Told told = Tell("duopoly-fig2.toml", "duopoly-IF", {{"network.policy", "fair"}});
  EXPECT_EQ(told.tasks_csv, std::string(kHeader) +
                                "A,map,0,1,0,none,0,0,0,1,1,1,0,0\n"
                                "A,map,1,1,0,none,0,0,0,1,1,1,0,0\n"
                                "A,map,2,0,0,none,0,0,0,1,1,1,0,0\n"
                                "A,map,3,0,0,none,0,0,0,1,1,1,0,0\n"
                                "A,reduce,0,0,0,none,1,1,5,5,5,5,4,2\n"
                                "A,reduce,1,0,0,none,1,1,5,5,5,5,4,2\n"
                                "A,reduce,2,1,0,none,1,1,5,5,5,5,4,2\n"
                                "A,reduce,3,1,0,none,1,1,5,5,5,5,4,2\n"
                                "B,map,0,0,0,none,2,5,5,6,6,6,0,0\n");
  for (const std::string& line : told.log) {
    EXPECT_EQ(line.find("\"reserve\""), std::string::npos) << line;
  }
  ExpectLog(told.log, R"({"t":0,"event":"arrive","job":0,"name":"A","tasks":8}
{"t":0,"event":"ready","task":0,"job":0,"stage":0,"index":0}
{"t":0,"event":"ready","task":1,"job":0,"stage":0,"index":1}
{"t":0,"event":"ready","task":2,"job":0,"stage":0,"index":2}
{"t":0,"event":"ready","task":3,"job":0,"stage":0,"index":3}
{"t":0,"event":"place","task":0,"job":0,"stage":0,"index":0,"server":1,"free_slots_left":1,"why":{"rule":"random-free"}}
{"t":0,"event":"place","task":1,"job":0,"stage":0,"index":1,"server":1,"free_slots_left":0,"why":{"rule":"random-free"}}
{"t":0,"event":"place","task":2,"job":0,"stage":0,"index":2,"server":0,"free_slots_left":1,"why":{"rule":"random-free"}}
{"t":0,"event":"place","task":3,"job":0,"stage":0,"index":3,"server":0,"free_slots_left":0,"why":{"rule":"random-free"}}
{"t":1,"event":"task_done","task":0,"job":0,"server":1}
{"t":1,"event":"task_done","task":1,"job":0,"server":1}
{"t":1,"event":"task_done","task":2,"job":0,"server":0}
{"t":1,"event":"task_done","task":3,"job":0,"server":0}
{"t":1,"event":"ready","task":4,"job":0,"stage":1,"index":0}
{"t":1,"event":"ready","task":5,"job":0,"stage":1,"index":1}
{"t":1,"event":"ready","task":6,"job":0,"stage":1,"index":2}
{"t":1,"event":"ready","task":7,"job":0,"stage":1,"index":3}
{"t":1,"event":"place","task":4,"job":0,"stage":1,"index":0,"server":0,"free_slots_left":1,"why":{"rule":"random-free"}}
{"t":1,"event":"place","task":5,"job":0,"stage":1,"index":1,"server":0,"free_slots_left":0,"why":{"rule":"random-free"}}
{"t":1,"event":"place","task":6,"job":0,"stage":1,"index":2,"server":1,"free_slots_left":1,"why":{"rule":"random-free"}}
{"t":1,"event":"place","task":7,"job":0,"stage":1,"index":3,"server":1,"free_slots_left":0,"why":{"rule":"random-free"}}
{"t":1,"event":"flow_start","flow":0,"task":4,"job":0,"coflow":0,"src":1,"dst":0,"bytes":2,"class":0,"rate":0.5}
{"t":1,"event":"flow_start","flow":1,"task":5,"job":0,"coflow":0,"src":1,"dst":0,"bytes":2,"class":0,"rate":0.5}
{"t":1,"event":"flow_start","flow":2,"task":6,"job":0,"coflow":0,"src":0,"dst":1,"bytes":2,"class":0,"rate":0.5}
{"t":1,"event":"flow_start","flow":3,"task":7,"job":0,"coflow":0,"src":0,"dst":1,"bytes":2,"class":0,"rate":0.5}
{"t":2,"event":"arrive","job":1,"name":"B","tasks":1}
{"t":2,"event":"ready","task":8,"job":1,"stage":0,"index":0}
{"t":2,"event":"mode","mode":"insufficient"}
{"t":5,"event":"flow_end","flow":0,"task":4,"duration_s":4}
{"t":5,"event":"flow_end","flow":1,"task":5,"duration_s":4}
{"t":5,"event":"flow_end","flow":2,"task":6,"duration_s":4}
{"t":5,"event":"flow_end","flow":3,"task":7,"duration_s":4}
{"t":5,"event":"task_done","task":4,"job":0,"server":0}
{"t":5,"event":"task_done","task":5,"job":0,"server":0}
{"t":5,"event":"task_done","task":6,"job":0,"server":1}
{"t":5,"event":"task_done","task":7,"job":0,"server":1}
{"t":5,"event":"job_done","job":0,"jct_s":5}
{"t":5,"event":"place","task":8,"job":1,"stage":0,"index":0,"server":0,"free_slots_left":1,"why":{"rule":"random-free"}}
{"t":5,"event":"mode","mode":"sufficient"}
{"t":6,"event":"task_done","task":8,"job":1,"server":0}
{"t":6,"event":"job_done","job":1,"jct_s":4}
)");
}

// Fig. 1's shared start: the pinned maps (no slot) run and end at 0, and Ra1 and Ra2 take the
// two receiving slots.
std::string Fig1Start() {
  return R"({"t":0,"event":"arrive","job":0,"name":"A","tasks":4}
{"t":0,"event":"ready","task":0,"job":0,"stage":0,"index":0}
{"t":0,"event":"place","task":0,"job":0,"stage":0,"index":0,"server":0,"free_slots_left":0,"why":{"rule":"pinned"}}
{"t":0,"event":"ready","task":1,"job":0,"stage":0,"index":1}
{"t":0,"event":"place","task":1,"job":0,"stage":0,"index":1,"server":0,"free_slots_left":0,"why":{"rule":"pinned"}}
{"t":0,"event":"arrive","job":1,"name":"B","tasks":2}
{"t":0,"event":"ready","task":4,"job":1,"stage":0,"index":0}
{"t":0,"event":"place","task":4,"job":1,"stage":0,"index":0,"server":1,"free_slots_left":0,"why":{"rule":"pinned"}}
{"t":0,"event":"task_done","task":0,"job":0,"server":0}
{"t":0,"event":"task_done","task":1,"job":0,"server":0}
{"t":0,"event":"ready","task":2,"job":0,"stage":1,"index":0}
{"t":0,"event":"ready","task":3,"job":0,"stage":1,"index":1}
{"t":0,"event":"task_done","task":4,"job":1,"server":1}
{"t":0,"event":"ready","task":5,"job":1,"stage":1,"index":0}
{"t":0,"event":"place","task":2,"job":0,"stage":1,"index":0,"server":3,"free_slots_left":0,"why":{"rule":"random-free"}}
{"t":0,"event":"place","task":3,"job":0,"stage":1,"index":1,"server":2,"free_slots_left":0,"why":{"rule":"random-free"}}
)";
}

// Fig. 1 is about the network policy, so the receiving slots are filled as soon as a reducer
// is ready (greedy placement; nats would hold Rb back while the one busy downlink is full, see
// duopoly_examples_test.cc). The pinned maps (no slot) run and end at 0; Ra1 and Ra2 take the
// two receiving slots (greedy's random pick: Ra1 on server 3).
// Macroflow priority (ablation IM): Ra1's macroflow (class 1 << 16) goes before Ra2's
// (1 << 16 | 1, the same size seen later): Ra1 ends at 1, Rb takes its slot and runs 1 -> 3 at
// full rate from P2 while Ra2 finishes at 2. A 2, B 3.
TEST(DecisionLogFig1, MacroflowPriorityFreesASlotAt1) {
  const Told told = Tell("duopoly-fig1.toml", "duopoly-IM", {{"scheduler.policy", "greedy"}});
  EXPECT_EQ(told.tasks_csv, std::string(kHeader) +
                                "A,map,0,0,1,none,0,0,0,0,0,0,0,0\n"
                                "A,map,1,0,1,none,0,0,0,0,0,0,0,0\n"
                                "A,reduce,0,3,0,none,0,0,1,1,1,1,1,1\n"
                                "A,reduce,1,2,0,none,0,0,2,2,2,2,1,1\n"
                                "B,map,0,1,1,none,0,0,0,0,0,0,0,0\n"
                                "B,reduce,0,3,0,none,0,1,3,3,3,3,2,2\n");
  ExpectLog(
      told.log,
      Fig1Start() +
          R"({"t":0,"event":"flow_start","flow":0,"task":2,"job":0,"coflow":0,"src":0,"dst":3,"bytes":1,"class":65536,"rate":1}
{"t":0,"event":"flow_start","flow":1,"task":3,"job":0,"coflow":0,"src":0,"dst":2,"bytes":1,"class":65537,"rate":0}
{"t":1,"event":"flow_end","flow":0,"task":2,"duration_s":1}
{"t":1,"event":"task_done","task":2,"job":0,"server":3}
{"t":1,"event":"place","task":5,"job":1,"stage":1,"index":0,"server":3,"free_slots_left":0,"why":{"rule":"random-free"}}
{"t":1,"event":"flow_start","flow":2,"task":5,"job":1,"coflow":1,"src":1,"dst":3,"bytes":2,"class":131072,"rate":1}
{"t":2,"event":"flow_end","flow":1,"task":3,"duration_s":2}
{"t":2,"event":"task_done","task":3,"job":0,"server":2}
{"t":2,"event":"job_done","job":0,"jct_s":2}
{"t":3,"event":"flow_end","flow":2,"task":5,"duration_s":2}
{"t":3,"event":"task_done","task":5,"job":1,"server":3}
{"t":3,"event":"job_done","job":1,"jct_s":3}
)");
}

// Coflow priority (ablation IC): Ra1 and Ra2 are one coflow (one class, 2 << 16) and share P1
// at 1/2 each, both ending at 2; Rb only then gets a slot and runs 2 -> 4. A 2, B 4.
TEST(DecisionLogFig1, CoflowFairSharingKeepsBothSlotsUntil2) {
  const Told told = Tell("duopoly-fig1.toml", "duopoly-IC", {{"scheduler.policy", "greedy"}});
  EXPECT_EQ(told.tasks_csv, std::string(kHeader) +
                                "A,map,0,0,1,none,0,0,0,0,0,0,0,0\n"
                                "A,map,1,0,1,none,0,0,0,0,0,0,0,0\n"
                                "A,reduce,0,3,0,none,0,0,2,2,2,2,1,1\n"
                                "A,reduce,1,2,0,none,0,0,2,2,2,2,1,1\n"
                                "B,map,0,1,1,none,0,0,0,0,0,0,0,0\n"
                                "B,reduce,0,3,0,none,0,2,4,4,4,4,2,2\n");
  ExpectLog(
      told.log,
      Fig1Start() +
          R"({"t":0,"event":"flow_start","flow":0,"task":2,"job":0,"coflow":0,"src":0,"dst":3,"bytes":1,"class":131072,"rate":0.5}
{"t":0,"event":"flow_start","flow":1,"task":3,"job":0,"coflow":0,"src":0,"dst":2,"bytes":1,"class":131072,"rate":0.5}
{"t":2,"event":"flow_end","flow":0,"task":2,"duration_s":2}
{"t":2,"event":"flow_end","flow":1,"task":3,"duration_s":2}
{"t":2,"event":"task_done","task":2,"job":0,"server":3}
{"t":2,"event":"task_done","task":3,"job":0,"server":2}
{"t":2,"event":"job_done","job":0,"jct_s":2}
{"t":2,"event":"place","task":5,"job":1,"stage":1,"index":0,"server":3,"free_slots_left":0,"why":{"rule":"random-free"}}
{"t":2,"event":"flow_start","flow":2,"task":5,"job":1,"coflow":1,"src":1,"dst":3,"bytes":2,"class":131073,"rate":1}
{"t":4,"event":"flow_end","flow":2,"task":5,"duration_s":2}
{"t":4,"event":"task_done","task":5,"job":1,"server":3}
{"t":4,"event":"job_done","job":1,"jct_s":4}
)");
}

std::vector<std::string> Events(const std::vector<std::string>& log, const std::string& event) {
  std::vector<std::string> out;
  for (const std::string& line : log) {
    if (line.find("\"event\":\"" + event + "\"") != std::string::npos) out.push_back(line);
  }
  return out;
}

// Fig. 2 under duopoly-I (unlimited classes) with the earlier mode signal (L0 = the first job
// with ready tasks): once B's map has its slot, A is that job, with 2 ready reducers for 1 free
// slot; the tick at 2.1 turns the mode slot-insufficient and cans moves R1's and R2's flows
// from their coflow's class (16 units << 16) to their macroflows' (4 units << 16, then the tie
// index), saying why. (Under the paper's signal L0 is B, whose one task fits: no switch.)
TEST(DecisionLogFig2, TheModeSwitchReclassesTheShuffleWithItsReason) {
  const Told told =
      Tell("duopoly-fig2.toml", "duopoly-I", {{"scheduler.mode_signal", "first-ready"}});
  EXPECT_EQ(
      Events(told.log, "class"),
      (std::vector<std::string>{
          R"({"t":2.1,"event":"class","flow":0,"task":4,"from":1048576,"to":262144,"why":{"rule":"mode-switch","priority":"macroflow"}})",
          R"({"t":2.1,"event":"class","flow":1,"task":5,"from":1048576,"to":262145,"why":{"rule":"mode-switch","priority":"macroflow"}})"}));
  // R3 and R4 start in the slot-sufficient mode again: coflow class, no change logged.
  EXPECT_EQ(Events(told.log, "mode"),
            (std::vector<std::string>{R"({"t":2.1,"event":"mode","mode":"insufficient"})",
                                      R"({"t":3,"event":"mode","mode":"sufficient"})"}));
  EXPECT_TRUE(Events(Tell("duopoly-fig2.toml", "duopoly-I").log, "mode").empty());
}

// Aalo demotes a coflow the moment its sent bytes cross Q1·E^k: with Q1 = 10 B, E = 10 and one
// 25-byte flow at 1 B/s, at 10 s into queue 1 (class 2^60: api/class_key.h); it never
// reaches 100 B.
TEST(DecisionLog, AaloDemotionIsLoggedWithItsThreshold) {
  testing::Scenario s;
  s.cluster = testing::UnitCluster(2, 1);
  s.workload.source = "demotion";
  s.workload.jobs = {testing::Job("A", 0,
                                  {StageSpec{"map", {}, {testing::Task(0, 0, 0)}},
                                   StageSpec{"reduce", {0}, {testing::Task(25, 0, 1)}}})};
  s.network = "aalo";
  s.network_settings = {{"first_threshold", "10"}, {"queues", "3"}};
  std::ostringstream text;
  EventLog log(text);
  s.simulation.log = &log;
  s.Run();
  log.Flush();
  EXPECT_EQ(
      Events(testing::Lines(text.str()), "class"),
      (std::vector<std::string>{
          R"({"t":10,"event":"class","flow":0,"task":1,"from":0,"to":1152921504606846976,"why":{"rule":"demotion","queue":1,"sent_bytes":10}})"}));
}

// The same run logged twice gives the identical file.
TEST(DecisionLog, SameInputsGiveTheIdenticalLog) {
  EXPECT_EQ(Tell("duopoly-fig2.toml", "duopoly").log, Tell("duopoly-fig2.toml", "duopoly").log);
  EXPECT_EQ(Tell("jobs-small.toml", "neat").log, Tell("jobs-small.toml", "neat").log);
}

}  // namespace
}  // namespace slotflow

namespace slotflow::testing {
namespace {

// Places the k-th task of a stage on server k (for locality tests).
class TaskKOnServerK : public TaskScheduler {
 public:
  explicit TaskKOnServerK(const PolicyArgs&) {}
  Decision Next(const SimState& state) override {
    for (JobIndex j : state.active_jobs()) {
      for (TaskId t : state.job(j).ready) {
        const ServerId k{state.task(t).index};
        if (state.CanHost(t, k)) return {t, k};
      }
    }
    return {};
  }
};

SLOTFLOW_REGISTER_TASK_SCHEDULER("test-task-k-on-server-k", "test: the k-th task on server k", {},
                                 TaskKOnServerK);

// Racks {0, 1} and {2, 3}; every block is on server 0. Task 0 runs on server 0 (node-local),
// task 1 on server 1 (same rack), task 2 on server 2 (another rack), task 3 reads nothing.
TEST(TasksCsv, LocalityAndRemoteBytesFollowWhereTheBlockWasRead) {
  Scenario s;
  s.cluster = UnitCluster(4, 1);
  s.cluster.topology = TopologyKind::kTwoTier;
  s.cluster.servers_per_rack = 2;
  StageSpec map{"map", {}, {Task(1, 0), Task(1, 0), Task(1, 0), Task(0, 0)}};
  map.replicas = Replicas({{0}, {0}, {0}, {}});
  s.workload.source = "locality";
  s.workload.jobs = {Job("A", 0, {map})};
  s.scheduler = "test-task-k-on-server-k";
  s.simulation.collect_tasks = true;
  const RunResult r = s.Run();
  ASSERT_EQ(r.tasks.size(), 4u);
  EXPECT_EQ(r.tasks[0].locality, "node");
  EXPECT_EQ(r.tasks[1].locality, "rack");
  EXPECT_EQ(r.tasks[2].locality, "off-rack");
  EXPECT_EQ(r.tasks[3].locality, "none");
  EXPECT_EQ(r.tasks[0].remote_bytes, 0);
  EXPECT_EQ(r.tasks[1].remote_bytes, 1);
  EXPECT_EQ(r.tasks[2].remote_bytes, 1);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(r.tasks[k].server, k);
  // Tasks 1 and 2 share server 0's uplink (1 B/s): their 1-byte reads end at 2 s.
  EXPECT_DOUBLE_EQ(r.tasks[0].read_done, 0);
  EXPECT_DOUBLE_EQ(r.tasks[1].read_done, 2);
  EXPECT_DOUBLE_EQ(r.tasks[2].read_done, 2);
}

}  // namespace
}  // namespace slotflow::testing

namespace slotflow::testing {
namespace {

// cans' block_reads: a 1-byte block read (server 1 -> 0, no coflow) and a 2-byte shuffle on the
// same links. As a coflow of its own size the read goes first (ends at 1, the shuffle at 3);
// ranked last, the shuffle goes first (ends at 2, the read at 3).
TEST(CansBlockReads, OwnCoflowOrLast) {
  Scenario s;
  s.cluster = UnitCluster(2, 1);
  StageSpec read{"map", {}, {Task(1, 0)}};
  read.replicas = Replicas({{1}});
  s.workload.source = "block-reads";
  s.workload.jobs = {Job("R", 0, {read}), Job("S", 0,
                                              {StageSpec{"map", {}, {Task(0, 0, 1)}},
                                               StageSpec{"reduce", {0}, {Task(2, 0, 0)}}})};
  s.scheduler = "test-task-k-on-server-k";
  s.network = "cans";
  s.network_settings = {{"queues", "unlimited"}, {"priority", "coflow"}};
  std::map<std::string, double> finish;
  for (const JobResult& j : s.Run().jobs) finish[j.name] = j.finish;
  EXPECT_DOUBLE_EQ(finish.at("R"), 1);
  EXPECT_DOUBLE_EQ(finish.at("S"), 3);
  s.network_settings["block_reads"] = "last";
  for (const JobResult& j : s.Run().jobs) finish[j.name] = j.finish;
  EXPECT_DOUBLE_EQ(finish.at("R"), 3);
  EXPECT_DOUBLE_EQ(finish.at("S"), 2);
}

}  // namespace
}  // namespace slotflow::testing
