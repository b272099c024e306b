// EventSearch: when the next flow completes and when the next byte mark is reached at the
// current rates, moving time forward, and taking the flows that completed or reached their marks.
#pragma once

#include <cstdint>
#include <vector>

#include "api/ids.h"
#include "api/units.h"
#include "rates/groups.h"

namespace slotflow::rates {

class EventSearch {
 public:
  // After a solve (or a change of marks only): adds the service since the last search to every
  // group, finds the next completion and the next mark, and keeps the groups that may be due by
  // then, the only ones Advance checks.
  void Search(GroupTable& t);
  // Moves time forward by dt >= 0 at the current rates and notes the groups now due.
  void Advance(GroupTable& t, Seconds dt);
  // Removes the flows found done (remaining bytes 0 within a relative epsilon), appending their
  // ids in increasing id order.
  void PopCompleted(GroupTable& t, std::vector<FlowId>& out);
  // Appends the flows found at their marks, in increasing id order, and clears those marks.
  void TakeMarked(GroupTable& t, std::vector<FlowId>& out);
  // Group `from` is now group `to` (GroupTable::Compact).
  void Renumber(int32_t from, int32_t to);

  Seconds next_completion_in() const { return next_completion_in_; }
  Seconds next_mark_in() const { return next_mark_in_; }

 private:
  // The pass over all groups that ends a solve, with or without marks to track.
  template <bool kMarks>
  void NextEvents(GroupTable& t);

  Seconds next_completion_in_ = kForever;
  Seconds next_mark_in_ = kForever;
  // Groups that the last search found may complete (or reach a mark) by the next event.
  std::vector<int32_t> candidates_, mark_candidates_;
  std::vector<int32_t> due_;            // groups found done by Advance, emptied by PopCompleted
  std::vector<int32_t> mark_due_;       // groups found marked by Advance, emptied by TakeMarked
  std::vector<uint8_t> mark_due_flag_;  // per group id: in mark_due_
};

}  // namespace slotflow::rates
