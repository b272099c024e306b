// aalo — Aalo's D-CLAS (Chowdhury & Stoica, SIGCOMM'15 §4; in Duopoly §6): coflows sit in K queues
// by the bytes they have already sent — queue k holds coflows with sent in [Q1·E^(k−1), Q1·E^k)
// (queue 0 below Q1) — with strict priority across queues and FIFO by coflow arrival inside a
// queue. Defaults K = 10, Q1 = 10 MiB, E = 10 (settings queues, first_threshold, multiplier).
// A coflow is demoted the moment its sent bytes cross a threshold: NextReclassifyTime returns
// that exact instant at the current rates, never a polling step. "Unlimited" queues (the
// comparison system of Duopoly §6) means thresholds keep growing with no last queue (K = 64).
// A flow without a coflow (a map input read) is its own coflow.
// Crossings are found with a ThresholdWatch: a coflow's sent bytes grow by at most
// min(active flows × fastest link, all links' capacity) per second, so after each solve only the
// coflows that could reach their threshold before the next flow completion are summed up; the
// others are not read (summing every coflow at every event was a third of the run time).
#include <algorithm>
#include <cmath>

#include "api/class_key.h"
#include "api/network_policy.h"
#include "api/tolerance.h"
#include "network/policy_helpers/coflow_tracker.h"
#include "network/policy_helpers/threshold_watch.h"

namespace slotflow {
namespace {

// "Unlimited" queues: enough that no coflow reaches the last one (Q1·E^63 with E ≥ 2 exceeds
// any byte count the trace can hold).
constexpr int kUnlimitedAaloQueues = 64;

class AaloPolicy : public NetworkPolicy {
 public:
  explicit AaloPolicy(const PolicyArgs& args)
      : first_threshold_(args.settings.Number("first_threshold")),
        multiplier_(args.settings.Number("multiplier")),
        queues_(args.settings.Queues("queues") == kUnlimitedQueues
                    ? kUnlimitedAaloQueues
                    : args.settings.Queues("queues")),
        keys_(queues_, ClassKeys::Key::kTime) {}

  void OnFlowsStarted(const FlowView& net, ClassSink& out, std::span<const FlowId> flows) override {
    if (total_capacity_ == 0) {
      for (LinkId l{0}; l < net.LinkCount(); ++l) {
        max_capacity_ = std::max(max_capacity_, net.LinkCapacity(l));
        total_capacity_ += net.LinkCapacity(l);
      }
    }
    tracker_.Started(net, flows);
    for (FlowId f : flows) {
      const auto k = CoflowTracker::KeyOf(net, f);
      auto [it, added] = queue_of_.try_emplace(k, 0);
      if (added) {
        it->second = Queue(tracker_.Sent(net, k));
        Watch(net, k, it->second);
      } else {
        watch_.Touch(WatchId(k), net.now());  // more flows: a higher bound on its rate
      }
      out.SetClass(f, ClassOf(net, k, it->second));
    }
  }

  void OnFlowsFinished(const FlowView& net, ClassSink& /*out*/,
                       std::span<const FlowId> flows) override {
    emptied_.clear();
    tracker_.Finished(net, flows, emptied_);
    // A coflow whose flows all ended leaves the queues; if more of its flows start later (the
    // rest of a stage placed later), its queue is recomputed from the bytes it has sent.
    for (auto k : emptied_) {
      queue_of_.erase(k);
      watch_.Forget(WatchId(k));
    }
  }

  // Demote every coflow whose sent bytes reached its queue's upper threshold.
  void BeforeSolve(const FlowView& net, ClassSink& out) override {
    reached_.clear();
    watch_.TakeReached(net.now(), Progress{this, net}, reached_);
    for (int32_t id : reached_) {
      const CoflowTracker::Key k = KeyOfWatchId(id);
      int& queue = queue_of_.at(k);
      // At least one queue down: the watch says the threshold is reached (within rounding).
      const Bytes sent = tracker_.Sent(net, k);
      queue = std::max(queue + 1, Queue(sent));
      const Why why = Why().Add("rule", "demotion").Add("queue", queue).Add("sent_bytes", sent);
      for (FlowId f : tracker_.at(k).active) out.SetClass(f, ClassOf(net, k, queue), why);
      Watch(net, k, queue);
    }
  }

  // The next flow completion triggers a solve and another call, so crossings after it need not
  // be found now.
  Seconds NextReclassifyTime(const FlowView& net) override {
    return watch_.NextTime(net.now(), net.now() + net.NextCompletionIn(), Progress{this, net});
  }

 private:
  // A coflow's bytes sent, rate and a bound on its rate, for the watch.
  struct Progress {
    AaloPolicy* self;
    const FlowView& net;
    ThresholdWatch::Progress operator()(int32_t id) const {
      const CoflowTracker::Entry& e = self->tracker_.at(KeyOfWatchId(id));
      ThresholdWatch::Progress p;
      p.sent = e.finished_bytes;
      for (FlowId f : e.active) {
        p.sent += net.Sent(f);
        p.rate += net.Rate(f);
      }
      p.max_rate = std::min(static_cast<double>(e.active.size()) * self->max_capacity_,
                            self->total_capacity_);
      return p;
    }
  };

  // Dense watch ids: coflow c → 2c, a flow f without a coflow → 2f + 1.
  static int32_t WatchId(CoflowTracker::Key k) {
    return static_cast<int32_t>(k >= 0 ? 2 * k : 2 * (-k - 1) + 1);
  }
  static CoflowTracker::Key KeyOfWatchId(int32_t id) {
    return id % 2 == 0 ? id / 2 : -(static_cast<CoflowTracker::Key>(id / 2) + 1);
  }

  // Watches the coflow until it reaches the end of `queue` (the last queue has none).
  void Watch(const FlowView& net, CoflowTracker::Key k, int queue) {
    if (queue >= queues_ - 1) return;
    const double threshold = Threshold(queue);
    watch_.Watch(WatchId(k), threshold, kRelTolerance * threshold, net.now());
  }

  // Upper bound of queue q: Q1·E^q.
  double Threshold(int q) const { return first_threshold_ * std::pow(multiplier_, q); }

  int Queue(Bytes sent) const {
    // A relative epsilon so that a coflow reaching the threshold at its scheduled event
    // (within rounding) is demoted there and then.
    int q = 0;
    while (q < queues_ - 1 && sent >= Threshold(q) * (1 - kRelTolerance)) ++q;
    return q;
  }

  // Queue first, then arrival for FIFO inside the queue.
  FlowClass ClassOf(const FlowView& net, CoflowTracker::Key k, int queue) {
    const Seconds arrival =
        k >= 0 ? net.coflow(CoflowTracker::CoflowOfKey(k)).arrival : tracker_.at(k).first_start;
    return keys_.Time(queue, arrival);
  }

  Bytes first_threshold_;
  double multiplier_;
  int queues_;
  ClassKeys keys_;  // by queue, then arrival
  CoflowTracker tracker_;
  std::unordered_map<CoflowTracker::Key, int> queue_of_;
  std::vector<CoflowTracker::Key> emptied_;
  ThresholdWatch watch_;
  std::vector<int32_t> reached_;
  BytesPerSecond max_capacity_ = 0, total_capacity_ = 0;
};

}  // namespace

// NEAT+ predicts it as coflow LAS (ours: D-CLAS is coflow LAS with queues).
SLOTFLOW_REGISTER_NETWORK_POLICY("aalo", "Aalo D-CLAS: coflow queues by bytes sent, FIFO inside",
                                 "coflow-las", ClassSettings("10"), AaloPolicy);

}  // namespace slotflow
