// `slotflow testbed calibrate`: what live mode's testbed costs beyond the fluid model, measured
// by running probe jobs on it (the master and agents of `slotflow live`, greedy placement, fair
// sharing, every task pinned), so that `slotflow run` can be given the testbed's values instead
// of fitting them to a result:
//   launch   empty tasks: placement to done is the task launch latency (the master's launch
//            message, the agent, its report back);
//   small    one fetch of a few KB between two hosts, and
//   bulk     one fetch of about two seconds' bytes, alone on the testbed: their difference is
//            bytes over the payload rate (payload efficiency); what the small fetch takes beyond
//            its launch and its bytes is the flow start latency (connection set-up);
//   ring     every host sends to the next at once: the share of the links' payload rate the
//            machine keeps up with every host busy;
//   capacity the same ring on a second testbed whose links run at 10 Gbit/s: what this
//            machine forwards, in all, with every host busy.
// The same formulas applied to the simulator's run of the probes give back the cluster's
// settings exactly (tests/run/calibrate_test.cc).
#pragma once

#include <string>
#include <vector>

#include "api/job.h"
#include "api/units.h"
#include "metrics/report.h"
#include "run/named_as.h"

namespace slotflow {

// The probes' sizes: `samples` launch and small probes, `bulk_samples` bulk ones; bytes derive
// from the link rate (bytes/s), so every probe takes about as long at any rate.
struct ProbePlan {
  int hosts = 2;
  BytesPerSecond rate = 12.5e6;
  int samples = 10;
  int bulk_samples = 3;
  Bytes small_bytes = 16e3;
  Seconds bulk_seconds = 2;  // a bulk fetch and a ring flow carry rate × this
  // The capacity probe's bytes per ring flow (its links are not what limits it).
  Bytes capacity_bytes = 256e6;

  Bytes BulkBytes() const { return rate * bulk_seconds; }
};

// The probes run one after another (none overlaps the next at the plan's rate): launch, small,
// bulk, ring. Needs at least 2 hosts.
Workload ProbeWorkload(const ProbePlan& plan);
// The capacity probe: one ring of plan.capacity_bytes per flow.
Workload CapacityWorkload(const ProbePlan& plan);

struct Calibration {
  Seconds task_launch_latency = 0;
  Seconds flow_start_latency = 0;
  double payload_efficiency = 1;   // as measured (may exceed 1 by noise)
  double ring_share = 1;           // all hosts at once: payload rate / (rate × efficiency)
  BytesPerSecond forwarding = -1;  // capacity probe: payload bytes/s in all; -1 if not run
  std::vector<double> launch_s, small_s, bulk_s;  // each probe's placement to done
  Seconds ring_s = 0;                             // the ring's slowest flow, placement to done
};

// The formulas above, from the run of ProbeWorkload (tasks.csv's rows). InputError when a probe
// is missing or took no time.
Calibration EstimateCalibration(const ProbePlan& plan, const std::vector<TaskResult>& tasks);
// The forwarding capacity from the run of CapacityWorkload, given the launch and flow start
// latencies measured before.
BytesPerSecond EstimateForwarding(const ProbePlan& plan, const Calibration& c,
                                  const std::vector<TaskResult>& tasks);

// Runs the probes on this machine's testbed of `hosts` hosts at `rate` (brought up under
// `prefix` if it is down, and taken down again), then, unless `capacity` is false, the capacity
// probe on a second testbed at 10 Gbit/s under `prefix` + "x". Needs root. InputError for bad
// settings or a failed run; CommandError when `ip` or `tc` fails.
struct CalibrateSettings {
  int hosts = 4;
  std::string rate = "100mbit";
  std::string prefix = "sf";
  int samples = 10;
  bool capacity = true;
  Seconds deadline = 120;     // for each run
  std::string agent_program;  // the slotflow executable the agents run; empty: this program
  NamedAs named;              // how the front end names hosts, samples, testbed_prefix
};
struct CalibrateReport {
  ProbePlan plan;
  Calibration calibration;
  double load_start = -1, load_end = -1;  // the machine's 1-minute load average
};
CalibrateReport CalibrateTestbed(const CalibrateSettings& settings);

// A config file (`slotflow run --config FILE`) that simulates the calibrated testbed: [cluster]
// nic, payload_efficiency (at most 1), task_launch_latency and flow_start_latency, with what was
// measured and how in comments.
std::string CalibrationToml(const ProbePlan& plan, const Calibration& c,
                            const std::string& comment);

}  // namespace slotflow
