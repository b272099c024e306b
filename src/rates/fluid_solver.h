// FluidSolver: rates of fluid flows on capacitated links (SPEC §3).
// Strict priority across classes (lower class first), max-min fair within a class, work
// conserving. Flows may instead carry an explicit rate (Varys MADD); those are served first
// (scaled down together on any link they oversubscribe) and then backfilled max-min on
// whatever capacity is left.
//
// Flows with the same path, class and no explicit rate get the same max-min rate, so the solver
// keeps them as one group with a member count and a cumulative per-member "service" counter:
// a member's remaining bytes = its target − the group's service, and the group's next
// completion is its smallest target. Solving and advancing cost O(groups), not O(flows).
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <span>
#include <unordered_map>
#include <vector>

#include "common/ids.h"
#include "common/units.h"

namespace slotflow {

class FluidSolver {
 public:
  explicit FluidSolver(std::vector<BytesPerSecond> link_capacities);

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
  bool dirty() const { return dirty_; }

  // Moves time forward by dt >= 0 at the current rates (dt must not pass NextCompletionIn())
  // and notes which flows are now done. Advance(0) just checks.
  void Advance(Seconds dt);
  // Removes the flows the last Advance() found done (remaining bytes 0 within a relative
  // epsilon); appends their ids in increasing id order.
  void PopCompleted(std::vector<FlowId>& out);
  // Time until the earliest completion at current rates (kForever if none).
  Seconds NextCompletionIn() const { return next_completion_in_; }

  // Marks: a flow may carry one mark, a count of bytes sent, and the solver tracks the earliest
  // mark per group as it does completions, so a policy whose classes change at byte thresholds
  // (LAS, SRPT) learns which flows got there without scanning the others. SetMark replaces
  // any earlier mark; completing clears it.
  void SetMark(FlowId f, Bytes sent);
  void ClearMark(FlowId f);
  // Time until the earliest mark is reached at current rates (kForever if none); current after
  // Solve() or Advance().
  Seconds NextMarkIn() const { return next_mark_in_; }
  // Appends the flows whose marks the last Advance() found reached (within the completion
  // tolerance), in increasing id order, and clears those marks.
  void TakeMarked(std::vector<FlowId>& out);

  bool Active(FlowId f) const {
    return f < static_cast<FlowId>(flows_.size()) && flows_[f].group >= 0;
  }
  Bytes Remaining(FlowId f) const;
  BytesPerSecond Rate(FlowId f) const;
  FlowClass Class(FlowId f) const { return flows_[f].cls; }
  PathId FlowPath(FlowId f) const { return flows_[f].path; }
  int ActiveFlowCount() const { return active_flows_; }
  int ActiveGroupCount() const { return live_group_count_; }
  int LinkCount() const { return static_cast<int>(capacity_.size()); }
  // How often a dense class that could be filled locally was (FillDenseLocal), and how often
  // its changes reached too far and it was filled whole.
  struct FillStats {
    int64_t local_fills = 0;
    int64_t whole_fills = 0;
    // Solves whose explicit-rate backfill went on from the last one (only explicit flows had
    // left since), instead of starting again from all the explicit rates.
    int64_t continued_backfills = 0;
  };
  const FillStats& fill_stats() const { return stats_; }
  // Local fills are tried only for dense classes over at least this many links. Below a few
  // hundred a whole fill is cheap enough that a local one does not pay for its bookkeeping
  // (the FB trace as jobs, 100 links: 1.06 s with whole fills only, 1.43 s with local ones; in
  // network mode, 294 links, local fills save 20-40 %). Tests lower it to reach them.
  void SetLocalFillMinLinks(size_t links) { local_fill_min_links_ = links; }
  BytesPerSecond LinkCapacity(LinkId l) const { return capacity_[l]; }
  // Sum of current rates crossing link l (computed by Solve()).
  BytesPerSecond LinkLoad(LinkId l) const { return capacity_[l] - residual_[l]; }

 private:
  // Each group keeps its path's links inline, as [n, l0, ..., l4]: paths have at most
  // kMaxPathLinks - 1 links (InternPath throws beyond); the two-tier topology's longest have 4.
  static constexpr int kMaxPathLinks = 6;
  // Groups per block of the search for events: a block's vector test masks are read once
  // (per 16 rather than per 2: tcf 7.4-7.5 -> 7.0-7.1 s), and a block with no group at a
  // non-zero rate is skipped.
  static constexpr size_t kEventBlock = 16;

  struct Flow {
    int32_t group = -1;  // -1 when not active
    PathId path = -1;
    double target = 0;  // group service at which this flow is done
    Bytes size = 0;
    FlowClass cls = 0;
    BytesPerSecond explicit_rate = -1;
    double mark_gap = -1;     // bytes left when the mark is reached; < 0: no mark
    double mark_target = 0;   // group service at which it is reached
  };
  struct HeapEntry {
    double target;
    FlowId flow;
    bool operator>(const HeapEntry& o) const {
      return target != o.target ? target > o.target : flow > o.flow;
    }
  };
  // Cold per-group data; the hot numbers live in the parallel arrays below.
  struct Group {
    PathId path = -1;
    FlowClass cls = 0;
    FlowId explicit_flow = -1;    // >= 0: a single flow with an explicit rate
    std::vector<HeapEntry> heap;   // min-heap by target; may hold stale entries (moved flows)
    std::vector<HeapEntry> marks;  // the same for mark targets
    bool live = false;
  };
  // The live groups of one class, kept up to date as groups come and go, plus what lets Solve
  // skip work: a persistent two-link count matrix (see FillDense) and the residual capacity
  // left after the class was last filled.
  struct ClassState {
    FlowClass key = 0;
    std::vector<int32_t> groups;  // live groups, any order; group_pos_ gives each one's index
    // Dense two-link state, kept current while `dense`: member counts per (row, column) cell,
    // rows x cols as of the build, the group of each cell (-1 = none; a cell is one path), and
    // members per row and per column.
    bool dense = false;
    size_t rows = 0, cols = 0;
    std::vector<int32_t> matrix;
    std::vector<int32_t> matrix_t;  // the same counts, column by column
    std::vector<int32_t> cell_group;
    std::vector<int32_t> cell_group_t;  // the same, column by column
    std::vector<int64_t> line_weight;
    // Each row's and column's level in the last dense fill (valid if has_levels), and groups
    // created since: a group's rate is the lower level of its two links, so the next fill
    // needs to rate only the groups on links whose level changed, plus these.
    bool has_levels = false;
    std::vector<double> line_level;
    std::vector<int32_t> fresh;
    // What FillDenseLocal needs of the last fill (valid if has_local): each line's residual
    // capacity before and after this class, the lines with a finite level in ascending level
    // order, and the lines whose cells changed since (seeds, flagged in is_seed).
    bool has_local = false;
    int local_skip = 0, local_backoff = 0;  // whole fills to do before trying a local one again
    std::vector<double> line_input, line_output;
    std::vector<int32_t> order;
    std::vector<int32_t> seeds;
    std::vector<uint8_t> is_seed;
    bool has_residual_after = false;
    std::vector<double> residual_after;
  };
  // The index of groups without an explicit rate (see GroupFor).
  struct GroupKey {
    PathId path;
    FlowClass cls;
    bool operator==(const GroupKey&) const = default;
  };
  struct GroupKeyHash {
    size_t operator()(const GroupKey& k) const;
  };

  // --- Paths, groups and flows joining them (fluid_groups.cc) ---
  // The group of (path, cls), made if new; an explicit-rate flow always gets a new one.
  int32_t GroupFor(PathId path, FlowClass cls, FlowId explicit_flow);
  // A free group id (the lowest), or a new slot in every per-group array.
  int32_t TakeGroupId();
  // Puts new group g on the explicit list (and its links' lists), or in class cls.
  void ListExplicitGroup(int32_t g, std::span<const LinkId> links);
  void ListClassGroup(int32_t g, FlowClass cls, std::span<const LinkId> links);
  // Notes a new group's path for the two-link shape of the dense matrices.
  void NoteGroupShape(std::span<const LinkId> links);
  // Adds delta members to group g, keeping its class's dense matrix current.
  void ChangeCount(int32_t g, int32_t delta);
  void Join(FlowId f, int32_t g, Bytes remaining);
  void Leave(FlowId f);
  void DropGroup(int32_t g);
  // Takes explicit-rate group g off its two links' lists, giving its rate back to them.
  void UnlistExplicitLinks(int32_t g);
  // Renumbers the live groups to 0..live-1 (MoveGroup moves one, fixing every reference).
  void CompactGroups();
  void MoveGroup(int32_t from, int32_t to);
  // Makes slot g read as dead to the whole-array passes.
  void ClearSlot(int32_t g);
  double ServiceNow(int32_t g) const { return service_[g] + rate_[g] * pending_; }
  // Changes a group's rate from now on (the pending time stays at the old rate).
  void SetRate(int32_t g, double rate) {
    if (rate == rate_[g]) return;
    service_[g] += (rate_[g] - rate) * pending_;
    if ((rate_[g] != 0) != (rate != 0)) moving_in_block_[g / kEventBlock] += rate != 0 ? 1 : -1;
    rate_[g] = rate;
  }
  std::span<const LinkId> GroupLinks(int32_t g) const {
    return {&group_links_[g * kMaxPathLinks + 1],
            static_cast<size_t>(group_links_[g * kMaxPathLinks])};
  }

  // --- The order of the fills (fluid_solver.cc) and explicit rates (fluid_explicit.cc) ---
  // The first class Solve fills: the first changed one if the classes above it can keep their
  // rates (resumable), else the first. Sets residual_ to what the classes above it leave.
  std::map<FlowClass, int32_t>::iterator FirstClassToFill(bool resumable);
  // Serves the explicit rates on residual_ (scaled down where they oversubscribe a link), or
  // notes that the backfill goes on from its last fill.
  void SetExplicitRates();
  // Fills `groups` (a class's, or the explicit-rate ones with add) on residual_, densely with
  // cs's matrix (FillDense) or not (WaterFill).
  void FillGroups(ClassState& cs, std::span<const int32_t> groups, bool add);

  // --- The whole water fill (fluid_water_fill.cc) ---
  // Max-min water-filling of any `groups` on residual_; `add` backfills on top of current rates.
  void WaterFill(std::span<const int32_t> groups, bool add);
  // The two ways WaterFill finds each round's bottleneck (same choices, different costs).
  void FreezeWithScan(std::span<const int32_t> groups, bool add);
  void FreezeWithMinTree(std::span<const int32_t> groups, bool add);
  void FreezeLink(LinkId l, double share, std::span<const int32_t> groups, bool add);
  // The open-link list shared by the scan and the two-link fill.
  void OpenTouchedLinks();
  template <class OnClosed>
  void RefreshOpenLinks(OnClosed on_closed);

  // --- The dense fill (fluid_dense_fill.cc) ---
  // True when every live group crosses exactly two links and no link is first on one path and
  // second on another, so a class can be held as a dense (first link x second link) matrix;
  // worth it for `groups` groups only when the matrix is not sparse.
  bool TwoLinkShape() const;
  bool DenseFits(size_t groups, size_t max_cells_per_group) const;
  void BuildDense(ClassState& cs, std::span<const int32_t> groups) const;
  // Adds delta members to a cell of a dense state (both matrix copies and line weights).
  static void AddToCell(ClassState& cs, size_t cell, int32_t delta);
  void DropAllDense();
  // The max-min fill of a dense class: freezing a link is a row or column scan of the matrix,
  // and a group's rate is the lower freeze level of its two links.
  void FillDense(ClassState& cs, std::span<const int32_t> groups, bool add);
  // FillDenseLocal unless backing off after local fills that reached too far.
  bool TryLocalFill(ClassState& cs);
  // The whole dense fill: opens the lines that carry members, then freezes them in order of
  // share, leaving each link's level in level_.
  void OpenDenseLines(const ClassState& cs);
  void FreezeDenseLines(ClassState& cs, bool local_ready);
  // Rates of a dense class's groups from the link levels of the fill just done: all of them,
  // or (incremental) only those on a row or column whose level changed, plus new groups.
  void RateDenseGroups(ClassState& cs, std::span<const int32_t> groups, bool add, bool incremental);
  // Makes reciprocal_ hold 1/w for every member count w up to `heaviest`.
  void GrowReciprocals(int64_t heaviest) {
    while (static_cast<int64_t>(reciprocal_.size()) <= heaviest) {
      reciprocal_.push_back(1.0 / static_cast<double>(reciprocal_.size()));
    }
  }
  static void SetCellGroup(ClassState& cs, size_t cell, int32_t g) {
    cs.cell_group[cell] = g;
    cs.cell_group_t[(cell % cs.cols) * cs.rows + cell / cs.cols] = g;
  }
  // A dense class's lines are its rows, then its columns: the link of line i, the line of
  // link l, and the residual capacity of every line copied into out.
  LinkId LineLink(const ClassState& cs, size_t i) const {
    return i < cs.rows ? row_link_[i] : col_link_[i - cs.rows];
  }
  int32_t LineOf(const ClassState& cs, LinkId l) const {
    return row_of_[l] >= 0 ? row_of_[l] : static_cast<int32_t>(cs.rows) + col_of_[l];
  }
  void SaveLineResiduals(const ClassState& cs, std::vector<double>& out) const;
  size_t CellOf(const ClassState& cs, int32_t g) const {
    const LinkId* links = &group_links_[g * kMaxPathLinks + 1];
    return row_of_[links[0]] * cs.cols + col_of_[links[1]];
  }

  // --- The local fill (fluid_local_fill.cc) ---
  // The same fill redone only on the lines that the changes since the last one reach; false
  // (nothing done) when that region grows too large to be worth it.
  bool FillDenseLocal(ClassState& cs);
  // The region starts as the lines whose cells or input capacities changed.
  void SeedRegion(ClassState& cs);
  void JoinRegion(int32_t line) {
    if (in_region_[line]) return;
    in_region_[line] = 1;
    region_.push_back(line);
  }
  // FillDenseLocal's fill of the region lines in_region_ (the other lines keep their levels).
  void OpenRegion(const ClassState& cs);
  void FillRegion(const ClassState& cs);
  // Adds to the region the lines outside it that its new levels reach.
  void JoinReachedLines(const ClassState& cs);
  // Takes the region's new levels and residuals into cs, level_ and residual_.
  void KeepLocalFill(ClassState& cs);
  // Merges the region's lines, by new level, into cs.order.
  void MergeLevelOrder(ClassState& cs);

  // --- Events: completions and marks (fluid_events.cc) ---
  // After a member joined or left g, or a mark was set or cleared: if its earliest member or
  // mark is due already, the next search for events must not skip g's block (see NextEvents).
  void NoteIfDue(int32_t g) {
    full_pass_ |= min_target_[g] - ServiceNow(g) <= min_tol_[g] ||
                  min_mark_[g] - ServiceNow(g) <= min_mark_tol_[g];
  }
  // Drops stale heap entries and caches the earliest member's target and tolerance.
  void RefreshTop(int32_t g);
  void RefreshMarkTop(int32_t g);
  void PushMark(FlowId f);
  // Next completion and next mark, from the current rates.
  void ComputeNextCompletion();
  // The pass over all groups that ends a solve, with or without marks to track.
  template <bool kMarks>
  void NextEvents();

  std::vector<BytesPerSecond> capacity_;
  std::vector<BytesPerSecond> residual_;
  // Paths, flattened.
  std::vector<LinkId> path_links_;
  std::vector<int32_t> path_begin_;
  std::unordered_map<uint64_t, std::vector<PathId>> path_index_;

  std::vector<Flow> flows_;
  std::vector<Group> groups_;
  // Hot per-group arrays, indexed by group id; a dead group has count 0, rate 0 and an
  // infinite min_target, so whole-array loops need no branches.
  std::vector<int32_t> count_;
  std::vector<double> rate_;         // per member
  // Bytes each member has received since the group was created, up to the last search for
  // events; the time since (pending_) is added by the next search, at the rates of then.
  std::vector<double> service_;
  std::vector<double> min_target_;   // earliest member's target
  std::vector<double> min_tol_;      // its completion tolerance
  std::vector<double> min_mark_;     // earliest member's mark target (infinite if none)
  std::vector<double> min_mark_tol_;
  // Per block of kEventBlock group ids: how many have a non-zero rate. The search for events
  // skips blocks with none (their services do not move), unless full_pass_: some group became
  // due by a change other than time passing.
  std::vector<int32_t> moving_in_block_;
  bool full_pass_ = false;
  std::vector<LinkId> group_links_;  // kMaxPathLinks per group: [n, l0, ..., l4]
  std::vector<int32_t> group_pos_;  // index in its class's groups (or explicit_groups_)
  // Free group ids, a min-heap: reusing the lowest id keeps the live ids packed below hi_, the
  // bound of every whole-array loop.
  std::vector<int32_t> free_groups_;
  int32_t hi_ = 0;
  int live_group_count_ = 0;
  std::unordered_map<GroupKey, int32_t, GroupKeyHash> group_index_;
  int active_flows_ = 0;
  // Classes in priority order, each with a dense id into class_states_ (ids are reused).
  std::map<FlowClass, int32_t> class_ids_;
  std::vector<ClassState> class_states_;
  std::vector<int32_t> free_class_ids_;
  std::vector<int32_t> group_class_;     // hot: each group's class id, -1 for explicit-rate groups
  std::vector<int32_t> explicit_groups_;  // live groups with an explicit rate
  std::vector<double> explicit_rate_;     // hot: each explicit-rate group's rate
  ClassState explicit_state_;             // their dense state, for the backfill
  // Each link's capacity minus the explicit rates across it, as of the last solve that set
  // them all, plus the rates of the explicit groups dropped since (valid if explicit_ready_:
  // that solve scaled none down).
  std::vector<double> explicit_residual_;
  bool explicit_ready_ = false;
  bool explicit_changed_ = true;     // an explicit rate was set, or an explicit group made
  bool backfill_continues_ = false;  // this solve's backfill goes on from the last one
  // The two-link explicit groups on each link (a dense backfill cell may hold many), and each
  // group's index in the lists of its first and second link (-1: in none).
  std::vector<std::vector<int32_t>> explicit_on_link_;
  std::vector<int32_t> explicit_link_pos_;
  bool dirty_ = false;
  // The highest-priority class changed since the last solve (the largest key if none).
  static constexpr FlowClass kNoDirtyClass = std::numeric_limits<FlowClass>::max();
  FlowClass dirty_from_ = kNoDirtyClass;
  Seconds next_completion_in_ = kForever;
  Seconds pending_ = 0;  // time advanced since the last search for events
  // Groups that the last search found may complete (or reach a mark) by the next event.
  std::vector<int32_t> candidates_, mark_candidates_;
  int mark_count_ = 0;  // active flows with a mark
  bool marks_dirty_ = false;
  Seconds next_mark_in_ = kForever;

  // Scratch space for Solve/WaterFill, reused.
  std::vector<int64_t> weight_;  // member count per link in the current fill
  std::vector<int32_t> adj_begin_, adj_fill_, adj_;
  std::vector<LinkId> touched_, open_;
  std::vector<double> open_share_;  // fair share of open_[k], kept current
  std::vector<int32_t> open_pos_;   // position of a link in open_, -1 if absent
  std::vector<uint8_t> link_dirty_;
  std::vector<LinkId> dirty_links_;
  std::vector<double> min_tree_;  // FreezeWithMinTree: shares at the leaves, minima above
  // Dense fills: the row (first link) or column (second link) of each link that ever appeared
  // on a two-link path (-1 = none), the links of each row/column, and each link's freeze level
  // and whether it has closed in the current fill.
  std::vector<int32_t> row_of_, col_of_;
  std::vector<LinkId> row_link_, col_link_;
  std::vector<double> level_;
  std::vector<double> line_new_level_;  // RateDenseGroups: level per row, then per column
  std::vector<double> reciprocal_;  // 1/w for member counts w (entry 0 unused)
  std::vector<double> demand_;      // explicit rates asked of each link
  std::vector<uint8_t> link_closed_;
  int two_link_groups_ = 0;       // live groups whose path has exactly two links
  bool two_link_shared_ = false;  // some link is first on one two-link path, second on another
  std::vector<int32_t> due_;      // groups found done by Advance, emptied by PopCompleted
  std::vector<int32_t> mark_due_;  // groups found marked by Advance, emptied by TakeMarked
  std::vector<uint8_t> mark_due_flag_;
  std::vector<uint8_t> frozen_;
  // FillDenseLocal scratch, per line (row r, then column rows + c).
  std::vector<int32_t> region_;         // the region's lines
  std::vector<uint8_t> in_region_;
  std::vector<int32_t> region_open_[2];  // its rows and columns still open in FillRegion
  std::vector<double> region_res_, region_share_, region_level_;
  std::vector<int64_t> region_weight_;
  std::vector<int32_t> order_scratch_, order_merged_;
  std::vector<int32_t> unsaturated_;  // lines outside at level kForever whose use changes
  std::vector<double> extra_use_;     // by how much
  std::vector<uint8_t> extra_use_flag_;
  FillStats stats_;
  size_t local_fill_min_links_;  // set from fluid::kLocalFillMinLinks
};

}  // namespace slotflow
