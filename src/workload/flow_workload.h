// The flow workload of NEAT+'s evaluation (NEAT+ §II, Fig. 3, and §VI; docs/readings.md): single
// transfers whose sizes follow a data-centre flow-size distribution, arriving as a Poisson
// process at a target network load, each read by one task from a fixed sender, with placement
// choosing the receiver.
//
// The size distributions are the ones DCTCP, pFabric and PASE evaluate with, as the points of
// the CDF files of github.com/datacenter/empirical-traffic-gen (DCTCP_CDF, web search; VL2_CDF,
// data mining). A size is drawn by inverse transform with linear interpolation between points
// (ours: the files give only the points), rounded to whole bytes, at least 1.
//
// By default each flow is a job of one task: its input block has one replica, on a sender drawn
// uniformly from the servers, the task may not run there (TaskSpec::avoid), and it computes for
// 0 s, so its completion time is its transfer's. Arrival rate λ = load × Σ NIC rates / mean
// size: at load L every server's uplink carries L of its capacity on average, as the load of
// DCTCP/pFabric/PASE's set-ups (the fraction of the edge links' capacity); the load counts every
// byte as crossing the network, also those a placement later reads locally.
//
// Three options make placement matter where the default does not (NEAT+ §V-A3, §V-B2):
//  - replicas > 1: the block is on that many distinct random servers (HDFS's replicas, NEAT+
//    §V-A3), and the task may run on any server: on a holder it reads locally, elsewhere from
//    a holder the simulator picks (the nearest rack first, then the least busy);
//  - senders > 1: a many-to-one stage. The job's size is split evenly over `senders` distinct
//    random servers, where pinned tasks that compute nothing hold it (a finished map stage), and
//    `receivers` tasks each read their share from every sender, so a receiver's downlink carries
//    several flows at once;
//  - compute: a reading task also computes, for a fixed time or in proportion to its input
//    (the input at the cluster's slot rate), so slots stay taken after the transfer and the
//    hosts with free compute matter (NEAT+ §V-A1).
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "api/job.h"
#include "api/random.h"
#include "api/units.h"

namespace slotflow {

// An empirical size distribution: (bytes, cumulative probability) points, both increasing, the
// first probability 0 and the last 1.
class SizeCdf {
 public:
  explicit SizeCdf(std::vector<std::pair<Bytes, double>> points);
  // A size drawn by inverse transform, interpolating linearly between points; at least 1 byte.
  Bytes Sample(Rng& rng) const;
  // The mean of the interpolated distribution (before rounding).
  Bytes Mean() const;
  const std::vector<std::pair<Bytes, double>>& points() const { return points_; }

 private:
  std::vector<std::pair<Bytes, double>> points_;
};

enum class FlowSizes { kWebSearch, kDataMining };
// "websearch" or "datamining"; InputError naming `field` otherwise.
FlowSizes ParseFlowSizes(std::string_view name, std::string_view field);
std::string_view FlowSizesName(FlowSizes sizes);
const SizeCdf& FlowSizeCdf(FlowSizes sizes);

enum class FlowCompute { kNone, kFixed, kProportional };

struct FlowWorkloadOptions {
  FlowSizes sizes = FlowSizes::kDataMining;
  double load = 0.5;  // target load of the edge links, in (0, 1]
  int flows = 2000;
  uint64_t seed = 1;
  int replicas = 1;   // servers holding a flow's input block
  int senders = 1;    // > 1: a many-to-one stage from that many senders
  int receivers = 1;  // the reading tasks of a many-to-one stage
  FlowCompute compute = FlowCompute::kNone;
  Seconds compute_time = 0;  // with FlowCompute::kFixed
};

// Jobs "flow-<n>" (n from 1) for a cluster of `servers` servers whose NICs carry `total_nic`
// bytes/s together; the first arrives at 0. Throws InputError naming the option (by its setting
// name, e.g. "flow_replicas") on a load outside (0, 1], fewer than 1 flow, fewer than 2
// servers, more replicas or senders than servers, or replicas and senders both above 1.
Workload GenerateFlowWorkload(const FlowWorkloadOptions& options, int servers,
                              BytesPerSecond total_nic);

}  // namespace slotflow
