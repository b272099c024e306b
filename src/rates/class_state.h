// ClassState: the live groups of one priority class and, when every group crosses two links,
// the class as a dense matrix of member counts, first links (rows) x second links (columns),
// kept current as members come and go. DenseShape: the rows and columns all such matrices
// share. Reciprocals: 1/w for member counts, for the dense fills.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "api/ids.h"
#include "rates/tuning.h"

namespace slotflow::rates {

// What a local water fill (LocalWaterFill) needs of a sparse class's last fill (valid if
// `valid`), per link, each vector sized to every link once used: the link's level in that
// fill (kForever: not a bottleneck; 0 for a link listed since, which has none yet), its
// residual capacity before and after the class; the links the class crossed then or since
// (listed), those whose groups changed since (seeds, flagged in is_seed) with the use those
// changes added at the old rates (pending_use), and the groups whose member counts changed
// (changed; ids as of now, possibly repeated or dead since).
struct SparseLocal {
  bool valid = false;
  int skip = 0, backoff = 0;  // whole fills to do before trying a local one again
  std::vector<double> level, input, output, pending_use;
  std::vector<LinkId> links;
  std::vector<uint8_t> listed;
  std::vector<LinkId> seeds;
  std::vector<uint8_t> is_seed;
  std::vector<int32_t> changed;
};

// A class's groups, plus what lets a solve skip work: the dense two-link count matrix (see
// DenseFill) and the residual capacity left after the class was last filled.
struct ClassState {
  FlowClass key{0};
  std::vector<int32_t> groups;  // live groups, any order; GroupTable::group_pos gives each index
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
  // Which cells are not empty, a bit per cell: each row's bits (row_words words a row, bit c
  // for column c), then each column's (col_words words a column). A fill's scan of a line
  // visits its members only, in the order of a whole scan.
  size_t row_words = 0, col_words = 0;
  std::vector<uint64_t> row_bits, col_bits;
  // Each row's and column's level in the last dense fill (valid if has_levels), and groups
  // created since: a group's rate is the lower level of its two links, so the next fill
  // needs to rate only the groups on links whose level changed, plus these.
  bool has_levels = false;
  std::vector<double> line_level;
  std::vector<int32_t> fresh;
  // What a local fill (LocalFill) needs of the last fill (valid if has_local): each line's
  // residual capacity before and after this class, the lines with a finite level in ascending
  // level order, and the lines whose cells changed since (seeds, flagged in is_seed).
  bool has_local = false;
  int local_skip = 0, local_backoff = 0;  // whole fills to do before trying a local one again
  std::vector<double> line_input, line_output;
  std::vector<int32_t> order;
  std::vector<int32_t> seeds;
  std::vector<uint8_t> is_seed;
  bool has_residual_after = false;
  std::vector<double> residual_after;
  // A sparse class's last water fill, for a local one.
  SparseLocal sparse;
};

// Adds delta members to a cell of a dense state (both matrix copies and the line weights); with
// has_local, its row and column become seeds of the next local fill.
inline void AddToCell(ClassState& cs, size_t cell, int32_t delta) {
  const size_t row = cell / cs.cols, col = cs.rows + cell % cs.cols;
  const bool was_empty = cs.matrix[cell] == 0;
  cs.matrix[cell] += delta;
  if (was_empty != (cs.matrix[cell] == 0)) {
    const size_t c = col - cs.rows;
    cs.row_bits[row * cs.row_words + c / 64] ^= uint64_t{1} << (c % 64);
    cs.col_bits[c * cs.col_words + row / 64] ^= uint64_t{1} << (row % 64);
  }
  cs.matrix_t[(col - cs.rows) * cs.rows + row] += delta;
  cs.line_weight[row] += delta;
  cs.line_weight[col] += delta;
  if (cs.has_local) {
    for (size_t line : {row, col}) {
      if (!cs.is_seed[line]) {
        cs.is_seed[line] = 1;
        cs.seeds.push_back(static_cast<int32_t>(line));
      }
    }
  }
}

// Calls f(j) for every set bit j of a line's `words` words, in increasing order.
template <class F>
inline void ForEachBit(const uint64_t* words, size_t n_words, F&& f) {
  for (size_t w = 0; w < n_words; ++w) {
    for (uint64_t b = words[w]; b != 0; b &= b - 1) {
      f(w * 64 + static_cast<size_t>(std::countr_zero(b)));
    }
  }
}

// The non-empty cells of line i of a dense state (a row's columns, a column's rows), as
// ForEachBit calls them.
template <class F>
inline void ForEachMember(const ClassState& cs, size_t i, F&& f) {
  if (i < cs.rows) {
    ForEachBit(&cs.row_bits[i * cs.row_words], cs.row_words, f);
  } else {
    ForEachBit(&cs.col_bits[(i - cs.rows) * cs.col_words], cs.col_words, f);
  }
}

inline void SetCellGroup(ClassState& cs, size_t cell, int32_t g) {
  cs.cell_group[cell] = g;
  cs.cell_group_t[(cell % cs.cols) * cs.rows + cell / cs.cols] = g;
}

// The rows and columns of the dense matrices: every link that is first (a row) or second (a
// column) on some two-link path, numbered as they appeared. A new one changes the shape of
// every matrix, so each is rebuilt before its next fill.
struct DenseShape {
  explicit DenseShape(size_t links) : row_of(links, -1), col_of(links, -1) {}

  // True when every live group crosses exactly two links and no link is first on one path and
  // second on another, so a class can be held as a dense matrix; worth it for `groups` groups
  // only when the matrix has at most max_cells_per_group cells per group.
  bool TwoLinkShape(int live_groups) const { return !shared && two_link_groups == live_groups; }
  bool Fits(int live_groups, size_t groups, size_t max_cells_per_group) const {
    return groups >= kDenseMinGroups && TwoLinkShape(live_groups) &&
           row_link.size() * col_link.size() <= max_cells_per_group * groups;
  }

  // A dense class's lines are its rows, then its columns: the link of line i, the line of
  // link l, and the cell of a path's two links.
  LinkId LineLink(const ClassState& cs, size_t i) const {
    return i < cs.rows ? row_link[i] : col_link[i - cs.rows];
  }
  int32_t LineOf(const ClassState& cs, LinkId l) const {
    return row_of[l] >= 0 ? row_of[l] : static_cast<int32_t>(cs.rows) + col_of[l];
  }
  size_t CellOf(const ClassState& cs, const LinkId* links) const {
    return row_of[links[0]] * cs.cols + col_of[links[1]];
  }

  std::vector<int32_t> row_of, col_of;  // per link: its row or column, -1 = none
  std::vector<LinkId> row_link, col_link;
  int two_link_groups = 0;  // live groups whose path has exactly two links
  bool shared = false;      // some link is first on one two-link path, second on another
};

// 1/w for every member count w up to the largest asked for (entry 0 unused): a dense fill's
// charge is a multiply instead of a division, the hot spot of the fill.
class Reciprocals {
 public:
  void Grow(int64_t heaviest) {
    while (static_cast<int64_t>(of_.size()) <= heaviest) {
      of_.push_back(1.0 / static_cast<double>(of_.size()));
    }
  }
  double operator[](int64_t w) const { return of_[w]; }

 private:
  std::vector<double> of_;
};

}  // namespace slotflow::rates
