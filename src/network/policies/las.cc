// las — least attained service per flow (NEAT+ §IV-A2; L2DCT, Munir et al., "Minimizing flow
// completion times in data centers", INFOCOM 2013): the flow that has sent the fewest bytes so
// far goes first; demoted the moment its bytes sent reach the next threshold (an exact event).
// Classes and thresholds: see flow_threshold.h.
#include "network/policy_helpers/flow_threshold.h"

namespace slotflow {
SLOTFLOW_REGISTER_NETWORK_POLICY_WITH("las",
                                      "per-flow least attained service (L2DCT): fewest bytes sent "
                                      "first, demoted at exponentially spaced thresholds",
                                      "las", ClassSettings("8"), [](const PolicyArgs& args) {
                                        return std::unique_ptr<NetworkPolicy>(
                                            new FlowThresholdPolicy(
                                                args, FlowThresholdPolicy::Rank::kSent));
                                      });

}  // namespace slotflow
