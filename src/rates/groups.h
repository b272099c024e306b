// GroupTable: the solver's flows and the groups they share a rate in, with their classes, the
// state that every fill and the search for events read.
//
// Flows with the same path, class and no explicit rate get the same max-min rate, so they are
// kept as one group with a member count and a cumulative per-member "service" counter: a
// member's remaining bytes = its target − the group's service, and the group's next completion
// is its smallest target. A flow with an explicit rate is a group of its own. The hot numbers of
// the groups live in parallel arrays indexed by group id; a dead group has count 0, rate 0 and
// an infinite min_target, so whole-array loops need no branches. Each live group is listed in
// its class (or on the explicit list) and in that class's dense matrix if it has one.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <span>
#include <vector>

#include "api/chunked_records.h"
#include "api/ids.h"
#include "api/units.h"
#include "rates/class_state.h"
#include "rates/paths.h"

namespace slotflow::rates {

// Groups per block of the search for events (EventSearch): a block's vector test masks are read
// once (per 16 rather than per 2: tcf 7.4-7.5 -> 7.0-7.1 s), and a block with no group at a
// non-zero rate is skipped.
inline constexpr size_t kEventBlock = 16;
// GroupTable::dirty_from when no class changed since the last solve.
inline constexpr FlowClass kNoDirtyClass = std::numeric_limits<FlowClass>::max();

struct Flow {
  int32_t group = -1;  // -1 when not active
  PathId path{-1};
  double target = 0;  // group service at which this flow is done
  Bytes size = 0;
  FlowClass cls{0};
  BytesPerSecond explicit_rate = -1;
  double mark_gap = -1;    // bytes left when the mark is reached; < 0: no mark
  double mark_target = 0;  // group service at which it is reached
};

struct HeapEntry {
  double target;
  FlowId flow;
  bool operator>(const HeapEntry& o) const {
    return target != o.target ? target > o.target : flow > o.flow;
  }
};

// Cold per-group data; the hot numbers live in GroupTable's parallel arrays.
struct Group {
  PathId path{-1};
  FlowClass cls{0};
  FlowId explicit_flow{-1};      // >= 0: a single flow with an explicit rate
  std::vector<HeapEntry> heap;   // min-heap by target; may hold stale entries (moved flows)
  std::vector<HeapEntry> marks;  // the same for mark targets
  bool live = false;
};

class GroupTable {
 public:
  explicit GroupTable(size_t links);

  // --- Flows ---
  // Flow ids are chosen by the caller and must be dense (0, 1, 2, ...) but may arrive in any
  // order. A flow that changes class or gains or loses an explicit rate moves to another group
  // with its remaining bytes.
  void Add(FlowId f, PathId path, Bytes size, FlowClass cls);
  void SetClass(FlowId f, FlowClass cls);
  void SetExplicitRate(FlowId f, BytesPerSecond rate);  // rate < 0 clears it
  Bytes Remaining(FlowId f) const;
  // A flow's one mark, a count of bytes sent; each group keeps its earliest mark as it does its
  // earliest completion.
  void SetMark(FlowId f, Bytes sent);
  void ClearMark(FlowId f);

  // --- Groups ---
  double ServiceNow(int32_t g) const { return service[g] + rate[g] * pending; }
  // Changes a group's rate from now on (the pending time stays at the old rate).
  void SetRate(int32_t g, double r) {
    if (r == rate[g]) return;
    service[g] += (rate[g] - r) * pending;
    if ((rate[g] != 0) != (r != 0)) moving_in_block[g / kEventBlock] += r != 0 ? 1 : -1;
    rate[g] = r;
  }
  std::span<const LinkId> GroupLinks(int32_t g) const {
    return {&group_links[g * kMaxPathLinks + 1],
            static_cast<size_t>(group_links[g * kMaxPathLinks])};
  }
  size_t CellOf(const ClassState& cs, int32_t g) const {
    return shape.CellOf(cs, &group_links[g * kMaxPathLinks + 1]);
  }
  // Adds delta members to group g, keeping its class's dense matrix current.
  void ChangeCount(int32_t g, int32_t delta);
  void DropGroup(int32_t g);
  // Renumbers the live groups to 0..live-1, calling on_move(from, to) for each one moved so
  // that whoever holds group ids can follow.
  template <class OnMove>
  void Compact(OnMove on_move) {
    // Move the highest live groups into the lowest free ids until the live ids are 0..live-1.
    for (int32_t from = hi - 1; from >= live_group_count; --from) {
      if (!groups[from].live) continue;
      const int32_t to = TakeLowestFreeId();
      MoveGroup(from, to);
      on_move(from, to);
    }
    FreeIdsAboveLive();
  }

  // --- Groups by link (local water fills) ---
  // From the first TrackLinks() on: the class groups (not the explicit-rate ones) crossing each
  // link, once per time the path crosses it, kept current as groups come, go and are
  // renumbered.
  void TrackLinks();
  bool links_tracked() const { return links_tracked_; }
  std::span<const int32_t> GroupsOnLink(LinkId l) const { return on_link_[l]; }

  // --- Completions and marks ---
  // Drops stale heap entries and caches the earliest member's target and tolerance.
  void RefreshTop(int32_t g);
  void RefreshMarkTop(int32_t g);
  // After a member joined or left g, or a mark was set or cleared: if its earliest member or
  // mark is due already, the next search for events must not skip g's block.
  void NoteIfDue(int32_t g) {
    full_pass |= min_target[g] - ServiceNow(g) <= min_tol[g] ||
                 min_mark[g] - ServiceNow(g) <= min_mark_tol[g];
  }

  PathTable paths;
  // Indexed by flow id; a flow's record may be retired once it has completed (FluidSolver::
  // Retire), so a stale heap entry's flow is checked with Readable before it is read.
  ChunkedRecords<Flow> flows;
  std::vector<Group> groups;
  int active_flows = 0;

  // Hot per-group arrays, indexed by group id.
  std::vector<int32_t> count;
  std::vector<double> rate;  // per member
  // Bytes each member has received since the group was created, up to the last search for
  // events; the time since (pending) is added by the next search, at the rates of then.
  std::vector<double> service;
  Seconds pending = 0;
  std::vector<double> min_target;  // earliest member's target
  std::vector<double> min_tol;     // its completion tolerance
  std::vector<double> min_mark;    // earliest member's mark target (infinite if none)
  std::vector<double> min_mark_tol;
  // Per block of kEventBlock group ids: how many have a non-zero rate. The search for events
  // skips blocks with none (their services do not move), unless full_pass: some group became
  // due by a change other than time passing.
  std::vector<int32_t> moving_in_block;
  bool full_pass = false;
  // kMaxPathLinks per group: [n, l0, ..., l4], the count n kept in a LinkId slot so that a
  // group's links are one read.
  std::vector<LinkId> group_links;
  std::vector<int32_t> group_pos;    // index in its class's groups (or explicit_groups)
  std::vector<int32_t> group_class;  // each group's class id, -1 for explicit-rate groups
  int32_t hi = 0;                    // above the highest live id
  int live_group_count = 0;

  // Classes in priority order, each with a dense id into class_states (ids are reused).
  std::map<FlowClass, int32_t> class_ids;
  std::vector<ClassState> class_states;
  DenseShape shape;

  // The groups with an explicit rate, each one flow, and their rates.
  std::vector<int32_t> explicit_groups;
  std::vector<double> explicit_rate;  // hot, per group id
  ClassState explicit_state;          // their dense state, for the backfill
  // Each link's capacity minus the explicit rates across it, as of the last solve that set
  // them all (ExplicitRates), plus the rates of the explicit groups dropped since.
  std::vector<double> explicit_residual;
  bool explicit_changed = true;  // an explicit rate was set, or an explicit group made
  // The two-link explicit groups on each link (a dense backfill cell may hold many), and each
  // group's index in the lists of its first and second link (-1: in none).
  std::vector<std::vector<int32_t>> explicit_on_link;
  std::vector<int32_t> explicit_link_pos;

  // Something changed since the last solve; the highest-priority class that did (kNoDirtyClass
  // if none).
  bool dirty = false;
  FlowClass dirty_from = kNoDirtyClass;
  int mark_count = 0;  // active flows with a mark
  bool marks_dirty = false;

 private:
  // The group of (path, cls), made if new; an explicit-rate flow always gets a new one.
  int32_t GroupFor(PathId path, FlowClass cls, FlowId explicit_flow);
  // A free group id (the lowest), or a new slot in every per-group array.
  int32_t TakeGroupId();
  // Puts new group g on the explicit list (and its links' lists), or in class cls.
  void ListExplicitGroup(int32_t g, std::span<const LinkId> links);
  void ListClassGroup(int32_t g, FlowClass cls, std::span<const LinkId> links);
  // Notes a new group's path for the shape of the dense matrices.
  void NoteGroupShape(std::span<const LinkId> links);
  void DropAllDense();
  void Join(FlowId f, int32_t g, Bytes remaining);
  void Leave(FlowId f);
  // Takes explicit-rate group g off its two links' lists, giving its rate back to them.
  void UnlistExplicitLinks(int32_t g);
  int32_t TakeLowestFreeId();
  void MoveGroup(int32_t from, int32_t to);
  void FreeIdsAboveLive();
  // Makes slot g read as dead to the whole-array passes.
  void ClearSlot(int32_t g);
  // The link of path p's list that names group g.
  int32_t& PathLink(PathId p, int32_t g);
  void PushMark(FlowId f);
  // Lists class group g on (or takes it off) the lists of the links it crosses.
  void ListOnLinks(int32_t g);
  void UnlistOnLinks(int32_t g);

  // Free group ids, a min-heap: reusing the lowest id keeps the live ids packed below hi, the
  // bound of every whole-array loop.
  std::vector<int32_t> free_groups_;
  // The index of groups without an explicit rate (see GroupFor): per path id, the first of its
  // class groups, and per group, the next one of the same path (-1 ends a list). Path ids are
  // dense and a path has few classes, so this costs a read or two where a hash table of (path,
  // class) missed the cache several times per lookup and per erase.
  std::vector<int32_t> path_first_;
  std::vector<int32_t> path_next_;
  std::vector<int32_t> free_class_ids_;
  bool links_tracked_ = false;
  std::vector<std::vector<int32_t>> on_link_;
  // Per group, kMaxPathLinks slots: its index in on_link_ of the k-th link of its path.
  std::vector<int32_t> on_link_pos_;
};

}  // namespace slotflow::rates
