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

#include "cluster/cluster.h"
#include "network/network.h"

namespace slotflow::testing {

struct FlowAt {
  Seconds start = 0;
  ServerId src = 0, dst = 1;
  Bytes size = 1;
  int coflow = -1;  // index into NetworkScenario::coflows, -1 = none
  int32_t macroflow = -1;
  Bytes macroflow_bytes = 0;
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

  // Finish time of every flow, in the order of `flows`.
  std::vector<double> Run() const {
    ClusterSpec cs;
    cs.classes = {ServerClass{.name = "n", .count = servers, .slots = 1, .nic = nic}};
    Cluster cluster(cs);
    Network net(cluster, NetworkPolicyRegistry::Get().Make(policy, config));
    for (const Coflow& c : coflows) net.AddCoflow(c);
    net.SetSlotMode(initial_mode);
    std::vector<size_t> order(flows.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return flows[a].start < flows[b].start; });
    std::vector<double> finish(flows.size(), -1);
    std::map<FlowId, size_t> index;
    size_t next = 0, next_switch = 0;
    std::vector<FlowId> done;
    for (int guard = 0; guard < 1000000; ++guard) {
      const Seconds t_start = next < order.size() ? flows[order[next]].start : kForever;
      const Seconds t_switch =
          next_switch < mode_switches.size() ? mode_switches[next_switch].first : kForever;
      const Seconds t = std::min({t_start, t_switch, net.NextEventTime()});
      if (t == kForever) break;
      done.clear();
      net.AdvanceTo(t, done);
      for (FlowId f : done) finish[index[f]] = net.now();
      while (next_switch < mode_switches.size() && mode_switches[next_switch].first <= t) {
        net.SetSlotMode(mode_switches[next_switch++].second);
      }
      while (next < order.size() && flows[order[next]].start <= t) {
        const FlowAt& fa = flows[order[next]];
        FlowSpec fs;
        fs.src = fa.src;
        fs.dst = fa.dst;
        fs.size = fa.size;
        fs.coflow = fa.coflow;
        fs.macroflow = fa.macroflow;
        fs.macroflow_bytes = fa.macroflow_bytes;
        index[net.StartFlow(fs)] = order[next];
        ++next;
      }
      net.Resolve();
    }
    return finish;
  }
};

}  // namespace slotflow::testing
