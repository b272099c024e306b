// NetworkPolicy: decides the priority class (and optionally an explicit rate) of every flow
// (Duopoly §4.2, NEAT+ §IV). The fluid solver turns classes into rates: strict priority across
// classes, max-min within one. A policy reads a FlowView and writes only through a ClassSink.
// Policy API (src/api/): stable, see docs/plugins.md#the-policy-api.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "api/flow_view.h"
#include "api/neat_policy.h"
#include "api/registry.h"
#include "api/settings.h"
#include "api/units.h"

namespace slotflow {

// Priority classes: a positive count, or kUnlimited (every distinct key its own class).
inline constexpr int kUnlimitedQueues = 0;

// The settings of policies that bucket a key into priority classes by exponentially spaced
// thresholds (Duopoly §4.2): `queues` (default `default_queues`), `first_threshold` and
// `multiplier`.
std::vector<SettingSpec> ClassSettings(std::string_view default_queues);
// Just `queues`, for policies that rank without thresholds.
SettingSpec QueuesSetting(std::string_view default_queues);

// Each call gets the network as a read-only FlowView and a ClassSink to write classes, explicit
// rates and marks through.
class NetworkPolicy {
 public:
  virtual ~NetworkPolicy() = default;

  // New flows, before they get a rate: set their class (default 0) or an explicit rate.
  virtual void OnFlowsStarted(const FlowView& /*net*/, ClassSink& /*out*/,
                              std::span<const FlowId> /*flows*/) {}
  virtual void OnFlowsFinished(const FlowView& /*net*/, ClassSink& /*out*/,
                               std::span<const FlowId> /*flows*/) {}
  // Called whenever something changed, just before rates are solved: re-rank here.
  virtual void BeforeSolve(const FlowView& /*net*/, ClassSink& /*out*/) {}
  // Called after rates are solved: the absolute time at which classes must be revisited (a
  // threshold crossing); kForever when they never change on their own.
  virtual Seconds NextReclassifyTime(const FlowView& /*net*/) { return kForever; }
  // The task scheduler's mode signal (Duopoly §4); most policies ignore it.
  virtual void OnSlotMode(const FlowView& /*net*/, ClassSink& /*out*/, SlotMode /*mode*/) {}
  // The class a flow with `spec` gets from this policy now (the one it has, if a flow of its
  // unit already runs; the one a new flow would get, otherwise), for a task scheduler that asks
  // where a task's flows would rank (Duopoly Alg. 2 l. 16). nullopt when the class depends on
  // more than the flow's description (by default). Flows of one coflow and one macroflow (both
  // set) get one class, and the answer holds while time stands still, no flow starts or ends
  // and the slot mode stays, so a caller may ask once for many flows or decisions.
  virtual std::optional<FlowClass> ExpectedClass(const FlowView& /*net*/,
                                                 const FlowSpec& /*spec*/) const {
    return std::nullopt;
  }
};

// What every network policy states on its registry entry besides its settings.
struct NetworkPolicyTraits {
  // How NEAT+ predicts completion times under this policy: the modelled policy its rule is
  // closest to. NEAT's `predictor = auto` takes it from the entry of the policy in force.
  NeatPolicy neat_predictor = NeatPolicy::kTcf;
};
// The traits of network policy `policy` whose predictor is named `neat_predictor` (as
// NeatPolicyName spells it). std::logic_error naming the policy when the name is empty or
// unknown: a registration without its predictor stops the program at start-up.
NetworkPolicyTraits DeclareNetworkPolicy(std::string_view policy, std::string_view neat_predictor);

using NetworkPolicyRegistry = Registry<NetworkPolicy, NetworkPolicyTraits>;
SLOTFLOW_DECLARE_REGISTRY(NetworkPolicyRegistry);

// Maps a non-negative key to one of `queues` classes by exponentially spaced thresholds:
// class 0 holds keys below T, class k keys in [T·E^(k−1), T·E^k), the last class the rest.
// queues == kUnlimitedQueues → the key itself as a class (ClassKeys' size key, class_key.h): every
// distinct key its own class.
FlowClass ThresholdClass(double key, int queues, Bytes first_threshold, double multiplier);
// The threshold at which a key moves to the next class (kForever if in the last class).
double NextThreshold(double key, int queues, Bytes first_threshold, double multiplier);

}  // namespace slotflow

// Registers `type` (constructed from a PolicyArgs) under `name` with NEAT+'s predictor for it
// (`neat_predictor`, a name such as "fair", "tcf", "coflow-las": see NetworkPolicyTraits) and
// its declared settings.
#define SLOTFLOW_REGISTER_NETWORK_POLICY(name, description, neat_predictor, settings, type)  \
  SLOTFLOW_REGISTER_TYPE(::slotflow::NetworkPolicyRegistry, ::slotflow::NetworkPolicy, name, \
                         description, settings, type,                                        \
                         ::slotflow::DeclareNetworkPolicy(name, neat_predictor))
// The same with any factory: PolicyArgs → std::unique_ptr<NetworkPolicy>.
#define SLOTFLOW_REGISTER_NETWORK_POLICY_WITH(name, description, neat_predictor, settings,        \
                                              factory)                                            \
  SLOTFLOW_REGISTER_WITH(::slotflow::NetworkPolicyRegistry, name, description, settings, factory, \
                         ::slotflow::DeclareNetworkPolicy(name, neat_predictor))
