// Workload generators: the embedded workloads a run uses when it is given no trace or job file,
// chosen by name (`--generator NAME`, or `generator = "NAME"` in a [workload] table). Each is
// one file in workload/generators/ that declares its settings (api/settings.h) and registers
// itself with SLOTFLOW_REGISTER_GENERATOR, as policies do; values for its settings come from
// [workload] tables and `--set workload.KEY=VALUE`, checked by the same rules as policies'.
// Policy API (src/api/): stable, see docs/plugins.md#the-policy-api.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/cluster.h"
#include "api/job.h"
#include "api/registry.h"
#include "api/settings.h"

namespace slotflow {

// What a generator reads besides its settings and the seed (PolicyArgs): the cluster the
// workload will run on, settled and validated, and the values every workload takes.
struct GeneratorInput {
  const ClusterSpec& cluster;
  double traffic_scale = 1.0;  // multiplies every byte count
  // Map input per task (api/job.h, MapInputPerTask): balanced when none.
  std::optional<double> map_input_ratio;
};

struct GeneratedWorkload {
  Workload workload;
  std::string name;  // for summaries, e.g. "synthetic(jobs=200, seed=1)"
  // The name without the seed, for a comparison over several seeds ("synthetic(jobs=200)");
  // empty: the comparison shows the first seed's name.
  std::string name_over_seeds;
};

// A generator is built from PolicyArgs (its settings, resolved, and the run's seed).
class WorkloadGenerator {
 public:
  virtual ~WorkloadGenerator() = default;
  // The same settings, seed and input give the same workload on every platform. InputError
  // naming the setting on values the generator cannot use.
  virtual GeneratedWorkload Generate(const GeneratorInput& input) const = 0;
  // Which of the input's byte values ("traffic_scale", "map_input_ratio") shape the workload;
  // a run that gives one the generator does not read is refused, not recorded as used.
  virtual std::vector<std::string> ReadsInputValues() const {
    return {"traffic_scale", "map_input_ratio"};
  }
};

using GeneratorRegistry = Registry<WorkloadGenerator>;
SLOTFLOW_DECLARE_REGISTRY(GeneratorRegistry);

}  // namespace slotflow

// Registers `type` (constructed from a PolicyArgs) under `name` with its declared settings.
#define SLOTFLOW_REGISTER_GENERATOR(name, description, settings, type)                       \
  SLOTFLOW_REGISTER_TYPE(::slotflow::GeneratorRegistry, ::slotflow::WorkloadGenerator, name, \
                         description, settings, type)
