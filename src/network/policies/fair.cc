// fair — per-flow fair sharing (DCTCP-like, NEAT+ §I): every flow in one class, so the solver's
// max-min allocation is the whole policy. The baseline the coflow papers compare against.
#include "api/network_policy.h"

namespace slotflow {
namespace {

class FairPolicy : public NetworkPolicy {
 public:
  explicit FairPolicy(const PolicyArgs&) {}
};

}  // namespace

SLOTFLOW_REGISTER_NETWORK_POLICY("fair", "per-flow max-min fair sharing (DCTCP)", "fair", {},
                                 FairPolicy);

}  // namespace slotflow
