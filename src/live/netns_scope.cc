#include "live/netns_scope.h"

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "live/command_runner.h"

namespace slotflow {

NetnsScope::NetnsScope(const std::string& name) {
  original_ = ::open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
  if (original_ < 0) {
    throw CommandError(std::string("cannot open /proc/self/ns/net: ") + std::strerror(errno));
  }
  const std::string path = "/var/run/netns/" + name;
  const int target = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (target < 0 || ::setns(target, CLONE_NEWNET) != 0) {
    const std::string why = std::strerror(errno);
    if (target >= 0) ::close(target);
    ::close(original_);
    throw CommandError("cannot enter network namespace " + name + ": " + why);
  }
  ::close(target);
}

NetnsScope::~NetnsScope() {
  // Going back to a namespace this thread came from does not fail short of a kernel bug.
  ::setns(original_, CLONE_NEWNET);
  ::close(original_);
}

}  // namespace slotflow
