#include "master/asio_clock.h"

#include <algorithm>
#include <utility>

#include "common/wall_duration.h"

namespace slotflow {

AsioClock::AsioClock(asio::io_context& io, std::function<void()> settle)
    : io_(io), timer_(io), settle_(std::move(settle)) {}

void AsioClock::Start(WallClock::time_point start) {
  start_ = start;
  started_ = true;
  Arm();
}

void AsioClock::Advance() {
  if (started_) {
    now_ = std::max(now_, std::chrono::duration<double>(WallClock::now() - start_).count());
  }
}

void AsioClock::AtEach(std::vector<Seconds> times, std::function<void(int64_t)> fire) {
  const auto s = static_cast<int32_t>(series_.size());
  series_.emplace_back().fire = std::move(fire);
  for (size_t i = 0; i < times.size(); ++i) Set(times[i], s, static_cast<int64_t>(i));
}

void AsioClock::Every(Seconds origin, Seconds interval, std::function<void()> fire,
                      std::function<bool()> more) {
  const auto s = static_cast<int32_t>(series_.size());
  Series& every = series_.emplace_back();
  every.beat = std::move(fire);
  every.more = std::move(more);
  every.origin = origin;
  every.interval = interval;
  Set(origin, s, 0);
}

void AsioClock::Set(Seconds time, int32_t series, int64_t index) {
  queue_.push(Call{time, next_seq_++, series, index});
  Arm();
}

void AsioClock::Arm() {
  if (!started_ || stopped_ || queue_.empty()) return;
  const Seconds first = queue_.top().time;
  if (armed_ && armed_for_ == first) return;
  armed_ = true;
  armed_for_ = first;
  // A wait set before is cancelled (its handler sees the error); one already due may still
  // come, and finds its calls run or not yet due.
  timer_.expires_at(start_ + WallDuration(first));
  timer_.async_wait([this](std::error_code e) {
    if (e || stopped_) return;
    armed_ = false;
    Fire();
  });
}

void AsioClock::Fire() {
  Advance();
  while (!stopped_ && !queue_.empty() && queue_.top().time <= now_) {
    const Seconds t = queue_.top().time;
    // Every call due at t, in the order set, those the calls set for t included.
    while (!stopped_ && !queue_.empty() && queue_.top().time <= t) {
      const Call call = queue_.top();
      queue_.pop();
      const Series& s = series_[call.series];
      if (s.fire) {
        s.fire(call.index);
      } else {
        s.beat();
        if (s.more()) {
          Set(s.origin + static_cast<double>(call.index + 1) * s.interval, call.series,
              call.index + 1);
        }
      }
    }
    if (!stopped_) settle_();
  }
  Arm();
}

void AsioClock::Stop() {
  stopped_ = true;
  armed_ = false;
  timer_.cancel();
}

}  // namespace slotflow
