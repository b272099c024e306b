// The tcds generator: the workload of the TCDS evaluation (workload/tcds_workload.h).
#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <vector>

#include "api/generator.h"
#include "workload/tcds_workload.h"

namespace slotflow {
namespace {

std::vector<SettingSpec> TcdsSettings() {
  return {{.name = "tcds_group",
           .kind = SettingKind::kInteger,
           .default_value = "1",
           .meaning = "the group of the TCDS paper's Table 1: its very short, short and long "
                      "task counts",
           .min = 1,
           .max = 5,
           .choices = {}},
          {.name = "tcds_tasks_per_job",
           .kind = SettingKind::kInteger,
           .default_value = "5",
           .meaning = "tasks per job (one class per job)",
           .min = 1,
           .max = 1e6,
           .choices = {}},
          {.name = "tcds_interarrival",
           .kind = SettingKind::kSeconds,
           .default_value = "1s",
           .meaning = "mean time between job arrivals (Poisson)",
           .min = 0,
           .max = 1e6,
           .choices = {}}};
}

class TcdsGenerator : public WorkloadGenerator {
 public:
  explicit TcdsGenerator(const PolicyArgs& args) {
    options_.group = static_cast<int>(args.settings.Integer("tcds_group"));
    options_.seed = args.seed;
    options_.tasks_per_job = static_cast<int>(args.settings.Integer("tcds_tasks_per_job"));
    options_.mean_interarrival_s = args.settings.Number("tcds_interarrival");
  }

  GeneratedWorkload Generate(const GeneratorInput& /*input*/) const override {
    return {GenerateTcdsWorkload(options_),
            fmt::format("tcds(group={}, seed={})", options_.group, options_.seed), ""};
  }

  // Its task sizes are the TCDS paper's; its jobs are map-only.
  std::vector<std::string> ReadsInputValues() const override { return {}; }

 private:
  TcdsWorkloadOptions options_;
};

}  // namespace

SLOTFLOW_REGISTER_GENERATOR("tcds",
                            "the TCDS evaluation's map-only jobs of very short, short and long "
                            "tasks, in the task counts of a group of its Table 1",
                            TcdsSettings(), TcdsGenerator);

}  // namespace slotflow
