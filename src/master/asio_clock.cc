#include "master/asio_clock.h"

#include <algorithm>
#include <utility>

#include "common/wall_duration.h"

namespace slotflow {

AsioClock::AsioClock(asio::io_context& io, std::function<void()> settle)
    : io_(io), settle_(std::move(settle)) {}

void AsioClock::Start(WallClock::time_point start) {
  start_ = start;
  started_ = true;
}

void AsioClock::Advance() {
  if (started_) {
    now_ = std::max(now_, std::chrono::duration<double>(WallClock::now() - start_).count());
  }
}

void AsioClock::AtEach(std::vector<Seconds> times, std::function<void(int64_t)> fire) {
  std::vector<int64_t> order(times.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int64_t>(i);
  std::stable_sort(order.begin(), order.end(),
                   [&times](int64_t a, int64_t b) { return times[a] < times[b]; });
  auto timer = std::make_shared<asio::steady_timer>(io_);
  timers_.push_back(timer);
  struct Chain {
    std::vector<Seconds> times;
    std::vector<int64_t> order;
    std::function<void(int64_t)> fire;
    size_t next = 0;
  };
  auto chain = std::make_shared<Chain>(Chain{std::move(times), std::move(order), std::move(fire)});
  auto arm = std::make_shared<std::function<void()>>();
  *arm = [this, timer, chain, weak = std::weak_ptr<std::function<void()>>(arm)] {
    if (chain->next >= chain->order.size()) return;
    timer->expires_at(start_ + WallDuration(chain->times[chain->order[chain->next]]));
    timer->async_wait([this, chain, weak](std::error_code e) {
      if (e || stopped_) return;
      Advance();
      while (chain->next < chain->order.size() &&
             chain->times[chain->order[chain->next]] <= now_) {
        chain->fire(chain->order[chain->next++]);
      }
      settle_();
      if (auto again = weak.lock()) (*again)();
    });
  };
  chains_.push_back(arm);
  (*arm)();
}

void AsioClock::Every(Seconds origin, Seconds interval, std::function<void()> fire,
                      std::function<bool()> more) {
  auto timer = std::make_shared<asio::steady_timer>(io_);
  timers_.push_back(timer);
  auto arm = std::make_shared<std::function<void(int64_t)>>();
  *arm = [this, timer, origin, interval, fire = std::move(fire), more = std::move(more),
          weak = std::weak_ptr<std::function<void(int64_t)>>(arm)](int64_t k) {
    timer->expires_at(start_ + WallDuration(origin + static_cast<double>(k) * interval));
    timer->async_wait([this, k, &fire, &more, weak](std::error_code e) {
      if (e || stopped_) return;
      Advance();
      fire();
      const bool again = more();
      settle_();
      if (auto a = weak.lock(); a && again) (*a)(k + 1);
    });
  };
  chains_.push_back(arm);
  (*arm)(0);
}

void AsioClock::Stop() {
  stopped_ = true;
  for (auto& t : timers_) t->cancel();
}

}  // namespace slotflow
