// Progress of many runs on stderr (compare, sweep): the runs done, the time elapsed and an
// estimate of the time left; a line rewritten in place about once a second on a terminal, a
// new line every few seconds otherwise (a log file, a batch job), nothing when switched off.
#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>

namespace slotflow {

class RunProgress {
 public:
  // `what` starts each line ("sweep", "compare").
  RunProgress(std::string what, size_t total, bool on);
  // One more run finished; thread-safe.
  void Done();

 private:
  std::string what_;
  size_t total_, done_ = 0;
  bool on_, tty_;
  std::mutex mutex_;
  std::chrono::steady_clock::time_point start_, shown_;
};

// "1m05s", "2h03m".
std::string Duration(double seconds);

}  // namespace slotflow
