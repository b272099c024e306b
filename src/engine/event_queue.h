// EventQueue: timed events in deterministic order. Events at the same time come out in the
// order they were scheduled (a sequence number breaks ties), so runs are reproducible.
#pragma once

#include <cstdint>
#include <queue>
#include <vector>

#include "api/units.h"

namespace slotflow {

struct Event {
  Seconds time;
  uint64_t seq;
  int32_t kind;     // meaning chosen by the owner of the queue
  int64_t subject;  // e.g. a job or task index
};

class EventQueue {
 public:
  void Schedule(Seconds time, int32_t kind, int64_t subject) {
    heap_.push(Event{time, next_seq_++, kind, subject});
  }
  bool empty() const { return heap_.empty(); }
  Seconds NextTime() const { return heap_.empty() ? kForever : heap_.top().time; }
  Event Pop() {
    Event e = heap_.top();
    heap_.pop();
    return e;
  }
  size_t size() const { return heap_.size(); }

 private:
  struct Later {
    bool operator()(const Event& a, const Event& b) const {
      return a.time != b.time ? a.time > b.time : a.seq > b.seq;
    }
  };
  std::priority_queue<Event, std::vector<Event>, Later> heap_;
  uint64_t next_seq_ = 0;
};

}  // namespace slotflow
