// Network-only scenarios for policy tests: flows (grouped into coflows) that start at given
// times between given servers of a big-switch cluster; run to completion and read each flow's
// finish time. Uses the real Network and the named policy from the registry. The task
// scheduler's slot-mode signal (for cans) can be given too.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "api/cluster.h"
#include "engine/engine.h"
#include "network/network.h"

namespace slotflow::testing {

struct FlowAt {
  Seconds start = 0;
  int src = 0, dst = 1;  // server numbers
  Bytes size = 1;
  int coflow = -1;  // index into NetworkScenario::coflows, -1 = none
  int32_t macroflow = -1;
  Bytes macroflow_bytes = 0;
  Seconds hold = 0;  // FlowSpec::hold
};

struct NetworkScenario {
  int servers = 4;
  BytesPerSecond nic = 1.0;     // every link 1 unit/s unless changed
  std::vector<Coflow> coflows;  // arrival and sizes as the policy should see them
  std::vector<FlowAt> flows;
  std::string policy = "fair";
  std::map<std::string, std::string> config;  // the policy's settings, key → value
  // The slot mode before anything starts, then each (time, mode) switch, applied at that time
  // before the flows starting then.
  SlotMode initial_mode = SlotMode::kSufficient;
  std::vector<std::pair<Seconds, SlotMode>> mode_switches;
  // Network::KeepFinished; after Run, how many flows' records the network still keeps.
  FinishedFlows keep_finished = FinishedFlows::kRecords;
  mutable int kept_at_end = -1;
  Seconds time_step = 0;  // Network::SetTimeStep

  // Finish time of every flow, in the order of `flows`. Flow starts and mode switches are
  // events on the engine's loop, which drives the network as a run does.
  std::vector<double> Run() const {
    ClusterSpec cs;
    cs.classes = {ServerClass{.name = "n", .count = servers, .slots = 1, .nic = nic}};
    Cluster cluster(cs);
    Engine engine;
    Network net(cluster, NetworkPolicyRegistry::Get().Make(policy, config), engine.clock());
    net.KeepFinished(keep_finished);
    net.SetTimeStep(time_step);
    for (const Coflow& c : coflows) net.AddCoflow(c);
    net.SetSlotMode(initial_mode);
    std::vector<double> finish(flows.size(), -1);
    std::map<FlowId, size_t> index;
    const int32_t switch_kind =
        engine.AddKind([&](int64_t i) { net.SetSlotMode(mode_switches[i].second); });
    const int32_t start_kind = engine.AddKind([&](int64_t i) {
      const FlowAt& fa = flows[i];
      FlowSpec fs;
      fs.src = ServerId{fa.src};
      fs.dst = ServerId{fa.dst};
      fs.size = fa.size;
      fs.coflow = CoflowId{fa.coflow};
      fs.macroflow = TaskId{fa.macroflow};
      fs.macroflow_bytes = fa.macroflow_bytes;
      fs.hold = fa.hold;
      index[net.StartFlow(fs)] = static_cast<size_t>(i);
    });
    // At one time, mode switches come before flow starts (scheduling order breaks ties).
    for (size_t i = 0; i < mode_switches.size(); ++i) {
      engine.Schedule(mode_switches[i].first, switch_kind, static_cast<int64_t>(i));
    }
    std::vector<size_t> order(flows.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return flows[a].start < flows[b].start; });
    for (size_t i : order) engine.Schedule(flows[i].start, start_kind, static_cast<int64_t>(i));
    std::vector<FlowId> done;
    const ContinuousProcess fluid{[&] { return net.NextEventTime(); },
                                  [&](Seconds t) {
                                    done.clear();
                                    net.AdvanceTo(t, done);
                                    for (FlowId f : done) finish[index[f]] = net.now();
                                  }};
    engine.Run(fluid, [&] { net.Resolve(); });
    kept_at_end = 0;
    for (FlowId f{0}; f < net.FlowCount(); ++f) kept_at_end += net.Kept(f);
    return finish;
  }
};

}  // namespace slotflow::testing
