#include "api/first_fit.h"

#include "api/tie_break.h"

namespace slotflow {

Decision FirstFit(const SimState& state, JobOrder order, std::vector<JobIndex>& scratch,
                  const ServerRule& rule, const char* name) {
  if (state.servers_with_free_slots().empty()) return {};
  OrderJobs(state, order, scratch);
  for (JobIndex j : scratch) {
    for (TaskId t : state.job(j).ready) {
      const ServerId s = rule(state, t);
      if (s != kNoServer) return {t, s, Why().Add("rule", name)};
    }
  }
  return {};
}

std::vector<SettingSpec> BaselineSettings() { return {JobOrderSetting(), TieSetting()}; }

std::vector<ServerId> Hosts(const SimState& state, TaskId t) {
  std::vector<ServerId> out;
  for (ServerId s : state.servers_with_free_slots()) {
    if (state.CanHost(t, s)) out.push_back(s);
  }
  return out;
}

int Hops(const Cluster& cluster, ServerId a, ServerId b) {
  if (a == b) return 0;
  if (cluster.spec().topology == TopologyKind::kBigSwitch) return 2;
  return cluster.server(a).rack == cluster.server(b).rack ? 2 : 4;
}

}  // namespace slotflow
