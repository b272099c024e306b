#include "run/progress.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>

namespace slotflow {

std::string Duration(double s) {
  const auto total = static_cast<int64_t>(std::llround(s));
  return total >= 3600 ? fmt::format("{}h{:02}m", total / 3600, total % 3600 / 60)
                       : fmt::format("{}m{:02}s", total / 60, total % 60);
}

RunProgress::RunProgress(std::string what, size_t total, bool on)
    : what_(std::move(what)),
      total_(total),
      on_(on && total > 0),
      tty_(isatty(STDERR_FILENO) != 0),
      start_(std::chrono::steady_clock::now()),
      shown_(start_) {}

void RunProgress::Done() {
  std::lock_guard<std::mutex> lock(mutex_);
  ++done_;
  if (!on_) return;
  const auto now = std::chrono::steady_clock::now();
  const bool last = done_ == total_;
  // A terminal line about once a second; elsewhere a line every 5 s, and the last one only
  // when some were shown (a short batch prints nothing).
  const auto every = std::chrono::seconds(tty_ ? 1 : 5);
  if (now - shown_ < every && !(last && (tty_ || shown_ != start_))) return;
  shown_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double left = elapsed / static_cast<double>(done_) * static_cast<double>(total_ - done_);
  fmt::print(stderr, "{}{}: {}/{} runs done, {} elapsed, about {} left{}", tty_ ? "\r" : "", what_,
             done_, total_, Duration(elapsed), Duration(left), tty_ && !last ? "   " : "\n");
}

}  // namespace slotflow
