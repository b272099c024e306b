// cans — Duopoly's compute-aware network scheduling (Duopoly §4; the mode of §3.3).
//
// Every flow gets two priorities, fixed when it starts (Duopoly §4: they do not follow the
// remaining size):
//  - coflow priority: the size of its coflow (Coflow::total_bytes, the stage's whole shuffle):
//    job-level smallest-first, what keeps compute busy when slots are plentiful;
//  - macroflow priority: the size of its macroflow (FlowSpec::macroflow_bytes, the receiving
//    reduce task's whole input): smallest task first, what frees slots fastest when they are
//    scarce (Duopoly §4.1).
// Smaller = higher priority. With `queues` classes each size is bucketed by ThresholdClass
// (exponentially spaced thresholds: first_threshold, × multiplier; 8 classes by default, as in
// Duopoly's testbed). In SlotMode::kSufficient the coflow priority is in force, in
// kInsufficient the macroflow priority; a mode switch re-classes every active flow at once.
//
// Unlimited queues (Duopoly §6.2's "(I)"): the class is the size itself, plus a tie-break,
// so that every coflow and every macroflow is its own class: Duopoly §4 orders macroflows one
// after another (Fig. 1: Ra1 is served before Ra2 although both are 1 unit, which is what
// frees a slot at t = 1). Among equal sizes the one seen first (first flow started earlier)
// goes first, and among those seen in the same pass the lower macroflow (task) / coflow id;
// this is first-come-first-served among equals, so an equal newcomer never pre-empts.
// Class: level floor(size), key the tie index (api/class_key.h; size capped at 2^47 bytes;
// beyond 2^16 − 1 equals of one size the rest share the last index).
//
// Flows without a coflow (block reads, docs/readings.md) are a coflow of their own whose size
// is the flow's size: a block read is a one-flow stage, and ranking it by its own bytes puts
// these small reads ahead of big shuffles, as job-level SJF would for a one-task stage. A flow
// without a macroflow is likewise a macroflow of its own size.
//
// Setting `priority`: by-mode (the mode switch, default), coflow (always the coflow priority,
// Duopoly's ablation "(C)") or macroflow (always the macroflow priority, "(M)").
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "api/class_key.h"
#include "api/network_policy.h"

namespace slotflow {
namespace {

enum class Which { kByMode, kCoflow, kMacroflow };

// Thresholds (ours; Duopoly gives 8 queues on its testbed but no thresholds): each unit's 7
// thresholds grow geometrically from 10 MiB so that its 8 classes span the sizes that unit takes
// in the FB trace — coflows 1 MB to 8.9 TB (× 8: 10 MiB .. 2.6 TiB), macroflows 1 MB to 243 GB
// (× 4: 10 MiB .. 40 GiB) — and no class is empty. (One shared 10 MiB × 10 scale would leave the
// top coflow class empty.)
std::vector<SettingSpec> CansSettings() {
  auto bytes = [](const char* name, const char* meaning) {
    return SettingSpec{.name = name,
                       .kind = SettingKind::kBytes,
                       .default_value = "10MiB",
                       .meaning = meaning,
                       .min = 0,
                       .min_exclusive = true};
  };
  auto factor = [](const char* name, const char* value, const char* meaning) {
    return SettingSpec{.name = name,
                       .kind = SettingKind::kNumber,
                       .default_value = value,
                       .meaning = meaning,
                       .min = 1,
                       .min_exclusive = true};
  };
  return {
      QueuesSetting("8"),
      bytes("coflow_first_threshold",
            "upper bound of the first class of coflow sizes (limited queues)"),
      factor("coflow_multiplier", "8", "factor between consecutive coflow-size thresholds"),
      bytes("macroflow_first_threshold",
            "upper bound of the first class of macroflow sizes (limited queues)"),
      factor("macroflow_multiplier", "4", "factor between consecutive macroflow-size thresholds"),
      {.name = "block_reads",
       .kind = SettingKind::kChoice,
       .default_value = "own-coflow",
       .meaning = "map-input block reads (no coflow): own-coflow (a one-flow coflow and "
                  "macroflow of their own size, ours) or last (below every shuffle)",
       .choices = {"own-coflow", "last"}},
      {.name = "priority",
       .kind = SettingKind::kChoice,
       .default_value = "by-mode",
       .meaning = "which priority is in force: by-mode (coflow when slots suffice, "
                  "macroflow when not), coflow (ablation C), macroflow (ablation M)",
       .choices = {"by-mode", "coflow", "macroflow"}}};
}

constexpr int64_t kMaxTie = (int64_t{1} << 16) - 1;
constexpr int64_t kSizeLevels = int64_t{1} << 47;  // whole bytes, the levels of unlimited queues
constexpr double kMaxSizeKey = static_cast<double>(kSizeLevels - 1);

class CansPolicy : public NetworkPolicy {
 public:
  explicit CansPolicy(const PolicyArgs& args)
      : queues_(args.settings.Queues("queues")),
        coflow_scale_{args.settings.Number("coflow_first_threshold"),
                      args.settings.Number("coflow_multiplier")},
        macroflow_scale_{args.settings.Number("macroflow_first_threshold"),
                         args.settings.Number("macroflow_multiplier")},
        which_(args.settings.Choice<Which>("priority", {{"by-mode", Which::kByMode},
                                                        {"coflow", Which::kCoflow},
                                                        {"macroflow", Which::kMacroflow}})),
        block_reads_last_(
            args.settings.Choice<bool>("block_reads", {{"own-coflow", false}, {"last", true}})) {}

  void OnFlowsStarted(const FlowView& net, ClassSink& out, std::span<const FlowId> flows) override {
    const bool unlimited = queues_ == kUnlimitedQueues;
    if (unlimited) AssignTies(net, flows);
    const bool by_coflow = UseCoflow(net.slot_mode());
    for (size_t i = 0; i < flows.size(); ++i) {
      const FlowId f = flows[i];
      if (static_cast<size_t>(f) >= classes_.size()) classes_.resize(f + 1);
      const FlowSpec& spec = net.flow(f).spec;
      Classes& c = classes_[f];
      c.coflow = ClassOf(CoflowBytes(net, spec), coflow_scale_, unlimited ? coflow_ties_[i] : 0);
      c.macroflow =
          ClassOf(MacroflowBytes(spec), macroflow_scale_, unlimited ? macroflow_ties_[i] : 0);
      out.SetClass(f, by_coflow ? c.coflow : c.macroflow);
    }
  }

  // The class in force for `spec` now: that of its coflow or macroflow (unlimited queues: with
  // the tie index it has, or the next one if it is new). A flow without a coflow or macroflow
  // gets the next tie of its size, as a new one would.
  std::optional<FlowClass> ExpectedClass(const FlowView& net, const FlowSpec& spec) const override {
    const bool unlimited = queues_ == kUnlimitedQueues;
    if (UseCoflow(net.slot_mode())) {
      const Bytes size = CoflowBytes(net, spec);
      int64_t tie = 0;
      if (unlimited) {
        const bool seen = spec.coflow >= 0 &&
                          static_cast<size_t>(spec.coflow) < coflow_tie_.size() &&
                          coflow_tie_[spec.coflow] >= 0;
        tie = seen ? coflow_tie_[spec.coflow] : TieOfNext(coflow_sizes_, size);
      }
      return ClassOf(size, coflow_scale_, tie);
    }
    const Bytes size = MacroflowBytes(spec);
    int64_t tie = 0;
    if (unlimited) {
      const auto it =
          spec.macroflow >= 0 ? macroflow_tie_.find(spec.macroflow) : macroflow_tie_.end();
      tie = it != macroflow_tie_.end() ? it->second : TieOfNext(macroflow_sizes_, size);
    }
    return ClassOf(size, macroflow_scale_, tie);
  }

  // Duopoly §4: the mode decides which priority every active flow uses.
  void OnSlotMode(const FlowView& net, ClassSink& out, SlotMode mode) override {
    if (which_ != Which::kByMode) return;
    const bool by_coflow = UseCoflow(mode);
    const Why why =
        Why().Add("rule", "mode-switch").Add("priority", by_coflow ? "coflow" : "macroflow");
    for (FlowId f : net.active_flows()) {
      if (static_cast<size_t>(f) >= classes_.size()) continue;  // not yet seen: classed on start
      out.SetClass(f, by_coflow ? classes_[f].coflow : classes_[f].macroflow, why);
    }
  }

 private:
  struct Classes {
    FlowClass coflow{0};
    FlowClass macroflow{0};
  };

  bool UseCoflow(SlotMode mode) const {
    switch (which_) {
      case Which::kCoflow:
        return true;
      case Which::kMacroflow:
        return false;
      case Which::kByMode:
        break;
    }
    return mode == SlotMode::kSufficient;
  }

  // A block read (no coflow) ranks by its own size, or after every shuffle (block_reads last).
  Bytes CoflowBytes(const FlowView& net, const FlowSpec& spec) const {
    if (spec.coflow >= 0) return net.coflow(spec.coflow).total_bytes;
    return block_reads_last_ ? kMaxSizeKey : spec.size;
  }
  Bytes MacroflowBytes(const FlowSpec& spec) const {
    if (spec.coflow < 0 && block_reads_last_) return kMaxSizeKey;
    return spec.macroflow >= 0 && spec.macroflow_bytes > 0 ? spec.macroflow_bytes : spec.size;
  }

  // `tie` is used with unlimited queues only.
  struct Scale {
    Bytes first_threshold;
    double multiplier;
  };
  FlowClass ClassOf(Bytes size, const Scale& scale, int64_t tie) const {
    if (queues_ != kUnlimitedQueues) {
      return ThresholdClass(size, queues_, scale.first_threshold, scale.multiplier);
    }
    return kSizeThenTie.Count(SizeKey(size), tie);
  }

  static int64_t SizeKey(Bytes size) {
    return static_cast<int64_t>(std::floor(std::clamp(size, 0.0, kMaxSizeKey)));
  }

  // The tie index the next coflow or macroflow of this size would get.
  static int64_t TieOfNext(const std::unordered_map<int64_t, int64_t>& used, Bytes size) {
    const auto it = used.find(SizeKey(size));
    return std::min(it == used.end() ? 0 : it->second, kMaxTie);
  }

  int64_t NextTie(std::unordered_map<int64_t, int64_t>& used, Bytes size) {
    int64_t& n = used[SizeKey(size)];
    const int64_t tie = std::min(n, kMaxTie);
    ++n;
    return tie;
  }

  // Unlimited queues: gives every coflow and macroflow seen for the first time in this batch its
  // tie index among equal sizes, in id order, then lone flows (no coflow / no macroflow) in flow
  // id order; coflow_ties_[i] / macroflow_ties_[i] are then those of flows[i].
  void AssignTies(const FlowView& net, std::span<const FlowId> flows) {
    new_coflows_.clear();
    new_macroflows_.clear();
    for (FlowId f : flows) {
      const FlowSpec& spec = net.flow(f).spec;
      if (spec.coflow >= 0 && static_cast<size_t>(spec.coflow) >= coflow_tie_.size()) {
        coflow_tie_.resize(spec.coflow + 1, -1);
      }
      if (spec.coflow >= 0 && coflow_tie_[spec.coflow] < 0) {
        coflow_tie_[spec.coflow] = 0;  // taken in this batch; the index follows below
        new_coflows_.emplace_back(spec.coflow, CoflowBytes(net, spec));
      }
      if (spec.macroflow >= 0 && macroflow_tie_.try_emplace(spec.macroflow, 0).second) {
        new_macroflows_.emplace_back(spec.macroflow, MacroflowBytes(spec));
      }
    }
    std::sort(new_coflows_.begin(), new_coflows_.end());
    std::sort(new_macroflows_.begin(), new_macroflows_.end());
    for (const auto& [c, size] : new_coflows_) coflow_tie_[c] = NextTie(coflow_sizes_, size);
    for (const auto& [m, size] : new_macroflows_) {
      macroflow_tie_[m] = NextTie(macroflow_sizes_, size);
    }
    // Lone flows, in flow id order.
    by_id_.resize(flows.size());
    for (size_t i = 0; i < flows.size(); ++i) by_id_[i] = i;
    std::sort(by_id_.begin(), by_id_.end(),
              [&](size_t a, size_t b) { return flows[a] < flows[b]; });
    coflow_ties_.assign(flows.size(), 0);
    macroflow_ties_.assign(flows.size(), 0);
    for (size_t i : by_id_) {
      const FlowSpec& spec = net.flow(flows[i]).spec;
      coflow_ties_[i] =
          spec.coflow >= 0 ? coflow_tie_[spec.coflow] : NextTie(coflow_sizes_, spec.size);
      macroflow_ties_[i] = spec.macroflow >= 0 ? macroflow_tie_[spec.macroflow]
                                               : NextTie(macroflow_sizes_, spec.size);
    }
  }

  static inline const ClassKeys kSizeThenTie{kSizeLevels, ClassKeys::Key::kCount,
                                             kMaxTie + 1};  // unlimited queues
  const int queues_;
  const Scale coflow_scale_, macroflow_scale_;
  const Which which_;
  const bool block_reads_last_;
  std::vector<Classes> classes_;  // by flow id
  // Unlimited queues only: tie index per coflow / macroflow, and how many of each size exist.
  std::vector<int64_t> coflow_tie_;  // by coflow id, -1 = not seen yet
  std::unordered_map<int32_t, int64_t> macroflow_tie_;
  std::unordered_map<int64_t, int64_t> coflow_sizes_, macroflow_sizes_;
  // Scratch for one batch of new flows.
  std::vector<std::pair<CoflowId, Bytes>> new_coflows_;
  std::vector<std::pair<int32_t, Bytes>> new_macroflows_;
  std::vector<size_t> by_id_;
  std::vector<int64_t> coflow_ties_, macroflow_ties_;
};

}  // namespace

// NEAT+ predicts it as TCF (ours: its coflow priority serves the smallest coflow first).
SLOTFLOW_REGISTER_NETWORK_POLICY("cans",
                                 "Duopoly cans: coflow-size priority when slots suffice, "
                                 "macroflow-size priority when they do not (fixed at flow start)",
                                 "tcf", CansSettings(), CansPolicy);

}  // namespace slotflow
