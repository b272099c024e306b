// LocalPairs: the (ready map task, free server holding its block) pairs of one job that nats'
// SelectTaskServerPair chooses among (Duopoly Alg. 2 l. 1–7), found without visiting every
// ready task. For each job with many ready root tasks it keeps, per server, a bitset over the
// job's tasks of the ready root tasks with a replica there; a decision then costs a few word
// operations per free server instead of a pass over the ready tasks (a job of 100,000 map
// tasks would otherwise cost a pass over up to 100,000 tasks per placement). It also keeps each
// ready task's count of free replica holders, as bit-sliced counters updated only for the
// servers whose free state changed since the job's last decision.
//
// The bitsets follow the state lazily. A root task leaves the ready set only when placed, which
// the scheduler reports (Placed), and joins it when its job arrives or a lost server resets it;
// a lost server also drops from the replicas of every task of the active jobs. So a count of
// the job's ready root tasks other than the one expected rebuilds its bitsets from the state,
// as does a free server whose bits name a task that no longer has a replica there. The answers
// are always those of a pass over the ready tasks in order.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "api/ids.h"
#include "api/state.h"

namespace slotflow {

class LocalPairs {
 public:
  // The tasks with the fewest free replica holders (Alg. 2 l. 4): that number, how many such
  // tasks there are, and the first of them in ready order.
  struct Tied {
    int candidates = 0;
    TaskId first{-1};
  };

  // To be called before the queries of each decision: takes in the task last reported placed
  // and forgets the jobs that finished.
  void Settle(const SimState& state);
  // The task the scheduler returned for placement.
  void Placed(TaskId t) { placed_ = t; }

  // Whether job j's queries can be answered from the bitsets now (and brings them up to date):
  // it has enough ready tasks, no task repeats a replica server, and any free slot can host any
  // task (SimState::HostsOnAnyFreeSlot). Otherwise the caller scans the ready tasks.
  bool Covers(const SimState& state, JobIndex j);

  // For the job just covered: its ready root tasks with the fewest replicas on servers with a
  // free slot (at least one); nullopt when none has any. `roots` tells whether the job has any
  // ready root task at all.
  std::optional<Tied> FewestCandidates(bool& roots);
  // After FewestCandidates: the servers with a free slot that hold a replica of a tied task, in
  // increasing id order.
  const std::vector<ServerId>& TiedServers() const { return tied_servers_; }
  // The (tied task, server) pairs whose server is one of `servers` (some of TiedServers()), in
  // ready order then replica order: how many there are, and the k-th of them.
  int64_t CountPairs(const SimState& state, const std::vector<ServerId>& servers);
  std::pair<TaskId, ServerId> PairAt(const SimState& state, int64_t k) const;

 private:
  struct JobBits {
    JobIndex job{-1};
    bool usable = false;  // false: some task repeats a server among its replicas
    TaskId base{0};       // the task of bit 0
    size_t words = 0;     // per bitset
    int levels = 0;       // the most replicas of one task
    int64_t roots = 0;    // ready root tasks
    std::vector<uint64_t> ready;  // ready root tasks
    std::vector<std::vector<uint64_t>> holds;  // per server: ready root tasks with a replica there
    std::vector<int64_t> held;                 // per server: bits set in holds
    std::vector<size_t> first_word;            // per server: no bit of holds before this word
    // Per ready root task, how many of the servers in `counted` hold a replica of it: a binary
    // counter sliced into `slices` bitsets (slice k's words from k x words, bit k of each count).
    int slices = 0;
    std::vector<uint64_t> count;
    std::vector<ServerId> counted;  // increasing ids: the free holders when last counted
  };

  JobBits* Find(JobIndex j);
  void Build(const SimState& state, JobBits& bits) const;
  void FreeHolders(const SimState& state, const JobBits& bits);
  void Clear(const SimState& state, JobBits& bits, TaskId t) const;
  void Count(JobBits& bits, ServerId s, bool add) const;
  void CountFreeHolders(JobBits& bits) const;
  bool StillHolds(const SimState& state, JobBits& bits, ServerId s) const;

  std::vector<JobBits> jobs_;
  TaskId placed_{-1};
  // Scratch of one decision.
  JobBits* current_ = nullptr;
  std::vector<ServerId> free_;
  std::vector<uint64_t> tied_;
  std::vector<ServerId> tied_servers_;
  std::vector<ServerId> chosen_;   // the servers of CountPairs
  std::vector<uint8_t> is_chosen_;  // per server
};

}  // namespace slotflow
