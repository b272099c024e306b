// LocalPairs (nats' bitsets of ready map tasks by replica server) against a pass over the ready
// tasks, as SelectTaskServerPair made before them, through placements, slots freed and taken, a
// job arriving, and a server lost and rejoining between two decisions.
#include "scheduling/local_pairs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "api/random.h"
#include "bed.h"

namespace slotflow::testing {
namespace {

// What a pass over job j's ready tasks finds (Alg. 2 l. 4): the fewest free replica holders
// of a ready root task, the first task with that many, and the free holders of those tasks.
struct Pass {
  int candidates = 0;
  std::vector<TaskId> tied;
  std::vector<ServerId> servers;
};

Pass Scan(const SimState& state, JobIndex j) {
  Pass p;
  for (TaskId t : state.job(j).ready) {
    if (!state.task(t).root) continue;
    int c = 0;
    for (ServerId r : state.task(t).replicas) c += state.CanHost(t, r);
    if (c == 0 || (p.candidates > 0 && c > p.candidates)) continue;
    if (c != p.candidates) p.tied.clear();
    p.candidates = c;
    p.tied.push_back(t);
  }
  std::set<ServerId> servers;
  for (TaskId t : p.tied) {
    for (ServerId r : state.task(t).replicas) {
      if (state.CanHost(t, r)) servers.insert(r);
    }
  }
  p.servers.assign(servers.begin(), servers.end());
  return p;
}

JobSpec BigMapJob(int tasks, int servers, Rng& rng) {
  std::vector<std::vector<int>> replicas;
  for (int k = 0; k < tasks; ++k) {
    replicas.emplace_back();
    for (ServerId s : DistinctServers(3, servers, rng)) replicas.back().push_back(s);
  }
  StageSpec maps{"map", {}, std::vector<TaskSpec>(replicas.size(), Task(1, 0))};
  maps.replicas = Replicas(replicas);
  return Job("maps", 0, {maps});
}

// Compares the bitsets' answers for job j with the pass's; false when they do not cover it.
bool Check(LocalPairs& pairs, const SimState& state, JobIndex j, Rng& rng) {
  if (!pairs.Covers(state, j)) return false;
  const Pass pass = Scan(state, j);
  bool roots = false;
  const auto tied = pairs.FewestCandidates(roots);
  EXPECT_TRUE(roots);
  if (pass.tied.empty()) {
    EXPECT_FALSE(tied.has_value());
    return true;
  }
  EXPECT_TRUE(tied.has_value());
  if (!tied) return true;
  EXPECT_EQ(tied->candidates, pass.candidates);
  EXPECT_EQ(tied->first, pass.tied.front());
  EXPECT_EQ(pairs.TiedServers(), pass.servers);
  // Some of the servers, as l. 5–7 keep those with the smallest key.
  std::vector<ServerId> some;
  for (ServerId s : pass.servers) {
    if (some.empty() || rng.UniformInt(2) == 0) some.push_back(s);
  }
  std::vector<std::pair<TaskId, ServerId>> expected;
  for (TaskId t : pass.tied) {
    for (ServerId r : state.task(t).replicas) {
      if (std::find(some.begin(), some.end(), r) != some.end()) expected.emplace_back(t, r);
    }
  }
  EXPECT_EQ(pairs.CountPairs(state, some), static_cast<int64_t>(expected.size()));
  for (size_t k = 0; k < expected.size(); ++k) {
    EXPECT_EQ(pairs.PairAt(state, static_cast<int64_t>(k)), expected[k]) << "pair " << k;
  }
  return true;
}

TEST(LocalPairs, AnswerAsAPassOverTheReadyTasks) {
  constexpr int kServers = 12;
  Bed bed(kServers, 2);
  Rng rng(7);
  std::vector<JobIndex> jobs = {bed.Submit(BigMapJob(700, kServers, rng), 1)};
  std::vector<TaskId> running;
  LocalPairs pairs;
  int covered = 0;
  for (int step = 0; step < 900; ++step) {
    const SimState& state = bed.state();
    pairs.Settle(state);
    for (JobIndex j : jobs) covered += Check(pairs, state, j, rng);
    if (step == 200) jobs.push_back(bed.Submit(BigMapJob(400, kServers, rng), 2));
    if (step == 400) {
      // Lost and back before the next decision, running nothing (no task joins the ready set
      // again): only its replicas are gone.
      const ServerId lost{3};
      std::erase_if(running, [&](TaskId t) {
        if (state.task(t).server != lost) return false;
        bed.Finish(t);
        return true;
      });
      ASSERT_TRUE(bed.life().LoseServer(lost).unrecoverable.empty());
      bed.life().RejoinServer(lost);
    }
    if (step == 600) {  // lost with its tasks, which are ready again
      ASSERT_TRUE(bed.life().LoseServer(ServerId{5}).unrecoverable.empty());
      std::erase_if(running, [&](TaskId t) { return state.task(t).server == kNoServer; });
    }
    // A slot frees now and then; otherwise a ready map task is placed on a free holder.
    if (!running.empty() && (state.free_slots() == 0 || rng.UniformInt(3) == 0)) {
      const size_t k = static_cast<size_t>(rng.UniformInt(static_cast<int64_t>(running.size())));
      bed.Finish(running[k]);
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
      continue;
    }
    const JobIndex j = jobs[static_cast<size_t>(rng.UniformInt(static_cast<int64_t>(jobs.size())))];
    for (TaskId t : state.job(j).ready) {
      const auto& replicas = state.task(t).replicas;
      const auto r = std::find_if(replicas.begin(), replicas.end(),
                                  [&](ServerId s) { return state.CanHost(t, s); });
      if (r == replicas.end()) continue;
      bed.life().Place(t, *r);
      pairs.Placed(t);
      running.push_back(t);
      break;
    }
  }
  EXPECT_GT(covered, 500);
}

// A server lost between two decisions that count free holders, while tasks it held are placed
// (reported by Placed, with no query between): those tasks are gone from the counts, and the
// lost server's share of the others with them.
TEST(LocalPairs, CountAServerLostWhileTasksItHeldArePlaced) {
  Bed bed(6, 8);
  std::vector<std::vector<int>> replicas;
  for (int k = 0; k < 10; ++k) replicas.push_back({0, 1, 2});   // tasks 0-9
  for (int k = 0; k < 300; ++k) replicas.push_back({3, 4, 5});  // tasks 10-309
  StageSpec maps{"map", {}, std::vector<TaskSpec>(replicas.size(), Task(1, 0))};
  maps.replicas = Replicas(replicas);
  const JobIndex j = bed.Submit(Job("maps", 0, {maps}), 1);
  LocalPairs pairs;
  Rng rng(3);
  const SimState& state = bed.state();
  pairs.Settle(state);
  ASSERT_TRUE(Check(pairs, state, j, rng));
  ASSERT_TRUE(bed.life().LoseServer(ServerId{2}).unrecoverable.empty());
  for (int k = 0; k < 10; ++k) {  // every task of servers 0-2 placed, three free holders left
    pairs.Settle(state);
    const TaskId t = state.job(j).ready.front();
    bed.life().Place(t, ServerId{k % 2});
    pairs.Placed(t);
  }
  pairs.Settle(state);
  ASSERT_TRUE(Check(pairs, state, j, rng));
  bool roots = false;
  EXPECT_EQ(pairs.FewestCandidates(roots)->first, TaskId{10});
}

}  // namespace
}  // namespace slotflow::testing
