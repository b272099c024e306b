#include "network/fluid_solver.h"

#include <algorithm>
#include <stdexcept>

namespace slotflow {
namespace {
// A flow is done when its remaining bytes are within this fraction of its size (SPEC §3).
constexpr double kRelativeEpsilon = 1e-9;

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

uint64_t Mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h;
}
}  // namespace

size_t FluidSolver::GroupKeyHash::operator()(const GroupKey& k) const {
  uint64_t h = Mix(0, static_cast<uint64_t>(k.path));
  h = Mix(h, static_cast<uint64_t>(k.cls));
  return Mix(h, static_cast<uint64_t>(static_cast<int64_t>(k.explicit_flow)));
}

FluidSolver::FluidSolver(std::vector<BytesPerSecond> link_capacities)
    : capacity_(std::move(link_capacities)),
      residual_(capacity_),
      weight_(capacity_.size(), 0),
      adj_begin_(capacity_.size(), 0),
      adj_fill_(capacity_.size(), 0),
      link_dirty_(capacity_.size(), 0),
      open_pos_(capacity_.size(), -1),
      row_of_(capacity_.size(), -1),
      col_of_(capacity_.size(), -1),
      level_(capacity_.size(), 0),
      freeze_round_(capacity_.size(), -1) {
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
  const GroupKey key{path, cls, explicit_flow};
  auto [it, inserted] = group_index_.try_emplace(key, -1);
  if (!inserted) return it->second;
  int32_t g;
  if (!free_groups_.empty()) {
    g = free_groups_.back();
    free_groups_.pop_back();
  } else {
    g = static_cast<int32_t>(groups_.size());
    groups_.emplace_back();
    count_.push_back(0);
    rate_.push_back(0);
    service_.push_back(0);
    min_target_.push_back(kForever);
    min_tol_.push_back(0);
    group_class_.push_back(-1);
    group_links_.resize(group_links_.size() + kMaxPathLinks);
  }
  Group& grp = groups_[g];
  grp.path = path;
  grp.cls = cls;
  grp.explicit_flow = explicit_flow;
  grp.heap.clear();
  grp.live_pos = static_cast<int32_t>(live_groups_.size());
  count_[g] = 0;
  rate_[g] = 0;
  service_[g] = 0;
  min_target_[g] = kForever;
  const auto links = PathLinks(path);
  group_links_[g * kMaxPathLinks] = static_cast<LinkId>(links.size());
  std::copy(links.begin(), links.end(), &group_links_[g * kMaxPathLinks + 1]);
  live_groups_.push_back(g);
  if (explicit_flow >= 0) {
    group_class_[g] = -1;  // explicit-rate groups are served before any class
    ++explicit_group_count_;
  } else {
    auto [c, added] = classes_.try_emplace(cls);
    if (added) {
      if (free_class_ids_.empty()) {
        c->second.id = static_cast<int32_t>(class_id_count_++);
      } else {
        c->second.id = free_class_ids_.back();
        free_class_ids_.pop_back();
      }
    }
    ++c->second.groups;
    group_class_[g] = c->second.id;
  }
  if (links.size() == 2) {
    ++two_link_groups_;
    // Persistent row/column of the two-link matrix (see WaterFillTwoLink).
    if (row_of_[links[0]] < 0) {
      two_link_shared_ |= col_of_[links[0]] >= 0;
      row_of_[links[0]] = static_cast<int32_t>(row_link_.size());
      row_link_.push_back(links[0]);
    }
    if (col_of_[links[1]] < 0) {
      two_link_shared_ |= row_of_[links[1]] >= 0;
      col_of_[links[1]] = static_cast<int32_t>(col_link_.size());
      col_link_.push_back(links[1]);
    }
  }
  it->second = g;
  return g;
}

void FluidSolver::DropGroup(int32_t g) {
  Group& grp = groups_[g];
  group_index_.erase(GroupKey{grp.path, grp.cls, grp.explicit_flow});
  if (grp.explicit_flow >= 0) {
    --explicit_group_count_;
  } else if (auto c = classes_.find(grp.cls); --c->second.groups == 0) {
    free_class_ids_.push_back(c->second.id);
    classes_.erase(c);
  }
  if (GroupLinks(g).size() == 2) --two_link_groups_;
  const int32_t pos = grp.live_pos;
  live_groups_[pos] = live_groups_.back();
  groups_[live_groups_[pos]].live_pos = pos;
  live_groups_.pop_back();
  grp.live_pos = -1;
  grp.heap.clear();
  grp.heap.shrink_to_fit();
  count_[g] = 0;
  rate_[g] = 0;
  min_target_[g] = kForever;
  free_groups_.push_back(g);
}

void FluidSolver::RefreshTop(int32_t g) {
  Group& grp = groups_[g];
  while (!grp.heap.empty()) {
    const HeapEntry& top = grp.heap.front();
    const Flow& fl = flows_[top.flow];
    if (fl.group == g && fl.target == top.target) {
      min_target_[g] = top.target;
      // Relative to the flow, plus rounding of the group's service counter.
      min_tol_[g] = kRelativeEpsilon * std::max(fl.size, 1.0) + 1e-12 * top.target;
      return;
    }
    std::pop_heap(grp.heap.begin(), grp.heap.end(), std::greater<>());
    grp.heap.pop_back();
  }
  min_target_[g] = kForever;
}

void FluidSolver::Join(FlowId f, int32_t g, Bytes remaining) {
  Group& grp = groups_[g];
  Flow& fl = flows_[f];
  fl.group = g;
  fl.target = service_[g] + remaining;
  grp.heap.push_back(HeapEntry{fl.target, f});
  std::push_heap(grp.heap.begin(), grp.heap.end(), std::greater<>());
  ++count_[g];
  if (fl.target <= min_target_[g]) RefreshTop(g);
  dirty_ = true;
}

void FluidSolver::Leave(FlowId f) {
  Flow& fl = flows_[f];
  const int32_t g = fl.group;
  fl.group = -1;
  dirty_ = true;
  if (--count_[g] == 0) {
    DropGroup(g);
  } else if (groups_[g].heap.front().flow == f) {
    RefreshTop(g);
  }
}

void FluidSolver::Add(FlowId f, PathId path, Bytes size, FlowClass cls) {
  if (f >= static_cast<FlowId>(flows_.size())) flows_.resize(f + 1);
  Flow& fl = flows_[f];
  if (fl.group >= 0) throw std::logic_error("FluidSolver::Add: flow already active");
  fl.path = path;
  fl.size = size;
  fl.cls = cls;
  fl.explicit_rate = -1;
  ++active_flows_;
  Join(f, GroupFor(path, cls, -1), size);
}

Bytes FluidSolver::Remaining(FlowId f) const {
  const Flow& fl = flows_[f];
  if (fl.group < 0) return 0;
  return std::max(0.0, fl.target - service_[fl.group]);
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
  dirty_ = true;
  if (fl.group < 0 || was == now) return;
  const Bytes rem = Remaining(f);
  Leave(f);
  Join(f, GroupFor(fl.path, fl.cls, now ? f : -1), rem);
}

void FluidSolver::Solve() {
  if (!dirty_) return;
  dirty_ = false;
  std::copy(capacity_.begin(), capacity_.end(), residual_.begin());

  if (explicit_group_count_ == 0 && classes_.size() <= 1) {
    // One class, no explicit rates: one max-min fill over the live groups in id order
    // (sequential memory access matters here: this runs at every event).
    const auto n = static_cast<int32_t>(groups_.size());
    class_groups_.resize(n);
    int32_t live = 0;
    for (int32_t g = 0; g < n; ++g) {  // branch-free compaction
      class_groups_[live] = g;
      live += count_[g] > 0;
    }
    class_groups_.resize(live);
    WaterFill(class_groups_, /*add=*/false);
    ComputeNextCompletion();
    return;
  }

  // Bucket the live groups by class with a counting sort over the hot per-group class ids
  // (classes_ is already in priority order), keeping id order inside each class.
  const size_t classes = classes_.size();
  class_rank_.assign(class_id_count_, 0);
  {
    int32_t rank = 0;
    for (const auto& [cls, info] : classes_) class_rank_[info.id] = rank++;
  }
  class_begin_.assign(classes + 1, 0);
  explicit_groups_.clear();
  const auto n = static_cast<int32_t>(groups_.size());
  for (int32_t g = 0; g < n; ++g) {
    if (count_[g] == 0) continue;
    if (group_class_[g] < 0) {
      explicit_groups_.push_back(g);
    } else {
      ++class_begin_[class_rank_[group_class_[g]] + 1];
    }
  }
  for (size_t k = 0; k < classes; ++k) class_begin_[k + 1] += class_begin_[k];
  class_fill_.assign(class_begin_.begin(), class_begin_.end() - 1);
  class_groups_.resize(class_begin_[classes]);
  for (int32_t g = 0; g < n; ++g) {
    if (count_[g] > 0 && group_class_[g] >= 0) {
      class_groups_[class_fill_[class_rank_[group_class_[g]]]++] = g;
    }
  }

  // Explicit rates first, capped by what their links still have (SPEC §3, Varys MADD).
  for (int32_t g : explicit_groups_) {
    double r = flows_[groups_[g].explicit_flow].explicit_rate;
    for (LinkId l : GroupLinks(g)) r = std::min(r, std::max(0.0, residual_[l]));
    rate_[g] = r;
    for (LinkId l : GroupLinks(g)) residual_[l] -= r;
  }
  // Then each class in priority order, max-min within the class.
  for (size_t k = 0; k < classes; ++k) {
    WaterFill(std::span<const int32_t>(class_groups_.data() + class_begin_[k],
                                       class_begin_[k + 1] - class_begin_[k]),
              /*add=*/false);
  }
  // Work conservation: leftover capacity is backfilled to explicit-rate flows.
  if (!explicit_groups_.empty()) WaterFill(explicit_groups_, /*add=*/true);
  ComputeNextCompletion();
}

// Progressive filling: repeatedly take the link with the smallest fair share
// (residual / members), freeze every unfrozen group crossing it at that share, and charge the
// other links of those groups. Links are few (two per server) while groups are many, so each
// round finds the minimum by a linear scan over the links still carrying unfrozen groups.
void FluidSolver::WaterFill(std::span<const int32_t> groups, bool add) {
  if (WaterFillTwoLink(groups, add)) return;
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
  if (touched_.size() * touched_.size() > 8 * groups.size()) {
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
    rate_[g] = add ? rate_[g] + share : share;
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

bool FluidSolver::WaterFillTwoLink(std::span<const int32_t> groups, bool add) {
  // Worth it only for many groups; all live groups must cross exactly two links, no link may
  // be first on one path and second on another, and the matrix must not be too sparse.
  const size_t rows = row_link_.size(), cols = col_link_.size();
  if (groups.size() < 64 || two_link_shared_ ||
      static_cast<size_t>(two_link_groups_) != live_groups_.size() ||
      rows * cols > 4 * groups.size()) {
    return false;
  }
  matrix_.assign(rows * cols, 0);
  for (int32_t g : groups) {
    const LinkId* links = &group_links_[g * kMaxPathLinks + 1];
    const int32_t c = count_[g];
    matrix_[row_of_[links[0]] * cols + col_of_[links[1]]] += c;
    weight_[links[0]] += c;
    weight_[links[1]] += c;
  }
  touched_.clear();
  for (LinkId l : row_link_) {
    if (weight_[l] > 0) touched_.push_back(l);
  }
  for (LinkId l : col_link_) {
    if (weight_[l] > 0) touched_.push_back(l);
  }

  OpenTouchedLinks();
  int32_t round = 0;
  // Charges the unfrozen partner link of `count` members frozen at `share`.
  auto charge = [&](LinkId l2, int64_t count, double share) {
    if (count == 0 || freeze_round_[l2] >= 0) return;
    residual_[l2] -= share * static_cast<double>(count);
    weight_[l2] -= count;
    if (!link_dirty_[l2]) {
      link_dirty_[l2] = 1;
      dirty_links_.push_back(l2);
    }
  };
  while (!open_.empty()) {
    const size_t best = ArgMin(open_share_);
    const double share = open_share_[best];
    const LinkId l = open_[best];
    level_[l] = share;
    freeze_round_[l] = round++;
    residual_[l] -= share * static_cast<double>(weight_[l]);
    weight_[l] = 0;
    if (row_of_[l] >= 0) {
      const int64_t* row = &matrix_[row_of_[l] * cols];
      for (size_t c = 0; c < cols; ++c) charge(col_link_[c], row[c], share);
    } else {
      const size_t c = col_of_[l];
      for (size_t r = 0; r < rows; ++r) charge(row_link_[r], matrix_[r * cols + c], share);
    }
    RefreshOpenLinks([&](LinkId lk) {
      if (freeze_round_[lk] < 0) {  // emptied by others without being a bottleneck
        freeze_round_[lk] = round++;
        level_[lk] = kForever;
      }
    });
  }
  // A group froze with whichever of its links froze first.
  for (int32_t g : groups) {
    const auto links = GroupLinks(g);
    const LinkId first = freeze_round_[links[0]] <= freeze_round_[links[1]] ? links[0] : links[1];
    rate_[g] = add ? rate_[g] + level_[first] : level_[first];
  }
  for (LinkId l : touched_) {
    weight_[l] = 0;
    freeze_round_[l] = -1;
    if (residual_[l] < 0) residual_[l] = 0;
  }
  return true;
}

void FluidSolver::ComputeNextCompletion() {
  // Whole-array loop: dead groups have an infinite target and zero rate, giving +inf.
  double best = kForever;
  const size_t n = groups_.size();
  const double* target = min_target_.data();
  const double* service = service_.data();
  const double* rate = rate_.data();
  for (size_t g = 0; g < n; ++g) {
    const double rem = target[g] - service[g];
    // rem / rate < best, without dividing for the groups that do not improve it.
    if (rem < best * rate[g]) best = rem <= 0 ? 0 : rem / rate[g];
  }
  next_completion_in_ = best;
}

void FluidSolver::Advance(Seconds dt) {
  dt = std::max(0.0, dt);
  const size_t n = groups_.size();
  double* service = service_.data();
  const double* rate = rate_.data();
  const double* target = min_target_.data();
  const double* tol = min_tol_.data();
  // Remember the groups whose earliest member is now done, for PopCompleted.
  for (size_t g = 0; g < n; ++g) {
    service[g] += rate[g] * dt;
    if (target[g] - service[g] <= tol[g]) due_.push_back(static_cast<int32_t>(g));
  }
  next_completion_in_ = std::max(0.0, next_completion_in_ - dt);
}

void FluidSolver::PopCompleted(std::vector<FlowId>& out) {
  const size_t first = out.size();
  for (int32_t g : due_) {
    while (min_target_[g] - service_[g] <= min_tol_[g]) {  // false for dead groups (inf)
      Group& grp = groups_[g];
      const FlowId f = grp.heap.front().flow;
      std::pop_heap(grp.heap.begin(), grp.heap.end(), std::greater<>());
      grp.heap.pop_back();
      out.push_back(f);
      --active_flows_;
      Flow& fl = flows_[f];
      fl.group = -1;
      dirty_ = true;
      if (--count_[g] == 0) {
        DropGroup(g);
        break;
      }
      RefreshTop(g);
    }
  }
  due_.clear();
  std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
}

}  // namespace slotflow
