#include "network/fluid_solver.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "common/tolerance.h"
#include "network/fluid_tuning.h"

namespace slotflow {
namespace {

// Index of the first smallest element: a branch-free min pass (vectorizes) and a find.
size_t ArgMin(const std::vector<double>& v) {
  // Four independent accumulators hide the latency of each comparison.
  double m0 = kForever, m1 = kForever, m2 = kForever, m3 = kForever;
  const size_t n = v.size();
  size_t k = 0;
  for (; k + 4 <= n; k += 4) {
    m0 = v[k] < m0 ? v[k] : m0;
    m1 = v[k + 1] < m1 ? v[k + 1] : m1;
    m2 = v[k + 2] < m2 ? v[k + 2] : m2;
    m3 = v[k + 3] < m3 ? v[k + 3] : m3;
  }
  for (; k < n; ++k) m0 = v[k] < m0 ? v[k] : m0;
  m0 = m1 < m0 ? m1 : m0;
  m2 = m3 < m2 ? m3 : m2;
  const double m = m2 < m0 ? m2 : m0;
  return static_cast<size_t>(std::find(v.begin(), v.end(), m) - v.begin());
}

// boost::hash_combine's step.
uint64_t Mix(uint64_t h, uint64_t v) {
  h ^= v + fluid::kHashSalt + (h << 6) + (h >> 2);
  return h;
}
}  // namespace

size_t FluidSolver::GroupKeyHash::operator()(const GroupKey& k) const {
  return Mix(Mix(fluid::kGroupKeySeed, static_cast<uint64_t>(k.path)),
             static_cast<uint64_t>(k.cls));
}

FluidSolver::FluidSolver(std::vector<BytesPerSecond> link_capacities)
    : capacity_(std::move(link_capacities)),
      residual_(capacity_),
      explicit_residual_(capacity_.size(), 0),
      explicit_on_link_(capacity_.size()),
      weight_(capacity_.size(), 0),
      adj_begin_(capacity_.size(), 0),
      adj_fill_(capacity_.size(), 0),
      open_pos_(capacity_.size(), -1),
      link_dirty_(capacity_.size(), 0),
      row_of_(capacity_.size(), -1),
      col_of_(capacity_.size(), -1),
      level_(capacity_.size(), 0),
      demand_(capacity_.size(), 0),
      link_closed_(capacity_.size(), 0),
      local_fill_min_links_(fluid::kLocalFillMinLinks) {
  path_begin_.push_back(0);
}

PathId FluidSolver::InternPath(std::span<const LinkId> links) {
  if (links.size() >= kMaxPathLinks) throw std::logic_error("FluidSolver: path too long");
  uint64_t h = links.size();
  for (LinkId l : links) h = Mix(h, static_cast<uint64_t>(l));
  auto& bucket = path_index_[h];
  for (PathId p : bucket) {
    auto existing = PathLinks(p);
    if (std::equal(existing.begin(), existing.end(), links.begin(), links.end())) return p;
  }
  for (LinkId l : links) {
    if (l < 0 || l >= LinkCount()) throw std::logic_error("FluidSolver: link id out of range");
  }
  const PathId id = static_cast<PathId>(path_begin_.size() - 1);
  path_links_.insert(path_links_.end(), links.begin(), links.end());
  path_begin_.push_back(static_cast<int32_t>(path_links_.size()));
  bucket.push_back(id);
  return id;
}

std::span<const LinkId> FluidSolver::PathLinks(PathId p) const {
  return {path_links_.data() + path_begin_[p], path_links_.data() + path_begin_[p + 1]};
}

int32_t FluidSolver::GroupFor(PathId path, FlowClass cls, FlowId explicit_flow) {
  // An explicit-rate group holds one flow, which asks for it only when not in it: it is always
  // new, and never looked up (varys makes and drops millions, by re-ranking).
  int32_t* index = nullptr;
  if (explicit_flow < 0) {
    auto [it, inserted] = group_index_.try_emplace(GroupKey{path, cls}, -1);
    if (!inserted) return it->second;
    index = &it->second;
  }
  int32_t g;
  if (!free_groups_.empty()) {
    std::pop_heap(free_groups_.begin(), free_groups_.end(), std::greater<>());
    g = free_groups_.back();
    free_groups_.pop_back();
  } else {
    g = static_cast<int32_t>(groups_.size());
    groups_.emplace_back();
    count_.push_back(0);
    rate_.push_back(0);
    moving_in_block_.resize(rate_.size() / kEventBlock + 1, 0);
    service_.push_back(0);
    min_target_.push_back(kForever);
    min_tol_.push_back(0);
    min_mark_.push_back(kForever);
    min_mark_tol_.push_back(0);
    mark_due_flag_.push_back(0);
    explicit_rate_.push_back(-1);
    group_class_.push_back(-1);
    group_pos_.push_back(-1);
    explicit_link_pos_.push_back(-1);
    explicit_link_pos_.push_back(-1);
    group_links_.resize(group_links_.size() + kMaxPathLinks);
  }
  hi_ = std::max(hi_, g + 1);
  ++live_group_count_;
  Group& grp = groups_[g];
  grp.path = path;
  grp.cls = cls;
  grp.explicit_flow = explicit_flow;
  grp.heap.clear();
  grp.marks.clear();
  grp.live = true;
  count_[g] = 0;
  rate_[g] = 0;
  service_[g] = 0;
  min_target_[g] = kForever;
  min_mark_[g] = kForever;
  const auto links = PathLinks(path);
  group_links_[g * kMaxPathLinks] = static_cast<LinkId>(links.size());
  std::copy(links.begin(), links.end(), &group_links_[g * kMaxPathLinks + 1]);
  if (explicit_flow >= 0) {
    group_class_[g] = -1;  // explicit-rate groups are served before any class
    group_pos_[g] = static_cast<int32_t>(explicit_groups_.size());
    explicit_groups_.push_back(g);
    explicit_rate_[g] = flows_[explicit_flow].explicit_rate;
    explicit_changed_ = true;
    if (links.size() == 2 && links[0] != links[1]) {
      for (int k = 0; k < 2; ++k) {
        explicit_link_pos_[2 * g + k] = static_cast<int32_t>(explicit_on_link_[links[k]].size());
        explicit_on_link_[links[k]].push_back(g);
      }
    }
  } else {
    auto [c, added] = class_ids_.try_emplace(cls, -1);
    if (added) {
      if (free_class_ids_.empty()) {
        c->second = static_cast<int32_t>(class_states_.size());
        class_states_.emplace_back();
      } else {
        c->second = free_class_ids_.back();
        free_class_ids_.pop_back();
      }
      ClassState& cs = class_states_[c->second];
      cs.key = cls;
      cs.groups.clear();
      cs.dense = false;
      cs.has_residual_after = false;
      dirty_from_ = std::min(dirty_from_, cls);
    }
    ClassState& cs = class_states_[c->second];
    group_class_[g] = c->second;
    group_pos_[g] = static_cast<int32_t>(cs.groups.size());
    cs.groups.push_back(g);
    if (cs.dense && links.size() == 2 && row_of_[links[0]] >= 0 && col_of_[links[1]] >= 0) {
      SetCellGroup(cs, CellOf(cs, g), g);
      cs.fresh.push_back(g);
    }
  }
  if (links.size() == 2) {
    ++two_link_groups_;
    // Persistent row/column of the dense matrices (see FillDense); a new one changes their
    // shape, so they are rebuilt at the next solve.
    if (row_of_[links[0]] < 0) {
      two_link_shared_ |= col_of_[links[0]] >= 0;
      row_of_[links[0]] = static_cast<int32_t>(row_link_.size());
      row_link_.push_back(links[0]);
      DropAllDense();
    }
    if (col_of_[links[1]] < 0) {
      two_link_shared_ |= row_of_[links[1]] >= 0;
      col_of_[links[1]] = static_cast<int32_t>(col_link_.size());
      col_link_.push_back(links[1]);
      DropAllDense();
    }
  } else {
    DropAllDense();  // no longer every group on two links
  }
  if (index != nullptr) *index = g;
  return g;
}

void FluidSolver::DropGroup(int32_t g) {
  Group& grp = groups_[g];
  if (grp.explicit_flow < 0) group_index_.erase(GroupKey{grp.path, grp.cls});
  // Unlink g from its class (or the explicit list) by moving the last one into its place.
  std::vector<int32_t>& list =
      grp.explicit_flow >= 0 ? explicit_groups_ : class_states_[group_class_[g]].groups;
  const int32_t pos = group_pos_[g];
  list[pos] = list.back();
  group_pos_[list[pos]] = pos;
  list.pop_back();
  if (grp.explicit_flow >= 0 && explicit_link_pos_[2 * g] >= 0) {
    for (int k = 0; k < 2; ++k) {
      const LinkId l = GroupLinks(g)[k];
      // Its explicit rate no longer taken from the link (see Solve).
      explicit_residual_[l] += explicit_rate_[g];
      std::vector<int32_t>& on = explicit_on_link_[l];
      const int32_t at = explicit_link_pos_[2 * g + k];
      on[at] = on.back();
      explicit_link_pos_[2 * on[at] + (GroupLinks(on[at])[0] == l ? 0 : 1)] = at;
      on.pop_back();
      explicit_link_pos_[2 * g + k] = -1;
    }
  }
  if (grp.explicit_flow < 0 && class_states_[group_class_[g]].dense) {
    ClassState& cs = class_states_[group_class_[g]];
    SetCellGroup(cs, CellOf(cs, g), -1);
  }
  if (grp.explicit_flow < 0 && list.empty()) {
    ClassState& cs = class_states_[group_class_[g]];
    cs.dense = false;
    cs.has_residual_after = false;
    free_class_ids_.push_back(group_class_[g]);
    class_ids_.erase(cs.key);
    dirty_from_ = std::min(dirty_from_, cs.key);
  }
  if (GroupLinks(g).size() == 2) --two_link_groups_;
  grp.live = false;
  grp.heap.clear();
  grp.heap.shrink_to_fit();
  grp.marks.clear();
  grp.marks.shrink_to_fit();
  ClearSlot(g);
  --live_group_count_;
  free_groups_.push_back(g);
  std::push_heap(free_groups_.begin(), free_groups_.end(), std::greater<>());
  while (hi_ > 0 && !groups_[hi_ - 1].live) --hi_;
}

void FluidSolver::ChangeCount(int32_t g, int32_t delta) {
  count_[g] += delta;
  dirty_ = true;
  const int32_t c = group_class_[g];
  // Explicit-rate groups keep a dense state of their own for the backfill.
  ClassState& cs = c >= 0 ? class_states_[c] : explicit_state_;
  if (c >= 0) dirty_from_ = std::min(dirty_from_, cs.key);
  if (cs.dense) AddToCell(cs, CellOf(cs, g), delta);
}

void FluidSolver::AddToCell(ClassState& cs, size_t cell, int32_t delta) {
  const size_t row = cell / cs.cols, col = cs.rows + cell % cs.cols;
  cs.matrix[cell] += delta;
  cs.matrix_t[(col - cs.rows) * cs.rows + row] += delta;
  cs.line_weight[row] += delta;
  cs.line_weight[col] += delta;
  if (cs.has_local) {
    for (size_t line : {row, col}) {
      if (!cs.is_seed[line]) {
        cs.is_seed[line] = 1;
        cs.seeds.push_back(static_cast<int32_t>(line));
      }
    }
  }
}

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
  const bool was_top = !groups_[fl.group].marks.empty() && groups_[fl.group].marks.front().flow == f;
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

void FluidSolver::Join(FlowId f, int32_t g, Bytes remaining) {
  Group& grp = groups_[g];
  Flow& fl = flows_[f];
  fl.group = g;
  fl.target = ServiceNow(g) + remaining;
  grp.heap.push_back(HeapEntry{fl.target, f});
  std::push_heap(grp.heap.begin(), grp.heap.end(), std::greater<>());
  ChangeCount(g, +1);
  if (fl.target <= min_target_[g]) RefreshTop(g);
  if (fl.mark_gap >= 0) PushMark(f);
  NoteIfDue(g);
}

void FluidSolver::Leave(FlowId f) {
  Flow& fl = flows_[f];
  const int32_t g = fl.group;
  fl.group = -1;
  ChangeCount(g, -1);
  if (count_[g] == 0) {
    DropGroup(g);
    return;
  }
  if (groups_[g].heap.front().flow == f) RefreshTop(g);
  if (fl.mark_gap >= 0 && !groups_[g].marks.empty() && groups_[g].marks.front().flow == f) {
    RefreshMarkTop(g);
  }
  NoteIfDue(g);
}

void FluidSolver::Add(FlowId f, PathId path, Bytes size, FlowClass cls) {
  if (f >= static_cast<FlowId>(flows_.size())) flows_.resize(f + 1);
  Flow& fl = flows_[f];
  if (fl.group >= 0) throw std::logic_error("FluidSolver::Add: flow already active");
  fl.path = path;
  fl.size = size;
  fl.cls = cls;
  fl.explicit_rate = -1;
  fl.mark_gap = -1;
  ++active_flows_;
  Join(f, GroupFor(path, cls, -1), size);
}

Bytes FluidSolver::Remaining(FlowId f) const {
  const Flow& fl = flows_[f];
  if (fl.group < 0) return 0;
  return std::max(0.0, fl.target - ServiceNow(fl.group));
}

BytesPerSecond FluidSolver::Rate(FlowId f) const {
  const Flow& fl = flows_[f];
  return fl.group < 0 ? 0 : rate_[fl.group];
}

void FluidSolver::SetClass(FlowId f, FlowClass cls) {
  Flow& fl = flows_[f];
  if (fl.cls == cls) return;
  fl.cls = cls;
  if (fl.group < 0) return;
  const Bytes rem = Remaining(f);
  Leave(f);
  Join(f, GroupFor(fl.path, cls, fl.explicit_rate >= 0 ? f : -1), rem);
}

void FluidSolver::SetExplicitRate(FlowId f, BytesPerSecond rate) {
  Flow& fl = flows_[f];
  const bool was = fl.explicit_rate >= 0, now = rate >= 0;
  fl.explicit_rate = now ? rate : -1;
  if (fl.group >= 0 && was && now) explicit_rate_[fl.group] = rate;
  dirty_ = true;
  explicit_changed_ = true;
  if (fl.group < 0 || was == now) return;
  const Bytes rem = Remaining(f);
  Leave(f);
  Join(f, GroupFor(fl.path, fl.cls, now ? f : -1), rem);
}

void FluidSolver::CompactGroups() {
  // Move the highest live groups into the lowest free ids until the live ids are 0..live-1.
  for (int32_t from = hi_ - 1; from >= live_group_count_; --from) {
    if (!groups_[from].live) continue;
    std::pop_heap(free_groups_.begin(), free_groups_.end(), std::greater<>());
    const int32_t to = free_groups_.back();
    free_groups_.pop_back();
    MoveGroup(from, to);
  }
  hi_ = live_group_count_;
  free_groups_.clear();
  for (auto g = static_cast<int32_t>(groups_.size()); g-- > hi_;) free_groups_.push_back(g);
  std::make_heap(free_groups_.begin(), free_groups_.end(), std::greater<>());
}

void FluidSolver::MoveGroup(int32_t from, int32_t to) {
  groups_[to] = std::move(groups_[from]);
  groups_[from] = Group{};
  Group& grp = groups_[to];
  for (const HeapEntry& e : grp.heap) {
    if (flows_[e.flow].group == from) flows_[e.flow].group = to;
  }
  count_[to] = count_[from];
  SetRate(to, rate_[from]);  // a dead slot, rate 0 (keeps moving_in_block_ right)
  service_[to] = service_[from];
  min_target_[to] = min_target_[from];
  min_tol_[to] = min_tol_[from];
  min_mark_[to] = min_mark_[from];
  min_mark_tol_[to] = min_mark_tol_[from];
  explicit_rate_[to] = explicit_rate_[from];
  group_class_[to] = group_class_[from];
  group_pos_[to] = group_pos_[from];
  std::copy_n(&group_links_[from * kMaxPathLinks], kMaxPathLinks, &group_links_[to * kMaxPathLinks]);
  if (grp.explicit_flow < 0) group_index_[GroupKey{grp.path, grp.cls}] = to;
  const int32_t c = group_class_[to];
  if (c < 0) {
    explicit_groups_[group_pos_[to]] = to;
    if (explicit_link_pos_[2 * from] >= 0) {
      for (int k = 0; k < 2; ++k) {
        explicit_link_pos_[2 * to + k] = explicit_link_pos_[2 * from + k];
        explicit_link_pos_[2 * from + k] = -1;
        explicit_on_link_[GroupLinks(to)[k]][explicit_link_pos_[2 * to + k]] = to;
      }
    }
  } else {
    ClassState& cs = class_states_[c];
    cs.groups[group_pos_[to]] = to;
    if (cs.dense) SetCellGroup(cs, CellOf(cs, to), to);
    std::replace(cs.fresh.begin(), cs.fresh.end(), from, to);
  }
  std::replace(due_.begin(), due_.end(), from, to);
  std::replace(mark_due_.begin(), mark_due_.end(), from, to);
  mark_due_flag_[to] = mark_due_flag_[from];
  mark_due_flag_[from] = 0;
  ClearSlot(from);
}

void FluidSolver::ClearSlot(int32_t g) {
  count_[g] = 0;
  if (rate_[g] != 0) --moving_in_block_[g / kEventBlock];
  rate_[g] = 0;
  min_target_[g] = kForever;
  min_mark_[g] = kForever;
  group_class_[g] = -1;
}

void FluidSolver::Solve() {
  if (!dirty_) {
    if (marks_dirty_) ComputeNextCompletion();  // only marks changed: the same cheap pass
    return;
  }
  dirty_ = false;
  // Ids freed below hi_ make every whole-array pass longer; repack when over a ninth are dead.
  if (hi_ > fluid::kRepackMinIds &&
      fluid::kRepackIdsDenominator * hi_ > fluid::kRepackIdsNumerator * live_group_count_) {
    CompactGroups();
  }
  // Strict priority: a class's rates depend only on the classes above it. Without explicit
  // rates (whose backfill comes after every class) the classes above the first changed one
  // keep their rates, and the residual capacity they left is restored from the last of them,
  // if the saved residuals (one number per link per class) are not too many.
  const bool resumable = explicit_groups_.empty() &&
                         class_ids_.size() * capacity_.size() <= fluid::kMaxSavedResiduals;
  auto first = class_ids_.begin();
  if (resumable && dirty_from_ != kNoDirtyClass) {
    first = class_ids_.lower_bound(dirty_from_);
    if (first != class_ids_.begin() &&
        !class_states_[std::prev(first)->second].has_residual_after) {
      first = class_ids_.begin();
    }
  }
  dirty_from_ = kNoDirtyClass;
  if (first == class_ids_.begin()) {
    std::copy(capacity_.begin(), capacity_.end(), residual_.begin());
  } else {
    const auto& before = class_states_[std::prev(first)->second].residual_after;
    std::copy(before.begin(), before.end(), residual_.begin());
  }

  // Explicit rates first (SPEC §3, Varys MADD). Where they ask more of a link than it has, all
  // of them across it are scaled down by the same factor, so no order among them matters.
  // When no explicit rate was set or added since the last solve and that one scaled none down,
  // only explicit flows have left since: what they leave of each link (explicit_residual_,
  // given back by DropGroup) and every other explicit group's rate still hold, and the
  // backfill goes on from its last fill (FillDense with backfill_continues_).
  backfill_continues_ =
      !explicit_groups_.empty() && explicit_ready_ && !explicit_changed_ &&
      explicit_state_.dense && explicit_state_.has_levels &&
      DenseFits(explicit_groups_.size(), fluid::kExplicitLeaveCellsPerGroup);
  if (backfill_continues_) {
    ++stats_.continued_backfills;
    std::copy(explicit_residual_.begin(), explicit_residual_.end(), residual_.begin());
  } else if (!explicit_groups_.empty()) {
    for (int32_t g : explicit_groups_) {
      for (LinkId l : GroupLinks(g)) demand_[l] += explicit_rate_[g];
    }
    const auto links = static_cast<LinkId>(capacity_.size());
    // Sums that exceed a link by rounding only (MADD fills links exactly) are not scaled.
    auto over_link = [&](LinkId l) {
      return demand_[l] > residual_[l] * (1 + fluid::kExplicitSumRounding);
    };
    bool over = false;
    for (LinkId l = 0; l < links; ++l) over |= over_link(l);
    for (int32_t g : explicit_groups_) {
      double scale = 1;
      if (over) {
        for (LinkId l : GroupLinks(g)) {
          if (over_link(l)) scale = std::min(scale, std::max(0.0, residual_[l]) / demand_[l]);
        }
      }
      SetRate(g, explicit_rate_[g] * scale);
    }
    if (over) {
      std::fill(demand_.begin(), demand_.end(), 0.0);
      for (int32_t g : explicit_groups_) {
        for (LinkId l : GroupLinks(g)) demand_[l] += rate_[g];
      }
    }
    for (LinkId l = 0; l < links; ++l) {
      residual_[l] -= demand_[l];
      demand_[l] = 0;
    }
    std::copy(residual_.begin(), residual_.end(), explicit_residual_.begin());
    explicit_ready_ = !over;
    explicit_changed_ = false;
  }
  // Then each class in priority order, max-min within the class.
  for (auto it = first; it != class_ids_.end(); ++it) {
    ClassState& cs = class_states_[it->second];
    FillGroups(cs, cs.groups, /*add=*/false);
    cs.has_residual_after = resumable;
    if (resumable) cs.residual_after.assign(residual_.begin(), residual_.end());
  }
  // Work conservation: leftover capacity is backfilled to explicit-rate flows.
  if (!explicit_groups_.empty()) FillGroups(explicit_state_, explicit_groups_, /*add=*/true);
  ComputeNextCompletion();
}

void FluidSolver::FillGroups(ClassState& cs, std::span<const int32_t> groups, bool add) {
  // Dense once the matrix would be at most a few cells per group, sparse again only well
  // beyond. The explicit-rate backfill stays dense far sparser: only a dense one goes on from
  // its last fill (see Solve), and that beats starting a sparse one over.
  const bool backfill = &cs == &explicit_state_;
  const size_t enter =
      backfill ? fluid::kExplicitEnterCellsPerGroup : fluid::kDenseEnterCellsPerGroup;
  const size_t leave =
      backfill ? fluid::kExplicitLeaveCellsPerGroup : fluid::kDenseLeaveCellsPerGroup;
  if (!cs.dense && DenseFits(groups.size(), enter)) {
    BuildDense(cs, groups);
  } else if (cs.dense && !DenseFits(groups.size(), leave)) {
    cs.dense = false;
  }
  if (cs.dense) {
    FillDense(cs, groups, add);
  } else {
    WaterFill(groups, add);
  }
}

bool FluidSolver::TwoLinkShape() const {
  return !two_link_shared_ && two_link_groups_ == live_group_count_;
}

bool FluidSolver::DenseFits(size_t groups, size_t max_cells_per_group) const {
  return groups >= fluid::kDenseMinGroups && TwoLinkShape() &&
         row_link_.size() * col_link_.size() <= max_cells_per_group * groups;
}

void FluidSolver::BuildDense(ClassState& cs, std::span<const int32_t> groups) const {
  cs.rows = row_link_.size();
  cs.cols = col_link_.size();
  cs.matrix.assign(cs.rows * cs.cols, 0);
  cs.matrix_t.assign(cs.rows * cs.cols, 0);
  cs.cell_group.assign(cs.rows * cs.cols, -1);
  cs.cell_group_t.assign(cs.rows * cs.cols, -1);
  cs.line_weight.assign(cs.rows + cs.cols, 0);
  cs.has_local = false;
  for (int32_t g : groups) {
    const size_t cell = CellOf(cs, g);
    AddToCell(cs, cell, count_[g]);
    SetCellGroup(cs, cell, g);
  }
  cs.dense = true;
  cs.has_levels = false;
  cs.has_local = false;
  cs.seeds.clear();
  cs.is_seed.assign(cs.rows + cs.cols, 0);
  cs.fresh.clear();
}

void FluidSolver::DropAllDense() {
  for (const auto& [key, id] : class_ids_) class_states_[id].dense = false;
  explicit_state_.dense = false;
}

// Progressive filling: repeatedly take the link with the smallest fair share
// (residual / members), freeze every unfrozen group crossing it at that share, and charge the
// other links of those groups. Links are few (two per server) while groups are many, so each
// round finds the minimum by a linear scan over the links still carrying unfrozen groups.
void FluidSolver::WaterFill(std::span<const int32_t> groups, bool add) {
  touched_.clear();
  for (int32_t g : groups) {
    for (LinkId l : GroupLinks(g)) {
      if (adj_fill_[l] == 0) touched_.push_back(l);
      weight_[l] += count_[g];
      ++adj_fill_[l];
    }
  }
  int32_t total = 0;
  for (LinkId l : touched_) {
    adj_begin_[l] = total;
    total += adj_fill_[l];
    adj_fill_[l] = adj_begin_[l];
  }
  if (adj_.size() < static_cast<size_t>(total)) adj_.resize(total);
  for (size_t i = 0; i < groups.size(); ++i) {
    for (LinkId l : GroupLinks(groups[i])) adj_[adj_fill_[l]++] = static_cast<int32_t>(i);
  }
  frozen_.assign(groups.size(), 0);

  // Few groups over many links (a small priority class): a min-tree over link shares costs
  // O(log links) per charged link instead of a scan of all open links per round.
  if (touched_.size() * touched_.size() > fluid::kMinTreeLinksSquaredPerGroup * groups.size()) {
    FreezeWithMinTree(groups, add);
  } else {
    FreezeWithScan(groups, add);
  }
  for (LinkId l : touched_) {
    weight_[l] = 0;
    adj_fill_[l] = 0;
    if (residual_[l] < 0) residual_[l] = 0;
  }
}

// Freezes every group crossing link l at `share` and charges their other links; the charged
// links are left in dirty_links_.
void FluidSolver::FreezeLink(LinkId l, double share, std::span<const int32_t> groups, bool add) {
  for (int32_t k = adj_begin_[l]; k < adj_fill_[l]; ++k) {
    const int32_t i = adj_[k];
    if (frozen_[i]) continue;
    frozen_[i] = 1;
    const int32_t g = groups[i];
    SetRate(g, add ? rate_[g] + share : share);
    const double used = share * count_[g];
    for (LinkId l2 : GroupLinks(g)) {
      residual_[l2] -= used;
      weight_[l2] -= count_[g];
      if (!link_dirty_[l2]) {
        link_dirty_[l2] = 1;
        dirty_links_.push_back(l2);
      }
    }
  }
}

void FluidSolver::FreezeWithMinTree(std::span<const int32_t> groups, bool add) {
  const size_t n = touched_.size();
  size_t width = 1;
  while (width < n) width *= 2;
  min_tree_.assign(2 * width, kForever);
  auto share_of = [&](LinkId l) {
    return weight_[l] > 0 ? std::max(0.0, residual_[l]) / static_cast<double>(weight_[l])
                          : kForever;
  };
  for (size_t k = 0; k < n; ++k) {
    open_pos_[touched_[k]] = static_cast<int32_t>(k);
    min_tree_[width + k] = share_of(touched_[k]);
  }
  for (size_t v = width - 1; v >= 1; --v)
    min_tree_[v] = std::min(min_tree_[2 * v], min_tree_[2 * v + 1]);
  while (min_tree_[1] < kForever) {
    // Leftmost smallest share, as the scan would pick.
    size_t v = 1;
    while (v < width) v = min_tree_[2 * v] <= min_tree_[2 * v + 1] ? 2 * v : 2 * v + 1;
    const LinkId l = touched_[v - width];
    FreezeLink(l, min_tree_[1], groups, add);
    for (LinkId l2 : dirty_links_) {
      link_dirty_[l2] = 0;
      size_t u = width + open_pos_[l2];
      min_tree_[u] = share_of(l2);
      for (u /= 2; u >= 1; u /= 2) min_tree_[u] = std::min(min_tree_[2 * u], min_tree_[2 * u + 1]);
    }
    dirty_links_.clear();
  }
  for (LinkId l : touched_) open_pos_[l] = -1;
}

void FluidSolver::OpenTouchedLinks() {
  open_.assign(touched_.begin(), touched_.end());
  open_share_.resize(open_.size());
  for (size_t k = 0; k < open_.size(); ++k) {
    const LinkId l = open_[k];
    open_pos_[l] = static_cast<int32_t>(k);
    open_share_[k] = std::max(0.0, residual_[l]) / static_cast<double>(weight_[l]);
  }
}

// Recomputes the share of each link the last round charged (once per link), then drops the
// links left without unfrozen groups, calling on_closed for each.
template <class OnClosed>
void FluidSolver::RefreshOpenLinks(OnClosed on_closed) {
  for (LinkId l : dirty_links_) {
    link_dirty_[l] = 0;
    if (weight_[l] > 0) {
      open_share_[open_pos_[l]] = std::max(0.0, residual_[l]) / static_cast<double>(weight_[l]);
    }
  }
  dirty_links_.clear();
  size_t kept = 0;
  for (size_t k = 0; k < open_.size(); ++k) {
    const LinkId l = open_[k];
    if (weight_[l] > 0) {
      open_pos_[l] = static_cast<int32_t>(kept);
      open_share_[kept] = open_share_[k];
      open_[kept++] = l;
    } else {
      open_pos_[l] = -1;
      on_closed(l);
    }
  }
  open_.resize(kept);
  open_share_.resize(kept);
}

void FluidSolver::FreezeWithScan(std::span<const int32_t> groups, bool add) {
  // open_ = touched links that still carry unfrozen groups, with their current fair share.
  OpenTouchedLinks();
  while (!open_.empty()) {
    const size_t best = ArgMin(open_share_);
    const double share = open_share_[best];
    FreezeLink(open_[best], share, groups, add);
    RefreshOpenLinks([](LinkId) {});
  }
}

void FluidSolver::FillDense(ClassState& cs, std::span<const int32_t> groups, bool add) {
  // What a later local fill needs is kept only where local fills are used. A class's fill
  // always goes on from its last one; the explicit-rate backfill only when Solve says so (else
  // it starts from the explicit rates just set).
  const bool local_ready = cs.rows + cs.cols >= local_fill_min_links_;
  const bool continues = !add || backfill_continues_;
  if (local_ready && continues && cs.has_local && cs.has_levels) {
    // After a local fill that reached too far, the next ones are likely to as well: skip 1, 3,
    // 7, ... attempts, up to kLocalBackoffMax.
    if (cs.local_skip > 0) {
      --cs.local_skip;
    } else if (FillDenseLocal(cs)) {
      cs.local_backoff = 0;
      RateDenseGroups(cs, groups, add, /*incremental=*/true);
      return;
    } else {
      cs.local_backoff = std::min(2 * cs.local_backoff + 1, fluid::kLocalBackoffMax);
      cs.local_skip = cs.local_backoff;
    }
  }
  const size_t rows = cs.rows, cols = cs.cols;
  if (local_ready) {
    SaveLineResiduals(cs, cs.line_input);
    cs.order.clear();
  }
  touched_.clear();
  for (size_t r = 0; r < rows; ++r) {
    if (cs.line_weight[r] > 0) {
      weight_[row_link_[r]] = cs.line_weight[r];
      touched_.push_back(row_link_[r]);
    }
  }
  for (size_t k = 0; k < cols; ++k) {
    if (cs.line_weight[rows + k] > 0) {
      weight_[col_link_[k]] = cs.line_weight[rows + k];
      touched_.push_back(col_link_[k]);
    }
  }

  OpenTouchedLinks();
  // 1/w from a table: a charge is a multiply instead of a division (the hot spot of the fill).
  int64_t heaviest = 0;
  for (LinkId l : touched_) heaviest = std::max(heaviest, weight_[l]);
  while (static_cast<int64_t>(reciprocal_.size()) <= heaviest) {
    reciprocal_.push_back(1.0 / static_cast<double>(reciprocal_.size()));
  }
  auto reciprocal = [&](int64_t w) { return reciprocal_[w]; };
  // Closes open link lk at `level` (kForever: emptied by others without being a bottleneck).
  auto close = [&](LinkId lk, double level) {
    link_closed_[lk] = 1;
    level_[lk] = level;
    if (local_ready && level < kForever) cs.order.push_back(LineOf(cs, lk));
    const int32_t pos = open_pos_[lk];
    open_[pos] = open_.back();
    open_share_[pos] = open_share_.back();
    open_pos_[open_[pos]] = pos;
    open_.pop_back();
    open_share_.pop_back();
    open_pos_[lk] = -1;
  };
  // Charges the open partner link l2 for `count` members frozen at `share`.
  auto charge = [&](LinkId l2, int64_t count, double share) {
    if (count == 0 || link_closed_[l2]) return;
    residual_[l2] -= share * static_cast<double>(count);
    weight_[l2] -= count;
    if (weight_[l2] == 0) {
      close(l2, kForever);
    } else {
      open_share_[open_pos_[l2]] = std::max(0.0, residual_[l2]) * reciprocal(weight_[l2]);
    }
  };
  while (!open_.empty()) {
    const size_t best = ArgMin(open_share_);
    const double share = open_share_[best];
    const LinkId l = open_[best];
    residual_[l] -= share * static_cast<double>(weight_[l]);
    weight_[l] = 0;
    close(l, share);
    if (row_of_[l] >= 0) {
      const int32_t* row = &cs.matrix[row_of_[l] * cols];
      for (size_t c = 0; c < cols; ++c) charge(col_link_[c], row[c], share);
    } else {
      const int32_t* col = &cs.matrix_t[col_of_[l] * rows];
      for (size_t r = 0; r < rows; ++r) charge(row_link_[r], col[r], share);
    }
  }
  RateDenseGroups(cs, groups, add, /*incremental=*/continues && cs.has_levels);
  for (LinkId l : touched_) {
    weight_[l] = 0;
    link_closed_[l] = 0;
    if (residual_[l] < 0) residual_[l] = 0;
  }
  if (local_ready) {
    SaveLineResiduals(cs, cs.line_output);
    for (int32_t line : cs.seeds) cs.is_seed[line] = 0;
    cs.seeds.clear();
    cs.has_local = true;
  }
}

void FluidSolver::SaveLineResiduals(const ClassState& cs, std::vector<double>& out) const {
  out.resize(cs.rows + cs.cols);
  for (size_t i = 0; i < out.size(); ++i) out[i] = residual_[LineLink(cs, i)];
}

// Max-min levels are settled in increasing order, and a line's level depends on the others
// only through the groups it shares with them. So after a few cells or input capacities
// change, only a region of lines around them needs a new level: the fill is redone on the
// region, with each line outside it acting as a cap fixed at its old level. Lines outside
// whose groups would get a different rate join the region and it is filled again; when none
// do, every group still has a saturated bottleneck on which it has the highest rate, so the
// result is the max-min allocation (the fresh fill's, up to rounding).
bool FluidSolver::FillDenseLocal(ClassState& cs) {
  const size_t rows = cs.rows, cols = cs.cols, lines = rows + cols;
  in_region_.resize(lines);
  region_.clear();
  auto join = [&](int32_t i) {
    if (in_region_[i]) return;
    in_region_[i] = 1;
    region_.push_back(i);
  };
  for (int32_t i : cs.seeds) {
    join(i);
    cs.is_seed[i] = 0;
  }
  cs.seeds.clear();
  for (size_t i = 0; i < lines; ++i) {
    if (cs.line_weight[i] > 0 && residual_[LineLink(cs, i)] != cs.line_input[i]) {
      join(static_cast<int32_t>(i));
    }
  }
  region_res_.resize(lines);
  extra_use_.resize(lines);
  extra_use_flag_.resize(lines);
  region_share_.resize(lines);
  region_level_.resize(lines);
  region_weight_.resize(lines);
  bool local = true;
  for (;;) {
    // About as costly as the whole fill: leave it to that.
    if (fluid::kLocalRegionMaxFraction * region_.size() > lines) {
      local = false;
      break;
    }
    FillRegion(cs);
    // A saturated line outside whose groups with the region change rate joins it; so does an
    // unsaturated one (level kForever) that the new rates would overload.
    const size_t before = region_.size();
    unsaturated_.clear();
    for (size_t k = 0; k < before; ++k) {
      const int32_t i = region_[k];
      const double now = region_level_[i], was = cs.line_level[i];
      if (now == was) continue;
      const bool row = static_cast<size_t>(i) < rows;
      const int32_t* cell = row ? &cs.matrix[i * cols] : &cs.matrix_t[(i - rows) * rows];
      const size_t n = row ? cols : rows;
      const size_t other = row ? rows : 0;
      // A capped line m's groups with i change rate iff min(now, cap) != min(was, cap), that
      // is (now != was) iff cap > min(now, was): most lines fail that first, cheapest test.
      const double lo = std::min(now, was);
      const bool unbounded = !std::isfinite(now - was);
      const double* level = &cs.line_level[other];
      for (size_t j = 0; j < n; ++j) {
        if (cell[j] == 0 || level[j] <= lo) continue;
        const auto m = static_cast<int32_t>(other + j);
        if (in_region_[m]) continue;
        const double cap = level[j];
        if (cap < kForever || unbounded) {
          join(m);
          continue;
        }
        if (!extra_use_flag_[m]) {
          extra_use_flag_[m] = 1;
          extra_use_[m] = 0;
          unsaturated_.push_back(m);
        }
        extra_use_[m] += static_cast<double>(cell[j]) * (now - was);
      }
    }
    for (int32_t m : unsaturated_) {
      extra_use_flag_[m] = 0;
      if (!in_region_[m] && cs.line_output[m] - extra_use_[m] < 0) join(m);
    }
    if (region_.size() == before) break;
  }
  if (local) {
    // Levels for RateDenseGroups, residuals for the next class, and the new level order.
    for (int32_t m : unsaturated_) {
      if (!in_region_[m]) cs.line_output[m] = std::max(0.0, cs.line_output[m] - extra_use_[m]);
    }
    for (size_t i = 0; i < lines; ++i) {
      if (cs.line_weight[i] == 0) continue;
      const LinkId l = LineLink(cs, i);
      if (in_region_[i]) {
        level_[l] = region_level_[i];
        cs.line_input[i] = residual_[l];
        cs.line_output[i] = std::max(0.0, region_res_[i]);
      } else {
        level_[l] = cs.line_level[i];
      }
      residual_[l] = cs.line_output[i];
    }
    order_scratch_.clear();
    for (int32_t i : region_) {
      if (cs.line_weight[i] > 0 && region_level_[i] < kForever) order_scratch_.push_back(i);
    }
    std::sort(order_scratch_.begin(), order_scratch_.end(), [&](int32_t a, int32_t b) {
      return region_level_[a] != region_level_[b] ? region_level_[a] < region_level_[b] : a < b;
    });
    cs.order.erase(std::remove_if(cs.order.begin(), cs.order.end(),
                                  [&](int32_t i) { return in_region_[i] != 0; }),
                   cs.order.end());
    // Merged through a kept buffer (std::inplace_merge would allocate one at every call).
    order_merged_.resize(cs.order.size() + order_scratch_.size());
    std::merge(cs.order.begin(), cs.order.end(), order_scratch_.begin(), order_scratch_.end(),
               order_merged_.begin(), [&](int32_t a, int32_t b) {
                 auto lv = [&](int32_t i) {
                   return in_region_[i] ? region_level_[i] : cs.line_level[i];
                 };
                 return lv(a) < lv(b);
               });
    cs.order.swap(order_merged_);
  }
  for (int32_t i : region_) in_region_[i] = 0;
  ++(local ? stats_.local_fills : stats_.whole_fills);
  return local;
}

void FluidSolver::FillRegion(const ClassState& cs) {
  const size_t rows = cs.rows, cols = cs.cols;
  // The open lines, rows and columns apart: a line's groups meet only lines of the other kind.
  std::vector<int32_t>* open = region_open_;
  open[0].clear();
  open[1].clear();
  int64_t heaviest = 0;
  for (int32_t i : region_) {
    region_res_[i] = residual_[LineLink(cs, i)];
    region_weight_[i] = cs.line_weight[i];
    region_level_[i] = kForever;
    heaviest = std::max(heaviest, region_weight_[i]);
    if (region_weight_[i] > 0) {
      region_share_[i] = std::max(0.0, region_res_[i]) / static_cast<double>(region_weight_[i]);
      open[static_cast<size_t>(i) < rows ? 0 : 1].push_back(i);
    }
  }
  while (static_cast<int64_t>(reciprocal_.size()) <= heaviest) {
    reciprocal_.push_back(1.0 / static_cast<double>(reciprocal_.size()));
  }
  auto close = [&](std::vector<int32_t>& list, size_t pos, double level) {
    region_level_[list[pos]] = level;
    list[pos] = list.back();
    list.pop_back();
  };
  // Charges the open region lines across from line i (a row's columns, a column's rows) for
  // their groups with i, frozen at `level`.
  auto charge_across = [&](int32_t i, double level) {
    const bool row = static_cast<size_t>(i) < rows;
    std::vector<int32_t>& across = open[row ? 1 : 0];
    // The counts of i's cells: i's row of the matrix (column j at j - rows; unsigned, so the
    // offset may wrap below zero) or its column of the transpose.
    const int32_t* cells = row ? cs.matrix.data() : cs.matrix_t.data();
    const size_t offset = row ? i * cols - rows : (i - rows) * rows;
    for (size_t pos = 0; pos < across.size();) {
      const int32_t j = across[pos];
      const int32_t n = cells[offset + j];
      if (n == 0) {
        ++pos;
        continue;
      }
      region_res_[j] -= level * static_cast<double>(n);
      region_weight_[j] -= n;
      if (region_weight_[j] == 0) {
        close(across, pos, kForever);  // the next open line moved into pos
        continue;
      }
      region_share_[j] = std::max(0.0, region_res_[j]) * reciprocal_[region_weight_[j]];
      ++pos;
    }
  };
  size_t next = 0;  // into cs.order: the lines outside, by old level
  while (!open[0].empty() || !open[1].empty()) {
    // The open line with the smallest share (rows first on ties).
    size_t side = open[0].empty() ? 1 : 0, best = 0;
    for (size_t k = 0; k < 2; ++k) {
      for (size_t pos = 0; pos < open[k].size(); ++pos) {
        if (region_share_[open[k][pos]] < region_share_[open[side][best]]) {
          side = k;
          best = pos;
        }
      }
    }
    const int32_t b = open[side][best];
    const double share = region_share_[b];
    // The lines outside with a lower level cap their groups first. Charging them only raises
    // the shares of the open lines, so the minimum is found again only after all of them.
    bool capped = false;
    for (; next < cs.order.size(); ++next) {
      const int32_t m = cs.order[next];
      if (in_region_[m]) continue;
      if (cs.line_level[m] >= share) break;
      charge_across(m, cs.line_level[m]);
      capped = true;
    }
    if (capped) continue;
    region_res_[b] -= share * static_cast<double>(region_weight_[b]);
    region_weight_[b] = 0;
    close(open[side], best, share);
    charge_across(b, share);
  }
}

void FluidSolver::RateDenseGroups(ClassState& cs, std::span<const int32_t> groups, bool add,
                                  bool incremental) {
  const size_t rows = cs.rows, cols = cs.cols;
  // Every link of a group froze by the end, at its level or (emptied by others) at kForever; a
  // group froze with whichever froze first, the one with the lower level.
  auto rate_of = [&](int32_t g) {
    const LinkId* links = &group_links_[g * kMaxPathLinks + 1];
    return std::min(level_[links[0]], level_[links[1]]);
  };
  // Each row's and column's new level, so a cell's rate needs no look-up of its group's links.
  line_new_level_.resize(rows + cols);
  for (size_t r = 0; r < rows; ++r) line_new_level_[r] = level_[row_link_[r]];
  for (size_t c = 0; c < cols; ++c) line_new_level_[rows + c] = level_[col_link_[c]];
  const double* row_level = line_new_level_.data();
  const double* col_level = row_level + rows;
  if (!incremental) {
    for (int32_t g : groups) SetRate(g, add ? rate_[g] + rate_of(g) : rate_of(g));
  } else if (add) {
    // The explicit-rate backfill: a cell may hold many groups (one per flow), so the groups on
    // a line whose level moved come from explicit_on_link_; each is its explicit rate plus
    // the lower level of its two links.
    for (size_t i = 0; i < rows + cols; ++i) {
      if (cs.line_weight[i] == 0 || line_new_level_[i] == cs.line_level[i]) continue;
      for (int32_t g : explicit_on_link_[LineLink(cs, i)]) {
        SetRate(g, explicit_rate_[g] + rate_of(g));
      }
    }
  } else {
    for (size_t r = 0; r < rows; ++r) {
      if (cs.line_weight[r] == 0 || row_level[r] == cs.line_level[r]) continue;
      const int32_t* cell = &cs.cell_group[r * cols];
      for (size_t c = 0; c < cols; ++c) {
        if (cell[c] >= 0) SetRate(cell[c], std::min(row_level[r], col_level[c]));
      }
    }
    for (size_t c = 0; c < cols; ++c) {
      if (cs.line_weight[rows + c] == 0 || col_level[c] == cs.line_level[rows + c]) continue;
      const int32_t* cell = &cs.cell_group_t[c * rows];
      for (size_t r = 0; r < rows; ++r) {
        if (cell[r] >= 0) SetRate(cell[r], std::min(row_level[r], col_level[c]));
      }
    }
    for (int32_t g : cs.fresh) {
      if (count_[g] > 0 && group_class_[g] == &cs - class_states_.data()) SetRate(g, rate_of(g));
    }
  }
  // Remember the levels for the next fill of this class.
  cs.line_level.resize(rows + cols);
  for (size_t i = 0; i < rows + cols; ++i) {
    if (cs.line_weight[i] > 0) cs.line_level[i] = line_new_level_[i];
  }
  cs.has_levels = true;
  cs.fresh.clear();
}

void FluidSolver::ComputeNextCompletion() {
  marks_dirty_ = false;
  if (mark_count_ > 0) {
    NextEvents</*kMarks=*/true>();
  } else {
    NextEvents</*kMarks=*/false>();
  }
}

template <bool kMarks>
void FluidSolver::NextEvents() {
  // One pass over all groups: add the service since the last pass, find the next completion
  // (and mark), and keep as candidates the groups that may be done by then, the only ones
  // Advance needs to check. A group that is done at the next completion passes the candidate
  // test against every earlier (larger) running minimum too. Dead groups have an infinite
  // target and zero rate, so they never pass.
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
  // Blocks of 16 groups, two per vector op (the same IEEE operations as the scalar code, so
  // the same results): the service update, and a test against the running minimum at the
  // start of the block, which is at least the one the scalar test would use. The test's lane
  // masks are OR-ed over the block and read out once (reading them per op cost more than the
  // arithmetic); only blocks with a possible candidate (rarely any) are tested group by group.
  using V = double __attribute__((vector_size(16)));  // two doubles: SSE2, any x86-64
  auto load = [](const double* p) {
    V v;
    std::memcpy(&v, p, sizeof v);
    return v;
  };
  using M = decltype(V{} < V{});  // a lane mask per double
  auto passes_mask = [](V left, V tolerance, V limit) {
    const V positive = limit > 0 ? limit : V{};  // also maps NaN (0 * inf) to 0
    return left - tolerance <= positive;
  };
  // A block whose groups all have rate 0 is skipped: their services do not move, and such a
  // group passes the test only if already due, which only a change that NoteIfDue saw can make
  // it (when it had a rate it was found due by the search before, and then taken out). Under
  // aalo two thirds of the groups wait at rate 0 behind higher-priority coflows.
  constexpr size_t kBlock = kEventBlock;
  const bool full = full_pass_;
  full_pass_ = false;
  size_t g = 0;
  for (; g + kBlock <= n; g += kBlock) {
    if (!full && moving_in_block_[g / kBlock] == 0) continue;
    M any{};
    for (size_t h = g; h < g + kBlock; h += 2) {
      const V r = load(rate + h);
      const V sv = load(service + h) + r * dt;
      std::memcpy(service + h, &sv, sizeof sv);
      any |= passes_mask(load(target + h) - sv, load(tol + h), best * r);
      if constexpr (kMarks) {
        any |= passes_mask(load(mark + h) - sv, load(mark_tol + h), best_mark * r);
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
  // Keep the candidates that pass against the final minimum.
  auto passes = [&](double left, int32_t g, double tolerance, double in) {
    return left - tolerance <= std::max(0.0, in * rate[g]);
  };
  std::erase_if(candidates_, [&](int32_t g) {
    return !passes(target[g] - service[g], g, tol[g], best);
  });
  std::erase_if(mark_candidates_, [&](int32_t g) {
    return !passes(mark[g] - service[g], g, mark_tol[g], best_mark);
  });
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
