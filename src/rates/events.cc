// How EventSearch finds the next event: one pass over the hot per-group arrays, two groups per
// vector operation, and how Advance, PopCompleted and TakeMarked use the candidates it keeps.
#include "rates/events.h"

#include <algorithm>
#include <cstring>

namespace slotflow::rates {
namespace {
// Two doubles per vector op: SSE2, any x86-64.
using V = double __attribute__((vector_size(16)));
using M = decltype(V{} < V{});  // a lane mask per double

V Load(const double* p) {
  V v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// The candidate test of two groups at once: left - tolerance <= max(0, limit).
M PassesMask(V left, V tolerance, V limit) {
  const V positive = limit > 0 ? limit : V{};  // also maps NaN (0 * inf) to 0
  return left - tolerance <= positive;
}

// Keeps the candidates g that pass the test against the final minimum `best`: to its goal
// (completion or mark target) from its service, less its tolerance, within best x its rate.
void KeepPassing(std::vector<int32_t>& candidates, const double* goal, const double* tol,
                 const double* service, const double* rate, double best) {
  std::erase_if(candidates, [&](int32_t g) {
    return !(goal[g] - service[g] - tol[g] <= std::max(0.0, best * rate[g]));
  });
}
}  // namespace

void EventSearch::TakeMarked(GroupTable& t, std::vector<FlowId>& out) {
  const size_t first = out.size();
  for (int32_t g : mark_due_) {
    mark_due_flag_[g] = 0;
    while (t.min_mark[g] - t.ServiceNow(g) <= t.min_mark_tol[g]) {  // false without marks (inf)
      const FlowId f = t.groups[g].marks.front().flow;
      t.flows[f].mark_gap = -1;
      --t.mark_count;
      out.push_back(f);
      t.RefreshMarkTop(g);
    }
  }
  mark_due_.clear();
  if (out.size() > first) t.marks_dirty = true;
  std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
}

void EventSearch::Search(GroupTable& t) {
  t.marks_dirty = false;
  if (t.mark_count > 0) {
    NextEvents</*kMarks=*/true>(t);
  } else {
    NextEvents</*kMarks=*/false>(t);
  }
}

// One pass over all groups: add the service since the last pass, find the next completion
// (and mark), and keep as candidates the groups that may be done by then, the only ones
// Advance needs to check. A group that is done at the next completion passes the candidate
// test against every earlier (larger) running minimum too. Dead groups have an infinite
// target and zero rate, so they never pass.
template <bool kMarks>
void EventSearch::NextEvents(GroupTable& t) {
  double best = kForever, best_mark = kForever;
  const size_t n = t.hi;
  const double dt = t.pending;
  t.pending = 0;
  double* service = t.service.data();
  const double* target = t.min_target.data();
  const double* tol = t.min_tol.data();
  const double* mark = t.min_mark.data();
  const double* mark_tol = t.min_mark_tol.data();
  const double* rate = t.rate.data();
  candidates_.clear();
  mark_candidates_.clear();
  // The scalar test of one group, its service already added.
  auto test = [&](size_t g) {
    const double rem = target[g] - service[g];
    // rem - tol <= best * rate, without dividing for the groups that do not pass.
    if (rem - tol[g] <= std::max(0.0, best * rate[g])) {
      candidates_.push_back(static_cast<int32_t>(g));
      // Without a rate a group passes only if due already (it joined done): due now.
      if (rate[g] == 0) best = 0;
      else if (rem < best * rate[g]) best = rem <= 0 ? 0 : rem / rate[g];
    }
    if constexpr (kMarks) {
      const double to_mark = mark[g] - service[g];
      if (to_mark - mark_tol[g] <= std::max(0.0, best_mark * rate[g])) {
        mark_candidates_.push_back(static_cast<int32_t>(g));
        if (rate[g] == 0) best_mark = 0;
        else if (to_mark < best_mark * rate[g]) best_mark = to_mark <= 0 ? 0 : to_mark / rate[g];
      }
    }
  };
  // Blocks of kEventBlock groups, two per vector op (the same IEEE operations as the scalar
  // code, so the same results): the service update, and a test against the running minimum at
  // the start of the block, which is at least the one the scalar test would use. The test's
  // lane masks are OR-ed over the block and read out once (reading them per op cost more than
  // the arithmetic); only blocks with a possible candidate (rarely any) are tested group by
  // group. A block whose groups all have rate 0 is skipped: their services do not move, and
  // such a group passes the test only if already due, which only a change that NoteIfDue saw
  // can make it (when it had a rate it was found due by the search before, and then taken
  // out). Under aalo two thirds of the groups wait at rate 0 behind higher-priority coflows.
  constexpr size_t kBlock = kEventBlock;
  const bool full = t.full_pass;
  t.full_pass = false;
  size_t g = 0;
  for (; g + kBlock <= n; g += kBlock) {
    if (!full && t.moving_in_block[g / kBlock] == 0) continue;
    M any{};
    for (size_t h = g; h < g + kBlock; h += 2) {
      const V r = Load(rate + h);
      const V sv = Load(service + h) + r * dt;
      std::memcpy(service + h, &sv, sizeof sv);
      any |= PassesMask(Load(target + h) - sv, Load(tol + h), best * r);
      if constexpr (kMarks) {
        any |= PassesMask(Load(mark + h) - sv, Load(mark_tol + h), best_mark * r);
      }
    }
    if ((any[0] | any[1]) != 0) {
      for (size_t k = g; k < g + kBlock; ++k) test(k);
    }
  }
  for (; g < n; ++g) {
    service[g] += rate[g] * dt;
    test(g);
  }
  KeepPassing(candidates_, target, tol, service, rate, best);
  KeepPassing(mark_candidates_, mark, mark_tol, service, rate, best_mark);
  next_completion_in_ = best;
  next_mark_in_ = best_mark;
}

void EventSearch::Advance(GroupTable& t, Seconds dt) {
  dt = std::max(0.0, dt);
  t.pending += dt;
  // Remember the groups whose earliest member is now done (or marked), for PopCompleted and
  // TakeMarked: only candidates can be.
  for (int32_t g : candidates_) {
    if (t.min_target[g] - t.ServiceNow(g) <= t.min_tol[g]) due_.push_back(g);
  }
  if (mark_due_flag_.size() < t.groups.size()) mark_due_flag_.resize(t.groups.size(), 0);
  for (int32_t g : mark_candidates_) {
    if (t.min_mark[g] - t.ServiceNow(g) <= t.min_mark_tol[g] && !mark_due_flag_[g]) {
      mark_due_flag_[g] = 1;
      mark_due_.push_back(g);
    }
  }
  next_completion_in_ = std::max(0.0, next_completion_in_ - dt);
  next_mark_in_ = std::max(0.0, next_mark_in_ - dt);
}

void EventSearch::PopCompleted(GroupTable& t, std::vector<FlowId>& out) {
  const size_t first = out.size();
  for (int32_t g : due_) {
    while (t.min_target[g] - t.ServiceNow(g) <= t.min_tol[g]) {  // false for dead groups (inf)
      Group& grp = t.groups[g];
      const FlowId f = grp.heap.front().flow;
      std::pop_heap(grp.heap.begin(), grp.heap.end(), std::greater<>());
      grp.heap.pop_back();
      out.push_back(f);
      --t.active_flows;
      Flow& fl = t.flows[f];
      fl.group = -1;
      if (fl.mark_gap >= 0) {
        fl.mark_gap = -1;
        --t.mark_count;
        t.marks_dirty = true;
      }
      t.ChangeCount(g, -1);
      if (t.count[g] == 0) {
        t.DropGroup(g);
        break;
      }
      t.RefreshTop(g);
      if (!t.groups[g].marks.empty()) t.RefreshMarkTop(g);
    }
  }
  due_.clear();
  std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
}

void EventSearch::Renumber(int32_t from, int32_t to) {
  std::replace(due_.begin(), due_.end(), from, to);
  std::replace(mark_due_.begin(), mark_due_.end(), from, to);
  if (static_cast<size_t>(from) >= mark_due_flag_.size()) mark_due_flag_.resize(from + 1, 0);
  mark_due_flag_[to] = mark_due_flag_[from];
  mark_due_flag_[from] = 0;
}

}  // namespace slotflow::rates
