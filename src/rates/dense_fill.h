// DenseFill: the max-min fill of a class held as a dense two-link matrix (ClassState).
// Freezing a line (a row or a column) is a scan of the matrix, and a group's rate is the lower
// freeze level of its two lines, so after a fill only the groups on lines whose level moved
// get a new rate. A class over enough links is re-filled locally (LocalFill) when its changes
// reach few lines.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "rates/class_state.h"
#include "rates/fill_links.h"
#include "rates/groups.h"
#include "rates/local_fill.h"

namespace slotflow::rates {

class DenseFill {
 public:
  explicit DenseFill(size_t links);

  // Makes cs dense: its matrix of the member counts of `groups` on the table's current shape.
  static void Build(const GroupTable& t, ClassState& cs, std::span<const int32_t> groups);

  // Sets the rates of cs's `groups` (with add: adds to their current rates, the explicit-rate
  // backfill) and takes what they use from residual; no link is left below 0. continues: cs's
  // last fill still holds for what did not change since (always for a class; for the backfill
  // when ExplicitRates says so), so only groups on lines whose level moved are re-rated and a
  // local fill may be tried.
  void Fill(GroupTable& t, std::vector<double>& residual, ClassState& cs,
            std::span<const int32_t> groups, bool add, bool continues);

  // Local fills are tried only for dense classes over at least this many links (rows plus
  // columns); see kLocalFillMinLinks. Tests lower it to reach them.
  void SetLocalFillMinLinks(size_t links) { local_fill_min_links_ = links; }

  // Fills done whole, and the local fill's counts.
  int64_t dense_fills() const { return dense_fills_; }
  const LocalFill& local() const { return local_; }

 private:
  // The whole fill: opens the lines that carry members, then freezes them in order of share,
  // leaving each link's level in level_.
  void OpenDenseLines(const GroupTable& t, const ClassState& cs,
                      const std::vector<double>& residual);
  void FreezeDenseLines(const GroupTable& t, std::vector<double>& residual, ClassState& cs,
                        bool local_ready);
  // Rates of the groups from the link levels of the fill just done: all of them, or
  // (incremental) only those on a row or column whose level changed, plus new groups.
  void RateDenseGroups(GroupTable& t, ClassState& cs, std::span<const int32_t> groups, bool add,
                       bool incremental);
  // The residual capacity of every line of cs, copied into out.
  static void SaveLineResiduals(const DenseShape& shape, const std::vector<double>& residual,
                                const ClassState& cs, std::vector<double>& out);

  OpenLinks links_;
  std::vector<double> level_;           // per link: its freeze level in the current fill
  std::vector<uint8_t> link_closed_;    // per link: closed in the current fill
  std::vector<double> line_new_level_;  // RateDenseGroups: level per row, then per column
  Reciprocals reciprocals_;
  LocalFill local_;
  size_t local_fill_min_links_;
  int64_t dense_fills_ = 0;
};

}  // namespace slotflow::rates
