// FluidSolver's events: each group's earliest completion and mark, the search for the next
// event after a solve, Advance, and taking the flows that completed or reached their marks.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "common/tolerance.h"
#include "rates/fluid_solver.h"
#include "rates/tuning.h"

namespace slotflow {
namespace {
// The valid entry at the top of a group's heap after dropping stale ones (nullptr if none).
template <class Entry, class Valid>
const Entry* ValidTop(std::vector<Entry>& heap, Valid valid) {
  while (!heap.empty()) {
    if (valid(heap.front())) return &heap.front();
    std::pop_heap(heap.begin(), heap.end(), std::greater<>());
    heap.pop_back();
  }
  return nullptr;
}

// Completion (or mark) tolerance: relative to the flow (SPEC §3), plus rounding of the service
// counter.
double Tolerance(Bytes size, double target) {
  return kRelTolerance * std::max(size, 1.0) + fluid::kServiceRounding * std::abs(target);
}

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

void FluidSolver::RefreshTop(int32_t g) {
  const HeapEntry* top = ValidTop(groups_[g].heap, [&](const HeapEntry& e) {
    const Flow& fl = flows_[e.flow];
    return fl.group == g && fl.target == e.target;
  });
  min_target_[g] = top ? top->target : kForever;
  if (top) min_tol_[g] = Tolerance(flows_[top->flow].size, top->target);
}

void FluidSolver::RefreshMarkTop(int32_t g) {
  const HeapEntry* top = ValidTop(groups_[g].marks, [&](const HeapEntry& e) {
    const Flow& fl = flows_[e.flow];
    return fl.group == g && fl.mark_gap >= 0 && fl.mark_target == e.target;
  });
  min_mark_[g] = top ? top->target : kForever;
  if (top) min_mark_tol_[g] = Tolerance(flows_[top->flow].size, top->target);
}

void FluidSolver::PushMark(FlowId f) {
  Flow& fl = flows_[f];
  Group& grp = groups_[fl.group];
  fl.mark_target = fl.target - fl.mark_gap;
  grp.marks.push_back(HeapEntry{fl.mark_target, f});
  std::push_heap(grp.marks.begin(), grp.marks.end(), std::greater<>());
  if (fl.mark_target <= min_mark_[fl.group]) RefreshMarkTop(fl.group);
  marks_dirty_ = true;
}

void FluidSolver::SetMark(FlowId f, Bytes sent) {
  Flow& fl = flows_[f];
  if (fl.group < 0) return;
  if (fl.mark_gap < 0) ++mark_count_;
  const auto& marks = groups_[fl.group].marks;
  const bool was_top = !marks.empty() && marks.front().flow == f;
  fl.mark_gap = fl.size - sent;
  PushMark(f);
  if (was_top) RefreshMarkTop(fl.group);  // its old entry is stale now
  NoteIfDue(fl.group);
}

void FluidSolver::ClearMark(FlowId f) {
  Flow& fl = flows_[f];
  if (fl.group < 0 || fl.mark_gap < 0) return;
  fl.mark_gap = -1;
  --mark_count_;
  RefreshMarkTop(fl.group);
  NoteIfDue(fl.group);
  marks_dirty_ = true;
}

void FluidSolver::TakeMarked(std::vector<FlowId>& out) {
  const size_t first = out.size();
  for (int32_t g : mark_due_) {
    mark_due_flag_[g] = 0;
    while (min_mark_[g] - ServiceNow(g) <= min_mark_tol_[g]) {  // false without marks (inf)
      const FlowId f = groups_[g].marks.front().flow;
      flows_[f].mark_gap = -1;
      --mark_count_;
      out.push_back(f);
      RefreshMarkTop(g);
    }
  }
  mark_due_.clear();
  if (out.size() > first) marks_dirty_ = true;
  std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
}

void FluidSolver::ComputeNextCompletion() {
  marks_dirty_ = false;
  if (mark_count_ > 0) {
    NextEvents</*kMarks=*/true>();
  } else {
    NextEvents</*kMarks=*/false>();
  }
}

// One pass over all groups: add the service since the last pass, find the next completion
// (and mark), and keep as candidates the groups that may be done by then, the only ones
// Advance needs to check. A group that is done at the next completion passes the candidate
// test against every earlier (larger) running minimum too. Dead groups have an infinite
// target and zero rate, so they never pass.
template <bool kMarks>
void FluidSolver::NextEvents() {
  double best = kForever, best_mark = kForever;
  const size_t n = hi_;
  const double dt = pending_;
  pending_ = 0;
  double* service = service_.data();
  const double* target = min_target_.data();
  const double* tol = min_tol_.data();
  const double* mark = min_mark_.data();
  const double* mark_tol = min_mark_tol_.data();
  const double* rate = rate_.data();
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
  const bool full = full_pass_;
  full_pass_ = false;
  size_t g = 0;
  for (; g + kBlock <= n; g += kBlock) {
    if (!full && moving_in_block_[g / kBlock] == 0) continue;
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

void FluidSolver::Advance(Seconds dt) {
  dt = std::max(0.0, dt);
  pending_ += dt;
  // Remember the groups whose earliest member is now done (or marked), for PopCompleted and
  // TakeMarked: only candidates can be.
  for (int32_t g : candidates_) {
    if (min_target_[g] - ServiceNow(g) <= min_tol_[g]) due_.push_back(g);
  }
  for (int32_t g : mark_candidates_) {
    if (min_mark_[g] - ServiceNow(g) <= min_mark_tol_[g] && !mark_due_flag_[g]) {
      mark_due_flag_[g] = 1;
      mark_due_.push_back(g);
    }
  }
  next_completion_in_ = std::max(0.0, next_completion_in_ - dt);
  next_mark_in_ = std::max(0.0, next_mark_in_ - dt);
}

void FluidSolver::PopCompleted(std::vector<FlowId>& out) {
  const size_t first = out.size();
  for (int32_t g : due_) {
    while (min_target_[g] - ServiceNow(g) <= min_tol_[g]) {  // false for dead groups (inf)
      Group& grp = groups_[g];
      const FlowId f = grp.heap.front().flow;
      std::pop_heap(grp.heap.begin(), grp.heap.end(), std::greater<>());
      grp.heap.pop_back();
      out.push_back(f);
      --active_flows_;
      Flow& fl = flows_[f];
      fl.group = -1;
      if (fl.mark_gap >= 0) {
        fl.mark_gap = -1;
        --mark_count_;
        marks_dirty_ = true;
      }
      ChangeCount(g, -1);
      if (count_[g] == 0) {
        DropGroup(g);
        break;
      }
      RefreshTop(g);
      if (!groups_[g].marks.empty()) RefreshMarkTop(g);
    }
  }
  due_.clear();
  std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
}

}  // namespace slotflow
