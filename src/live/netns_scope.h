// NetnsScope: the calling thread in a named network namespace (/var/run/netns/NAME, as `ip
// netns add` makes them) for as long as the scope lasts. Sockets keep the namespace they were
// made in, so a listener made inside the scope stays reachable there after it ends: this is how
// live mode's master listens on host 0 without leaving the root namespace.
#pragma once

#include <string>

namespace slotflow {

class NetnsScope {
 public:
  // Enters namespace `name`. CommandError if it is not there or cannot be entered.
  explicit NetnsScope(const std::string& name);
  // Returns to the namespace the thread was in.
  ~NetnsScope();
  NetnsScope(const NetnsScope&) = delete;
  NetnsScope& operator=(const NetnsScope&) = delete;

 private:
  int original_ = -1;
};

}  // namespace slotflow
