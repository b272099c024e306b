// srpt — shortest remaining processing time per flow (SPEC §7; pFabric, Alizadeh et al.,
// SIGCOMM 2013, and PASE, Munir et al., SIGCOMM 2014): the flow with the fewest bytes left goes
// first. Classes are re-ranked at events (arrivals and completions), as issue 3 specifies for
// SRPT: a flow whose remaining bytes dropped below its class moves up at the next one.
// Classes and thresholds: see flow_threshold.h.
#include "network/policies/flow_threshold.h"

namespace slotflow {
namespace {

class SrptPolicy : public FlowThresholdPolicy {
 public:
  explicit SrptPolicy(const NetworkPolicyConfig& config)
      : FlowThresholdPolicy(config, Rank::kRemaining) {}
};

}  // namespace

SLOTFLOW_REGISTER_NETWORK_POLICY("srpt",
                                 "per-flow shortest remaining first (pFabric/PASE), "
                                 "exponentially spaced classes re-ranked at each event",
                                 SrptPolicy);

}  // namespace slotflow
