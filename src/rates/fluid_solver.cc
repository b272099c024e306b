// How FluidSolver solves: the order of the fills (explicit rates, then each class in priority
// order, then the backfill) and the choice of fill for each. The parts live in Impl, so that
// the public header includes none of their headers; each call goes through impl_ once.
#include "rates/fluid_solver.h"

#include <algorithm>
#include <iterator>
#include <map>

#include "rates/dense_fill.h"
#include "rates/events.h"
#include "rates/explicit_rates.h"
#include "rates/groups.h"
#include "rates/local_water_fill.h"
#include "rates/tuning.h"
#include "rates/water_fill.h"

namespace slotflow {

using rates::ClassState;

struct FluidSolver::Impl {
  explicit Impl(size_t links)
      : table(links), explicit_rates(links), water(links), local_water(links), dense(links) {}

  // Recomputes the rates on `capacity`, leaving in residual what the fills leave of each link.
  void Solve(const std::vector<BytesPerSecond>& capacity, std::vector<BytesPerSecond>& residual);
  // The first class Solve fills: the first changed one if the classes above it can keep their
  // rates (resumable), else the first. Sets residual to what the classes above it leave.
  std::map<FlowClass, int32_t>::iterator FirstClassToFill(
      bool resumable, const std::vector<BytesPerSecond>& capacity,
      std::vector<BytesPerSecond>& residual);
  // Fills `groups` (a class's, or the explicit-rate ones with add) on residual, densely with
  // cs's matrix or not.
  void FillGroups(ClassState& cs, std::span<const int32_t> groups, bool add,
                  std::vector<BytesPerSecond>& residual);

  rates::GroupTable table;
  rates::ExplicitRates explicit_rates;
  rates::WaterFill water;
  rates::LocalWaterFill local_water;
  rates::DenseFill dense;
  rates::EventSearch events;
  int64_t solves = 0, class_fills = 0;
};

FluidSolver::FluidSolver(std::vector<BytesPerSecond> link_capacities)
    : capacity_(std::move(link_capacities)),
      residual_(capacity_),
      impl_(std::make_unique<Impl>(capacity_.size())) {}

FluidSolver::~FluidSolver() = default;
FluidSolver::FluidSolver(FluidSolver&&) noexcept = default;
FluidSolver& FluidSolver::operator=(FluidSolver&&) noexcept = default;

PathId FluidSolver::InternPath(std::span<const LinkId> links) {
  return impl_->table.paths.Intern(links);
}
std::span<const LinkId> FluidSolver::PathLinks(PathId p) const {
  return impl_->table.paths.Links(p);
}

void FluidSolver::Add(FlowId f, PathId path, Bytes size, FlowClass cls) {
  impl_->table.Add(f, path, size, cls);
}
void FluidSolver::SetClass(FlowId f, FlowClass cls) { impl_->table.SetClass(f, cls); }
void FluidSolver::SetExplicitRate(FlowId f, BytesPerSecond rate) {
  impl_->table.SetExplicitRate(f, rate);
}

void FluidSolver::Solve() { impl_->Solve(capacity_, residual_); }
bool FluidSolver::dirty() const { return impl_->table.dirty; }

void FluidSolver::Advance(Seconds dt) { impl_->events.Advance(impl_->table, dt); }
void FluidSolver::AdvancePast(Seconds dt) {
  // The search adds dt's service to every group and, with completions or marks already
  // passed, keeps exactly the groups due as candidates (the next event is then 0 away);
  // Advance(0) notes them.
  impl_->events.Advance(impl_->table, dt);
  impl_->events.Search(impl_->table);
  impl_->events.Advance(impl_->table, 0);
}
void FluidSolver::PopCompleted(std::vector<FlowId>& out) {
  impl_->events.PopCompleted(impl_->table, out);
}
Seconds FluidSolver::NextCompletionIn() const { return impl_->events.next_completion_in(); }

void FluidSolver::SetMark(FlowId f, Bytes sent) { impl_->table.SetMark(f, sent); }
void FluidSolver::ClearMark(FlowId f) { impl_->table.ClearMark(f); }
Seconds FluidSolver::NextMarkIn() const { return impl_->events.next_mark_in(); }
void FluidSolver::TakeMarked(std::vector<FlowId>& out) {
  impl_->events.TakeMarked(impl_->table, out);
}

bool FluidSolver::Active(FlowId f) const {
  const rates::GroupTable& t = impl_->table;
  return t.flows.Readable(f) && t.flows[f].group >= 0;
}
void FluidSolver::Retire(FlowId f) {
  rates::GroupTable& t = impl_->table;
  t.paths.Release(t.flows[f].path);
  t.flows.Retire(f);
}
Bytes FluidSolver::Remaining(FlowId f) const { return impl_->table.Remaining(f); }
BytesPerSecond FluidSolver::Rate(FlowId f) const {
  const rates::GroupTable& t = impl_->table;
  const rates::Flow& fl = t.flows[f];
  return fl.group < 0 ? 0 : t.rate[fl.group];
}
FlowClass FluidSolver::Class(FlowId f) const { return impl_->table.flows[f].cls; }
PathId FluidSolver::FlowPath(FlowId f) const { return impl_->table.flows[f].path; }
int FluidSolver::ActiveFlowCount() const { return impl_->table.active_flows; }
int FluidSolver::ActiveGroupCount() const { return impl_->table.live_group_count; }
size_t FluidSolver::PathCount() const { return impl_->table.paths.size(); }

FluidSolver::FillStats FluidSolver::fill_stats() const {
  const Impl& m = *impl_;
  FillStats s;
  s.solves = m.solves;
  s.class_fills = m.class_fills;
  s.water_fills = m.water.fills();
  s.min_tree_fills = m.water.min_tree_fills();
  s.dense_fills = m.dense.dense_fills();
  s.local_fills = m.dense.local().local_fills();
  s.whole_fills = m.dense.local().whole_fills();
  s.local_water_fills = m.local_water.local_fills();
  s.whole_water_fills = m.local_water.whole_fills();
  s.continued_backfills = m.explicit_rates.continued_backfills();
  return s;
}

void FluidSolver::SetLocalFillMinLinks(size_t links) {
  impl_->dense.SetLocalFillMinLinks(links);
  impl_->local_water.SetMinLinks(links);
}
void FluidSolver::SetLocalWaterFillMinGroups(size_t groups) {
  impl_->local_water.SetMinGroups(groups);
}

void FluidSolver::Impl::Solve(const std::vector<BytesPerSecond>& capacity,
                              std::vector<BytesPerSecond>& residual) {
  if (!table.dirty) {
    if (table.marks_dirty) events.Search(table);  // only marks changed: the same cheap pass
    return;
  }
  table.dirty = false;
  // Ids freed below hi make every whole-array pass longer; repack when over a ninth are dead.
  if (table.hi > rates::kRepackMinIds && rates::kRepackIdsDenominator * table.hi >
                                             rates::kRepackIdsNumerator * table.live_group_count) {
    table.Compact([&](int32_t from, int32_t to) { events.Renumber(from, to); });
  }
  // Strict priority: a class's rates depend only on the classes above it. Without explicit
  // rates (whose backfill comes after every class) the classes above the first changed one
  // keep their rates, and the residual capacity they left is restored from the last of them,
  // if the saved residuals (one number per link per class) are not too many.
  const bool resumable = table.explicit_groups.empty() &&
                         table.class_ids.size() * capacity.size() <= rates::kMaxSavedResiduals;
  const auto first = FirstClassToFill(resumable, capacity, residual);
  // Explicit rates first (Varys MADD).
  explicit_rates.Serve(table, residual);
  // Then each class in priority order, max-min within the class.
  ++solves;
  for (auto it = first; it != table.class_ids.end(); ++it) {
    if (it->first == kHeldClass) continue;  // the last class: its groups keep rate 0
    ++class_fills;
    ClassState& cs = table.class_states[it->second];
    FillGroups(cs, cs.groups, /*add=*/false, residual);
    cs.has_residual_after = resumable;
    if (resumable) cs.residual_after.assign(residual.begin(), residual.end());
  }
  // Work conservation: leftover capacity is backfilled to explicit-rate flows.
  if (!table.explicit_groups.empty()) {
    FillGroups(table.explicit_state, table.explicit_groups, /*add=*/true, residual);
  }
  events.Search(table);
}

std::map<FlowClass, int32_t>::iterator FluidSolver::Impl::FirstClassToFill(
    bool resumable, const std::vector<BytesPerSecond>& capacity,
    std::vector<BytesPerSecond>& residual) {
  auto first = table.class_ids.begin();
  if (resumable && table.dirty_from != rates::kNoDirtyClass) {
    first = table.class_ids.lower_bound(table.dirty_from);
    if (first != table.class_ids.begin() &&
        !table.class_states[std::prev(first)->second].has_residual_after) {
      first = table.class_ids.begin();
    }
  }
  table.dirty_from = rates::kNoDirtyClass;
  if (first == table.class_ids.begin()) {
    std::copy(capacity.begin(), capacity.end(), residual.begin());
  } else {
    const auto& before = table.class_states[std::prev(first)->second].residual_after;
    std::copy(before.begin(), before.end(), residual.begin());
  }
  return first;
}

void FluidSolver::Impl::FillGroups(ClassState& cs, std::span<const int32_t> groups, bool add,
                                   std::vector<BytesPerSecond>& residual) {
  // Dense once the matrix would be at most a few cells per group, sparse again only well
  // beyond. The explicit-rate backfill stays dense far sparser: only a dense one goes on from
  // its last fill (see ExplicitRates), and that beats starting a sparse one over.
  const bool backfill = &cs == &table.explicit_state;
  const size_t enter =
      backfill ? rates::kExplicitEnterCellsPerGroup : rates::kDenseEnterCellsPerGroup;
  const size_t leave =
      backfill ? rates::kExplicitLeaveCellsPerGroup : rates::kDenseLeaveCellsPerGroup;
  const int live = table.live_group_count;
  if (!cs.dense && table.shape.Fits(live, groups.size(), enter)) {
    rates::DenseFill::Build(table, cs, groups);
  } else if (cs.dense && !table.shape.Fits(live, groups.size(), leave)) {
    cs.dense = false;
  }
  if (cs.dense) {
    // A class's fill always goes on from its last one; the backfill only when ExplicitRates
    // found that only explicit flows left since.
    dense.Fill(table, residual, cs, groups, add, !add || explicit_rates.backfill_continues());
  } else if (!backfill && local_water.Wanted(table, groups.size())) {
    // A class's fill goes on from its last one, re-filled locally when it can be.
    if (local_water.TryFill(table, residual, cs)) return;
    local_water.BeforeWholeFill(table, residual, cs);
    water.Fill(table, residual, groups, add);
    local_water.AfterWholeFill(table, residual, water, cs);
  } else {
    cs.sparse.valid = false;
    water.Fill(table, residual, groups, add);
  }
}

}  // namespace slotflow
