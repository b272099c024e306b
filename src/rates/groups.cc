// FluidSolver's bookkeeping of paths, flows and groups: interning paths, finding or making the
// group of a (path, class), flows joining and leaving groups, and repacking group ids.
#include <algorithm>
#include <stdexcept>

#include "rates/fluid_solver.h"
#include "rates/tuning.h"

namespace slotflow {
namespace {
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

void FluidSolver::ChangeCount(int32_t g, int32_t delta) {
  count_[g] += delta;
  dirty_ = true;
  const int32_t c = group_class_[g];
  // Explicit-rate groups keep a dense state of their own for the backfill.
  ClassState& cs = c >= 0 ? class_states_[c] : explicit_state_;
  if (c >= 0) dirty_from_ = std::min(dirty_from_, cs.key);
  if (cs.dense) AddToCell(cs, CellOf(cs, g), delta);
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
  const int32_t g = TakeGroupId();
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
    ListExplicitGroup(g, links);
  } else {
    ListClassGroup(g, cls, links);
  }
  NoteGroupShape(links);
  if (index != nullptr) *index = g;
  return g;
}

int32_t FluidSolver::TakeGroupId() {
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
  return g;
}

void FluidSolver::ListExplicitGroup(int32_t g, std::span<const LinkId> links) {
  group_class_[g] = -1;  // explicit-rate groups are served before any class
  group_pos_[g] = static_cast<int32_t>(explicit_groups_.size());
  explicit_groups_.push_back(g);
  explicit_rate_[g] = flows_[groups_[g].explicit_flow].explicit_rate;
  explicit_changed_ = true;
  if (links.size() == 2 && links[0] != links[1]) {
    for (int k = 0; k < 2; ++k) {
      explicit_link_pos_[2 * g + k] = static_cast<int32_t>(explicit_on_link_[links[k]].size());
      explicit_on_link_[links[k]].push_back(g);
    }
  }
}

void FluidSolver::ListClassGroup(int32_t g, FlowClass cls, std::span<const LinkId> links) {
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

void FluidSolver::NoteGroupShape(std::span<const LinkId> links) {
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
  if (grp.explicit_flow >= 0 && explicit_link_pos_[2 * g] >= 0) UnlistExplicitLinks(g);
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

void FluidSolver::UnlistExplicitLinks(int32_t g) {
  for (int k = 0; k < 2; ++k) {
    const LinkId l = GroupLinks(g)[k];
    // Its explicit rate no longer taken from the link (see SetExplicitRates).
    explicit_residual_[l] += explicit_rate_[g];
    std::vector<int32_t>& on = explicit_on_link_[l];
    const int32_t at = explicit_link_pos_[2 * g + k];
    on[at] = on.back();
    explicit_link_pos_[2 * on[at] + (GroupLinks(on[at])[0] == l ? 0 : 1)] = at;
    on.pop_back();
    explicit_link_pos_[2 * g + k] = -1;
  }
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
  std::copy_n(&group_links_[from * kMaxPathLinks], kMaxPathLinks,
              &group_links_[to * kMaxPathLinks]);
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

}  // namespace slotflow
