// aalo — Aalo's D-CLAS (Chowdhury & Stoica, SIGCOMM'15 §4; SPEC §7): coflows sit in K queues
// by the bytes they have already sent — queue k holds coflows with sent in [Q1·E^(k−1), Q1·E^k)
// (queue 0 below Q1) — with strict priority across queues and FIFO by coflow arrival inside a
// queue. Defaults K = 10, Q1 = 10 MiB, E = 10 (config queues, first_threshold, multiplier).
// A coflow is demoted the moment its sent bytes cross a threshold: NextReclassifyTime returns
// that exact instant at the current rates, never a polling step. "Unlimited" queues (the
// comparison system of Duopoly §6) means thresholds keep growing with no last queue (K = 64).
// A flow without a coflow (a map input read) is its own coflow.
#include <cmath>

#include "network/network_policy.h"
#include "network/policies/coflow_tracker.h"

namespace slotflow {
namespace {

class AaloPolicy : public NetworkPolicy {
 public:
  explicit AaloPolicy(const NetworkPolicyConfig& config)
      : config_(config),
        queues_(config.Queues(10) == NetworkPolicyConfig::kUnlimited ? 64 : config.Queues(10)) {}

  void OnFlowsStarted(Network& net, std::span<const FlowId> flows) override {
    tracker_.Started(net, flows);
    for (FlowId f : flows) {
      const auto k = CoflowTracker::KeyOf(net, f);
      auto [it, added] = queue_of_.try_emplace(k, 0);
      if (added) it->second = Queue(tracker_.Sent(net, k));
      net.SetClass(f, ClassOf(net, k, it->second));
    }
  }

  void OnFlowsFinished(Network& net, std::span<const FlowId> flows) override {
    emptied_.clear();
    tracker_.Finished(net, flows, emptied_);
    // A coflow whose flows all ended leaves the queues; if more of its flows start later (the
    // rest of a stage placed later), its queue is recomputed from the bytes it has sent.
    for (auto k : emptied_) queue_of_.erase(k);
  }

  // Demote every coflow whose sent bytes reached its queue's upper threshold.
  void BeforeSolve(Network& net) override {
    for (auto& [k, queue] : queue_of_) {
      const auto& entry = tracker_.at(k);
      if (entry.active.empty()) continue;
      const int q = Queue(tracker_.Sent(net, k));
      if (q == queue) continue;
      queue = q;
      for (FlowId f : entry.active) net.SetClass(f, ClassOf(net, k, q));
    }
  }

  Seconds NextReclassifyTime(const Network& net) override {
    Seconds next = kForever;
    for (const auto& [k, queue] : queue_of_) {
      const auto& entry = tracker_.at(k);
      if (entry.active.empty() || queue >= queues_ - 1) continue;
      const BytesPerSecond rate = tracker_.Rate(net, k);
      if (rate <= 0) continue;
      const Bytes to_go = Threshold(queue) - tracker_.Sent(net, k);
      next = std::min(next, net.now() + std::max(0.0, to_go) / rate);
    }
    return next;
  }

 private:
  // Upper bound of queue q: Q1·E^q.
  double Threshold(int q) const {
    return config_.first_threshold * std::pow(config_.multiplier, q);
  }

  int Queue(Bytes sent) const {
    // A relative epsilon so that a coflow reaching the threshold at its scheduled event
    // (within rounding) is demoted there and then.
    int q = 0;
    while (q < queues_ - 1 && sent >= Threshold(q) * (1 - 1e-9)) ++q;
    return q;
  }

  // Queue first, then arrival (µs) for FIFO inside the queue.
  FlowClass ClassOf(const Network& net, CoflowTracker::Key k, int queue) {
    const Seconds arrival =
        k >= 0 ? net.coflow(static_cast<CoflowId>(k)).arrival : tracker_.at(k).first_start;
    return (static_cast<FlowClass>(queue) << 40) +
           static_cast<FlowClass>(std::floor(arrival * 1e6));
  }

  NetworkPolicyConfig config_;
  int queues_;
  CoflowTracker tracker_;
  std::unordered_map<CoflowTracker::Key, int> queue_of_;
  std::vector<CoflowTracker::Key> emptied_;
};

}  // namespace

SLOTFLOW_REGISTER_NETWORK_POLICY("aalo", "Aalo D-CLAS: coflow queues by bytes sent, FIFO inside",
                                 AaloPolicy);

}  // namespace slotflow
