#include "network/policy_helpers/threshold_watch.h"

#include <algorithm>
#include <functional>

namespace slotflow {

void ThresholdWatch::Watch(int32_t id, Bytes mark, Bytes tolerance, Seconds earliest) {
  if (id >= static_cast<int32_t>(state_.size())) state_.resize(id + 1);
  State& s = state_[id];
  s.mark = mark;
  s.tolerance = tolerance;
  s.watched = true;
  ++s.version;
  Push(Entry{earliest, id, s.version});
}

void ThresholdWatch::Touch(int32_t id, Seconds now) {
  if (!Watched(id)) return;
  State& s = state_[id];
  ++s.version;
  Push(Entry{now, id, s.version});
}

void ThresholdWatch::Forget(int32_t id) {
  if (!Watched(id)) return;
  state_[id].watched = false;
}

Seconds ThresholdWatch::CrossingTime(Seconds now, Bytes gap, Bytes tolerance, BytesPerSecond rate) {
  if (gap <= tolerance) return now;
  if (rate <= 0) return kForever;
  // A gap too small for the clock to resolve is reached now, so time always moves forward.
  return std::max(now, now + gap / rate);
}

Seconds ThresholdWatch::LowerBound(Seconds now, Bytes gap, Bytes tolerance,
                                   BytesPerSecond max_rate) {
  if (gap <= tolerance) return now;
  if (max_rate <= 0) return kForever;
  return now + (gap - tolerance) / max_rate;
}

void ThresholdWatch::Push(Entry e) {
  heap_.push_back(e);
  std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
}

ThresholdWatch::Entry ThresholdWatch::Pop() {
  std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
  const Entry e = heap_.back();
  heap_.pop_back();
  return e;
}

void ThresholdWatch::PushDeferred() {
  for (const Entry& e : deferred_) Push(e);
  deferred_.clear();
}

}  // namespace slotflow
