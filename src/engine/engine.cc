#include "engine/engine.h"

#include <algorithm>
#include <stdexcept>

namespace slotflow {
namespace {
// A periodic event's subject packs its index among the periodic series and its beat number.
constexpr int kBeatBits = 40;
constexpr int64_t kBeatMask = (int64_t{1} << kBeatBits) - 1;
}  // namespace

int32_t Engine::AddKind(Handler handler) {
  handlers_.push_back(std::move(handler));
  return static_cast<int32_t>(handlers_.size() - 1);
}

void Engine::Schedule(Seconds time, int32_t kind, int64_t subject) {
  queue_.Schedule(time, kind, subject);
  ++one_shot_pending_;
}

void Engine::SchedulePeriodic(Seconds origin, Seconds interval, int32_t kind,
                              KeepGoing keep_going) {
  if (periodic_kind_ < 0) periodic_kind_ = AddKind(nullptr);
  periodic_.push_back(Periodic{origin, interval, kind, std::move(keep_going)});
  const auto index = static_cast<int64_t>(periodic_.size() - 1);
  queue_.Schedule(origin, periodic_kind_, index << kBeatBits);
}

void Engine::Dispatch(const Event& e) {
  if (e.kind != periodic_kind_) {
    handlers_.at(static_cast<size_t>(e.kind))(e.subject);
    return;
  }
  const Periodic& p = periodic_[static_cast<size_t>(e.subject >> kBeatBits)];
  const int64_t beat = e.subject & kBeatMask;
  handlers_.at(static_cast<size_t>(p.kind))(beat);
  if (p.keep_going()) {
    queue_.Schedule(p.origin + static_cast<double>(beat + 1) * p.interval, periodic_kind_,
                    e.subject + 1);
  }
}

bool Engine::Run(const ContinuousProcess& process, const std::function<void()>& settle) {
  int64_t idle_steps = 0;
  for (;;) {
    const Seconds process_next = process.next_event_time();
    const Seconds t = std::min(queue_.NextTime(), process_next);
    if (t == kForever) return true;
    if (t > kMaxSimulatedTime) return false;
    // Only periodic events are due before the limit (the queue holds no other, the process's
    // next event lies beyond it): count such steps until one schedules something.
    if (one_shot_pending_ == 0 && process_next > kMaxSimulatedTime) {
      if (++idle_steps > kMaxIdleSteps) return true;
    } else {
      idle_steps = 0;
    }
    clock_.now_ = std::max(clock_.now_, t);
    process.advance_to(t);
    ++steps_;
    while (queue_.NextTime() <= t) {
      const Event e = queue_.Pop();
      if (e.kind != periodic_kind_) --one_shot_pending_;
      Dispatch(e);
    }
    settle();
  }
}

}  // namespace slotflow
