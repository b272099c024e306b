// The synthetic generator, the default: MapReduce jobs shaped like the Facebook coflow
// benchmark (workload/synthetic.h).
#include "workload/synthetic.h"

#include <fmt/format.h>

#include <cstdint>
#include <vector>

#include "api/generator.h"

namespace slotflow {
namespace {

std::vector<SettingSpec> SyntheticSettings() {
  return {{.name = "synthetic_jobs",
           .kind = SettingKind::kInteger,
           .default_value = "200",
           .meaning = "jobs in the embedded synthetic workload",
           .min = 1,
           .max = 1e6,
           .choices = {}},
          {.name = "synthetic_interarrival",
           .kind = SettingKind::kSeconds,
           .default_value = "0.5s",
           .meaning = "mean time between synthetic job arrivals",
           .min = 0,
           .max = 1e6,
           .min_exclusive = true,
           .choices = {}}};
}

class SyntheticGenerator : public WorkloadGenerator {
 public:
  explicit SyntheticGenerator(const PolicyArgs& args)
      : jobs_(static_cast<int>(args.settings.Integer("synthetic_jobs"))),
        interarrival_(args.settings.Number("synthetic_interarrival")),
        seed_(args.seed) {}

  GeneratedWorkload Generate(const GeneratorInput& input) const override {
    SyntheticOptions so;
    so.jobs = jobs_;
    so.mean_interarrival_s = interarrival_;
    so.seed = seed_;
    so.traffic_scale = input.traffic_scale;
    so.map_input_ratio = input.map_input_ratio;
    return {GenerateSynthetic(so), fmt::format("synthetic(jobs={}, seed={})", so.jobs, so.seed),
            fmt::format("synthetic(jobs={})", so.jobs)};
  }

 private:
  int jobs_;
  Seconds interarrival_;
  uint64_t seed_;
};

}  // namespace

SLOTFLOW_REGISTER_GENERATOR(
    "synthetic",
    "MapReduce jobs shaped like the Facebook coflow benchmark, narrow or wide and short or "
    "long (the default)",
    SyntheticSettings(), SyntheticGenerator);

}  // namespace slotflow
