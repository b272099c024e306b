// How busy this machine is, recorded beside every measurement made on the testbed: its packets
// are forwarded on the same cores as everything else.
#pragma once

namespace slotflow {

// The 1-minute load average (/proc/loadavg); -1 when it cannot be read.
double LoadAverage();

}  // namespace slotflow
