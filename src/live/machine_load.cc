#include "live/machine_load.h"

#include <fstream>

namespace slotflow {

double LoadAverage() {
  std::ifstream in("/proc/loadavg");
  double one_minute = -1;
  if (!(in >> one_minute)) return -1;
  return one_minute;
}

}  // namespace slotflow
