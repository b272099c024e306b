// What a workload is: jobs made of stages of tasks. These are static descriptions;
// the simulator keeps the run-time state.
// Policy API (src/api/): stable, see docs/plugins.md#the-policy-api.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "api/cluster.h"
#include "api/units.h"

namespace slotflow {

using JobId = int32_t;

// The bytes a task receives from each of its parent tasks, held once for all the tasks that
// receive the same (a SWIM job's reducers all do: at 10^8 shuffle pairs a copy per task would
// be gigabytes). Empty: split evenly.
class ParentBytes {
 public:
  ParentBytes() = default;
  ParentBytes(std::vector<Bytes> bytes)  // NOLINT(google-explicit-constructor): a list reads as one
      : bytes_(bytes.empty() ? nullptr
                             : std::make_shared<const std::vector<Bytes>>(std::move(bytes))) {}
  bool empty() const { return bytes_ == nullptr; }
  size_t size() const { return bytes_ ? bytes_->size() : 0; }
  Bytes operator[](size_t k) const { return (*bytes_)[k]; }
  const Bytes* begin() const { return bytes_ ? bytes_->data() : nullptr; }
  const Bytes* end() const { return bytes_ ? bytes_->data() + bytes_->size() : nullptr; }
  friend bool operator==(const ParentBytes& a, const ParentBytes& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  std::shared_ptr<const std::vector<Bytes>> bytes_;
};

struct TaskSpec {
  // Root-stage task: size of the input block it reads (replicated).
  // Other stages: total bytes it receives from its parent stages' tasks, split evenly across
  // them unless `from` is given.
  Bytes input = 0;
  // Optional exact bytes from each parent task (parents' tasks concatenated in parent order).
  ParentBytes from;
  // Compute: `compute` seconds (at cpu_speed 1) if >= 0, else `work` bytes at the slot rate,
  // else the input bytes at the slot rate.
  Seconds compute = -1;
  Bytes work = -1;
  // A pinned task runs on this server as soon as it is ready, without taking a slot (used for
  // pinned coflows and for data that already sits on a server in the worked examples).
  ServerId pinned = kNoServer;
  // Bytes written to its server's disk after computing (a phase only when disks are modelled);
  // < 0 = the bytes its child stages' tasks read from it (0 for a task of a last stage).
  Bytes output = -1;
  // Memory the task holds while placed; it starts only on a server where it fits.
  Bytes memory = 0;
  // Slots (a server's slots are its cores) the task holds while placed; it starts only on a
  // server with that many free. Its compute time does not depend on them: `compute` and `work`
  // are the whole task's.
  int cpus = 1;
  // A server the task may not run on: a flow workload's sender, so that placement chooses the
  // receiver of a transfer that crosses the network.
  ServerId avoid = kNoServer;

  // The bytes it receives from the k-th of its stage's `parent_tasks` parent tasks.
  Bytes FromParent(size_t k, int parent_tasks) const {
    return from.empty() ? input / parent_tasks : from[k];
  }
};

struct StageSpec {
  std::string name;
  std::vector<int> parents;  // indices of earlier stages of the same job; empty = root stage
  std::vector<TaskSpec> tasks;
  // Root stage: per task, the servers holding its input block; empty (for the stage or a task)
  // = chosen at random. Kept here, not in TaskSpec, as few workloads give them.
  std::vector<std::vector<ServerId>> replicas = {};
};

struct JobSpec {
  std::string name;
  Seconds submit = 0;
  std::vector<StageSpec> stages;
  // Used by size-ordered policies (SJF; Duopoly §6.1: known on arrival); < 0 means "total bytes
  // of the job".
  double size_estimate = -1;
  int priority = 3;   // 1 (very low) .. 5 (very high), for capacity/JTPW queues
  std::string queue;  // optional queue name for capacity-style schedulers

  Bytes InputBytes() const;    // root stages' input
  Bytes ShuffleBytes() const;  // bytes moved between stages
  int TaskCount() const;
  // The tasks of stage s's parent stages (0 for a root stage).
  int ParentTasks(size_t s) const;
  double SizeEstimate() const {
    return size_estimate >= 0 ? size_estimate : InputBytes() + ShuffleBytes();
  }
  double ShuffleEstimate() const { return size_estimate >= 0 ? size_estimate : ShuffleBytes(); }
};

// Builds a MapReduce job: `maps` root tasks each reading `map_input`, and one reduce task per
// entry of `reduce_input` (bytes it receives, split evenly over the maps).
JobSpec MakeMapReduceJob(std::string name, Seconds submit, int maps, Bytes map_input,
                         const std::vector<Bytes>& reduce_input);

// The map input per task of a MapReduce job whose reduce tasks receive `reduce_input` from
// `maps` map tasks. With a ratio: ratio x (the job's shuffle) / maps. Without (the default,
// Duopoly §6.1: "map and reduce stages take about equally long"): the input whose compute on
// one slot takes as long as the job's reduce stage on an idle cluster of the paper's base
// set-up (1 Gbps NICs, 1 GB/s per slot, every task on a server of its own):
//   T_reduce = max(largest reducer input, shuffle / maps) / NIC + largest reducer input / slot
//   map input = slot rate x T_reduce.
// The workload does not change with the simulated cluster, as a generated trace would not.
Bytes MapInputPerTask(const std::optional<double>& ratio, const std::vector<Bytes>& reduce_input,
                      int maps);

// Bounds on a workload's size, checked by every reader and generator as it reads, before it
// allocates the tasks. Tasks: a task's spec and run-time state take 200-700 bytes (a 2-million
// task Alibaba job peaks at 433 MB; docs/benchmarks.md has more), so 10 million take 2-7 GB, a
// workstation's share; that is 470 times the FB trace (21,362 tasks) and 2.4 times the SWIM
// FB-2010 day at 256 MiB blocks (4.17 million).
inline constexpr int64_t kMaxWorkloadTasks = 10'000'000;
// Shuffle pairs: each task of a stage receives from every task of its parent stages, and the
// simulator walks these pairs as tasks start and finish; 10^9 pairs already take minutes
// (the FB trace's largest coflow has 21,170).
inline constexpr int64_t kMaxShufflePairs = 1'000'000'000;

// Counts the tasks and shuffle pairs of a workload as it is read.
class WorkloadBudget {
 public:
  // Adds a stage of `tasks` tasks fed by `parent_tasks` tasks of its parent stages; throws
  // InputError(file, line, field) when the workload's tasks or pairs cross their bound.
  void AddStage(int64_t tasks, int64_t parent_tasks, const std::string& file, int line,
                const std::string& field);

 private:
  int64_t tasks_ = 0;
  int64_t pairs_ = 0;
};

struct Workload {
  std::string source;         // where it came from, for messages and summaries
  std::vector<JobSpec> jobs;  // sorted by submit time (stable) by the readers

  // Throws InputError on structural problems (negative sizes, bad parents, pinned servers
  // outside the cluster, `from` lengths that do not match).
  void Validate(int servers) const;
};

}  // namespace slotflow
