// The checking mode's checks fail when what they guard is broken (sim/invariants.h). A fake
// view stands in for a network that misbehaves; a real run passes them (the Check.* ctests).
#include "sim/invariants.h"

#include <gtest/gtest.h>

#include <optional>

#include <stdexcept>
#include <vector>

#include "engine/engine.h"
#include "network/network.h"
#include "scenario.h"
#include "sim/lifecycle.h"

namespace slotflow::testing {
namespace {

// One link of capacity 1 with a chosen load, and one finished flow of 2 bytes over it.
class FakeView : public FlowView {
 public:
  FakeView(BytesPerSecond load, Seconds flow_time)
      : FlowView(records_, coflows_, active_, finished_), load_(load) {
    records_.push_back(
        FlowRecord{FlowSpec{.src = ServerId{0}, .dst = ServerId{1}, .size = 2}, 0, flow_time});
  }
  Seconds now() const override { return 5; }
  bool Active(FlowId) const override { return false; }
  Bytes Remaining(FlowId) const override { return 0; }
  BytesPerSecond Rate(FlowId) const override { return 0; }
  FlowClass Class(FlowId) const override { return FlowClass{0}; }
  std::span<const LinkId> Links(FlowId) const override { return links_; }
  int IncomingFlows(ServerId) const override { return 0; }
  int OutgoingFlows(ServerId) const override { return 0; }
  SlotMode slot_mode() const override { return SlotMode::kSufficient; }
  std::optional<FlowClass> ExpectedClass(const FlowSpec&) const override { return std::nullopt; }
  int LinkCount() const override { return 1; }
  BytesPerSecond LinkCapacity(LinkId) const override { return 1; }
  BytesPerSecond LinkLoad(LinkId) const override { return load_; }
  Seconds NextCompletionIn() const override { return kForever; }
  Seconds NextMarkIn() const override { return kForever; }
  Bytes StartedNetworkBytes() const override { return 2; }

 private:
  ChunkedRecords<FlowRecord> records_;
  std::vector<Coflow> coflows_;
  std::vector<FlowId> active_, finished_;
  std::vector<LinkId> links_{LinkId{0}};
  BytesPerSecond load_;
};

TEST(Invariants, AnOverloadedLinkOrATooFastFlowIsCaught) {
  const Cluster cluster(UnitCluster(2, 1));
  Engine engine;
  Network net(cluster, NetworkPolicyRegistry::Get().Make("fair"), engine.clock());
  SimState state(cluster, net);
  TaskLifecycle life(cluster, net, engine, state);  // sets up the servers' slots
  const std::vector<FlowId> finished{FlowId{0}};
  EXPECT_NO_THROW(CheckInvariants(cluster, state, FakeView(1.0, 2.0), finished));
  EXPECT_THROW(CheckInvariants(cluster, state, FakeView(1.5, 2.0), finished), std::logic_error);
  // 2 bytes in 1 s over a link of 1 B/s: faster than possible.
  EXPECT_THROW(CheckInvariants(cluster, state, FakeView(1.0, 1.0), finished), std::logic_error);
}

}  // namespace
}  // namespace slotflow::testing
