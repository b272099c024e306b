#include "scheduling/local_pairs.h"

#include <algorithm>
#include <bit>
#include <limits>

namespace slotflow {
namespace {

// Below this many ready tasks a pass over them costs less than the bitsets' upkeep.
constexpr size_t kMinReady = 256;
// What a pass spends on one ready task (its record, its replica list: cache misses), in words of
// a bitset read: measured on SWIM's FB-2009 day, about 30 ns against 1-2 ns.
constexpr size_t kTaskInWords = 16;

bool Bit(const std::vector<uint64_t>& bits, size_t i) { return (bits[i / 64] >> (i % 64)) & 1; }
void Flip(std::vector<uint64_t>& bits, size_t i) { bits[i / 64] ^= uint64_t{1} << (i % 64); }

}  // namespace

LocalPairs::JobBits* LocalPairs::Find(JobIndex j) {
  for (JobBits& b : jobs_) {
    if (b.job == j) return &b;
  }
  return nullptr;
}

void LocalPairs::Settle(const SimState& state) {
  if (placed_ >= 0) {
    const TaskId t = placed_;
    placed_ = TaskId{-1};
    if (JobBits* b = Find(state.task(t).job)) {
      if (state.task(t).state == TaskState::kReady) {
        b->job = JobIndex{-1};  // not placed after all: no longer known to be in step
      } else if (b->usable) {
        Clear(state, *b, t);
      }
    }
  }
  std::erase_if(jobs_, [&](const JobBits& b) { return b.job < 0 || state.job(b.job).finished; });
}

bool LocalPairs::Covers(const SimState& state, JobIndex j) {
  current_ = nullptr;
  if (!state.HostsOnAnyFreeSlot() || state.job(j).ready.size() < kMinReady) return false;
  JobBits* b = Find(j);
  if (b == nullptr) {
    b = &jobs_.emplace_back();
    b->job = j;
    Build(state, *b);
  } else if (b->usable && state.job(j).ready_roots != b->roots) {
    Build(state, *b);  // tasks joined the ready set (the job's arrival, or a lost server's)
  }
  if (!b->usable) return false;
  FreeHolders(state, *b);
  if (!std::all_of(free_.begin(), free_.end(),
                   [&](ServerId s) { return StillHolds(state, *b, s); })) {
    Build(state, *b);  // a server was lost (and maybe rejoined) since the bits were built
    if (!b->usable) return false;
    FreeHolders(state, *b);
  }
  // A query reads each free holder's bitset: a pass over the ready tasks costs less when that
  // is more words than kTaskInWords times the ready tasks.
  if (b->roots < static_cast<int64_t>(kMinReady) ||
      free_.size() * b->words > kTaskInWords * static_cast<size_t>(b->roots)) {
    return false;
  }
  current_ = b;
  return true;
}

// The servers with a free slot (where CanHost holds, as HostsOnAnyFreeSlot) that hold a
// replica of a ready root task of the job, in increasing id order.
void LocalPairs::FreeHolders(const SimState& state, const JobBits& bits) {
  free_.clear();
  for (ServerId s : state.servers_with_free_slots()) {
    if (state.server(s).free_slots > 0 && bits.held[s] > 0) free_.push_back(s);
  }
}

void LocalPairs::Build(const SimState& state, JobBits& bits) const {
  const JobRuntime& job = state.job(bits.job);
  std::vector<std::pair<TaskId, TaskId>> root_ranges;  // [first, end) of each root stage
  TaskId lo = std::numeric_limits<TaskId>::max(), hi{0};
  for (size_t s = 0; s < job.stages.size(); ++s) {
    const StageRuntime& sr = job.stages[s];
    if (!job.spec->stages[s].parents.empty() || sr.task_count == 0) continue;
    const TaskId end{sr.first_task + sr.task_count};
    root_ranges.emplace_back(sr.first_task, end);
    lo = std::min(lo, sr.first_task);
    hi = std::max(hi, end);
  }
  const size_t servers = static_cast<size_t>(state.cluster().size());
  bits.base = root_ranges.empty() ? TaskId{0} : lo;
  bits.words = root_ranges.empty() ? 0 : (static_cast<size_t>(hi - lo) + 63) / 64;
  bits.levels = 0;
  bits.roots = 0;
  bits.usable = true;
  bits.ready.assign(bits.words, 0);
  bits.holds.assign(servers, {});
  bits.held.assign(servers, 0);
  bits.first_word.assign(servers, 0);
  bits.counted.clear();
  const ReadyTasks& ready = job.ready;
  for (const auto& [first, end] : root_ranges) {
    for (auto it = std::lower_bound(ready.begin(), ready.end(), first);
         it != ready.end() && *it < end; ++it) {
      const size_t i = static_cast<size_t>(*it - bits.base);
      const std::vector<ServerId>& replicas = state.task(*it).replicas;
      Flip(bits.ready, i);
      ++bits.roots;
      bits.levels = std::max(bits.levels, static_cast<int>(replicas.size()));
      for (size_t k = 0; k < replicas.size(); ++k) {
        const ServerId r = replicas[k];
        if (std::find(replicas.begin(), replicas.begin() + k, r) != replicas.begin() + k) {
          bits.usable = false;  // a repeated server counts twice in Alg. 2 l. 4: left to the scan
          return;
        }
        if (bits.holds[r].empty()) bits.holds[r].assign(bits.words, 0);
        Flip(bits.holds[r], i);
        ++bits.held[r];
      }
    }
  }
  bits.slices = std::bit_width(static_cast<unsigned>(bits.levels));
  bits.count.assign(static_cast<size_t>(bits.slices) * bits.words, 0);
}

// Task t (of the job) was placed: it leaves the bitsets if they had it.
void LocalPairs::Clear(const SimState& state, JobBits& bits, TaskId t) const {
  if (t < bits.base || static_cast<size_t>(t - bits.base) >= bits.words * 64) return;
  const size_t i = static_cast<size_t>(t - bits.base);
  if (!Bit(bits.ready, i)) return;
  Flip(bits.ready, i);
  --bits.roots;
  for (ServerId r : state.task(t).replicas) {
    if (bits.holds[r].empty() || !Bit(bits.holds[r], i)) continue;
    Flip(bits.holds[r], i);
    --bits.held[r];
  }
  const uint64_t keep = ~(uint64_t{1} << (i % 64));
  for (int k = 0; k < bits.slices; ++k) bits.count[k * bits.words + i / 64] &= keep;
}

// Adds server s to (or takes it from) the free holders counted for each task it holds.
void LocalPairs::Count(JobBits& bits, ServerId s, bool add) const {
  const std::vector<uint64_t>& h = bits.holds[s];
  if (h.empty()) return;
  const size_t words = bits.words;
  const int slices = bits.slices;
  uint64_t* const count = bits.count.data();
  for (size_t w = bits.first_word[s]; w < words; ++w) {
    // A ripple add (or subtract) of one to each ready task of the word. A lost server's bits
    // outlive the tasks placed since (Clear follows the replicas, which no longer name it).
    uint64_t carry = h[w] & bits.ready[w];
    for (int k = 0; carry != 0 && k < slices; ++k) {
      uint64_t& slice = count[k * words + w];
      const uint64_t next = (add ? slice : ~slice) & carry;
      slice ^= carry;
      carry = next;
    }
  }
}

// Brings the counts from the free holders last counted to those of now (free_): a walk of the
// two sorted lists, adding the servers that joined and taking out those that left.
void LocalPairs::CountFreeHolders(JobBits& bits) const {
  const std::vector<ServerId>& was = bits.counted;
  size_t i = 0, k = 0;
  while (i < was.size() || k < free_.size()) {
    if (k == free_.size() || (i < was.size() && was[i] < free_[k])) {
      Count(bits, was[i++], false);
    } else if (i == was.size() || free_[k] < was[i]) {
      Count(bits, free_[k++], true);
    } else {
      ++i;
      ++k;
    }
  }
  bits.counted = free_;
}

// Whether the tasks of holds[s] still have a replica on s. A lost server leaves the replicas of
// every task of the active jobs at once, so one of them tells.
bool LocalPairs::StillHolds(const SimState& state, JobBits& bits, ServerId s) const {
  const std::vector<uint64_t>& h = bits.holds[s];
  size_t& w = bits.first_word[s];
  while (w < bits.words && h[w] == 0) ++w;
  if (w == bits.words) return true;
  const TaskId t{static_cast<int32_t>(bits.base + w * 64 + std::countr_zero(h[w]))};
  const std::vector<ServerId>& replicas = state.task(t).replicas;
  return std::find(replicas.begin(), replicas.end(), s) != replicas.end();
}

std::optional<LocalPairs::Tied> LocalPairs::FewestCandidates(bool& roots) {
  JobBits& b = *current_;
  roots = b.roots > 0;
  if (free_.empty()) return std::nullopt;  // no free server holds a ready root task's replica
  CountFreeHolders(b);
  const size_t words = b.words;
  const uint64_t* const count = b.count.data();
  tied_.assign(words, 0);
  for (int c = 1; c <= b.levels; ++c) {
    bool any = false;
    for (size_t w = 0; w < words; ++w) {
      uint64_t equal = ~uint64_t{0};  // the tasks of word w counted c times
      for (int k = 0; k < b.slices; ++k) {
        const uint64_t slice = count[k * words + w];
        equal &= (c >> k) & 1 ? slice : ~slice;
      }
      tied_[w] = equal;
      any = any || equal != 0;
    }
    if (!any) continue;
    tied_servers_.clear();
    for (ServerId s : free_) {
      const std::vector<uint64_t>& h = b.holds[s];
      for (size_t w = b.first_word[s]; w < b.words; ++w) {
        if ((h[w] & tied_[w]) == 0) continue;
        tied_servers_.push_back(s);
        break;
      }
    }
    const size_t w = static_cast<size_t>(
        std::find_if(tied_.begin(), tied_.end(), [](uint64_t x) { return x != 0; }) -
        tied_.begin());
    return Tied{c, TaskId{static_cast<int32_t>(b.base + w * 64 + std::countr_zero(tied_[w]))}};
  }
  return std::nullopt;
}

int64_t LocalPairs::CountPairs(const SimState& state, const std::vector<ServerId>& servers) {
  const JobBits& b = *current_;
  for (ServerId s : chosen_) is_chosen_[s] = 0;
  is_chosen_.resize(static_cast<size_t>(state.cluster().size()), 0);
  chosen_ = servers;
  int64_t n = 0;
  for (ServerId s : chosen_) {
    is_chosen_[s] = 1;
    const std::vector<uint64_t>& h = b.holds[s];
    for (size_t w = b.first_word[s]; w < b.words; ++w) n += std::popcount(h[w] & tied_[w]);
  }
  return n;
}

std::pair<TaskId, ServerId> LocalPairs::PairAt(const SimState& state, int64_t k) const {
  const JobBits& b = *current_;
  for (size_t w = 0; w < b.words; ++w) {
    uint64_t tasks = 0;
    int64_t n = 0;
    for (ServerId s : chosen_) {
      const uint64_t x = b.holds[s][w] & tied_[w];
      tasks |= x;
      n += std::popcount(x);
    }
    if (k >= n) {
      k -= n;
      continue;
    }
    for (; tasks != 0; tasks &= tasks - 1) {
      const TaskId t{static_cast<int32_t>(b.base + w * 64 + std::countr_zero(tasks))};
      for (ServerId r : state.task(t).replicas) {
        if (is_chosen_[r] && k-- == 0) return {t, r};
      }
    }
  }
  return {TaskId{-1}, kNoServer};  // k beyond the count: not reached
}

}  // namespace slotflow
