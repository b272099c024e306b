// How GroupTable keeps its groups: finding or making the group of a (path, class), flows
// joining and leaving groups, listing groups in their class and its dense matrix, each group's
// earliest completion and mark, and repacking group ids.
#include "rates/groups.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "api/tolerance.h"
#include "rates/tuning.h"

namespace slotflow::rates {
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

// Completion (or mark) tolerance: relative to the flow, plus rounding of the service
// counter.
double Tolerance(Bytes size, double target) {
  return kRelTolerance * std::max(size, 1.0) + kServiceRounding * std::abs(target);
}
}  // namespace

GroupTable::GroupTable(size_t links)
    : paths(static_cast<int>(links)),
      shape(links),
      explicit_residual(links, 0),
      explicit_on_link(links) {}

void GroupTable::Add(FlowId f, PathId path, Bytes size, FlowClass cls) {
  flows.Grow(static_cast<size_t>(f) + 1);
  Flow& fl = flows[f];
  if (fl.group >= 0) throw std::logic_error("FluidSolver::Add: flow already active");
  fl.path = path;
  paths.Hold(path);
  fl.size = size;
  fl.cls = cls;
  fl.explicit_rate = -1;
  fl.mark_gap = -1;
  ++active_flows;
  Join(f, GroupFor(path, cls, kNoFlow), size);
}

Bytes GroupTable::Remaining(FlowId f) const {
  const Flow& fl = flows[f];
  if (fl.group < 0) return 0;
  return std::max(0.0, fl.target - ServiceNow(fl.group));
}

void GroupTable::SetClass(FlowId f, FlowClass cls) {
  Flow& fl = flows[f];
  if (fl.cls == cls) return;
  fl.cls = cls;
  if (fl.group < 0) return;
  const Bytes rem = Remaining(f);
  Leave(f);
  Join(f, GroupFor(fl.path, cls, fl.explicit_rate >= 0 ? f : kNoFlow), rem);
}

void GroupTable::SetExplicitRate(FlowId f, BytesPerSecond r) {
  Flow& fl = flows[f];
  const bool was = fl.explicit_rate >= 0, now = r >= 0;
  fl.explicit_rate = now ? r : -1;
  if (fl.group >= 0 && was && now) explicit_rate[fl.group] = r;
  dirty = true;
  explicit_changed = true;
  if (fl.group < 0 || was == now) return;
  const Bytes rem = Remaining(f);
  Leave(f);
  Join(f, GroupFor(fl.path, fl.cls, now ? f : kNoFlow), rem);
}

void GroupTable::Join(FlowId f, int32_t g, Bytes remaining) {
  Group& grp = groups[g];
  Flow& fl = flows[f];
  fl.group = g;
  fl.target = ServiceNow(g) + remaining;
  grp.heap.push_back(HeapEntry{fl.target, f});
  std::push_heap(grp.heap.begin(), grp.heap.end(), std::greater<>());
  ChangeCount(g, +1);
  if (fl.target <= min_target[g]) RefreshTop(g);
  if (fl.mark_gap >= 0) PushMark(f);
  NoteIfDue(g);
}

void GroupTable::Leave(FlowId f) {
  Flow& fl = flows[f];
  const int32_t g = fl.group;
  fl.group = -1;
  ChangeCount(g, -1);
  if (count[g] == 0) {
    DropGroup(g);
    return;
  }
  if (groups[g].heap.front().flow == f) RefreshTop(g);
  if (fl.mark_gap >= 0 && !groups[g].marks.empty() && groups[g].marks.front().flow == f) {
    RefreshMarkTop(g);
  }
  NoteIfDue(g);
}

void GroupTable::ChangeCount(int32_t g, int32_t delta) {
  count[g] += delta;
  dirty = true;
  const int32_t c = group_class[g];
  // Explicit-rate groups keep a dense state of their own for the backfill.
  ClassState& cs = c >= 0 ? class_states[c] : explicit_state;
  if (c >= 0) dirty_from = std::min(dirty_from, cs.key);
  if (cs.dense) AddToCell(cs, CellOf(cs, g), delta);
  // Its links are where the next local water fill of its class starts.
  if (c >= 0 && cs.sparse.valid) {
    SparseLocal& sl = cs.sparse;
    if (sl.changed.empty() || sl.changed.back() != g) sl.changed.push_back(g);
    for (LinkId l : GroupLinks(g)) {
      if (!sl.is_seed[l]) {
        sl.is_seed[l] = 1;
        sl.seeds.push_back(l);
      }
      sl.pending_use[l] += delta * rate[g];
      if (!sl.listed[l]) {
        sl.listed[l] = 1;
        sl.links.push_back(l);
        sl.level[l] = 0;  // new to the class: filled in the region
      }
    }
  }
}

void GroupTable::TrackLinks() {
  if (links_tracked_) return;
  links_tracked_ = true;
  on_link_.assign(explicit_on_link.size(), {});
  on_link_pos_.assign(groups.size() * kMaxPathLinks, -1);
  for (int32_t g = 0; g < hi; ++g) {
    if (groups[g].live && groups[g].explicit_flow < 0) ListOnLinks(g);
  }
}

void GroupTable::ListOnLinks(int32_t g) {
  const auto links = GroupLinks(g);
  for (size_t k = 0; k < links.size(); ++k) {
    on_link_pos_[g * kMaxPathLinks + k] = static_cast<int32_t>(on_link_[links[k]].size());
    on_link_[links[k]].push_back(g);
  }
}

void GroupTable::UnlistOnLinks(int32_t g) {
  const auto links = GroupLinks(g);
  for (size_t k = 0; k < links.size(); ++k) {
    std::vector<int32_t>& on = on_link_[links[k]];
    const int32_t at = on_link_pos_[g * kMaxPathLinks + k];
    const auto last = static_cast<int32_t>(on.size() - 1);
    const int32_t moved = on[last];
    on[at] = moved;
    on.pop_back();
    on_link_pos_[g * kMaxPathLinks + k] = -1;
    if (at == last) continue;
    // The moved entry's slot: the one of its path's slots on this link that pointed at `last`.
    const auto moved_links = GroupLinks(moved);
    for (size_t k2 = 0; k2 < moved_links.size(); ++k2) {
      int32_t& pos = on_link_pos_[moved * kMaxPathLinks + k2];
      if (moved_links[k2] == links[k] && pos == last) {
        pos = at;
        break;
      }
    }
  }
}

int32_t GroupTable::GroupFor(PathId path, FlowClass cls, FlowId explicit_flow) {
  // An explicit-rate group holds one flow, which asks for it only when not in it: it is always
  // new, and never looked up (varys makes and drops millions, by re-ranking).
  if (explicit_flow < 0) {
    if (static_cast<size_t>(path) >= path_first_.size()) {
      path_first_.resize(static_cast<size_t>(path) + 1, -1);
    }
    for (int32_t g = path_first_[path]; g >= 0; g = path_next_[g]) {
      if (groups[g].cls == cls) return g;
    }
  }
  const int32_t g = TakeGroupId();
  Group& grp = groups[g];
  grp.path = path;
  grp.cls = cls;
  grp.explicit_flow = explicit_flow;
  grp.heap.clear();
  grp.marks.clear();
  grp.live = true;
  count[g] = 0;
  rate[g] = 0;
  service[g] = 0;
  min_target[g] = kForever;
  min_mark[g] = kForever;
  const auto links = paths.Links(path);
  group_links[g * kMaxPathLinks] = static_cast<LinkId>(links.size());
  std::copy(links.begin(), links.end(), &group_links[g * kMaxPathLinks + 1]);
  if (explicit_flow >= 0) {
    ListExplicitGroup(g, links);
  } else {
    ListClassGroup(g, cls, links);
  }
  NoteGroupShape(links);
  if (explicit_flow < 0) {
    path_next_[g] = path_first_[path];
    path_first_[path] = g;
  }
  return g;
}

int32_t GroupTable::TakeGroupId() {
  int32_t g;
  if (!free_groups_.empty()) {
    std::pop_heap(free_groups_.begin(), free_groups_.end(), std::greater<>());
    g = free_groups_.back();
    free_groups_.pop_back();
  } else {
    g = static_cast<int32_t>(groups.size());
    groups.emplace_back();
    count.push_back(0);
    rate.push_back(0);
    moving_in_block.resize(rate.size() / kEventBlock + 1, 0);
    service.push_back(0);
    min_target.push_back(kForever);
    min_tol.push_back(0);
    min_mark.push_back(kForever);
    min_mark_tol.push_back(0);
    explicit_rate.push_back(-1);
    group_class.push_back(-1);
    group_pos.push_back(-1);
    path_next_.push_back(-1);
    explicit_link_pos.push_back(-1);
    explicit_link_pos.push_back(-1);
    group_links.resize(group_links.size() + kMaxPathLinks, LinkId{0});
    if (links_tracked_) on_link_pos_.resize(group_links.size(), -1);
  }
  hi = std::max(hi, g + 1);
  ++live_group_count;
  return g;
}

void GroupTable::ListExplicitGroup(int32_t g, std::span<const LinkId> links) {
  group_class[g] = -1;  // explicit-rate groups are served before any class
  group_pos[g] = static_cast<int32_t>(explicit_groups.size());
  explicit_groups.push_back(g);
  explicit_rate[g] = flows[groups[g].explicit_flow].explicit_rate;
  explicit_changed = true;
  if (links.size() == 2 && links[0] != links[1]) {
    for (int k = 0; k < 2; ++k) {
      explicit_link_pos[2 * g + k] = static_cast<int32_t>(explicit_on_link[links[k]].size());
      explicit_on_link[links[k]].push_back(g);
    }
  }
}

void GroupTable::ListClassGroup(int32_t g, FlowClass cls, std::span<const LinkId> links) {
  auto [c, added] = class_ids.try_emplace(cls, -1);
  if (added) {
    if (free_class_ids_.empty()) {
      c->second = static_cast<int32_t>(class_states.size());
      class_states.emplace_back();
    } else {
      c->second = free_class_ids_.back();
      free_class_ids_.pop_back();
    }
    ClassState& cs = class_states[c->second];
    cs.key = cls;
    cs.groups.clear();
    cs.dense = false;
    cs.has_residual_after = false;
    cs.sparse.valid = false;
    dirty_from = std::min(dirty_from, cls);
  }
  ClassState& cs = class_states[c->second];
  group_class[g] = c->second;
  group_pos[g] = static_cast<int32_t>(cs.groups.size());
  cs.groups.push_back(g);
  if (cs.dense && links.size() == 2 && shape.row_of[links[0]] >= 0 && shape.col_of[links[1]] >= 0) {
    SetCellGroup(cs, CellOf(cs, g), g);
    cs.fresh.push_back(g);
  }
  if (links_tracked_) ListOnLinks(g);
}

void GroupTable::NoteGroupShape(std::span<const LinkId> links) {
  if (links.size() == 2) {
    ++shape.two_link_groups;
    // A new row or column changes the shape of the dense matrices, so they are rebuilt at the
    // next solve.
    if (shape.row_of[links[0]] < 0) {
      shape.shared |= shape.col_of[links[0]] >= 0;
      shape.row_of[links[0]] = static_cast<int32_t>(shape.row_link.size());
      shape.row_link.push_back(links[0]);
      DropAllDense();
    }
    if (shape.col_of[links[1]] < 0) {
      shape.shared |= shape.row_of[links[1]] >= 0;
      shape.col_of[links[1]] = static_cast<int32_t>(shape.col_link.size());
      shape.col_link.push_back(links[1]);
      DropAllDense();
    }
  } else {
    DropAllDense();  // no longer every group on two links
  }
}

void GroupTable::DropAllDense() {
  for (const auto& [key, id] : class_ids) class_states[id].dense = false;
  explicit_state.dense = false;
}

void GroupTable::DropGroup(int32_t g) {
  Group& grp = groups[g];
  if (grp.explicit_flow < 0) PathLink(grp.path, g) = path_next_[g];
  // Unlink g from its class (or the explicit list) by moving the last one into its place.
  std::vector<int32_t>& list =
      grp.explicit_flow >= 0 ? explicit_groups : class_states[group_class[g]].groups;
  const int32_t pos = group_pos[g];
  list[pos] = list.back();
  group_pos[list[pos]] = pos;
  list.pop_back();
  if (grp.explicit_flow >= 0 && explicit_link_pos[2 * g] >= 0) UnlistExplicitLinks(g);
  if (grp.explicit_flow < 0 && class_states[group_class[g]].dense) {
    ClassState& cs = class_states[group_class[g]];
    SetCellGroup(cs, CellOf(cs, g), -1);
  }
  if (grp.explicit_flow < 0 && list.empty()) {
    ClassState& cs = class_states[group_class[g]];
    cs.dense = false;
    cs.has_residual_after = false;
    free_class_ids_.push_back(group_class[g]);
    class_ids.erase(cs.key);
    dirty_from = std::min(dirty_from, cs.key);
  }
  if (links_tracked_ && grp.explicit_flow < 0) UnlistOnLinks(g);
  if (GroupLinks(g).size() == 2) --shape.two_link_groups;
  grp.live = false;
  grp.heap.clear();
  grp.heap.shrink_to_fit();
  grp.marks.clear();
  grp.marks.shrink_to_fit();
  ClearSlot(g);
  --live_group_count;
  free_groups_.push_back(g);
  std::push_heap(free_groups_.begin(), free_groups_.end(), std::greater<>());
  while (hi > 0 && !groups[hi - 1].live) --hi;
}

void GroupTable::UnlistExplicitLinks(int32_t g) {
  for (int k = 0; k < 2; ++k) {
    const LinkId l = GroupLinks(g)[k];
    // Its explicit rate no longer taken from the link (see ExplicitRates::Serve).
    explicit_residual[l] += explicit_rate[g];
    std::vector<int32_t>& on = explicit_on_link[l];
    const int32_t at = explicit_link_pos[2 * g + k];
    on[at] = on.back();
    explicit_link_pos[2 * on[at] + (GroupLinks(on[at])[0] == l ? 0 : 1)] = at;
    on.pop_back();
    explicit_link_pos[2 * g + k] = -1;
  }
}

int32_t GroupTable::TakeLowestFreeId() {
  std::pop_heap(free_groups_.begin(), free_groups_.end(), std::greater<>());
  const int32_t to = free_groups_.back();
  free_groups_.pop_back();
  return to;
}

void GroupTable::FreeIdsAboveLive() {
  hi = live_group_count;
  free_groups_.clear();
  for (auto g = static_cast<int32_t>(groups.size()); g-- > hi;) free_groups_.push_back(g);
  std::make_heap(free_groups_.begin(), free_groups_.end(), std::greater<>());
}

void GroupTable::MoveGroup(int32_t from, int32_t to) {
  groups[to] = std::move(groups[from]);
  groups[from] = Group{};
  Group& grp = groups[to];
  for (const HeapEntry& e : grp.heap) {
    if (flows.Readable(e.flow) && flows[e.flow].group == from) flows[e.flow].group = to;
  }
  count[to] = count[from];
  SetRate(to, rate[from]);  // a dead slot, rate 0 (keeps moving_in_block right)
  service[to] = service[from];
  min_target[to] = min_target[from];
  min_tol[to] = min_tol[from];
  min_mark[to] = min_mark[from];
  min_mark_tol[to] = min_mark_tol[from];
  explicit_rate[to] = explicit_rate[from];
  group_class[to] = group_class[from];
  group_pos[to] = group_pos[from];
  std::copy_n(&group_links[from * kMaxPathLinks], kMaxPathLinks, &group_links[to * kMaxPathLinks]);
  if (grp.explicit_flow < 0) {
    PathLink(grp.path, from) = to;
    path_next_[to] = path_next_[from];
  }
  const int32_t c = group_class[to];
  if (c < 0) {
    explicit_groups[group_pos[to]] = to;
    if (explicit_link_pos[2 * from] >= 0) {
      for (int k = 0; k < 2; ++k) {
        explicit_link_pos[2 * to + k] = explicit_link_pos[2 * from + k];
        explicit_link_pos[2 * from + k] = -1;
        explicit_on_link[GroupLinks(to)[k]][explicit_link_pos[2 * to + k]] = to;
      }
    }
  } else {
    if (links_tracked_) {
      const auto links = GroupLinks(to);
      for (size_t k = 0; k < links.size(); ++k) {
        const int32_t at = on_link_pos_[from * kMaxPathLinks + k];
        on_link_[links[k]][at] = to;
        on_link_pos_[to * kMaxPathLinks + k] = at;
        on_link_pos_[from * kMaxPathLinks + k] = -1;
      }
    }
    ClassState& cs = class_states[c];
    if (cs.sparse.valid) std::replace(cs.sparse.changed.begin(), cs.sparse.changed.end(), from, to);
    cs.groups[group_pos[to]] = to;
    if (cs.dense) SetCellGroup(cs, CellOf(cs, to), to);
    std::replace(cs.fresh.begin(), cs.fresh.end(), from, to);
  }
  ClearSlot(from);
}

int32_t& GroupTable::PathLink(PathId p, int32_t g) {
  int32_t* link = &path_first_[p];
  while (*link != g) link = &path_next_[*link];
  return *link;
}

void GroupTable::ClearSlot(int32_t g) {
  count[g] = 0;
  if (rate[g] != 0) --moving_in_block[g / kEventBlock];
  rate[g] = 0;
  min_target[g] = kForever;
  min_mark[g] = kForever;
  group_class[g] = -1;
}

void GroupTable::RefreshTop(int32_t g) {
  const HeapEntry* top = ValidTop(groups[g].heap, [&](const HeapEntry& e) {
    if (!flows.Readable(e.flow)) return false;
    const Flow& fl = flows[e.flow];
    return fl.group == g && fl.target == e.target;
  });
  min_target[g] = top ? top->target : kForever;
  if (top) min_tol[g] = Tolerance(flows[top->flow].size, top->target);
}

void GroupTable::RefreshMarkTop(int32_t g) {
  const HeapEntry* top = ValidTop(groups[g].marks, [&](const HeapEntry& e) {
    if (!flows.Readable(e.flow)) return false;
    const Flow& fl = flows[e.flow];
    return fl.group == g && fl.mark_gap >= 0 && fl.mark_target == e.target;
  });
  min_mark[g] = top ? top->target : kForever;
  if (top) min_mark_tol[g] = Tolerance(flows[top->flow].size, top->target);
}

void GroupTable::PushMark(FlowId f) {
  Flow& fl = flows[f];
  Group& grp = groups[fl.group];
  fl.mark_target = fl.target - fl.mark_gap;
  grp.marks.push_back(HeapEntry{fl.mark_target, f});
  std::push_heap(grp.marks.begin(), grp.marks.end(), std::greater<>());
  if (fl.mark_target <= min_mark[fl.group]) RefreshMarkTop(fl.group);
  marks_dirty = true;
}

void GroupTable::SetMark(FlowId f, Bytes sent) {
  Flow& fl = flows[f];
  if (fl.group < 0) return;
  if (fl.mark_gap < 0) ++mark_count;
  const auto& marks = groups[fl.group].marks;
  const bool was_top = !marks.empty() && marks.front().flow == f;
  fl.mark_gap = fl.size - sent;
  PushMark(f);
  if (was_top) RefreshMarkTop(fl.group);  // its old entry is stale now
  NoteIfDue(fl.group);
}

void GroupTable::ClearMark(FlowId f) {
  Flow& fl = flows[f];
  if (fl.group < 0 || fl.mark_gap < 0) return;
  fl.mark_gap = -1;
  --mark_count;
  RefreshMarkTop(fl.group);
  NoteIfDue(fl.group);
  marks_dirty = true;
}

}  // namespace slotflow::rates
