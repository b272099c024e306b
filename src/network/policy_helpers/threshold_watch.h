// ThresholdWatch: when will the first of many watched quantities (bytes sent so far, summed over
// several flows) reach its mark? Aalo demotes a coflow when the bytes sent by all its flows
// reach a threshold (Aalo's D-CLAS) and needs the exact crossing time at the current rates after
// every solve. (A single flow's mark is cheaper in the solver itself: FluidSolver::SetMark,
// which las and srpt use.)
//
// Scanning every watched item after every solve costs O(active flows) per event, which on the
// Facebook trace (up to ~160,000 active flows, 10^5+ events) costs more than the whole fair-share
// run. Instead each item carries a lower bound on its crossing time, lb = t + gap / max_rate,
// where gap = mark − sent at the time t it was last examined and max_rate bounds its rate at any
// time (its path's smallest link capacity, say): bytes sent grow by at most max_rate per second,
// so the item cannot cross before lb, whatever the rates do. After a solve NextTime examines
// only the items whose lb falls before min(horizon, best crossing found so far), where the
// horizon is the next moment the caller is sure to ask again (the next flow completion: every
// completion triggers a solve). Items far from their marks are never looked at.
//
// Ids are small non-negative integers chosen by the caller (flow ids, or dense coflow indices);
// per-id state lives in vectors indexed by id.
#pragma once

#include <cstdint>
#include <vector>

#include "api/units.h"

namespace slotflow {

class ThresholdWatch {
 public:
  // What the caller reports about an item when asked: bytes sent so far, the current rate, and
  // a bound on the rate it can ever have until the caller calls Watch again (> 0, or 0 when it
  // cannot send at all until then).
  struct Progress {
    Bytes sent = 0;
    BytesPerSecond rate = 0;
    BytesPerSecond max_rate = 0;
  };

  // Watches `id` until its sent bytes reach `mark`, replacing any earlier mark. Sent bytes within
  // `tolerance` below the mark count as reached (they come from the fluid up to rounding).
  // `earliest` = a time before which it surely cannot reach the mark (now, when unknown).
  void Watch(int32_t id, Bytes mark, Bytes tolerance, Seconds earliest);
  // Re-examines `id` at the next NextTime (call when its max_rate grew, e.g. a coflow gained
  // flows). No effect on an unwatched id.
  void Touch(int32_t id, Seconds now);
  void Forget(int32_t id);
  bool Watched(int32_t id) const {
    return id < static_cast<int32_t>(state_.size()) && state_[id].watched;
  }
  Bytes Mark(int32_t id) const { return state_[id].mark; }

  // The earliest time at which a watched item reaches its mark at the current rates, if that is
  // before `horizon`; otherwise any value >= horizon (kForever). `probe(id)` returns Progress.
  template <class Probe>
  Seconds NextTime(Seconds now, Seconds horizon, Probe&& probe);
  // Appends to `reached` the ids whose mark has been reached by `now` and stops watching them.
  template <class Probe>
  void TakeReached(Seconds now, Probe&& probe, std::vector<int32_t>& reached);

  // Items examined so far (for tests and profiling).
  int64_t examined() const { return examined_; }

 private:
  struct State {
    Bytes mark = 0;
    Bytes tolerance = 0;
    uint32_t version = 0;
    bool watched = false;
  };
  struct Entry {
    Seconds lb;
    int32_t id;
    uint32_t version;
    bool operator>(const Entry& o) const { return lb > o.lb; }
  };

  bool Current(const Entry& e) const {
    const State& s = state_[e.id];
    return s.watched && s.version == e.version;
  }
  // Time at which `p` reaches the mark (now when already there, kForever when not moving).
  static Seconds CrossingTime(Seconds now, Bytes gap, Bytes tolerance, BytesPerSecond rate);
  // Earliest time the gap can shrink to `tolerance` when sending at most `max_rate`.
  static Seconds LowerBound(Seconds now, Bytes gap, Bytes tolerance, BytesPerSecond max_rate);
  void Push(Entry e);
  Entry Pop();
  void PushDeferred();

  std::vector<State> state_;
  std::vector<Entry> heap_;  // min-heap by lb; stale entries are dropped when popped
  std::vector<Entry> deferred_;
  int64_t examined_ = 0;
};

template <class Probe>
Seconds ThresholdWatch::NextTime(Seconds now, Seconds horizon, Probe&& probe) {
  Seconds best = kForever;
  while (!heap_.empty() && heap_.front().lb < std::min(horizon, best)) {
    const Entry e = Pop();
    if (!Current(e)) continue;
    ++examined_;
    const State& s = state_[e.id];
    const Progress p = probe(e.id);
    const Bytes gap = s.mark - p.sent;
    const Seconds t = CrossingTime(now, gap, s.tolerance, p.rate);
    if (t < best) best = t;
    // Re-inserted after the loop: its new bound may still be below `best`.
    deferred_.push_back(Entry{LowerBound(now, gap, s.tolerance, p.max_rate), e.id, e.version});
  }
  PushDeferred();
  return best;
}

template <class Probe>
void ThresholdWatch::TakeReached(Seconds now, Probe&& probe, std::vector<int32_t>& reached) {
  while (!heap_.empty() && heap_.front().lb <= now) {
    const Entry e = Pop();
    if (!Current(e)) continue;
    ++examined_;
    State& s = state_[e.id];
    const Progress p = probe(e.id);
    const Bytes gap = s.mark - p.sent;
    if (CrossingTime(now, gap, s.tolerance, p.rate) <= now) {
      s.watched = false;
      reached.push_back(e.id);
    } else {
      deferred_.push_back(Entry{LowerBound(now, gap, s.tolerance, p.max_rate), e.id, e.version});
    }
  }
  PushDeferred();
}

}  // namespace slotflow
