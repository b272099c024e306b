// FluidSolver: the rates of fluid flows on capacitated links, and when the next flow
// completes or reaches a byte mark at those rates. This is the one header of src/rates/ that
// the rest of slotflow includes; the headers beside it are the solver's own parts, and this one
// includes none of them (they are held behind FluidSolver::Impl, in fluid_solver.cc).
//
// Strict priority across classes (lower class first), max-min fair within a class, work
// conserving. Flows may instead carry an explicit rate (Varys MADD); those are served first
// (scaled down together on any link they oversubscribe) and then backfilled max-min on
// whatever capacity is left.
//
// Flows with the same path, class and no explicit rate share one max-min rate, so the solver
// keeps them as one group (groups.h); solving and advancing cost O(groups), not O(flows). The
// parts: GroupTable (groups.h) holds flows, groups and classes; a solve serves the explicit
// rates (ExplicitRates, explicit_rates.h), then fills each class, a sparse one with WaterFill
// (water_fill.h) and one whose groups all cross two links with DenseFill (dense_fill.h), which
// re-fills only the lines its changes reach when it can (LocalFill, local_fill.h), then
// backfills the explicit-rate flows. A sparse class of many groups is re-filled only on the links
// its changes reach when it can (LocalWaterFill, local_water_fill.h). EventSearch (events.h) finds
// the next completion and mark.
//
// The links' capacities and residual capacities stay here, so that LinkCapacity and LinkLoad
// (read per link by schedulers through the state view, and by the checking mode) stay inline
// reads; every other call goes to the parts through one pointer, in fluid_solver.cc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <vector>

#include "api/ids.h"
#include "api/units.h"

namespace slotflow {

class FluidSolver {
 public:
  // Flows of this class get no rate: a flow that exists but moves no bytes yet (the network's
  // held flows, network/network.h).
  static constexpr FlowClass kHeldClass = std::numeric_limits<FlowClass>::max();

  explicit FluidSolver(std::vector<BytesPerSecond> link_capacities);
  ~FluidSolver();
  FluidSolver(FluidSolver&&) noexcept;
  FluidSolver& operator=(FluidSolver&&) noexcept;

  // Interns a list of links; the same list always gets the same id.
  PathId InternPath(std::span<const LinkId> links);
  std::span<const LinkId> PathLinks(PathId p) const;

  // Flow ids are chosen by the caller and must be dense (0, 1, 2, ...) but may arrive in any order.
  void Add(FlowId f, PathId path, Bytes size, FlowClass cls);
  void SetClass(FlowId f, FlowClass cls);
  // rate < 0 clears the explicit rate.
  void SetExplicitRate(FlowId f, BytesPerSecond rate);

  // Recomputes the rates. Classes above the highest-priority class that changed since the last
  // solve keep their rates (strict priority: they never see lower classes), so only that class
  // and the ones below it are filled again. Cheap to call when nothing changed.
  void Solve();
  bool dirty() const;

  // Moves time forward by dt >= 0 at the current rates (dt must not pass NextCompletionIn())
  // and notes which flows are now done. Advance(0) just checks.
  void Advance(Seconds dt);
  // Moves time forward by dt >= 0 at the current rates, past any completions and marks on the
  // way (a stepped network, network/time_step.h): a flow that reaches its size within dt has
  // sent exactly its size and its rate idles for the rest of dt; it is noted done, as every
  // mark passed is noted reached. One pass over the groups.
  void AdvancePast(Seconds dt);
  // Removes the flows the last Advance() found done (remaining bytes 0 within a relative
  // epsilon); appends their ids in increasing id order.
  void PopCompleted(std::vector<FlowId>& out);
  // Time until the earliest completion at current rates (kForever if none).
  Seconds NextCompletionIn() const;

  // Marks: a flow may carry one mark, a count of bytes sent, and the solver tracks the earliest
  // mark per group as it does completions, so a policy whose classes change at byte thresholds
  // (LAS, SRPT) learns which flows got there without scanning the others. SetMark replaces
  // any earlier mark; completing clears it.
  void SetMark(FlowId f, Bytes sent);
  void ClearMark(FlowId f);
  // Time until the earliest mark is reached at current rates (kForever if none); current after
  // Solve() or Advance().
  Seconds NextMarkIn() const;
  // Appends the flows whose marks the last Advance() found reached (within the completion
  // tolerance), in increasing id order, and clears those marks.
  void TakeMarked(std::vector<FlowId>& out);

  bool Active(FlowId f) const;
  // Flow f has completed and will not be asked about again: its record may be freed (with the
  // others of its chunk), and its path forgotten if no other flow holds it. Only Active() may
  // be asked of it afterwards (false).
  void Retire(FlowId f);
  Bytes Remaining(FlowId f) const;
  BytesPerSecond Rate(FlowId f) const;
  FlowClass Class(FlowId f) const;
  PathId FlowPath(FlowId f) const;
  int ActiveFlowCount() const;
  int ActiveGroupCount() const;
  // Paths interned and not forgotten.
  size_t PathCount() const;
  int LinkCount() const { return static_cast<int>(capacity_.size()); }

  // How the classes were filled, counted since the solver was made.
  struct FillStats {
    int64_t solves = 0;          // Solve() calls that re-filled something
    int64_t class_fills = 0;     // classes filled: per solve, the first changed one and all below
    int64_t water_fills = 0;     // by WaterFill
    int64_t min_tree_fills = 0;  // of those, with the min-tree
    int64_t dense_fills = 0;     // of a dense class done whole
    // How often a dense class that could be filled locally was (local_fills), and how often
    // its changes reached too far and it was filled whole (whole_fills, in dense_fills too).
    int64_t local_fills = 0;
    int64_t whole_fills = 0;
    // The same for sparse classes of many groups (LocalWaterFill): filled locally, and tried
    // but filled whole (in water_fills too).
    int64_t local_water_fills = 0;
    int64_t whole_water_fills = 0;
    // Solves whose explicit-rate backfill went on from the last one (only explicit flows had
    // left since), instead of starting again from all the explicit rates.
    int64_t continued_backfills = 0;
  };
  FillStats fill_stats() const;
  // Local fills are tried only for dense classes over at least this many links. Below a few
  // hundred a whole fill is cheap enough that a local one does not pay for its bookkeeping
  // (the FB trace as jobs, 100 links: 1.06 s with whole fills only, 1.43 s with local ones; in
  // network mode, 294 links, local fills save 20-40 %). Tests lower it to reach them.
  void SetLocalFillMinLinks(size_t links);
  // A sparse class is filled locally only with at least this many groups (see
  // kLocalWaterFillMinGroups); tests lower it to reach small ones.
  void SetLocalWaterFillMinGroups(size_t groups);
  BytesPerSecond LinkCapacity(LinkId l) const { return capacity_[l]; }
  // Sum of current rates crossing link l (computed by Solve()).
  BytesPerSecond LinkLoad(LinkId l) const { return capacity_[l] - residual_[l]; }

 private:
  // The parts (GroupTable, the fills, EventSearch) and the order of a solve: fluid_solver.cc.
  struct Impl;

  std::vector<BytesPerSecond> capacity_;
  std::vector<BytesPerSecond> residual_;  // what the fills so far left of each link
  std::unique_ptr<Impl> impl_;
};

}  // namespace slotflow
