// varys — Varys (Chowdhury et al., SIGCOMM'14 §5): SEBF coflow order + MADD rates.
//
// When a coflow starts or ends (see "Recomputing" below), from scratch:
//  1. Group the active flows by coflow (a flow without a coflow is a coflow of its own, so it is
//     ordered by its own bottleneck, as Varys treats a lone flow) and add up each coflow's
//     remaining bytes per link.
//  2. SEBF (Varys §5.1): order coflows by the effective bottleneck
//     Γ = max over links l of (remaining bytes of the coflow on l / capacity of l); at this point
//     nothing is allocated yet, so the free capacity is the whole link (Varys Pseudocode 1 sorts
//     before allocating). Ties: coflow id, then coflows without an id by flow id.
//  3. MADD (Varys §5.2), coflow by coflow in that order, on the capacity still free:
//     τ = max over the coflow's links of (bytes on l / free capacity of l); each flow f gets
//     the explicit rate remaining_f / τ, so every flow of the coflow ends at τ together, and
//     the coflow's bytes / τ are taken off the free capacity of its links. A coflow that needs
//     a link with no free capacity left has τ = ∞ and is starved: its flows get no explicit
//     rate and stay in class 0.
//  4. Work conservation (Varys Pseudocode 1, "distribute unused bandwidth"): the fluid
//     solver serves the explicit rates first, then gives what is left max-min to the starved
//     flows (class 0), then backfills the rest max-min to the explicit-rate flows, so no link
//     MADD leaves idle stays idle while a flow could use it. Starved coflows are not ranked
//     among themselves in the backfill (one class): leftovers are shared max-min
//     (docs/readings.md), and one class keeps flows of a path in one solver group.
//
// Recomputing: MADD rates stay valid until a coflow starts or ends. Between those events every
// flow runs at least at its MADD rate (explicit rates are served first and never oversubscribe
// a link), so each scheduled coflow still ends by its τ; a flow that ends early only frees
// capacity, which the solver re-distributes at once (step 4). So steps 1–3 run only when flows
// start (a new coflow, or new flows of a running one) or when a coflow's last flow ends, not
// at every flow completion; the Varys authors' simulator (coflowsim) likewise re-runs MADD only
// after a coflow is admitted or departs. On the FB trace that is ~1,000 passes
// instead of ~130,000, and the policy is ~1% of the run; the rest is the fluid solver.
//
// Cost of one pass: linear in the active flows plus C log C for the sort of C active coflows;
// per-link sums use a dense per-link scratch array and a list of touched links, and flows are
// bucketed by coflow with a counting sort.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <tuple>
#include <vector>

#include "api/network_policy.h"
#include "api/tolerance.h"

namespace slotflow {
namespace {

// A link whose free capacity is below this fraction of its capacity counts as exhausted, so
// rounding in "capacity − Σ bytes / τ" cannot give a starved coflow a spurious tiny rate.
constexpr double kExhausted = kRelTolerance;

class VarysPolicy : public NetworkPolicy {
 public:
  explicit VarysPolicy(const PolicyArgs&) {}

  void OnFlowsStarted(const FlowView& net, ClassSink& /*out*/,
                      std::span<const FlowId> flows) override {
    for (FlowId f : flows) {
      const CoflowId c = net.flow(f).spec.coflow;
      if (c < 0) continue;
      if (static_cast<size_t>(c) >= coflow_active_.size()) coflow_active_.resize(c + 1, 0);
      ++coflow_active_[c];
    }
    stale_ = true;  // a new coflow, or new flows of a running one
  }

  void OnFlowsFinished(const FlowView& net, ClassSink& /*out*/,
                       std::span<const FlowId> flows) override {
    for (FlowId f : flows) {
      const CoflowId c = net.flow(f).spec.coflow;
      if (c < 0 || --coflow_active_[c] == 0) stale_ = true;  // a coflow ended
    }
  }

  void BeforeSolve(const FlowView& net, ClassSink& out) override {
    if (!stale_) return;  // MADD rates still hold (see the header)
    stale_ = false;
    const std::vector<FlowId>& active = net.active_flows();
    const int links = net.LinkCount();
    if (static_cast<int>(link_bytes_.size()) < links) {
      link_bytes_.assign(links, 0);
      free_.assign(links, 0);
    }
    BucketByCoflow(net, active);
    SumLinkBytes(net, links);

    // SEBF order (step 2).
    order_.resize(coflows_.size());
    for (size_t k = 0; k < order_.size(); ++k) order_[k] = static_cast<int32_t>(k);
    std::sort(order_.begin(), order_.end(), [&](int32_t a, int32_t b) {
      const CoflowState& x = coflows_[a];
      const CoflowState& y = coflows_[b];
      return std::tie(x.gamma, x.tie) < std::tie(y.gamma, y.tie);
    });

    // MADD on the capacity still free (step 3).
    for (LinkId l : touched_) free_[l] = net.LinkCapacity(l);
    for (int32_t k : order_) {
      const CoflowState& c = coflows_[k];
      double tau = 0;
      for (int32_t i = c.link_begin; i < c.link_end; ++i) {
        const LinkId l = link_use_[i].link;
        if (free_[l] <= kExhausted * net.LinkCapacity(l)) {
          tau = kForever;
          break;
        }
        tau = std::max(tau, link_use_[i].bytes / free_[l]);
      }
      // τ = 0: the coflow crosses no link (local reads); the solver paces it alone.
      const bool scheduled = tau > 0 && tau < kForever;
      for (int32_t i = c.flow_begin; i < c.flow_end; ++i) {
        out.SetExplicitRate(members_[i], scheduled ? remaining_[i] / tau : -1);
      }
      if (!scheduled) continue;
      for (int32_t i = c.link_begin; i < c.link_end; ++i) {
        const LinkId l = link_use_[i].link;
        free_[l] = std::max(0.0, free_[l] - link_use_[i].bytes / tau);
      }
    }
    for (LinkId l : touched_) free_[l] = 0;
  }

 private:
  struct CoflowState {
    double gamma = 0;  // SEBF key: Γ on whole link capacities
    int64_t tie = 0;   // deterministic tie-break: coflow id, then lone flows by flow id
    int32_t flow_begin = 0, flow_end = 0;  // its flows in members_ / remaining_
    int32_t link_begin = 0, link_end = 0;  // its per-link bytes in link_use_
  };
  struct LinkUse {
    LinkId link;
    double bytes;
  };

  // Step 1: coflows_ gets one entry per active coflow (or lone flow), members_ their flows
  // contiguously, remaining_ each member's remaining bytes.
  void BucketByCoflow(const FlowView& net, const std::vector<FlowId>& active) {
    coflows_.clear();
    slot_.resize(active.size());
    used_coflow_ids_.clear();
    for (size_t i = 0; i < active.size(); ++i) {
      const FlowId f = active[i];
      const CoflowId c = net.flow(f).spec.coflow;
      int32_t s;
      if (c < 0) {
        s = NewCoflow(static_cast<int64_t>(INT32_MAX) + 1 + f);
      } else {
        if (static_cast<size_t>(c) >= coflow_slot_.size()) coflow_slot_.resize(c + 1, -1);
        if (coflow_slot_[c] < 0) {
          coflow_slot_[c] = NewCoflow(c);
          used_coflow_ids_.push_back(c);
        }
        s = coflow_slot_[c];
      }
      slot_[i] = s;
      ++coflows_[s].flow_end;  // a count for now
    }
    for (CoflowId c : used_coflow_ids_) coflow_slot_[c] = -1;
    int32_t begin = 0;
    for (CoflowState& c : coflows_) {
      const int32_t count = c.flow_end;
      c.flow_begin = c.flow_end = begin;
      begin += count;
    }
    members_.resize(active.size());
    remaining_.resize(active.size());
    for (size_t i = 0; i < active.size(); ++i) {
      CoflowState& c = coflows_[slot_[i]];
      members_[c.flow_end] = active[i];
      remaining_[c.flow_end] = net.Remaining(active[i]);
      ++c.flow_end;
    }
  }

  int32_t NewCoflow(int64_t tie) {
    coflows_.push_back(CoflowState{.tie = tie});
    return static_cast<int32_t>(coflows_.size() - 1);
  }

  // Per coflow: bytes remaining on each link it uses, and Γ on whole capacities.
  void SumLinkBytes(const FlowView& net, int links) {
    link_use_.clear();
    touched_.clear();
    in_coflow_.assign(links, 0);
    seen_.assign(links, 0);
    for (CoflowState& c : coflows_) {
      c.link_begin = static_cast<int32_t>(link_use_.size());
      for (int32_t i = c.flow_begin; i < c.flow_end; ++i) {
        for (LinkId l : net.Links(members_[i])) {
          if (!in_coflow_[l]) {
            in_coflow_[l] = 1;
            coflow_links_.push_back(l);
          }
          link_bytes_[l] += remaining_[i];
        }
      }
      double gamma = 0;
      for (LinkId l : coflow_links_) {
        link_use_.push_back(LinkUse{l, link_bytes_[l]});
        gamma = std::max(gamma, link_bytes_[l] / net.LinkCapacity(l));
        link_bytes_[l] = 0;
        in_coflow_[l] = 0;
        if (!seen_[l]) {
          seen_[l] = 1;
          touched_.push_back(l);
        }
      }
      coflow_links_.clear();
      c.gamma = gamma;
      c.link_end = static_cast<int32_t>(link_use_.size());
    }
  }

  bool stale_ = false;
  std::vector<int32_t> coflow_active_;  // by coflow id: its active flows
  std::vector<int32_t> coflow_slot_;    // coflow id → index in coflows_, -1 between passes
  std::vector<CoflowId> used_coflow_ids_;
  std::vector<CoflowState> coflows_;
  std::vector<int32_t> slot_;  // per active-list position: its coflows_ index
  std::vector<FlowId> members_;
  std::vector<double> remaining_;
  std::vector<LinkUse> link_use_;
  std::vector<int32_t> order_;
  // Per-link scratch, all zero between uses.
  std::vector<double> link_bytes_, free_;
  std::vector<uint8_t> in_coflow_, seen_;
  std::vector<LinkId> coflow_links_, touched_;
};

}  // namespace

SLOTFLOW_REGISTER_NETWORK_POLICY("varys",
                                 "Varys: coflows by smallest effective bottleneck first (SEBF), "
                                 "MADD rates, max-min backfill",
                                 "tcf", {}, VarysPolicy);

}  // namespace slotflow
