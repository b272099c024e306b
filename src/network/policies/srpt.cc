// srpt — shortest remaining processing time per flow (NEAT+ §IV-A3; pFabric, Alizadeh et al.,
// SIGCOMM 2013, and PASE, Munir et al., SIGCOMM 2014): the flow with the fewest bytes left goes
// first. With limited queues a flow moves up a class the moment its remaining bytes drop below
// the threshold under its class (an exact event, like las's demotions).
// Classes and thresholds: see flow_threshold.h.
#include "network/policy_helpers/flow_threshold.h"

namespace slotflow {
SLOTFLOW_REGISTER_NETWORK_POLICY_WITH(
    "srpt",
    "per-flow shortest remaining first (pFabric/PASE), "
    "promoted the moment its bytes left cross exponentially spaced thresholds",
    "srpt", ClassSettings("8"), [](const PolicyArgs& args) {
      return std::unique_ptr<NetworkPolicy>(
          new FlowThresholdPolicy(args, FlowThresholdPolicy::Rank::kRemaining));
    });

}  // namespace slotflow
