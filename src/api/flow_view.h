// FlowView: what policies may read of the network — flows and coflows, their progress and
// rates, and link capacities and loads. ClassSink: the only things a network policy may write —
// flow classes, explicit rates, and byte-count marks it wants to hear about. Neither lets a
// policy start flows, move time or see the rate solver.
// Policy API (src/api/): stable, see docs/plugins.md#the-policy-api.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "api/chunked_records.h"
#include "api/flow.h"
#include "api/ids.h"
#include "api/units.h"
#include "api/why.h"

namespace slotflow {

class FlowView {
 public:
  virtual ~FlowView() = default;

  virtual Seconds now() const = 0;
  // The records are read in the hottest loops of some schedulers, so these are plain reads.
  // A flow's record can be read while it is active and in the step it finishes; after that only
  // if the network keeps finished flows' records (FinishedFlows::kRecords), as a scheduler that
  // reads them asks.
  const FlowRecord& flow(FlowId f) const { return (*flows_)[f]; }
  // Whether flow f's record can still be read (it may be kept a while after it was retired).
  bool Kept(FlowId f) const { return flows_->Readable(f); }
  const Coflow& coflow(CoflowId c) const { return (*coflows_)[c]; }
  // Coflows ever added (ids 0 .. CoflowCount() - 1).
  int CoflowCount() const { return static_cast<int>(coflows_->size()); }
  // Flows ever started (ids 0 .. FlowCount() - 1).
  int FlowCount() const { return static_cast<int>(flows_->size()); }
  // Flows started and not finished. A flow joins the end as it starts; one that finishes may
  // move others, so the order is otherwise of no meaning.
  const std::vector<FlowId>& active_flows() const { return *active_; }
  // What moves whenever time does or a flow starts or ends: two reads with equal stamps see the
  // same flows with the same bytes left, so what a scheduler derived from them may be kept
  // between the decisions of one instant.
  struct Stamp {
    Seconds now;
    int flows_started;
    size_t flows_active;
    bool operator==(const Stamp&) const = default;
  };
  Stamp stamp() const { return {now(), FlowCount(), active_flows().size()}; }
  // Every flow that has finished, in the order they finished (so a reader can keep a cursor
  // and see only what finished since it last looked), when the network keeps finished flows'
  // ids (FinishedFlows); else empty. Flows start in id order.
  const std::vector<FlowId>& finished_flows() const { return *finished_; }
  // Bytes of all the flows started so far that cross the network (not within one server).
  virtual Bytes StartedNetworkBytes() const = 0;
  virtual bool Active(FlowId f) const = 0;
  virtual Bytes Remaining(FlowId f) const = 0;
  Bytes Sent(FlowId f) const { return flow(f).spec.size - Remaining(f); }
  virtual BytesPerSecond Rate(FlowId f) const = 0;
  virtual FlowClass Class(FlowId f) const = 0;
  // The links flow f crosses (empty for a transfer within one server).
  virtual std::span<const LinkId> Links(FlowId f) const = 0;
  virtual int IncomingFlows(ServerId s) const = 0;
  virtual int OutgoingFlows(ServerId s) const = 0;
  virtual SlotMode slot_mode() const = 0;
  // The class the network policy gives a flow described by `spec` now
  // (NetworkPolicy::ExpectedClass); nullopt when the policy cannot tell.
  virtual std::optional<FlowClass> ExpectedClass(const FlowSpec& spec) const = 0;

  virtual int LinkCount() const = 0;
  virtual BytesPerSecond LinkCapacity(LinkId l) const = 0;
  // The sum of the current rates of the flows crossing l.
  virtual BytesPerSecond LinkLoad(LinkId l) const = 0;
  // Time until the next flow completes at the current rates (kForever if none).
  virtual Seconds NextCompletionIn() const = 0;
  // Time until the earliest mark (ClassSink::SetMark) is reached at the current rates.
  virtual Seconds NextMarkIn() const = 0;

 protected:
  // The implementation's own containers, which it keeps for as long as it exists.
  FlowView(const ChunkedRecords<FlowRecord>& flows, const std::vector<Coflow>& coflows,
           const std::vector<FlowId>& active, const std::vector<FlowId>& finished)
      : flows_(&flows), coflows_(&coflows), active_(&active), finished_(&finished) {}

 private:
  const ChunkedRecords<FlowRecord>* flows_;
  const std::vector<Coflow>* coflows_;
  const std::vector<FlowId>* active_;
  const std::vector<FlowId>* finished_;
};

// What the task life cycle needs of a network: the view, plus starting flows and adding
// coflows. The simulator's fluid Network is one; live mode's measured flows are another.
class FlowNetwork : public FlowView {
 public:
  // Starts a flow now; its policy classifies it before it is carried.
  virtual FlowId StartFlow(const FlowSpec& spec) = 0;
  virtual CoflowId AddCoflow(const Coflow& c) = 0;

 protected:
  using FlowView::FlowView;
};

class ClassSink {
 public:
  static const Why kNoReason;

  virtual ~ClassSink() = default;
  // Sets flow f's class; `why` is what the decision log shows when this changes it.
  virtual void SetClass(FlowId f, FlowClass cls, const Why& why) = 0;
  void SetClass(FlowId f, FlowClass cls) { SetClass(f, cls, kNoReason); }
  virtual void SetExplicitRate(FlowId f, BytesPerSecond rate) = 0;  // < 0 clears
  // A mark: tell me when flow f has sent `sent` bytes (see TakeMarked). One per flow; a new mark
  // replaces the old; a flow's mark goes when it completes.
  virtual void SetMark(FlowId f, Bytes sent) = 0;
  virtual void ClearMark(FlowId f) = 0;
  // Appends the flows whose marks have been reached (in increasing id order) and clears them.
  virtual void TakeMarked(std::vector<FlowId>& out) = 0;
};

}  // namespace slotflow
