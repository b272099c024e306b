#include "network/fluid_solver.h"

#include <algorithm>
#include <stdexcept>

namespace slotflow {
namespace {
// A flow is done when its remaining bytes are within this fraction of its size (SPEC §3).
constexpr double kRelativeEpsilon = 1e-9;

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
      adj_fill_(capacity_.size(), 0) {
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
  it->second = g;
  return g;
}

void FluidSolver::DropGroup(int32_t g) {
  Group& grp = groups_[g];
  group_index_.erase(GroupKey{grp.path, grp.cls, grp.explicit_flow});
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

  explicit_groups_.clear();
  order_.clear();
  bool one_class = true;
  for (int32_t g : live_groups_) {
    const Group& grp = groups_[g];
    if (grp.explicit_flow >= 0) {
      explicit_groups_.push_back(g);
    } else {
      if (!order_.empty() && order_.front().first != grp.cls) one_class = false;
      order_.emplace_back(grp.cls, g);
    }
  }
  // Explicit rates first, capped by what their links still have (SPEC §3, Varys MADD).
  std::sort(explicit_groups_.begin(), explicit_groups_.end());
  for (int32_t g : explicit_groups_) {
    double r = flows_[groups_[g].explicit_flow].explicit_rate;
    for (LinkId l : GroupLinks(g)) r = std::min(r, std::max(0.0, residual_[l]));
    rate_[g] = r;
    for (LinkId l : GroupLinks(g)) residual_[l] -= r;
  }

  // Then each class in priority order, max-min within the class.
  if (!one_class) std::sort(order_.begin(), order_.end());
  class_groups_.clear();
  for (size_t i = 0; i < order_.size(); ++i) {
    class_groups_.push_back(order_[i].second);
    if (i + 1 == order_.size() || order_[i + 1].first != order_[i].first) {
      WaterFill(class_groups_, /*add=*/false);
      class_groups_.clear();
    }
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

  // open_ = touched links that still carry unfrozen groups.
  open_.assign(touched_.begin(), touched_.end());
  while (!open_.empty()) {
    size_t best = 0;
    double best_share = kForever;
    for (size_t k = 0; k < open_.size(); ++k) {
      const LinkId l = open_[k];
      const double share = std::max(0.0, residual_[l]) / static_cast<double>(weight_[l]);
      if (share < best_share) {
        best_share = share;
        best = k;
      }
    }
    const LinkId l = open_[best];
    for (int32_t k = adj_begin_[l]; k < adj_fill_[l]; ++k) {
      const int32_t i = adj_[k];
      if (frozen_[i]) continue;
      frozen_[i] = 1;
      const int32_t g = groups[i];
      rate_[g] = add ? rate_[g] + best_share : best_share;
      const double used = best_share * count_[g];
      for (LinkId l2 : GroupLinks(g)) {
        residual_[l2] -= used;
        weight_[l2] -= count_[g];
      }
    }
    // Drop every link left without unfrozen groups (the bottleneck and possibly others).
    size_t kept = 0;
    for (size_t k = 0; k < open_.size(); ++k) {
      if (weight_[open_[k]] > 0) open_[kept++] = open_[k];
    }
    open_.resize(kept);
  }
  for (LinkId l : touched_) {
    weight_[l] = 0;
    adj_fill_[l] = 0;
    if (residual_[l] < 0) residual_[l] = 0;
  }
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
    const double t = rem <= 0 ? 0 : rem / rate[g];
    best = t < best ? t : best;
  }
  next_completion_in_ = best;
}

void FluidSolver::Advance(Seconds dt) {
  if (dt <= 0) return;
  const size_t n = groups_.size();
  double* service = service_.data();
  const double* rate = rate_.data();
  for (size_t g = 0; g < n; ++g) service[g] += rate[g] * dt;
  next_completion_in_ = std::max(0.0, next_completion_in_ - dt);
}

void FluidSolver::PopCompleted(std::vector<FlowId>& out) {
  const size_t first = out.size();
  const size_t n = groups_.size();
  for (size_t gi = 0; gi < n; ++gi) {
    const auto g = static_cast<int32_t>(gi);
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
  std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
}

}  // namespace slotflow
