// How a front end names the values it was given, for its errors: the command line as flags
// ("--out"), Python as keywords ("out"). The run layer asks it rather than naming either.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace slotflow {

struct NamedAs {
  // The name of the value of `key` ("out", "agent_timeout"); unset: the key itself.
  std::function<std::string(std::string_view key)> name_of;

  std::string operator()(std::string_view key) const {
    return name_of ? name_of(key) : std::string(key);
  }
};

}  // namespace slotflow
