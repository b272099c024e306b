// The flows generator: NEAT+'s flow workloads, single transfers at a target load of the edge
// links (workload/flow_workload.h).
#include <cstdint>
#include <string>
#include <vector>

#include "workload/flow_workload.h"
#include "api/generator.h"

namespace slotflow {
namespace {

std::vector<SettingSpec> FlowSettings() {
  return {{.name = "flow_sizes",
           .kind = SettingKind::kChoice,
           .default_value = "datamining",
           .meaning = "the size distribution, websearch (DCTCP) or datamining (VL2)",
           .choices = {"websearch", "datamining"}},
          {.name = "flow_load",
           .kind = SettingKind::kNumber,
           .default_value = "0.5",
           .meaning = "the mean load of the edge links (Poisson arrivals)",
           .min = 0,
           .max = 1,
           .min_exclusive = true,
           .choices = {}},
          {.name = "flows",
           .kind = SettingKind::kInteger,
           .default_value = "2000",
           .meaning = "the number of flows",
           .min = 1,
           .max = 1e7,
           .choices = {}},
          {.name = "flow_replicas",
           .kind = SettingKind::kInteger,
           .default_value = "1",
           .meaning = "servers holding each input block: 1, a fixed sender the task may not run "
                      "on; more, distinct random servers, the task free to run on one (a local "
                      "read) or to read from one",
           .min = 1,
           .max = 64,
           .choices = {}},
          {.name = "flow_senders",
           .kind = SettingKind::kInteger,
           .default_value = "1",
           .meaning = "above 1: each job is a many-to-one stage, its size split evenly over "
                      "that many senders (distinct random servers)",
           .min = 1,
           .max = 1e4,
           .choices = {}},
          {.name = "flow_receivers",
           .kind = SettingKind::kInteger,
           .default_value = "1",
           .meaning = "the tasks of a many-to-one stage, each reading an equal share from every "
                      "sender",
           .min = 1,
           .max = 1e4,
           .choices = {}},
          {.name = "flow_compute",
           .kind = SettingKind::kChoice,
           .default_value = "none",
           .meaning = "what a reading task computes after its transfer: none, fixed "
                      "(flow_compute_time), or proportional (its input at the cluster's slot "
                      "rate)",
           .choices = {"none", "fixed", "proportional"}},
          {.name = "flow_compute_time",
           .kind = SettingKind::kSeconds,
           .default_value = "1s",
           .meaning = "the compute time of each reading task, with flow_compute = fixed",
           .min = 0,
           .max = 1e6,
           .choices = {}}};
}

class FlowGenerator : public WorkloadGenerator {
 public:
  explicit FlowGenerator(const PolicyArgs& args) : settings_(args.settings) {
    options_.sizes = args.settings.Choice<FlowSizes>(
        "flow_sizes",
        {{"websearch", FlowSizes::kWebSearch}, {"datamining", FlowSizes::kDataMining}});
    options_.load = args.settings.Number("flow_load");
    options_.flows = static_cast<int>(args.settings.Integer("flows"));
    options_.seed = args.seed;
    options_.replicas = static_cast<int>(args.settings.Integer("flow_replicas"));
    options_.senders = static_cast<int>(args.settings.Integer("flow_senders"));
    options_.receivers = static_cast<int>(args.settings.Integer("flow_receivers"));
    options_.compute = args.settings.Choice<FlowCompute>(
        "flow_compute", {{"none", FlowCompute::kNone},
                         {"fixed", FlowCompute::kFixed},
                         {"proportional", FlowCompute::kProportional}});
    options_.compute_time = args.settings.Number("flow_compute_time");
    if (options_.replicas > 1 && options_.senders > 1) {
      throw args.settings.Conflict({"flow_replicas", "flow_senders"},
                                   "flow_replicas and flow_senders cannot both be above 1 (a "
                                   "many-to-one stage reads map "
                                   "outputs, not replicated blocks)");
    }
    if (options_.receivers > 1 && options_.senders == 1) {
      throw args.settings.Conflict({"flow_receivers", "flow_senders"},
                                   "flow_receivers above 1 needs flow_senders above 1 (a "
                                   "many-to-one stage)");
    }
  }

  // The arrival rate follows from the cluster's NICs, so the flows are drawn for it.
  GeneratedWorkload Generate(const GeneratorInput& input) const override {
    BytesPerSecond total_nic = 0;
    for (const ServerClass& c : input.cluster.classes) total_nic += c.count * c.nic;
    Workload w;
    try {
      w = GenerateFlowWorkload(options_, input.cluster.ServerCount(), total_nic);
    } catch (const InputError& e) {
      // Named by the setting: report it where the value was given.
      const SettingAssignment& from = settings_.Source(e.field());
      throw InputError(from.file, from.line, from.field, e.message());
    }
    std::string name = w.source;
    return {std::move(w), std::move(name), ""};
  }

  // Its load, not a scale, sets the bytes; it makes no map stages.
  std::vector<std::string> ReadsInputValues() const override { return {}; }

 private:
  Settings settings_;
  FlowWorkloadOptions options_;
};

}  // namespace

SLOTFLOW_REGISTER_GENERATOR("flows",
                            "NEAT+'s flow workloads: transfers with web-search or data-mining "
                            "sizes at a target load, the receiver chosen by placement; optionally "
                            "replicated inputs, many-to-one stages and compute",
                            FlowSettings(), FlowGenerator);

}  // namespace slotflow
